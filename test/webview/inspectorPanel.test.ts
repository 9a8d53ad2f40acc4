// The Inspector webview in headless Chromium: strict CSP holds, 200,000 rows (and stderr) keep a bounded DOM, keyboard selection, filters, the verdict card, light and dark themes.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { InspectorRow, ToInspectorWebview, VerdictCard } from '../../src/protocol/inspectorMessages.js';
import { contrastRatio } from './graphPanelTestKit.js';
import { projectRoot } from './previewShell.js';
import { InspectorPanelPreview, inspectorScreenshotDir, type InspectorPreviewPage } from './inspectorPanelPreview.js';

let preview: InspectorPanelPreview;
before(async () => (preview = await InspectorPanelPreview.start()));
after(async () => preview?.close());

const subject = { title: 'faults/mixed.js', source: 'live' as const, input: '{"subject":"the lighthouse"}', canRun: true };

/** A small run: events, one invalid line, one unknown type, a line after done. */
function sampleRows(): InspectorRow[] {
  const event = (
    lineNumber: number,
    elapsedMs: number,
    type: InspectorRow['type'],
    summary: string,
    value: object,
    extra: Partial<InspectorRow> = {},
  ): InspectorRow => ({
    index: lineNumber - 1,
    lineNumber,
    elapsedMs,
    status: 'event',
    type,
    mark: 'ok',
    summary,
    text: JSON.stringify(value),
    event: value as NonNullable<InspectorRow['event']>,
    ...extra,
  });
  return [
    event(1, 3, 'log', 'info: looking at the lighthouse', { version: '0', type: 'log', level: 'info', message: 'looking at the lighthouse' }),
    event(
      2,
      12,
      'state_patch',
      'patch weather',
      { version: '0', type: 'state_patch', patch: { weather: 'fog' } },
      { state: { after: { weather: 'fog' }, changed: ['weather'] } },
    ),
    {
      index: 2,
      lineNumber: 3,
      elapsedMs: 15,
      status: 'invalid_json',
      type: 'invalid',
      mark: 'error',
      summary: `stdout line 3 is not valid JSON: Unexpected token 'o', "oh no, not JSON" is not valid JSON`,
      text: 'oh no, not JSON',
      problem: `stdout line 3 is not valid JSON: Unexpected token 'o', "oh no, not JSON" is not valid JSON`,
    },
    {
      index: 3,
      lineNumber: 4,
      elapsedMs: 21,
      status: 'unknown_type',
      type: 'invalid',
      mark: 'error',
      summary: 'stdout line 4: unknown event type "stat_patch" (did you mean "state_patch"?)',
      text: '{"version":"0","type":"stat_patch"}',
      problem: 'stdout line 4: unknown event type "stat_patch" (did you mean "state_patch"?)',
    },
    event(5, 40, 'done', 'ok: the fog rolls in', { version: '0', type: 'done', ok: true, summary: 'the fog rolls in' }),
    {
      index: 5,
      lineNumber: 6,
      elapsedMs: 41,
      status: 'after_done',
      type: 'ignored',
      mark: 'warning',
      summary: 'came after "done" and was ignored',
      text: '{"version":"0","type":"log","level":"info","message":"late"}',
      problem: 'came after "done" and was ignored',
    },
  ];
}

const verdict: VerdictCard = {
  ok: false,
  message: `stdout line 3 is not valid JSON: Unexpected token 'o', "oh no, not JSON" is not valid JSON`,
  exitCode: 0,
  signal: null,
  timedOut: false,
  done: { ok: true, summary: 'the fog rolls in' },
  durationMs: 43,
  category: 'invalid_json',
  code: 'INVALID_JSON',
  retryable: true,
  lineCount: 6,
  droppedRows: 0,
};

async function openSample(theme: 'dark' | 'light' = 'dark'): Promise<InspectorPreviewPage> {
  const panel = await preview.open(theme);
  const messages: ToInspectorWebview[] = [
    { type: 'reset', subject, running: true },
    { type: 'rows', rows: sampleRows(), droppedRows: 0 },
    { type: 'stderr', chunks: [{ elapsedMs: 14, text: 'warning: the fog machine is low on fluid\n' }] },
    { type: 'verdict', verdict },
  ];
  await panel.send(...messages);
  return panel;
}

async function assertClean(panel: InspectorPreviewPage): Promise<void> {
  assert.deepEqual(await panel.problems(), [], 'no CSP violations, page errors or console errors');
  const inline = await panel.page.evaluate(() => [
    ...[...document.querySelectorAll('*')].flatMap((element) =>
      [...element.attributes].filter((attribute) => /^on/i.test(attribute.name)).map((attribute) => `${element.tagName}[${attribute.name}]`),
    ),
    ...[...document.querySelectorAll('style')].map(() => '<style>'),
  ]);
  assert.deepEqual(inline, []);
  assert.deepEqual(
    (await panel.posted()).filter((message) => message.type === 'viewError'),
    [],
  );
}

