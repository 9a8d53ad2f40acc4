// Plan graph webview, big graphs in headless Chromium: a 3,000-node layout is virtualized (only what is near the view is in the DOM), low-detail form when fitted, panning, search, live states and export over every node.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { FromGraphWebview } from '../../src/protocol/graphPanelMessages.js';
import { bigPlan, graphMessage, layoutOf } from './graphPanelFixtures.js';
import { GraphPanelPreview } from './graphPanelPreview.js';
import { assertClean, node, viewTransform } from './graphPanelTestKit.js';

let preview: GraphPanelPreview;
before(async () => {
  preview = await GraphPanelPreview.start();
});
after(() => preview?.close());

/** Far fewer than the graph's 3,000: what a 1400×900 view at 100% (plus its margin) can hold. */
const BOUNDED = 400;

// Margin: 180 s per test is a safety net against a stuck page; every check waits for a condition, not a time.
describe('plan graph webview: virtualized big graphs', { timeout: 180_000 }, () => {
  test('3,000 nodes: bounded DOM, panning draws new nodes, search and live states reach off-screen nodes, export holds every node', async () => {
    const layout = layoutOf(bigPlan(3000, 4500));
    assert.equal(layout.nodes.length, 3000);
    const panel = await preview.open({ width: 1400, height: 900 });
    const { page } = panel;
    await panel.send(graphMessage(layout, { title: 'huge.plan.json' }));
    const nodes = page.locator('.graph-canvas .node');
    const drawnIds = () => nodes.evaluateAll((groups) => groups.map((group) => (group as SVGGElement).dataset['toolId']!));

    // Fitted: far too small for text, so the low-detail form (boxes without text) is drawn instead of 3,000 nodes.
    const fitted = await viewTransform(page);
    assert.ok(fitted.zoom < 0.35, `fitted small (${fitted.zoom})`);
    await page.locator('.graph-canvas .lod-node').first().waitFor({ state: 'attached' });
    assert.equal(await nodes.count(), 0, 'no full nodes in the low-detail form');
    assert.equal(await page.locator('.minimap').isVisible(), true);
    await panel.screenshot('graph-virtual-fitted');

    // 100%: full nodes, only those near the view.
    await page.locator('.zoom-label').click();
    await page.waitForFunction(() => document.querySelectorAll('.graph-canvas .node').length > 0);
    const first = new Set(await drawnIds());
    assert.ok(first.size > 0 && first.size <= BOUNDED, `a bounded number of nodes in the DOM (${first.size})`);
    assert.equal(await page.locator('.graph-canvas .lod-node').count(), 0, 'no low-detail boxes when zoomed in');
    await panel.screenshot('graph-virtual-zoomed');

    // Panning far down brings new nodes in and drops the old ones.
    await page.locator('.graph-canvas').focus();
    for (let step = 0; step < 40; step++) await page.keyboard.press('Shift+ArrowDown');
    await page.waitForFunction(
      (old) => [...document.querySelectorAll<SVGGElement>('.graph-canvas .node')].some((group) => !old.includes(group.dataset['toolId']!)),
      [...first],
    );
    const panned = await drawnIds();
    assert.ok(panned.length <= BOUNDED, `still bounded after panning (${panned.length})`);
    assert.ok(
      panned.some((id) => !first.has(id)),
      'panning drew nodes that were not drawn before',
    );

    // Search counts matches across every node, and jumping to an off-screen match draws it.
    const target = layout.nodes.at(-1)!.id;
    assert.equal(await node(page, target).count(), 0, `${target} is off screen, not in the DOM`);
    const search = page.locator('.search-input');
    await search.fill('tool-');
    assert.equal(await page.locator('.search-count').textContent(), '3000 matches');
    await search.fill(target);
    assert.equal(await page.locator('.search-count').textContent(), '1 match');
    await search.press('Enter');
    await node(page, target).waitFor({ state: 'visible' });
    assert.equal(await node(page, target).evaluate((group) => group.classList.contains('search-match') && group.classList.contains('selected')), true);
    assert.equal(await page.locator('.graph-canvas').getAttribute('aria-activedescendant'), await node(page, target).getAttribute('id'));
    await search.press('Escape');

    // A live state of an off-screen node is kept and shown when it comes into view.
    const offScreen = ['tool-0', 'tool-1'];
    for (const id of offScreen) assert.equal(await node(page, id).count(), 0, `${id} is off screen`);
    await panel.send({ type: 'runStates', states: offScreen.map((id) => ({ id, state: 'failed' as const, durationMs: 12 })), reset: true });
    assert.match((await page.locator('.graph-root > [aria-live="polite"]').textContent()) ?? '', /tool-0: failed/);
    await panel.send({ type: 'select', toolId: 'tool-0' });
    await node(page, 'tool-0').waitFor({ state: 'visible' });
    await node(page, 'tool-1').waitFor({ state: 'visible' });
    for (const id of offScreen) assert.equal(await node(page, id).getAttribute('data-state'), 'failed', `${id} shows its state once drawn`);

    // The export is the runtime's SVG of the whole layout, not of the DOM: every toolId is in it.
    await page.locator('.export-svg').click();
    const exported = (await panel.posted()).find((message): message is Extract<FromGraphWebview, { type: 'exportSvg' }> => message.type === 'exportSvg');
    assert.ok(exported, 'exportSvg was posted');
    const missing = layout.nodes.filter((item) => !exported.svg.includes(`>${item.id}<`)).map((item) => item.id);
    assert.deepEqual(missing.slice(0, 5), [], `every toolId is in the export (${missing.length} missing)`);
    await assertClean(panel);
  });

  test('low-detail form: a click on a box selects its tool, and live states recolour the boxes', async () => {
    const layout = layoutOf(bigPlan(3000, 4500));
    const panel = await preview.open({ width: 1400, height: 900 });
    const { page } = panel;
    await panel.send(graphMessage(layout, { title: 'huge.plan.json' }));
    await page.locator('.graph-canvas .lod-node').first().waitFor({ state: 'attached' });
    const { x, y, zoom } = await viewTransform(page);
    const target = layout.nodes[1500]!;
    const canvas = (await page.locator('.graph-canvas').boundingBox())!;
    await page.mouse.click(canvas.x + x + (target.x + target.width / 2) * zoom, canvas.y + y + (target.y + target.height / 2) * zoom);
    await page.waitForFunction(
      (id) =>
        (window as unknown as { __posted: { type: string; toolId?: string }[] }).__posted.some((message) => message.type === 'reveal' && message.toolId === id),
      target.id,
    );
    assert.equal(
      await node(page, target.id)
        .getAttribute('class')
        .then((classes) => classes?.includes('selected')),
      true,
      'the clicked tool is selected and drawn',
    );
    await panel.send({
      type: 'runStates',
      states: layout.nodes.map((item, index) => ({ id: item.id, state: index % 2 === 0 ? ('success' as const) : ('failed' as const) })),
      reset: true,
    });
    await page.locator('.graph-canvas .lod-node.lod-state-failed').first().waitFor({ state: 'attached' });
    await page.locator('.graph-canvas .lod-node.lod-state-success').first().waitFor({ state: 'attached' });
    await assertClean(panel);
  });
});
