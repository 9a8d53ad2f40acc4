// Drives the VS Code workbench served by code-server with playwright-core and Debian's headless chromium: palette, Quick Open, editor cursor, Problems, views, tree rows, the play panel's webview, screenshots.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { chromiumPath, e2eOutputDir } from './paths.js';

/** The only flags chromium gets (besides playwright's own): headless, no sandbox (root in CI), nothing that phones home. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/**
 * Margin: how long a command may take to show up in the palette. A safety net, not a time limit: the palette
 * is retried until the command is listed and the wait ends as soon as it is.
 */
export const COMMAND_TIMEOUT_MS = 60_000;

/** Options of {@link Workbench.open}. */
export interface OpenOptions {
  /** Runs in the page before any of its scripts (e.g. to patch the workbench configuration). */
  readonly initScript?: () => void;
  /** Called with the page before it navigates (e.g. to expose functions to it). */
  readonly beforeNavigate?: (page: Page) => Promise<unknown>;
  /** Called with every console message of the page and its frames (type, text). */
  readonly onConsole?: (type: string, text: string) => void;
  /** Wait for the workbench to be ready (default true). */
  readonly waitUntilReady?: boolean;
}

/** One row of a tree view. */
export interface TreeRow {
  readonly label: string;
  readonly description: string;
  readonly ariaLabel: string;
  /** The row's nesting level (1 = top). */
  readonly level: number;
}

/** A console error or uncaught error of the page or one of its frames. */
export interface ConsoleError {
  readonly text: string;
  /** The script or document it came from ('' when unknown). */
  readonly url: string;
}

/** A browser (fresh profile) showing one workbench page. */
export class Workbench {
  /** Every console error and uncaught page error, in order. */
  readonly consoleErrors: ConsoleError[] = [];

  private constructor(
    readonly page: Page,
    private readonly context: BrowserContext,
    private readonly profileDir: string,
  ) {}

  /** Launches chromium with a fresh profile and opens `url` (a workbench URL). */
  static async open(url: string, options: OpenOptions = {}): Promise<Workbench> {
    const profileDir = mkdtempSync(path.join(os.tmpdir(), 'narratoria-e2e-chromium-'));
    let context: BrowserContext;
    try {
      context = await chromium.launchPersistentContext(profileDir, {
        executablePath: chromiumPath,
        headless: true,
        args: [...CHROMIUM_FLAGS],
        viewport: { width: 1280, height: 800 },
      });
    } catch (error) {
      rmSync(profileDir, { recursive: true, force: true });
      throw error;
    }
    // Margin: waits and actions without their own timeout get 60 s instead of Playwright's 30 s. They wait for
    // conditions, so this only matters on a loaded machine, and a stuck workbench still fails.
    context.setDefaultTimeout(60_000);
    const page = context.pages()[0] ?? (await context.newPage());
    const workbench = new Workbench(page, context, profileDir);
    page.on('console', (message) => {
      if (message.type() === 'error') workbench.consoleErrors.push({ text: message.text(), url: message.location().url });
      options.onConsole?.(message.type(), message.text());
    });
    page.on('pageerror', (error) => workbench.consoleErrors.push({ text: `uncaught: ${error.stack ?? error.message}`, url: '' }));
    try {
      if (options.initScript) await page.addInitScript(options.initScript);
      await options.beforeNavigate?.(page);
      await page.goto(url);
      if (options.waitUntilReady ?? true) await workbench.waitUntilReady();
    } catch (error) {
      await workbench.close();
      throw error;
    }
    return workbench;
  }

