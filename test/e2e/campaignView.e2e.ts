// End-to-end scenarios of campaigns in real VS Code (code-server + headless chromium) with the packaged VSIX: C1 the Campaign view lists a campaign's parts and follows a file change; C3 the beat graph.
import * as assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { starterCampaignFiles } from '../../src/runtime/campaign/starterCampaigns.js';
import { startCodeServer, type CodeServer } from './harness/codeServer.js';
import { packagedVsix, scenario, SCENARIO_TIMEOUT_MS, UI_TIMEOUT_MS, waitFor } from './harness/scenario.js';
import type { Workbench } from './harness/workbench.js';

/** The complete starter campaign (The Salt Lantern), at the story's root as `narratoria init --campaign complete` writes it. */
const CAMPAIGN: Record<string, string | Uint8Array> = Object.fromEntries(
  starterCampaignFiles('complete').map((file) => [file.path, file.bytes ?? file.text ?? '']),
);
const BEATS = CAMPAIGN['plot/beats.json'] as string;
const BEAT_IDS = ['beat_001', 'beat_002', 'beat_003', 'beat_004', 'beat_005', 'beat_006'];
/** A lore file with one paragraph over 512 tokens, which chunking cuts at sentence ends (the preview flags its chunks). */
const LONG_LORE_FILE = 'lore/history/the-long-chronicle.md';
const LONG_LORE = [
  '# The Long Chronicle',
  '',
  'The keepers of the Lantern wrote one chronicle, a line for every night the lamp was lit.',
  '',
  Array.from(
    { length: 34 },
    (_, year) =>
      `In the ${year + 1}th year of the chronicle the fog came in ${['early', 'late', 'twice', 'thick'][year % 4]}, ` +
      `and the keeper trimmed the wick ${year + 3} times before the tide turned back toward Saltmere.`,
  ).join(' '),
  '',
  'The last page is torn out.',
  '',
].join('\n');

/** The workspace in a colour theme (the docs' screenshots: the view and the graph in dark, the graph in light too). */
const themed = (theme: 'Default Dark Modern' | 'Default Light Modern') => ({
  files: { ...CAMPAIGN, [LONG_LORE_FILE]: LONG_LORE, '.vscode/settings.json': `${JSON.stringify({ 'workbench.colorTheme': theme })}\n` },
});