test('the sample run: rows with their marks, stderr, the verdict card, a clean CSP; screenshot', async () => {
  const panel = await openSample();
  const page = panel.page;
  // The stderr line (14 ms) sits between the patch (12 ms) and the invalid line (15 ms), with no verdict.
  assert.deepEqual(await page.locator('.row-spacer .row:not([hidden]) .cell.mark').allTextContents(), ['✔', '✔', '', '✖', '✖', '✔', '⚠']);
  assert.match(await page.locator('.verdict-card').innerText(), /invalid_json[\s\S]*would be retried/);
  assert.match(await page.locator('.row.stderr .cell.summary').innerText(), /fog machine/);
  assert.match(await page.locator('.stderr-summary').innerText(), /stderr: 1 line in the table/);
  await page.locator('.row-table').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.match(await page.locator('.detail-pane').innerText(), /State after this patch · changed: weather/);
  await panel.screenshot(path.join(projectRoot, 'docs', 'images', 'inspector.png'));
  await assertClean(panel);
});

test('keyboard: arrows, Home and End move the selection; the detail pane follows and the host hears of it', async () => {
  const panel = await openSample();
  const page = panel.page;
  await page.locator('.row-table').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.locator('.row.selected').getAttribute('data-stderr-line'), '0', 'the stderr line is selectable');
  assert.match(await page.locator('.detail-pane').innerText(), /stderr line 1 · \+0\.014 s[\s\S]*fog machine is low on fluid/);
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.locator('.row.selected').getAttribute('data-index'), '2');
  assert.match(await page.locator('.detail-pane').innerText(), /oh no, not JSON/);
  assert.equal(await page.locator('.detail-pane mark.error-at').textContent(), 'o', 'the character where JSON parsing stopped is marked');
  assert.equal(await page.locator('.row-table').getAttribute('aria-activedescendant'), 'inspector-selected-row');
  await page.keyboard.press('End');
  assert.equal(await page.locator('.row.selected').getAttribute('data-index'), '5');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.locator('.row.selected').getAttribute('data-index'), '4');
  await page.keyboard.press('Home');
  assert.equal(await page.locator('.row.selected').getAttribute('data-index'), '0');
  const selections = (await panel.posted()).filter((message) => message.type === 'selectRow');
  assert.deepEqual(selections.at(-1), { type: 'selectRow', index: 0 });
  await assertClean(panel);
});

test('filters: by verdict, by type and by text', async () => {
  const panel = await openSample();
  const page = panel.page;
  const shownLines = () => page.locator('.row-spacer .row:not([hidden]) .cell.line').allTextContents();
  await page.getByLabel('Filter by verdict').selectOption('error');
  assert.deepEqual(await shownLines(), ['3', '4']);
  await page.getByLabel('Filter by verdict').selectOption('problems');
  assert.deepEqual(await shownLines(), ['3', '4', '6']);
  await page.getByLabel('Filter by verdict').selectOption('all');
  await page.getByLabel('Filter by event type').selectOption('state_patch');
  assert.deepEqual(await shownLines(), ['2']);
  await page.getByLabel('Filter by event type').selectOption('all');
  await page.getByLabel('Search the lines').fill('LIGHTHOUSE');
  assert.deepEqual(await shownLines(), ['1']);
  assert.match(await page.locator('.counts').innerText(), /1 of 7 lines/);
  assert.deepEqual(await panel.savedState(), { filter: { type: 'all', mark: 'all', text: 'LIGHTHOUSE' } }, 'the filters are kept as UI state');
  await assertClean(panel);
});

