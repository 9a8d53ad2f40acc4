// The Run and Debug view in code-server, for the debugger's end-to-end scenarios: Call Stack and Variables rows, gutter breakpoints, the Debug Console, starting and stopping a session, a layout for screenshots.
import * as assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { UI_TIMEOUT_MS, waitFor } from './scenario.js';
import type { Workbench } from './workbench.js';

/** Margin: a safety net for a live run to reach its breakpoint (a real script in code-server's extension host on a loaded machine). */
export const STOP_TIMEOUT_MS = 60_000;

/** One row of a debug view's tree (Variables, Call Stack): its accessible label and whether it is expanded (null: a leaf). */
export interface DebugRow {
  readonly ariaLabel: string;
  readonly level: number;
  readonly expanded: boolean | null;
}

/** The rows of the tree in the side bar's view `title`, read in one evaluation. */
export async function debugRows(workbench: Workbench, title: string): Promise<DebugRow[]> {
  return workbench
    .viewPane(title)
    .locator('.pane-body .monaco-list-row')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const expanded = row.getAttribute('aria-expanded');
        return {
          ariaLabel: row.getAttribute('aria-label') ?? '',
          level: Number(row.getAttribute('aria-level') ?? '1'),
          expanded: expanded === null ? null : expanded === 'true',
        };
      }),
    )
    .catch(() => []);
}

export function callStackRows(workbench: Workbench): Promise<DebugRow[]> {
  return debugRows(workbench, 'Call Stack');
}

/**
 * Waits until the top stack frame of the Call Stack view matches `frame` (its accessible label, "Stack Frame
 * <name>, line <n>, <file>") and returns that label. A paused thread shown collapsed gets expanded: VS Code
 * expands the stopped thread, but not one that started just before it stopped (a tool's thread), whose row
 * it has not drawn yet. A poll for a condition; the deadline is a safety net for a live run to get there.
 */
export async function waitForTopFrame(workbench: Workbench, frame: RegExp): Promise<string> {
  let top = '';
  await waitFor(
    async () => {
      const rows = await callStackRows(workbench);
      const collapsed = rows.find((row) => /^Thread .* Paused on /.test(row.ariaLabel) && row.expanded === false);
      if (collapsed) {
        await workbench
          .viewPane('Call Stack')
          .locator(`.monaco-list-row[aria-label="${collapsed.ariaLabel}"] .monaco-tl-twistie`)
          .first()
          .click()
          .catch(() => undefined);
        return false;
      }
      top = rows.find((row) => row.ariaLabel.startsWith('Stack Frame '))?.ariaLabel ?? '';
      return frame.test(top);
    },
    STOP_TIMEOUT_MS,
    `the top stack frame matches ${frame} (it is "${top}")`,
  ).catch(() => assert.fail(`the top stack frame never matched ${frame}; the Call Stack shows:\n  ${top || '(no frame)'}`));
  return top;
}

/**
 * Expands the rows named by `path` in the Variables view (a scope's label, then variable names below it),
 * waits until the last one shows the children named in `wanted`, and returns the values of its children.
 */
export async function expandVariables(workbench: Workbench, path: readonly string[], wanted: readonly string[]): Promise<Map<string, string>> {
  let children = new Map<string, string>();
  await waitFor(
    async () => {
      const rows = await debugRows(workbench, 'Variables');
      let index = -1;
      let level = 0;
      for (const name of path) {
        const next = rows.findIndex((row, at) => at > index && row.level === level + 1 && nameOf(row.ariaLabel) === name);
        if (next < 0) return false;
        index = next;
        level += 1;
        if (rows[index]!.expanded === false) {
          await workbench
            .viewPane('Variables')
            .locator('.pane-body .monaco-list-row')
            .nth(index)
            .locator('.monaco-tl-twistie')
            .click()
            .catch(() => undefined);
          return false;
        }
      }
      children = new Map();
      for (let at = index + 1; at < rows.length && rows[at]!.level > level; at++) {
        if (rows[at]!.level === level + 1) children.set(nameOf(rows[at]!.ariaLabel), valueOf(rows[at]!.ariaLabel));
      }
      return wanted.every((name) => children.has(name));
    },
    UI_TIMEOUT_MS,
    `the Variables view shows ${path.join(' › ')} with ${wanted.join(', ')}`,
  ).catch(() => assert.fail(`the Variables view never showed ${path.join(' › ')} with ${wanted.join(', ')}; it shows ${JSON.stringify([...children])}`));
  return children;
}

/** The names of a scope's children (the scope expanded first). */
export async function scopeChildren(workbench: Workbench, scope: string): Promise<string[]> {
  const rows = await debugRows(workbench, 'Variables');
  const index = rows.findIndex((row) => row.level === 1 && row.ariaLabel === `Scope ${scope}`);
  assert.ok(index >= 0 && rows[index]!.expanded === true, `the ${scope} scope is shown expanded`);
  const names: string[] = [];
  for (let at = index + 1; at < rows.length && rows[at]!.level > 1; at++) if (rows[at]!.level === 2) names.push(nameOf(rows[at]!.ariaLabel));
  return names;
}

