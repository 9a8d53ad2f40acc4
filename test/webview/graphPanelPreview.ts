// Preview harness for the plan graph webview: the extension's own page shell (previewShell.ts) on 127.0.0.1 with VS Code theme variables and a fake acquireVsCodeApi, in Debian's headless Chromium.
import type { Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FromGraphWebview, ToGraphWebview } from '../../src/protocol/graphPanelMessages.js';
import {
  closeServer,
  launchPreviewBrowser,
  previewPage,
  previewPageHtml,
  requireBundles,
  startPreviewServer,
  waitForReady,
  watchPageErrors,
  type PreviewPage,
} from './previewShell.js';
import type { PreviewTheme } from './vscodeThemes.js';

export { projectRoot, screenshotDir } from './previewShell.js';

export interface GraphPreviewOptions {
  readonly theme?: PreviewTheme;
  readonly width?: number;
  readonly height?: number;
  /** What `getState()` returns at load (a panel revived after a reload). */
  readonly savedState?: unknown;
  /**
   * The shell's `blobImages` option (`img-src … blob:`), which the PNG export needs (the SVG is drawn into a canvas
   * through an image) and the graph panel sets. Default true; false shows what happens without it.
   */
  readonly blobImages?: boolean;
}

/** One graph page: send it extension messages, read what it posted and saved. */
export type GraphPreviewPage = PreviewPage<ToGraphWebview, FromGraphWebview>;

/** A browser plus a tiny HTTP server; `close()` stops both. */
export class GraphPanelPreview {
  private nextStateId = 0;
  private readonly pages: Page[] = [];

  private constructor(
    private readonly savedStates: Map<string, unknown>,
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<GraphPanelPreview> {
    requireBundles('graph.js', 'graph.css', 'codicon.css', 'codicon.ttf');
    const savedStates = new Map<string, unknown>();
    const { server, origin } = await startPreviewServer((url, pageOrigin) => {
      if (url.pathname !== '/panel.html') return undefined;
      const stateId = url.searchParams.get('state');
      const theme = (url.searchParams.get('theme') ?? 'dark') as PreviewTheme;
      const shell = { title: 'Plan Graph', stylesheet: 'graph.css', script: 'graph.js', rootId: 'app', blobImages: url.searchParams.get('blob') !== 'false' };
      return { type: 'text/html; charset=utf-8', body: previewPageHtml(pageOrigin, theme, shell, stateId === null ? undefined : savedStates.get(stateId)) };
    });
    try {
      const { browser, context } = await launchPreviewBrowser();
      return new GraphPanelPreview(savedStates, browser, context, server, origin);
    } catch (error) {
      await closeServer(server);
      throw error;
    }
  }

  /** Opens the view in a fresh page (its own getState/setState); pages opened earlier are closed. */
  async open(options: GraphPreviewOptions = {}): Promise<GraphPreviewPage> {
    for (const old of this.pages.splice(0)) await old.close().catch(() => undefined);
    const page = await this.context.newPage();
    this.pages.push(page);
    const errors = watchPageErrors(page);
    await page.setViewportSize({ width: options.width ?? 1200, height: options.height ?? 760 });
    const query = new URLSearchParams({ theme: options.theme ?? 'dark', blob: String(options.blobImages ?? true) });
    if (options.savedState !== undefined) {
      const id = String((this.nextStateId += 1));
      this.savedStates.set(id, options.savedState);
      query.set('state', id);
    }
    await page.goto(`${this.origin}/panel.html?${query.toString()}`, { waitUntil: 'load' });
    // Deterministic: the view posts `ready` synchronously while its script runs, before the load event.
    await waitForReady(page);
    return previewPage(page, errors);
  }

  /**
   * Parses `text` with DOMParser in a blank page of its own: a page under the view's CSP would report the
   * exported SVG's `<style>` and style attributes as violations (DOMParser documents inherit the policy).
   */
  async parseXml(text: string): Promise<{ error: string | null; root: string; titles: string[]; failed: number }> {
    const page = await this.context.newPage();
    try {
      return await page.evaluate((svg) => {
        const parsed = new DOMParser().parseFromString(svg, 'image/svg+xml');
        return {
          error: parsed.querySelector('parsererror')?.textContent ?? null,
          root: parsed.documentElement.localName,
          titles: [...parsed.querySelectorAll('.node .title')].map((title) => title.textContent ?? ''),
          failed: parsed.querySelectorAll('.node.state-failed').length,
        };
      }, text);
    } finally {
      await page.close();
    }
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await this.browser.close().catch(() => undefined);
    await closeServer(this.server);
  }
}