test('200,000 rows and 25,000 stderr lines: the DOM holds only the visible rows, stderr is capped and interleaved by time', async () => {
  const panel = await preview.open('dark');
  const page = panel.page;
  await panel.send({ type: 'reset', subject, running: true });
  // Built in the page and posted as a live run arrives: each moment's stderr first, then its stdout batch (10,000 rows).
  // stderr: 2,500 chunks of 10 lines, one chunk every 80 ms from 40 ms; the cap keeps the first 20,000 lines.
  await page.evaluate(`new Promise((resolve) => {
    const total = 200000, batch = 10000;
    let chunk = 0;
    for (let start = 0; start < total; start += batch) {
      const chunks = [];
      for (; chunk < 2500 && 40 + chunk * 80 < start + batch; chunk++) {
        chunks.push({ elapsedMs: 40 + chunk * 80, text: Array.from({ length: 10 }, (_, line) => 'stderr ' + chunk + '.' + line + '\\n').join('') });
      }
      window.postMessage({ type: 'stderr', chunks }, '*');
      const rows = [];
      for (let index = start; index < start + batch; index++) {
        const bad = index % 997 === 0;
        rows.push({ index, lineNumber: index + 1, elapsedMs: index, status: bad ? 'invalid_json' : 'event', type: bad ? 'invalid' : 'log', mark: bad ? 'error' : 'ok',
          summary: bad ? 'not JSON' : 'info: line ' + index, text: bad ? 'garbage' : '{"version":"0","type":"log","level":"info","message":"line ' + index + '"}' });
      }
      window.postMessage({ type: 'rows', rows, droppedRows: 0 }, '*');
    }
    window.postMessage({ type: 'verdict', verdict: ${JSON.stringify({ ...verdict, lineCount: 200_000 })} }, '*');
    setTimeout(resolve, 0);
  })`);
  await page.waitForFunction(() => document.querySelector('.counts')?.textContent?.startsWith('220,000 of 220,000'));
  assert.match(await page.locator('.stderr-summary').innerText(), /20,000 lines in the table, by time · 5,000 more dropped \(cap of 20,000\)/);
  const rendered = await page.locator('.row-spacer .row').count();
  assert.ok(rendered < 80, `at most the visible rows plus a margin are in the DOM (${rendered})`);

  // Rows 0–40 (40 ms), the ten lines of chunk 0 (40 ms: stdout first at equal times), then row 41.
  await page.locator('.row-viewport').evaluate((viewport) => (viewport.scrollTop = 38 * 22));
  await page.waitForFunction(() => document.querySelector('.row-spacer .row[aria-rowindex="40"]') !== null);
  const shown = await visibleEntries(page);
  const at40 = shown.findIndex((entry) => entry === 'row 40');
  assert.deepEqual(shown.slice(at40, at40 + 12), ['row 40', ...Array.from({ length: 10 }, (_, line) => `stderr 0.${line}`), 'row 41']);

  await page.locator('.row-table').focus();
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('.row.selected')?.getAttribute('data-index') === '199999');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.locator('.row.selected').getAttribute('data-index'), '199998');
  assert.ok((await page.locator('.row-spacer .row').count()) < 80);
  await page.getByLabel('Filter by verdict').selectOption('error');
  assert.match(await page.locator('.counts').innerText(), /^201 of 220,000 lines/, 'stderr lines have no verdict');
  await page.getByLabel('Filter by verdict').selectOption('all');
  await page.getByLabel('Filter by event type').selectOption('stderr');
  assert.match(await page.locator('.counts').innerText(), /^20,000 of 220,000 lines/);
  await page.getByLabel('Search the lines').fill('stderr 1999.9');
  assert.deepEqual(await visibleEntries(page), ['stderr 1999.9']);
  await assertClean(panel);
});

/** The drawn table rows in their order: `row <index>` or the stderr line's text. */
async function visibleEntries(page: InspectorPreviewPage['page']): Promise<string[]> {
  return page.locator('.row-spacer .row:not([hidden])').evaluateAll((rows) =>
    rows
      .map((row) => ({ at: Number(row.getAttribute('aria-rowindex')), row: row as HTMLElement }))
      .sort((first, second) => first.at - second.at)
      .map(({ row }) => (row.dataset['index'] !== undefined ? `row ${row.dataset['index']}` : (row.querySelector('.cell.summary')?.textContent ?? ''))),
  );
}

test('light and dark themes: text and marks are readable on the background', async () => {
  for (const theme of ['light', 'dark'] as const) {
    const panel = await openSample(theme);
    const colours = (await panel.page.evaluate(`(() => {
      const pixel = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      const paint = (colour) => { pixel.clearRect(0, 0, 1, 1); pixel.fillStyle = colour; pixel.fillRect(0, 0, 1, 1); return [...pixel.getImageData(0, 0, 1, 1).data.slice(0, 3)]; };
      const colour = (selector) => paint(getComputedStyle(document.querySelector(selector)).color);
      return {
        background: paint(getComputedStyle(document.body).backgroundColor),
        summary: colour('.row.mark-ok .cell.summary'),
        error: colour('.row.mark-error .cell.mark'),
        warning: colour('.row.mark-warning .cell.mark'),
        ok: colour('.row.mark-ok .cell.mark'),
        time: colour('.row .cell.time'),
      };
    })()`)) as Record<string, number[]>;
    for (const part of ['summary', 'error', 'time', 'ok', 'warning']) {
      const ratio = contrastRatio(colours[part]!, colours.background!);
      assert.ok(ratio >= (part === 'summary' ? 4.5 : 2.5), `${theme}: ${part} contrast ${ratio.toFixed(2)}`);
    }
    await panel.screenshot(path.join(inspectorScreenshotDir, `inspector-${theme}.png`));
    await assertClean(panel);
  }
});