  /**
   * Waits for the workbench DOM and its status bar. Margin: 120 s is a safety net (a first start after a fresh
   * clone on a loaded 2-core machine is slow); the wait ends as soon as the workbench is there.
   */
  async waitUntilReady(timeout = 120_000): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout });
    await this.page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout });
    // The extension host has started once the activity bar shows the extensions' view containers.
    await this.page.locator('.monaco-workbench .part.activitybar, .monaco-workbench .composite-bar').first().waitFor({ timeout });
  }

  /** Runs a command through the F1 palette by its full title ("Narratoria: Open Play Panel") and waits for the palette to close. */
  async runCommand(title: string, timeout = COMMAND_TIMEOUT_MS): Promise<void> {
    await this.pickCommand(title, timeout);
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
  }

  /**
   * Picks a command in the F1 palette without waiting for the palette to close (for commands that answer
   * with a quick pick of their own). Retries until the command is listed: an extension's commands show up
   * once the extension host has read the manifests and set the context keys of their `when` clauses, which
   * after a fresh clone on a loaded machine took longer than the old 20 s (a CI failure): the deadline is now a
   * 60 s safety net (see COMMAND_TIMEOUT_MS), and each attempt still ends as soon as the row is listed.
   */
  async pickCommand(title: string, timeout = COMMAND_TIMEOUT_MS): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    const deadline = Date.now() + timeout;
    for (;;) {
      await this.page.keyboard.press('Escape');
      // Focus back on the workbench document (not a webview iframe, not a widget) without clicking anything.
      await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await this.page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 30_000 });
      await input.fill(`>${title}`);
      try {
        await row.waitFor({ timeout: Math.min(5_000, Math.max(500, deadline - Date.now())) });
        break;
      } catch (error) {
        if (Date.now() >= deadline) throw new Error(`the command palette has no "${title}"`, { cause: error });
      }
    }
    await row.click();
  }

  /**
   * Opens a file of the workspace through Quick Open (Ctrl+P) by its name and waits until its editor is the
   * active one. Retries until Quick Open lists the file (the file search may still be starting); the deadline
   * is a safety net (see COMMAND_TIMEOUT_MS) and each attempt ends as soon as the row is listed.
   */
  async openFile(name: string, timeout = COMMAND_TIMEOUT_MS): Promise<Locator> {
    const input = this.page.locator('.quick-input-widget input');
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
    const deadline = Date.now() + timeout;
    for (;;) {
      await this.page.keyboard.press('Escape');
      await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await this.page.keyboard.press('Control+P');
      await input.waitFor({ state: 'visible', timeout: 30_000 });
      await input.fill(name);
      try {
        await row.waitFor({ timeout: Math.min(5_000, Math.max(500, deadline - Date.now())) });
        break;
      } catch (error) {
        if (Date.now() >= deadline) throw new Error(`Quick Open does not list "${name}"`, { cause: error });
      }
    }
    await row.click();
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
    await this.page.locator('.part.editor .tab.active', { hasText: name }).waitFor({ timeout });
    const editor = this.activeEditor();
    await editor.locator('.view-lines').waitFor({ timeout });
    return editor;
  }

  /** The Monaco editor of the active editor group. */
  activeEditor(): Locator {
    return this.page.locator('.part.editor .editor-group-container.active .editor-instance .monaco-editor').first();
  }

  /**
   * Puts the cursor of the active editor at a 1-based line and column through "Go to Line/Column" (Ctrl+G),
   * and waits until the status bar shows it there. Margin: the timeout is a safety net for each of those waits.
   */
  async goToPosition(line: number, column: number, timeout = 30_000): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Control+G');
    await input.waitFor({ state: 'visible', timeout });
    await input.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout });
    await this.page
      .locator('.part.statusbar .statusbar-item', { hasText: new RegExp(`^\\s*Ln ${line}, Col ${column}\\b`) })
      .first()
      .waitFor({ timeout });
  }

  /** Shows the Problems panel (Ctrl+Shift+M) and returns it. Margin: the timeout is a safety net, not a time limit. */
  async showProblems(timeout = 30_000): Promise<Locator> {
    const panel = this.page.locator('.markers-panel');
    if (!(await panel.isVisible())) await this.page.keyboard.press('Control+Shift+M');
    await panel.waitFor({ timeout });
    return panel;
  }

  /** The texts of the rows of the Problems panel in sight (file rows and problem rows). */
  async problemRows(): Promise<string[]> {
    return (await this.page.locator('.markers-panel .monaco-list-row').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
  }

  /** Shows the Narratoria view container (activity bar) and returns its Skills pane. */
  async openNarratoriaView(timeout = 60_000): Promise<Locator> {
    const pane = this.viewPane('Skills');
    if (!(await pane.isVisible())) {
      await this.page
        .locator('.part.activitybar .action-item a.action-label[aria-label^="Narratoria"], .part.activitybar .action-item [aria-label^="Narratoria"]')
        .first()
        .click({ timeout });
    }
    await pane.waitFor({ timeout });
    return pane;
  }

  /** The view pane titled `title` in the side bar. */
  viewPane(title: string): Locator {
    return this.page.locator('.part.sidebar .pane', {
      has: this.page.locator('.pane-header h3.title', { hasText: new RegExp(`^${escapeRegExp(title)}$`, 'i') }),
    });
  }

  /**
   * The visible rows of the tree in the view pane titled `title`. Read in one evaluation, so a tree that
   * re-renders meanwhile cannot leave a row half-read or make a read wait for a row that is gone.
   */
  async treeRows(title = 'Skills'): Promise<TreeRow[]> {
    return this.viewPane(title)
      .locator('.pane-body .monaco-list-row')
      .evaluateAll((rows) =>
        rows.map((row) => ({
          label: (row.querySelector('.label-name')?.textContent ?? '').trim(),
          description: (row.querySelector('.label-description')?.textContent ?? '').trim(),
          ariaLabel: row.getAttribute('aria-label') ?? '',
          level: Number(row.getAttribute('aria-level') ?? '1'),
        })),
      );
  }

  /**
   * Waits until the rows of the tree in view `title` satisfy `predicate`, and returns them. A poll (every
   * 250 ms) for a condition; the deadline is a 60 s safety net, not a time limit.
   */
  async waitForTreeRows(predicate: (rows: TreeRow[]) => boolean, title = 'Skills', timeout = 60_000): Promise<TreeRow[]> {
    const deadline = Date.now() + timeout;
    let rows: TreeRow[] = [];
    while (Date.now() < deadline) {
      rows = await this.treeRows(title).catch(() => []);
      if (predicate(rows)) return rows;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`the ${title} tree never matched; rows: ${JSON.stringify(rows)}`);
  }

  /** The content of the (first) webview panel: code-server nests it in two iframes. */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready').first().frameLocator('iframe#active-frame');
  }

  /** An element of the play panel by its `data-testid`. */
  byTestId(testId: string): Locator {
    return this.webview().locator(`[data-testid="${testId}"]`);
  }

  /** Console errors that came from webviews (their host page or their content). */
  webviewErrors(): ConsoleError[] {
    return this.consoleErrors.filter((error) => /\/webview\/|vscode-webview|vscode-resource/.test(error.url));
  }

  /** Whether the workbench says it is in Restricted Mode (an untrusted workspace). */
  async isRestrictedMode(): Promise<boolean> {
    return this.page.locator('.part.statusbar .statusbar-item', { hasText: 'Restricted Mode' }).first().isVisible();
  }

  /** Saves a screenshot of the whole page as `test-output/e2e/<name>.png` and returns its path. */
  async screenshot(name: string): Promise<string> {
    mkdirSync(e2eOutputDir, { recursive: true });
    const file = path.join(e2eOutputDir, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /** Closes the browser and removes its profile. */
  async close(): Promise<void> {
    try {
      await this.context.close();
    } finally {
      rmSync(this.profileDir, { recursive: true, force: true });
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