/** A Variables row's name: "Scope State" → "Scope State", "total, value 6" → "total". */
function nameOf(ariaLabel: string): string {
  return ariaLabel.startsWith('Scope ') ? ariaLabel : ariaLabel.replace(/, value [\s\S]*$/, '');
}

function valueOf(ariaLabel: string): string {
  return /, value ([\s\S]*)$/.exec(ariaLabel)?.[1] ?? '';
}

/**
 * Sets a breakpoint by clicking the glyph margin of the active plan editor beside `line`, and waits until the
 * breakpoint's glyph shows on that line. The plan's code lens (Run Plan | Debug Plan) is waited for first: it
 * pushes the lines below it down when it appears, which would move the click to another line.
 */
export async function setGutterBreakpoint(workbench: Workbench, line: number): Promise<void> {
  const editor = workbench.activeEditor();
  await editor.locator('.codelens-decoration a', { hasText: 'Debug Plan' }).first().waitFor({ timeout: UI_TIMEOUT_MS });
  await workbench.goToPosition(line, 1);
  const lineNumber = editor.locator('.margin-view-overlays .line-numbers', { hasText: new RegExp(`^\\s*${line}\\s*$`) }).first();
  await lineNumber.waitFor({ timeout: UI_TIMEOUT_MS });
  const numberBox = (await lineNumber.boundingBox()) ?? assert.fail(`line ${line} has no line number in sight`);
  const glyphBox = (await editor.locator('.margin .glyph-margin').first().boundingBox()) ?? assert.fail('the editor has no glyph margin');
  await workbench.page.mouse.click(glyphBox.x + glyphBox.width / 2, numberBox.y + numberBox.height / 2);
  let lines: number[] = [];
  await waitFor(async () => (lines = await decoratedLines(editor, 'codicon-debug-breakpoint')).length > 0, UI_TIMEOUT_MS, `a breakpoint shows in the gutter`);
  assert.deepEqual(lines, [line], `the gutter click set a breakpoint on line ${line}`);
  await park(workbench);
}

/** The line numbers beside the elements of class `className` in an editor (decorations, glyphs), by their position on the page. */
export function decoratedLines(editor: Locator, className: string): Promise<number[]> {
  return editor
    .evaluate((root, name) => {
      const numbers = Array.from(root.querySelectorAll('.margin-view-overlays .line-numbers'), (element) => ({
        line: Number(element.textContent),
        rect: element.getBoundingClientRect(),
      }));
      return Array.from(root.getElementsByClassName(name)).flatMap((element) => {
        const rect = element.getBoundingClientRect();
        const middle = rect.top + rect.height / 2;
        const found = numbers.find((number) => middle >= number.rect.top && middle < number.rect.bottom);
        return found ? [found.line] : [];
      });
    }, className)
    .catch(() => []);
}

/** The text an editor shows on `line` (in sight). */
function lineText(editor: Locator, line: number): Promise<string> {
  return editor
    .evaluate((root, wanted) => {
      const number = Array.from(root.querySelectorAll('.margin-view-overlays .line-numbers')).find((element) => Number(element.textContent) === wanted);
      if (!number) return '';
      const rect = number.getBoundingClientRect();
      const middle = rect.top + rect.height / 2;
      const view = Array.from(root.querySelectorAll('.view-lines .view-line')).find((element) => {
        const box = element.getBoundingClientRect();
        return middle >= box.top && middle < box.bottom;
      });
      return (view?.textContent ?? '').replace(/\u00a0/g, ' ');
    }, line)
    .catch(() => '');
}

/** Waits until the editor's highlighted (stopped) line is `line` and shows text matching `text`. */
export async function waitForHighlightedLine(editor: Locator, line: number, text: RegExp): Promise<void> {
  let seen = { lines: [] as number[], text: '' };
  await waitFor(
    async () => {
      seen = { lines: await decoratedLines(editor, 'debug-top-stack-frame-line'), text: await lineText(editor, line) };
      return seen.lines.length === 1 && seen.lines[0] === line && text.test(seen.text);
    },
    UI_TIMEOUT_MS,
    `line ${line} is highlighted and shows ${text}`,
  ).catch(() => assert.fail(`expected line ${line} highlighted, showing ${text}; highlighted: [${seen.lines.join(', ')}], line ${line} shows "${seen.text}"`));
}

/** Waits until the status bar has an item with exactly `text` (e.g. the cursor and selection). */
export async function waitForStatus(workbench: Workbench, text: string): Promise<void> {
  await workbench.page
    .locator('.part.statusbar .statusbar-item', { hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) })
    .first()
    .waitFor({ timeout: UI_TIMEOUT_MS });
}

