// End-to-end scenarios of the plan graph in real VS Code (code-server + headless chromium) with the packaged VSIX: Show Plan Graph beside the file, reveal on click, live Run Plan states, a cycle in the error colour, SVG export.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { XMLValidator } from 'fast-xml-parser';
import { startCodeServer, type CodeServer } from './harness/codeServer.js';
import { repoRoot } from './harness/paths.js';
import { packagedVsix, scenario, SCENARIO_TIMEOUT_MS, UI_TIMEOUT_MS, waitFor } from './harness/scenario.js';
import type { Workbench } from './harness/workbench.js';

/** The repository's example of parallel checks, in the story's plans/ folder, without its `$schema` (it points into contracts/). */
const PARALLEL_FILE = 'plans/parallel-checks.plan.json';
const PARALLEL = readFileSync(path.join(repoRoot, 'contracts', 'examples', 'parallel-checks.plan.json'), 'utf8').replace(/^\s*"\$schema":.*\n/m, '');
const PARALLEL_IDS = (JSON.parse(PARALLEL) as { tools: { toolId: string }[] }).tools.map((tool) => tool.toolId);

/** A plan whose memory tools depend on each other. */
const CYCLE_FILE = 'plans/cycle.plan.json';
const CYCLE = `{
  "requestId": "4c3b2a19-0f8e-4d7c-9b6a-5e4d3c2b1a09",
  "tools": [
    { "toolId": "roll", "toolPath": "skills/dice-roller/scripts/roll.js", "input": { "formula": "1d20" } },
    { "toolId": "recall", "toolPath": "skills/memory/scripts/recall.js", "input": { "query": "idol" }, "dependencies": ["store"] },
    { "toolId": "store", "toolPath": "skills/memory/scripts/store.js", "input": { "summary": "cursed" }, "dependencies": ["recall", "roll"] }
  ]
}
`;

