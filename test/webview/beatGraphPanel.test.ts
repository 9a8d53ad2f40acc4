// The beat graph in the graph webview (headless Chromium): relations as edge styles, a seeded cycle, unknown and unreachable beats, the legend, search by title, three themes.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { starterCampaignFiles } from '../../src/runtime/campaign/starterCampaigns.js';
import { layoutBeatGraph } from '../../src/runtime/campaign/view/beatGraph.js';
import { readBeatsText } from '../../src/runtime/campaign/view/beatsText.js';
import { BEAT_GRAPH_LEGEND } from '../../src/runtime/graph/graphWords.js';
import { graphMessage } from './graphPanelFixtures.js';
import { GraphPanelPreview } from './graphPanelPreview.js';
import { assertClean, contrastRatio, node, textOverflows } from './graphPanelTestKit.js';

let preview: GraphPanelPreview;
before(async () => {
  preview = await GraphPanelPreview.start();
});
after(() => preview?.close());

const STARTER = starterCampaignFiles('complete').find((file) => file.path === 'plot/beats.json')!.text!;

/** The starter's beats with a requires_beat cycle (beat_001 now requires beat_005) and a link to a beat that does not exist. */
function brokenBeats(): string {
  const value = JSON.parse(STARTER) as { beats: { conditions: Record<string, unknown> }[] };
  value.beats[0]!.conditions['requires_beat'] = 'beat_005';
  value.beats[5]!.conditions['requires_beat'] = ['beat_004', 'beat_099'];
  return JSON.stringify(value, null, 2);
}

function beatGraph(text: string) {
  const read = readBeatsText(text);
  return layoutBeatGraph(read.beats!, read.conditions);
}

/**
 * The painted [r, g, b] of computed colours (color-mix() results included), each painted over the canvas background and
 * the legend's text over the legend's background, read back from a canvas.
 */
function painted<K extends string>(page: Page, parts: Record<K, readonly [string, string]>): Promise<Record<K, number[]>> {
  // A string, not a function: tsx would wrap helpers in a `__name` call the page does not have.
  return page.evaluate(`(() => {
    const pixel = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    const parts = ${JSON.stringify(parts)};
    const value = (name) => getComputedStyle(document.querySelector(parts[name][0]))[parts[name][1]];
    const paint = (colours) => {
      pixel.clearRect(0, 0, 1, 1);
      for (const colour of colours) { pixel.fillStyle = colour; pixel.fillRect(0, 0, 1, 1); }
      return [...pixel.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const result = {};
    for (const name of Object.keys(parts)) {
      const under = name === 'legendText' ? [value('background'), value('legendBackground')] : name === 'background' ? [] : [value('background')];
      result[name] = paint([...under, value(name)]);
    }
    return result;
  })()`);
}