/** Waits until the Debug Console shows text matching `pattern`; returns what it shows. */
export async function waitForDebugConsole(workbench: Workbench, pattern: RegExp): Promise<string> {
  let text = '';
  await waitFor(
    async () =>
      pattern.test(
        (text = (
          await workbench.page
            .locator('.part.panel .repl .monaco-list-rows')
            .first()
            .innerText()
            .catch(() => '')
        ).replace(/\u00a0/g, ' ')),
      ),
    UI_TIMEOUT_MS,
    `the Debug Console shows ${pattern}`,
  ).catch(() => assert.fail(`the Debug Console never showed ${pattern}; it shows:\n${text}`));
  return text;
}

/**
 * Margin: how long F5 has to show the debug toolbar before the scenario starts the session from the command palette
 * instead. Once (C5, on a quiet machine) F5 reached no part of the workbench: no session started, and nothing was
 * logged, in 60 s. The toolbar shows as soon as a session starts, before its adapter runs.
 */
const F5_GRACE_MS = 15_000;

/** F5, and waits for the debug toolbar; Debug: Start Debugging from the command palette when F5 started nothing. */
export async function startDebugging(workbench: Workbench): Promise<void> {
  await park(workbench);
  await workbench.page.keyboard.press('F5');
  const toolbar = workbench.page.locator('.debug-toolbar');
  const shown = await toolbar.waitFor({ timeout: F5_GRACE_MS }).then(
    () => true,
    () => false,
  );
  if (shown) return;
  console.log(`[e2e] F5 started no debug session in ${F5_GRACE_MS / 1000} s: starting it with Debug: Start Debugging`);
  await workbench.runCommand('Debug: Start Debugging');
  await toolbar.waitFor({ timeout: STOP_TIMEOUT_MS });
}

/** Shift+F5 (Stop), and waits until the debug toolbar is gone. */
export async function stopDebugging(workbench: Workbench): Promise<void> {
  await workbench.page.keyboard.press('Shift+F5');
  await workbench.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
}

/** Shows the Run and Debug view and waits until its launch configuration picker shows `name` (launch.json is read). */
export async function selectLaunchConfiguration(workbench: Workbench, name: string): Promise<void> {
  const picker = workbench.page.locator('.part.sidebar .start-debug-action-item', { hasText: name }).first();
  if (!(await picker.isVisible())) await workbench.runCommand('View: Show Run and Debug');
  await picker.waitFor({ timeout: UI_TIMEOUT_MS });
}

/**
 * Moves the mouse to the empty part of the activity bar, so no hover (a toolbar button's tooltip, a
 * variable's value) covers what a screenshot shows, and waits until no hover is shown.
 */
export async function park(workbench: Workbench): Promise<void> {
  await workbench.page.mouse.move(24, 500);
  await workbench.page.locator('.workbench-hover').first().waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
}

/**
 * Gives the Run and Debug view room for readable screenshots and for the Variables rows the scenarios read (a
 * tree draws only the rows in sight): a wider side bar, the Watch view collapsed and a taller Variables view
 * (their sashes dragged). Layout only: the scenarios wait for the rows they read, whatever the sizes.
 */
export async function arrangeDebugView(workbench: Workbench): Promise<void> {
  const page = workbench.page;
  const drag = async (from: { x: number; y: number }, to: { x: number; y: number }) => {
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
    await page.mouse.move(to.x, to.y, { steps: 5 });
    await page.mouse.up();
  };
  const sideBar = await page.locator('.monaco-sash.vertical.primary-sidebar-sash').first().boundingBox();
  if (sideBar && sideBar.x < 440) await drag({ x: sideBar.x + sideBar.width / 2, y: 400 }, { x: 440, y: 400 });
  const watch = workbench.viewPane('Watch').locator('.pane-header').first();
  if ((await watch.getAttribute('aria-expanded').catch(() => null)) === 'true') {
    await watch.click();
    await workbench.viewPane('Watch').locator('.pane-header[aria-expanded="false"]').first().waitFor({ timeout: UI_TIMEOUT_MS });
  }
  const variables = await workbench.viewPane('Variables').boundingBox();
  if (variables && variables.y + variables.height < 460) {
    const bottom = variables.y + variables.height;
    const sashes = await page
      .locator('.part.sidebar .monaco-sash.horizontal')
      .evaluateAll((elements) =>
        elements.map((element) => element.getBoundingClientRect()).map((rect) => ({ x: rect.x, y: rect.y, width: rect.width, height: rect.height })),
      );
    const sash = sashes.find((rect) => Math.abs(rect.y + rect.height / 2 - bottom) <= 6);
    if (sash) await drag({ x: sash.x + 150, y: sash.y + sash.height / 2 }, { x: sash.x + 150, y: 460 });
  }
  await park(workbench);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