describe('plan graph', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    const started = Date.now();
    server = await startCodeServer({ vsix: packagedVsix(), label: 'graph' });
    console.log(`[e2e] code-server (graph) with the VSIX ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${server.url}`);
  });
  after(async () => server?.stop());

  test('G1. Show Plan Graph on parallel-checks.plan.json draws it beside the file', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'g1-show-graph', { files: { [PARALLEL_FILE]: PARALLEL } }, async ({ workbench }) => {
      await openGraph(workbench, path.basename(PARALLEL_FILE));
      const graph = workbench.webview();
      for (const id of PARALLEL_IDS) await graph.locator(`g.node[data-tool-id="${id}"]`).waitFor({ timeout: UI_TIMEOUT_MS });
      // Two edges into narrate, one level band per level, the skill and script on each node.
      // The legend's swatches (shown for beat graphs, hidden for plans) draw edges of their own: count the scene's.
      assert.equal(await graph.locator('svg:not(.legend-swatch) .edge').count(), 2);
      assert.match((await graph.locator('g.node[data-tool-id="narrate"]').textContent()) ?? '', /storyteller · narrate\.js/);
      // Beside the text: the editor group with the plan is still open, the graph in another group.
      assert.ok((await workbench.page.locator('.part.editor .editor-group-container').count()) >= 2, 'the graph opened beside the text');
      assert.deepEqual(workbench.webviewErrors(), []);
      await workbench.screenshot('g1-graph-beside-plan');
    }),
  );

  test('G2. clicking a node reveals its tool in the editor', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'g2-reveal', { files: { [PARALLEL_FILE]: PARALLEL } }, async ({ workbench }) => {
      await openGraph(workbench, path.basename(PARALLEL_FILE));
      const node = workbench.webview().locator('g.node[data-tool-id="narrate"]');
      await node.waitFor({ timeout: UI_TIMEOUT_MS });
      await node.click();
      // The toolId string of "narrate" (9 characters with its quotes) gets selected, the cursor at its end: the
      // status bar shows the line, the column after the closing quote and the selection's length.
      const end = positionOf(PARALLEL, '"toolId": "narrate"', '"toolId": "narrate"'.length);
      const status = workbench.page
        .locator('.part.statusbar .statusbar-item', { hasText: new RegExp(`Ln ${end.line}, Col ${end.column} \\(9 selected\\)`) })
        .first();
      await status.waitFor({ timeout: UI_TIMEOUT_MS });
    }),
  );

  test('G3. Run Plan colours the nodes as they finish', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'g3-live-run', { files: { [PARALLEL_FILE]: PARALLEL } }, async ({ workbench, story }) => {
      const editor = await openGraph(workbench, path.basename(PARALLEL_FILE));
      const graph = workbench.webview();
      await graph.locator('g.node[data-tool-id="narrate"]').waitFor({ timeout: UI_TIMEOUT_MS });
      const lens = editor.locator('.codelens-decoration a', { hasText: 'Run Plan' }).first();
      await lens.waitFor({ timeout: UI_TIMEOUT_MS });
      await lens.click();
      // Deterministic: wait until every node shows its final state (the deadline is a safety net for real scripts).
      const states = async () => Promise.all(PARALLEL_IDS.map((id) => graph.locator(`g.node[data-tool-id="${id}"]`).getAttribute('data-state')));
      await waitFor(async () => (await states()).every((state) => state === 'success'), 90_000, 'every node shows success').catch(() => undefined);
      assert.deepEqual(
        await states(),
        PARALLEL_IDS.map(() => 'success'),
      );
      // The run chip shows a duration; the success colour differs from the idle border.
      assert.match((await graph.locator('g.node[data-tool-id="narrate"] .run-chip').textContent()) ?? '', /\d+(\.\d+)? (ms|s)/);
      const stroke = await graph.locator('g.node[data-tool-id="narrate"] .box').evaluate((box) => getComputedStyle(box).stroke);
      const idle = await graph
        .locator('.edge')
        .first()
        .evaluate((edge) => getComputedStyle(edge).stroke);
      assert.notEqual(stroke, idle, 'a finished node has its state colour');
      await workbench.screenshot('g3-graph-after-run');
      // The run was recorded: its record's graph shows the recorded states and the timeline.
      const runs = path.join(story.dir, '.narratoria', 'runs');
      await waitFor(async () => existsSync(runs) && readdirSync(runs).some((name) => name.endsWith('.json')), UI_TIMEOUT_MS, 'the run is recorded');
      const record = readdirSync(runs).find((name) => name.endsWith('.json'))!;
      await workbench.runCommand('View: Close All Editors');
      await openGraph(workbench, record);
      const recorded = workbench.webview();
      await recorded.locator('.timeline-section').waitFor({ timeout: UI_TIMEOUT_MS });
      for (const id of PARALLEL_IDS) assert.equal(await recorded.locator(`g.node[data-tool-id="${id}"]`).getAttribute('data-state'), 'success');
      assert.deepEqual((await recorded.locator('.timeline-tool').allTextContents()).sort(), [...PARALLEL_IDS].sort(), 'one timeline row per tool');
      await workbench.screenshot('g3-run-record-timeline');
    }),
  );

  test('G4. a plan with a cycle shows it in the error colour', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'g4-cycle', { files: { [CYCLE_FILE]: CYCLE } }, async ({ workbench }) => {
      await openGraph(workbench, path.basename(CYCLE_FILE));
      const graph = workbench.webview();
      await graph.locator('g.node[data-tool-id="store"]').waitFor({ timeout: UI_TIMEOUT_MS });
      assert.equal(await graph.locator('g.node.in-cycle').count(), 2, 'recall and store are marked');
      assert.equal(await graph.locator('g.node.in-cycle[data-tool-id="roll"]').count(), 0);
      const error = await graph.locator('body').evaluate(() => getComputedStyle(document.body).getPropertyValue('--vscode-errorForeground').trim());
      const cycleStroke = await graph
        .locator('g.node.in-cycle .box')
        .first()
        .evaluate((box) => getComputedStyle(box).stroke);
      const normalStroke = await graph.locator('g.node[data-tool-id="roll"] .box').evaluate((box) => getComputedStyle(box).stroke);
      assert.notEqual(cycleStroke, normalStroke);
      assert.equal(cycleStroke, await cssColour(workbench, error), "the cycle is drawn in the theme's error colour");
      assert.ok((await graph.locator('.edge-cycle').count()) >= 2, 'the cycle edges are error edges');
      assert.match(await graph.locator('body').innerText(), /recall → store → recall|store → recall → store/);
      await workbench.screenshot('g4-cycle');
    }),
  );

  test('G5. Export SVG writes a well-formed SVG with every toolId', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'g5-export', { files: { [PARALLEL_FILE]: PARALLEL } }, async ({ workbench, story }) => {
      await openGraph(workbench, path.basename(PARALLEL_FILE));
      const graph = workbench.webview();
      await graph.locator('g.node[data-tool-id="narrate"]').waitFor({ timeout: UI_TIMEOUT_MS });
      await graph.locator('button.export-svg').click();
      // code-server's save dialog is VS Code's simple file dialog: a quick input holding the path. Deterministic:
      // wait until it shows the suggested file (beside the plan, named after it), then accept it.
      const input = workbench.page.locator('.quick-input-widget input.input');
      await input.waitFor({ timeout: UI_TIMEOUT_MS });
      await waitFor(
        async () => (await input.inputValue()).endsWith('parallel-checks.graph.svg'),
        UI_TIMEOUT_MS,
        'the dialog suggests parallel-checks.graph.svg',
      ).catch(() => undefined);
      assert.match(await input.inputValue(), /plans\/parallel-checks\.graph\.svg$/, 'the suggested file is beside the plan');
      await workbench.page.keyboard.press('Enter');
      const target = path.join(story.dir, 'plans', 'parallel-checks.graph.svg');
      // Deterministic: wait until the file is written (the deadline is a safety net).
      await waitFor(async () => existsSync(target) && readFileSync(target, 'utf8').includes('</svg>'), UI_TIMEOUT_MS, 'the SVG is written').catch(
        () => undefined,
      );
      const svg = readFileSync(target, 'utf8');
      assert.equal(XMLValidator.validate(svg), true, 'the SVG is well-formed XML');
      for (const id of PARALLEL_IDS) assert.ok(svg.includes(`>${id}</text>`), `${id} is in the SVG`);
      await workbench.page
        .locator('.notifications-toasts .notification-toast', { hasText: 'Exported the graph to' })
        .first()
        .waitFor({ timeout: UI_TIMEOUT_MS });
    }),
  );
});

/** Opens the plan and its graph (through the editor title's button); returns the plan's editor. */
async function openGraph(workbench: Workbench, name: string) {
  const editor = await workbench.openFile(name);
  const button = workbench.page
    .locator('.part.editor .editor-group-container.active .action-label.codicon-type-hierarchy-sub[aria-label="Show Plan Graph"]')
    .first();
  await button.waitFor({ timeout: UI_TIMEOUT_MS });
  await button.click();
  await workbench.page.locator('iframe.webview.ready').first().waitFor({ timeout: UI_TIMEOUT_MS });
  return editor;
}

/** The computed `rgb(…)` form of a CSS colour, as the page resolves it. */
async function cssColour(workbench: Workbench, colour: string): Promise<string> {
  return workbench
    .webview()
    .locator('body')
    .evaluate((body, value) => {
      const probe = document.createElement('span');
      probe.style.color = value;
      body.append(probe);
      const resolved = getComputedStyle(probe).color;
      probe.remove();
      return resolved;
    }, colour);
}

/** The 1-based line and column of the `within`-th character of the first `needle` in `text`. */
function positionOf(text: string, needle: string, within = 0): { line: number; column: number } {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, `"${needle}" is in the plan`);
  const lines = text.slice(0, offset + within).split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}