// Margin: 180 s per test is a safety net against a stuck page; every check waits for a condition.
describe('beat graph webview', { timeout: 180_000 }, () => {
  test('beats as nodes with title, priority and scene window; relations drawn solid, dashed, dotted and dash-dotted; the legend', async () => {
    const graph = beatGraph(STARTER);
    const panel = await preview.open({ theme: 'dark' });
    await panel.send(graphMessage(graph.layout, { source: 'beats', title: 'The Salt Lantern: plot/beats.json', problems: graph.problems }));
    const { page } = panel;
    await page.evaluate(() => document.fonts.ready);
    assert.equal(await page.locator('.graph-canvas .node').count(), 6);
    assert.match((await node(page, 'beat_001').textContent()) ?? '', /beat_001The Dark Lanterncriticalscenes 1-2/);
    assert.equal(await node(page, 'beat_001').getAttribute('aria-roledescription'), 'beat');
    assert.equal(await page.locator('.graph-canvas .edge').count(), 8);
    const dashes = async (relation: string) =>
      page
        .locator(`.graph-canvas .edge.edge-rel-${relation}`)
        .first()
        .evaluate((edge) => getComputedStyle(edge).strokeDasharray);
    assert.equal(await dashes('requires'), 'none');
    assert.notEqual(await dashes('requiresAny'), 'none');
    assert.notEqual(await dashes('triggers'), 'none');
    assert.notEqual(await dashes('fallback'), 'none');
    assert.equal(new Set([await dashes('requiresAny'), await dashes('triggers'), await dashes('fallback')]).size, 3, 'three distinct patterns');
    assert.match((await page.locator('.graph-stats').textContent()) ?? '', /^6 beats · 8 edges · \d+ levels$/);
    assert.match((await page.locator('.graph-canvas .band-label').first().textContent()) ?? '', /^level 0 · 1 beat$/);
    assert.equal(await page.locator('.source-chip').textContent(), 'plot beats');
    const legend = page.locator('.graph-legend');
    assert.equal(await legend.isVisible(), true);
    assert.deepEqual(
      await legend.locator('.legend-entry').allTextContents(),
      BEAT_GRAPH_LEGEND.map((entry) => entry.text),
    );
    // Search finds a beat by its title.
    await page.locator('.search-input').fill('saltmere');
    assert.equal(await page.locator('.search-count').textContent(), '1 match');
    assert.equal(await node(page, 'beat_006').evaluate((element) => element.classList.contains('search-match')), true);
    assert.deepEqual(await textOverflows(page), []);
    await assertClean(panel);
  });

  test('a requires_beat cycle in the error colour, an unknown beat boxed, unreachable beats dashed; readable in three themes', async () => {
    const graph = beatGraph(brokenBeats());
    for (const theme of ['dark', 'light', 'highContrast'] as const) {
      const panel = await preview.open({ theme });
      await panel.send(graphMessage(graph.layout, { source: 'beats', title: 'The Salt Lantern: plot/beats.json', problems: graph.problems }));
      const { page } = panel;
      await page.evaluate(() => document.fonts.ready);
      assert.deepEqual(
        (await page.locator('.graph-canvas .node.in-cycle').evaluateAll((nodes) => nodes.map((item) => (item as SVGGElement).dataset['toolId']))).sort(),
        ['beat_001', 'beat_003', 'beat_005'],
      );
      assert.equal(await page.locator('.graph-canvas .edge-cycle').count(), 3);
      assert.equal(await page.locator('.graph-canvas .missing text').textContent(), '? beat_099');
      assert.equal(await page.locator('.graph-canvas .node.unreachable').count(), 6, 'the cycle blocks every beat');
      const box = await node(page, 'beat_006')
        .locator('.box')
        .evaluate((element) => getComputedStyle(element).strokeDasharray);
      assert.notEqual(box, 'none', 'an unreachable beat has a dashed box');
      assert.match(
        (await page.locator('.problems-strip').innerText()).replace(/\s+/g, ' '),
        /requires_beat cycle: beat_\d+ -> beat_\d+ -> beat_\d+ -> beat_\d+/,
      );
      const colours = await painted(page, {
        background: ['.graph-canvas', 'backgroundColor'],
        edge: ['.graph-canvas .edge.edge-rel-requiresAny', 'stroke'],
        cycle: ['.graph-canvas .edge-cycle', 'stroke'],
        legendBackground: ['.graph-legend', 'backgroundColor'],
        legendText: ['.legend-entry', 'color'],
      });
      const ratio = (a: number[], b: number[]) => Math.round(contrastRatio(a, b) * 100) / 100;
      assert.ok(ratio(colours.edge, colours.background) >= 3, `${theme}: edges against the background (${ratio(colours.edge, colours.background)})`);
      assert.ok(ratio(colours.cycle, colours.background) >= 3, `${theme}: cycle edges against the background (${ratio(colours.cycle, colours.background)})`);
      assert.ok(ratio(colours.legendText, colours.legendBackground) >= 4.5, `${theme}: legend text (${ratio(colours.legendText, colours.legendBackground)})`);
      assert.deepEqual(await textOverflows(page), []);
      await panel.screenshot(`beat-graph-${theme}`);
      await assertClean(panel);
    }
  });
});
