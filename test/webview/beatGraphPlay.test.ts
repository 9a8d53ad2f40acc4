// The beat graph during a play session (headless Chromium): statuses by box and icon, legend, summary, tooltip, kept across re-layouts, cleared; three themes.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { starterCampaignFiles } from '../../src/runtime/campaign/starterCampaigns.js';
import { layoutBeatGraph } from '../../src/runtime/campaign/view/beatGraph.js';
import { readBeatsText } from '../../src/runtime/campaign/view/beatsText.js';
import { beatPlayOverlay } from '../../src/runtime/campaign/view/beatPlayStates.js';
import { BEAT_PLAY_LEGEND } from '../../src/runtime/graph/graphWords.js';
import { BEAT_PLAY_LOOK } from '../../src/webview/graph/beatPlayLook.js';
import type { FromGraphWebview, ToGraphWebview } from '../../src/protocol/graphPanelMessages.js';
import { graphMessage } from './graphPanelFixtures.js';
import { GraphPanelPreview, projectRoot } from './graphPanelPreview.js';
import { assertClean, contrastRatio, node, textOverflows } from './graphPanelTestKit.js';
import { campaignState } from './playPanelStoryFixtures.js';

let preview: GraphPanelPreview;
before(async () => {
  preview = await GraphPanelPreview.start();
});
after(() => preview?.close());

const STARTER = starterCampaignFiles('complete').find((file) => file.path === 'plot/beats.json')!.text!;
const read = readBeatsText(STARTER);
const graph = layoutBeatGraph(read.beats!, read.conditions);
const IDS = graph.model.tools.map((tool) => tool.id);

/** The session after the skipping turn: beat_001 done, beat_002 active, beat_004 and beat_006 skipped, beat_003 and beat_005 reachable. */
function playMessage(): ToGraphWebview {
  return { type: 'beatStates', overlay: beatPlayOverlay('2026-11-29-1015', campaignState(4), IDS) };
}

function statusOf(page: import('playwright-core').Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const result: Record<string, string> = {};
    for (const group of document.querySelectorAll<SVGGElement>('.graph-canvas .node')) {
      const status = [...group.classList].find((name) => name.startsWith('play-'));
      result[group.dataset['toolId'] ?? ''] = status ?? '';
    }
    return result;
  });
}