describe('campaigns: the Campaign view and the beat graph', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    const started = Date.now();
    server = await startCodeServer({ vsix: packagedVsix(), label: 'campaign-view' });
    console.log(`[e2e] code-server (campaign view) with the VSIX ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${server.url}`);
  });
  after(async () => server?.stop());

  test('C1. open a campaign: the Campaign view lists its parts, opens a beat at its range, and marks a broken link', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'c1-campaign-view', themed('Default Dark Modern'), async ({ workbench, story }) => {
      await showCampaignView(workbench);
      const rows = await workbench.waitForTreeRows((found) => found.some((row) => row.label === 'The Dark Lantern'), 'Campaign');
      assert.deepEqual(
        rows.filter((row) => row.level === 1).map((row) => row.label),
        ['Manifest', 'World', 'NPCs', 'Player', 'Plot', 'Lore', 'Assets'],
      );
      const row = (label: string) => rows.find((candidate) => candidate.label === label) ?? assert.fail(`no row ${label} in ${JSON.stringify(rows)}`);
      assert.equal(row('Manifest').description, 'The Salt Lantern · v1.0.0');
      for (const label of ['Setting', 'Rules', 'Constraints', 'Premise']) assert.equal(row(label).level, 2, label);
      assert.equal(row('Beats').description, '6 beats');
      assert.equal(row('The Dark Lantern').description, 'beat_001 · scenes 1-2');
      assert.equal(row("The Keeper's Log").description, 'beat_004 · scenes 3-6');
      assert.match(row('The Dark Lantern').ariaLabel, /healthy$/);
      // Lore: its files with their chunk counts, once counted.
      await setExpanded(workbench, 'Lore', true);
      const lore = await workbench.waitForTreeRows(
        (found) => found.filter((candidate) => /^\d+ chunks?$/.test(candidate.description) && candidate.level === 2).length === 6,
        'Campaign',
      );
      assert.match(lore.find((candidate) => candidate.label === 'Lore')!.description, /^6 files · \d+ chunks$/);
      // A lore file opens with its lens; the lens shows where its chunks are, flagging those of the long paragraph.
      await clickRow(workbench, 'history/the-long-chronicle.md');
      const editor = workbench.activeEditor();
      const lens = editor.locator('.codelens-decoration a', { hasText: /\d+ chunks · largest \d+ tokens · 1 paragraph split$/ }).first();
      await lens.waitFor({ timeout: UI_TIMEOUT_MS });
      await lens.click();
      await workbench.page
        .locator('.part.editor .editor-group-container.active .action-label[aria-label="Hide Lore Chunks"]')
        .waitFor({ timeout: UI_TIMEOUT_MS });
      await waitFor(async () => (await chunkLabels(workbench)).length >= 3, UI_TIMEOUT_MS, 'the chunk labels are drawn');
      const labels = await chunkLabels(workbench);
      assert.match(labels[0]!, /^#0 · \d+ tokens$/);
      assert.ok(
        labels.some((label) => /^! #\d+ · \d+ tokens · split$/.test(label)),
        `a flagged chunk among ${JSON.stringify(labels)}`,
      );
      await workbench.screenshot('c1-lore-chunks');
      await setExpanded(workbench, 'Lore', false);
      await workbench.screenshot('c1-campaign-view-healthy');

      // A click on a beat opens plot/beats.json with the cursor at the beat.
      await clickRow(workbench, "The Keeper's Log");
      await workbench.page.locator('.part.editor .tab.active', { hasText: 'beats.json' }).waitFor({ timeout: UI_TIMEOUT_MS });
      const beatLine = lineOf(BEATS, '"id": "beat_004"') - 1;
      await workbench.page
        .locator('.part.statusbar .statusbar-item', { hasText: new RegExp(`Ln ${beatLine}, Col 5\\b`) })
        .first()
        .waitFor({ timeout: UI_TIMEOUT_MS });

      // A broken requires_beat written on disk: the view follows, and the beat, Beats and Plot show the error.
      writeFileSync(path.join(story.dir, 'plot', 'beats.json'), BEATS.replace('"requires_beat": "beat_003"', '"requires_beat": "beat_042"'));
      const broken = await workbench.waitForTreeRows(
        (found) => found.some((candidate) => candidate.label === 'Voices Under the Jetty' && /1 error$/.test(candidate.ariaLabel)),
        'Campaign',
      );
      assert.match(broken.find((candidate) => candidate.label === 'Beats')!.ariaLabel, /1 error$/);
      assert.match(broken.find((candidate) => candidate.label === 'The Dark Lantern')!.ariaLabel, /healthy$/);
      const icon = await treeRow(workbench, 'Voices Under the Jetty').locator('.codicon-error').count();
      assert.equal(icon, 1, 'the broken beat shows the error icon');
      // The tooltip: hovered again until it shows (a row drawn again under the pointer, as the view follows the change, loses its hover).
      const hover = workbench.page.locator('.monaco-hover, .custom-hover, .workbench-hover').filter({ hasText: 'CAMPAIGN_UNKNOWN_BEAT' }).first();
      await waitFor(
        async () => {
          if (await hover.isVisible()) return true;
          await workbench.page.mouse.move(0, 0);
          await treeRow(workbench, 'Voices Under the Jetty').hover();
          await hover.waitFor({ timeout: 2_000 }).catch(() => undefined);
          return hover.isVisible();
        },
        UI_TIMEOUT_MS,
        "the broken beat's tooltip shows",
      );
      assert.match(await hover.innerText(), /requires_beat names "beat_042"/);
      // The scenario's screenshot comes next: wait for the tooltip's fade-in to end (its opacity, and its parents').
      await waitFor(
        async () =>
          hover.evaluate((element) => {
            for (let node: Element | null = element; node; node = node.parentElement) if (getComputedStyle(node).opacity !== '1') return false;
            return true;
          }),
        UI_TIMEOUT_MS,
        'the tooltip is fully drawn',
      );
      assert.deepEqual(workbench.webviewErrors(), []);
      // The scenario's own screenshot (c1-campaign-view.png) shows this last state: the broken link and its tooltip.
    }),
  );

  test(
    "C1 (new campaign). an empty folder shows the Campaign view's welcome; New Campaign writes the minimal starter and the view lists it",
    { timeout: SCENARIO_TIMEOUT_MS },
    () =>
      scenario(current, 'c1-new-campaign', { empty: true }, async ({ workbench, story }) => {
        await workbench.openNarratoriaView();
        const welcome = workbench.viewPane('Campaign').locator('.welcome-view-content');
        await welcome.getByText('No campaign in this workspace', { exact: false }).waitFor({ timeout: 60_000 });
        await welcome.getByRole('button', { name: 'New Campaign…' }).click();
        const quickPick = workbench.page.locator('.quick-input-widget');
        await quickPick.locator('.quick-input-title', { hasText: 'New Campaign (1/2)' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await quickPick.locator('.monaco-list-row', { hasText: 'Minimal: The Night Train to Wrenhollow' }).click();
        await quickPick.locator('.quick-input-title', { hasText: 'New Campaign (2/2)' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await quickPick.locator('.monaco-list-row', { hasText: 'In a new folder of' }).click();
        const input = quickPick.locator('input');
        await waitFor(async () => (await input.inputValue()) === 'night-train', UI_TIMEOUT_MS, 'the folder name is suggested');
        await workbench.page.keyboard.press('Enter');
        await workbench.page.locator('.part.editor .tab.active', { hasText: 'manifest.json' }).waitFor({ timeout: UI_TIMEOUT_MS });
        const rows = await workbench.waitForTreeRows((found) => found.some((row) => row.label === 'Manifest'), 'Campaign');
        assert.equal(rows.find((row) => row.label === 'Manifest')!.description, 'The Night Train to Wrenhollow · v1.0.0');
        assert.ok(rows.some((row) => row.label === 'Premise'));
        for (const file of ['manifest.json', 'world/setting.md', 'plot/premise.md'])
          assert.ok(existsSync(path.join(story.dir, 'night-train', ...file.split('/'))), `night-train/${file} is written`);
      }),
  );

  test('C3. the beat graph draws the beats and their links, reveals a clicked beat, follows unsaved edits', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'c3-beat-graph', themed('Default Dark Modern'), async ({ workbench }) => {
      const graph = await openBeatGraph(workbench);
      await graph.locator('body.vscode-dark').waitFor({ timeout: UI_TIMEOUT_MS });
      for (const id of BEAT_IDS) await graph.locator(`g.node[data-tool-id="${id}"]`).waitFor({ timeout: UI_TIMEOUT_MS });
      assert.equal(await graph.locator('.graph-canvas .edge').count(), 8);
      assert.equal(await graph.locator('.graph-canvas .edge-rel-requires').count(), 4);
      assert.equal(await graph.locator('.graph-canvas .edge-rel-requiresAny').count(), 2);
      assert.equal(await graph.locator('.graph-canvas .edge-rel-triggers').count(), 1);
      assert.equal(await graph.locator('.graph-canvas .edge-rel-fallback').count(), 1);
      assert.match((await graph.locator('g.node[data-tool-id="beat_004"]').textContent()) ?? '', /The Keeper's Log.*critical.*scenes 3-6/);
      assert.equal(await graph.locator('.graph-legend').isVisible(), true);
      assert.equal(await graph.locator('.problems-strip').isVisible(), false, 'the starter has no problem');
      assert.deepEqual(workbench.webviewErrors(), []);
      await workbench.screenshot('c3-beat-graph-starter');

      // A click on a node selects the beat's id in beats.json.
      await graph.locator('g.node[data-tool-id="beat_004"]').click();
      const idLine = lineOf(BEATS, '"id": "beat_004"');
      await workbench.page
        .locator('.part.statusbar .statusbar-item', { hasText: new RegExp(`Ln ${idLine}, Col \\d+ \\(10 selected\\)`) })
        .first()
        .waitFor({ timeout: UI_TIMEOUT_MS });

      // An unsaved edit: beat_006 now requires beat_009, which no beat is; the graph shows it boxed and beat_006 unreachable.
      const offset = BEATS.indexOf('"beat_004"', BEATS.indexOf('"requires_beat": [', BEATS.indexOf('"id": "beat_006"')));
      const target = positionAt(BEATS, offset + '"beat_004'.length);
      await workbench.goToPosition(target.line, target.column);
      await workbench.page.keyboard.press('Backspace');
      await workbench.page.keyboard.type('9');
      await graph.locator('.graph-canvas .missing', { hasText: '? beat_009' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await waitFor(
        async () => (await graph.locator('g.node.unreachable[data-tool-id="beat_006"]').count()) === 1,
        UI_TIMEOUT_MS,
        'beat_006 is marked unreachable',
      );
      assert.match(await graph.locator('.problems-strip').innerText(), /beat_006 can never happen: it requires beat_009, which no beat is/);
      // The scenario's own screenshot (c3-beat-graph.png) shows this last state, the whole graph in view.
      await graph.locator('button.fit-button').click();
    }),
  );

  test('C3 (light theme). the beat graph in the Light Modern theme', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'c3-beat-graph-light', themed('Default Light Modern'), async ({ workbench }) => {
      const graph = await openBeatGraph(workbench);
      for (const id of BEAT_IDS) await graph.locator(`g.node[data-tool-id="${id}"]`).waitFor({ timeout: UI_TIMEOUT_MS });
      assert.ok(await graph.locator('body.vscode-light').count(), 'the webview has the light theme');
    }),
  );
});

/** Shows the Narratoria side bar, wider, with the Campaign view taking the room (the Skills view collapsed). */
async function showCampaignView(workbench: Workbench): Promise<void> {
  await workbench.openNarratoriaView();
  const campaign = workbench.viewPane('Campaign');
  await campaign.waitFor({ timeout: UI_TIMEOUT_MS });
  // The headers' titles, not their middles: the middle of a header may be one of its action buttons.
  const skillsHeader = workbench.viewPane('Skills').locator('.pane-header');
  if ((await skillsHeader.getAttribute('aria-expanded')) === 'true') await skillsHeader.locator('h3.title').click();
  await waitFor(async () => (await skillsHeader.getAttribute('aria-expanded')) === 'false', UI_TIMEOUT_MS, 'the Skills view is collapsed');
  const header = campaign.locator('.pane-header');
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.locator('h3.title').click();
  // A wider side bar, so the entries' descriptions show whole: drag the sash between the side bar and the editor.
  const sidebar = await workbench.page.locator('.part.sidebar').boundingBox();
  if (sidebar) {
    const x = sidebar.x + sidebar.width;
    const y = sidebar.y + sidebar.height / 2;
    await workbench.page.mouse.move(x + 1, y);
    await workbench.page.mouse.down();
    await workbench.page.mouse.move(x + 160, y, { steps: 8 });
    await workbench.page.mouse.up();
  }
}

function treeRow(workbench: Workbench, label: string) {
  return workbench
    .viewPane('Campaign')
    .locator('.pane-body .monaco-list-row', { has: workbench.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) })
    .first();
}

async function clickRow(workbench: Workbench, label: string): Promise<void> {
  await treeRow(workbench, label).click();
}

/** Expands (or collapses) a row of the Campaign view, clicking again if a redraw of the tree swallowed a click. */
async function setExpanded(workbench: Workbench, label: string, expanded: boolean): Promise<void> {
  const row = treeRow(workbench, label);
  await waitFor(
    async () => {
      if ((await row.getAttribute('aria-expanded')) === String(expanded)) return true;
      await row.click();
      await waitFor(async () => (await row.getAttribute('aria-expanded')) === String(expanded), 2_000, `${label} toggled`).catch(() => undefined);
      return (await row.getAttribute('aria-expanded')) === String(expanded);
    },
    UI_TIMEOUT_MS,
    `${label} is ${expanded ? 'expanded' : 'collapsed'}`,
  );
}

/** The texts the chunk preview draws before each chunk (decorations' ::before content), in document order. */
async function chunkLabels(workbench: Workbench): Promise<string[]> {
  // Anonymous callbacks only: tsx would wrap a named helper in a `__name` call the page does not have.
  const labels = await workbench
    .activeEditor()
    .locator('.view-lines')
    .evaluate((lines) =>
      [...lines.querySelectorAll('span')].map((span) => getComputedStyle(span, '::before').content).filter((content) => /^"\s*!?\s*#\d/.test(content)),
    );
  // The computed content is a CSS string: its text between the quotes.
  return labels.map((content) => content.slice(1, -1).trim());
}

/** Opens plot/beats.json and its beat graph through the editor title's button, the side bar hidden for room; returns the graph's frame. */
async function openBeatGraph(workbench: Workbench) {
  await workbench.runCommand('View: Toggle Primary Side Bar Visibility');
  await workbench.page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
  await workbench.openFile('beats.json');
  const button = workbench.page
    .locator('.part.editor .editor-group-container.active .action-label.codicon-type-hierarchy-sub[aria-label="Show Beat Graph"]')
    .first();
  await button.waitFor({ timeout: UI_TIMEOUT_MS });
  await button.click();
  await workbench.page.locator('iframe.webview.ready').first().waitFor({ timeout: UI_TIMEOUT_MS });
  return workbench.webview();
}

/** The 1-based line of the first `needle` in `text`. */
function lineOf(text: string, needle: string): number {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, `"${needle}" is in the text`);
  return text.slice(0, offset).split('\n').length;
}

/** The 1-based line and column of a 0-based offset of `text`. */
function positionAt(text: string, offset: number): { line: number; column: number } {
  assert.ok(offset >= 0);
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