// Margin: 180 s per test is a safety net against a stuck page; every check waits for a condition.
describe('beat graph in play', { timeout: 180_000 }, () => {
  test('each beat done, active, reachable or skipped, with its icon; the legend and the summary; the tooltip says why', async () => {
    const panel = await preview.open({ theme: 'dark' });
    await panel.send(graphMessage(graph.layout, { source: 'beats', title: 'The Salt Lantern: plot/beats.json', problems: graph.problems }), playMessage());
    const { page } = panel;
    await page.evaluate(() => document.fonts.ready);
    assert.deepEqual(await statusOf(page), {
      beat_001: 'play-done',
      beat_002: 'play-active',
      beat_003: 'play-reachable',
      beat_004: 'play-skipped',
      beat_005: 'play-reachable',
      beat_006: 'play-skipped',
    });
    assert.equal(await node(page, 'beat_002').locator('.state-icon').textContent(), BEAT_PLAY_LOOK.active.glyph);
    assert.equal(await node(page, 'beat_004').locator('.state-icon').textContent(), BEAT_PLAY_LOOK.skipped.glyph);
    assert.match((await node(page, 'beat_002').getAttribute('aria-label')) ?? '', /active in play/);
    const legend = page.locator('.legend-play');
    assert.equal(await legend.isVisible(), true);
    assert.deepEqual(
      await legend.locator('.legend-play-entry > span').allTextContents(),
      BEAT_PLAY_LEGEND.map((entry) => entry.text),
    );
    assert.deepEqual(await page.locator('.run-summary .summary-part').allTextContents(), [
      'Play-through 2026-11-29-1015, scene 7:',
      '1 active',
      '1 done',
      '2 reachable',
      '2 skipped',
    ]);
    await node(page, 'beat_004').locator('.box').hover();
    const tooltip = page.locator('.graph-tooltip');
    await tooltip.waitFor({ state: 'visible' });
    assert.match(await tooltip.innerText(), /in play\s+skipped in scene 7: its scenes \(3-6\) passed without its other conditions holding/);
    assert.deepEqual(await textOverflows(page), []);
    await panel.screenshot('beat-graph-play-dark');
    await assertClean(panel);
  });

  test('kept when the graph is laid out again; a session that moves on recolours; none clears the colours and the legend', async () => {
    const panel = await preview.open({ theme: 'dark' });
    const message = graphMessage(graph.layout, { source: 'beats', title: 'The Salt Lantern: plot/beats.json', problems: graph.problems });
    await panel.send(message, { type: 'beatStates', overlay: beatPlayOverlay('s', campaignState(2), IDS) });
    const { page } = panel;
    assert.equal((await statusOf(page))['beat_001'], 'play-active');
    // The author edits beats.json: a new layout comes, the session's colours stay.
    await panel.send({ ...message, graph: { ...(message as Extract<ToGraphWebview, { type: 'graph' }>).graph, version: 99 }, fit: false } as ToGraphWebview);
    assert.equal((await statusOf(page))['beat_001'], 'play-active');
    await panel.send({ type: 'beatStates', overlay: beatPlayOverlay('s', campaignState(3), IDS) });
    assert.deepEqual([(await statusOf(page))['beat_001'], (await statusOf(page))['beat_002']], ['play-done', 'play-active']);
    await panel.send({ type: 'beatStates', overlay: undefined });
    assert.deepEqual(new Set(Object.values(await statusOf(page))), new Set(['']));
    assert.equal(await page.locator('.legend-play').isVisible(), false);
    assert.equal(await page.locator('.run-summary').isVisible(), false);
    assert.equal(await node(page, 'beat_001').locator('.state-icon').textContent(), '');
    await assertClean(panel);
  });

  test("Export SVG draws the session as the view does: each beat's status, its colours resolved from the theme, the session in the title", async () => {
    const panel = await preview.open({ theme: 'dark' });
    await panel.send(graphMessage(graph.layout, { source: 'beats', title: 'The Salt Lantern: plot/beats.json', problems: graph.problems }), playMessage());
    await panel.page.locator('.export-svg').click();
    await panel.page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === 'exportSvg'));
    const message = (await panel.posted()).find((posted) => posted.type === 'exportSvg') as Extract<FromGraphWebview, { type: 'exportSvg' }>;
    const parsed = await preview.parseXml(message.svg);
    assert.equal(parsed.error, null);
    const viewStatuses = await statusOf(panel.page);
    for (const id of IDS) {
      const group = new RegExp(`<g class="([^"]*)" data-tool-id="${id}">`).exec(message.svg);
      assert.ok(group, id);
      assert.equal([...group[1]!.split(' ')].find((name) => name.startsWith('play-')) ?? '', viewStatuses[id], `${id} as in the view`);
    }
    assert.match(message.svg, /<title>The Salt Lantern: plot\/beats\.json \(Play-through 2026-11-29-1015, scene \d+\)<\/title>/);
    for (const status of ['done', 'active', 'reachable', 'skipped']) assert.match(message.svg, new RegExp(`--graph-play-${status}: #[0-9a-f]{6,8};`));
    assert.doesNotMatch(message.svg, /var\(--vscode/);
    await assertClean(panel);
  });

  test('the status boxes stand out from the background in dark, light and high contrast', async () => {
    for (const theme of ['dark', 'light', 'highContrast'] as const) {
      const panel = await preview.open({ theme });
      await panel.send(graphMessage(graph.layout, { source: 'beats', title: 'The Salt Lantern: plot/beats.json', problems: graph.problems }), playMessage());
      const { page } = panel;
      await page.evaluate(() => document.fonts.ready);
      // A string, not a function: tsx would wrap helpers in a `__name` call the page does not have.
      const colours = (await page.evaluate(`(() => {
        const pixel = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
        const paint = (colours) => {
          pixel.clearRect(0, 0, 1, 1);
          for (const colour of colours) { pixel.fillStyle = colour; pixel.fillRect(0, 0, 1, 1); }
          return [...pixel.getImageData(0, 0, 1, 1).data.slice(0, 3)];
        };
        const background = getComputedStyle(document.querySelector('.graph-canvas')).backgroundColor;
        const stroke = (id) => getComputedStyle(document.querySelector('.graph-canvas .node[data-tool-id="' + id + '"] .box')).stroke;
        const icon = (id) => getComputedStyle(document.querySelector('.graph-canvas .node[data-tool-id="' + id + '"] .state-icon')).fill;
        return { background: paint([background]), done: paint([background, stroke('beat_001')]), active: paint([background, stroke('beat_002')]),
          reachable: paint([background, stroke('beat_003')]), doneIcon: paint([background, icon('beat_001')]), activeIcon: paint([background, icon('beat_002')]) };
      })()`)) as Record<'background' | 'done' | 'active' | 'reachable' | 'doneIcon' | 'activeIcon', number[]>;
      for (const part of ['done', 'active', 'reachable', 'doneIcon', 'activeIcon'] as const) {
        const ratio = contrastRatio(colours[part], colours.background);
        assert.ok(ratio >= 2.5, `${theme}: ${part} against the background (${ratio.toFixed(2)})`);
      }
      assert.deepEqual(await textOverflows(page), []);
      await panel.screenshot(`beat-graph-play-${theme}`);
      await assertClean(panel);
    }
  });

  test('every play status codicon is the glyph codicon.css gives its name', () => {
    const css = readFileSync(path.join(projectRoot, 'dist', 'webview', 'codicon.css'), 'utf8');
    for (const [status, look] of Object.entries(BEAT_PLAY_LOOK)) {
      const match = new RegExp(`\\.codicon-${look.icon}:before \\{ content: "\\\\([0-9a-f]+)" \\}`).exec(css);
      assert.ok(match, `${status}: codicon-${look.icon} exists`);
      assert.equal(look.glyph.codePointAt(0)!.toString(16), match[1], `${status}: codicon-${look.icon}`);
    }
  });
});
