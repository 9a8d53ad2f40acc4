// Plan graph webview in headless Chromium: drawing a real layout, text fit, selection and keyboard, search, focus mode, live runs, stale banner, state across reloads, errors.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { graphMessage, layoutOf, problemPlan, problemSentences, questFinalStates, questPlan, widePlan } from './graphPanelFixtures.js';
import { GraphPanelPreview, type GraphPreviewOptions, type GraphPreviewPage } from './graphPanelPreview.js';
import { assertClean, node, textOverflows, viewTransform } from './graphPanelTestKit.js';

let preview: GraphPanelPreview;
before(async () => {
  preview = await GraphPanelPreview.start();
});
after(() => preview?.close());

const questLayout = layoutOf(questPlan);

async function openQuest(options: GraphPreviewOptions = {}): Promise<GraphPreviewPage> {
  const panel = await preview.open(options);
  await panel.send(graphMessage(questLayout));
  return panel;
}

// Margin: 120 s per test is a safety net against a stuck page; every check waits for a condition, not a time.
describe('plan graph webview', { timeout: 120_000 }, () => {
  test('says ready, then draws every node, edge, band, unknown dependency and problem of a real layout', async () => {
    const panel = await preview.open();
    assert.deepEqual(await panel.posted(), [{ type: 'ready' }]);
    const layout = layoutOf(problemPlan);
    await panel.send(graphMessage(layout, { problems: problemSentences, title: 'problem.plan.json' }));
    const { page } = panel;
    assert.equal(await page.locator('.graph-canvas .node').count(), layout.nodes.length);
    assert.equal(await page.locator('.graph-canvas .edge').count(), layout.edges.length);
    assert.equal(await page.locator('.graph-canvas .edge-cycle').count(), 2);
    assert.equal(await page.locator('.graph-canvas .edge-unknownDependency').count(), 1);
    assert.equal(await page.locator('.graph-canvas .band-label').count(), layout.levels.length);
    assert.equal(await page.locator('.graph-canvas .missing text').textContent(), '? lookup-missing');
    assert.deepEqual(
      await page.locator('.graph-canvas .node .title').allTextContents(),
      layout.nodes.map((item) => item.id),
      'every toolId is drawn as text',
    );
    assert.deepEqual(
      (await page.locator('.graph-canvas .node.in-cycle').evaluateAll((groups) => groups.map((group) => (group as SVGGElement).dataset['toolId']))).sort(),
      ['loop-a', 'loop-b'],
    );
    assert.equal(await page.locator('.graph-canvas .edge').first().getAttribute('marker-end'), 'url(#graph-arrow)');
    assert.match(await page.locator('.problems-strip').innerText(), /2 problems[\s\S]*loop-a → loop-b[\s\S]*lookup-missing/);
    assert.equal(await page.locator('.graph-title').textContent(), 'problem.plan.json');
    assert.equal(await node(page, 'persuade-roll').getAttribute('aria-label'), 'persuade-roll, skill dice-roller, roll.js, not run, timeout 5 s, condition');
    assert.equal(await node(page, 'persuade-roll').getAttribute('role'), 'button');
    await assertClean(panel);
  });

  test('no node text is wider than its box: long ids, wide characters, every badge, run chips', async () => {
    for (const plan of [problemPlan, questPlan, widePlan]) {
      const panel = await preview.open();
      await panel.send(graphMessage(layoutOf(plan)));
      await panel.page.evaluate(() => document.fonts.ready);
      assert.deepEqual(await textOverflows(panel.page), [], 'text fits before a run');
      const states = layoutOf(plan).nodes.map((item, index) => ({ id: item.id, state: 'success' as const, durationMs: 12_345 + index, retryCount: 9 }));
      await panel.send({ type: 'runStates', states, reset: true });
      assert.deepEqual(await textOverflows(panel.page), [], 'text fits with the widest run chips');
      await assertClean(panel);
    }
  });

  test('a click posts reveal; arrows move spatially; Enter reveals; Escape clears the selection', async () => {
    const panel = await openQuest();
    const { page } = panel;
    await node(page, 'portrait').click();
    assert.deepEqual((await panel.posted()).at(-1), { type: 'reveal', toolId: 'portrait' });
    assert.equal(
      await node(page, 'portrait')
        .getAttribute('class')
        .then((value) => value?.includes('selected')),
      true,
    );
    const canvas = page.locator('.graph-canvas');
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('graph-canvas')), true, 'the graph takes focus');
    const selectedId = () => canvas.evaluate((element) => document.getElementById(element.getAttribute('aria-activedescendant') ?? '')?.dataset['toolId']);

    await page.keyboard.press('ArrowUp');
    assert.equal(await selectedId(), 'recall-ferryman', 'Up goes to the dependency');
    await page.keyboard.press('ArrowRight');
    assert.equal(await selectedId(), 'perception', 'Right goes to the next tool in the level');
    await page.keyboard.press('ArrowDown');
    assert.equal(await selectedId(), 'persuade-roll', 'Down goes to the dependent');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await selectedId(), 'portrait');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await selectedId(), 'portrait', 'nothing further left: the selection stays');
    await page.keyboard.press('ArrowDown');
    assert.equal(await selectedId(), 'narrate', 'Down from portrait: its only dependent, two levels below');
    await panel.clearPosted();
    await page.keyboard.press('Enter');
    assert.deepEqual(await panel.posted(), [{ type: 'reveal', toolId: 'narrate' }]);
    await page.keyboard.press('Escape');
    assert.equal(await canvas.getAttribute('aria-activedescendant'), null);
    assert.equal(await page.locator('.graph-canvas .node.selected').count(), 0);
    await assertClean(panel);
  });

  test('a select message highlights the tool and pans it on screen without changing the zoom', async () => {
    const panel = await openQuest({ width: 700, height: 500 });
    const { page } = panel;
    const fitted = await viewTransform(page);
    await page.locator('.graph-canvas').focus();
    for (let step = 0; step < 4; step++) await page.keyboard.press('+');
    const zoomed = await viewTransform(page);
    assert.ok(zoomed.zoom > fitted.zoom * 2, `zoomed in (${fitted.zoom} → ${zoomed.zoom})`);
    await panel.send({ type: 'select', toolId: 'ambience' });
    const after = await viewTransform(page);
    assert.equal(after.zoom, zoomed.zoom, 'the zoom is kept');
    assert.notDeepEqual(after, zoomed, 'the view moved');
    const [box, canvas] = await Promise.all([node(page, 'ambience').locator('.box').boundingBox(), page.locator('.graph-canvas').boundingBox()]);
    assert.ok(
      box && canvas && box.x >= canvas.x && box.y >= canvas.y && box.x + box.width <= canvas.x + canvas.width && box.y + box.height <= canvas.y + canvas.height,
      'the selected node is on screen',
    );
    assert.match((await node(page, 'ambience').getAttribute('class')) ?? '', /\bselected\b/);
    assert.equal(await page.locator('.graph-canvas .edge.related').count(), 1, 'its edge is highlighted');
    await panel.send({ type: 'select', toolId: 'narrate' });
    assert.equal(await page.locator('.graph-canvas .node.selected').count(), 1);
    assert.equal(await page.locator('.graph-canvas .edge.related').count(), 6);
    await panel.send({ type: 'select', toolId: undefined });
    assert.equal(await page.locator('.graph-canvas .node.selected').count(), 0);
    await assertClean(panel);
  });

  test('a select message that arrives before the first graph applies to it', async () => {
    const panel = await preview.open();
    await panel.send({ type: 'select', toolId: 'reputation' }, graphMessage(questLayout));
    assert.equal(await panel.page.locator('.graph-canvas .node.selected').getAttribute('data-tool-id'), 'reputation');
    await panel.send({ type: 'select', toolId: 'no-such-tool' });
    assert.equal(await panel.page.locator('.graph-canvas .node.selected').count(), 0, 'an unknown toolId selects nothing');
    await assertClean(panel);
  });

  test('search highlights matches by toolId or skill, counts them, and Enter jumps from match to match', async () => {
    const panel = await openQuest();
    const { page } = panel;
    const search = page.locator('.search-input');
    await search.fill('ROLL');
    const matches = () =>
      page.locator('.graph-canvas .node.search-match').evaluateAll((groups) => groups.map((group) => (group as SVGGElement).dataset['toolId']));
    assert.deepEqual(await matches(), ['persuade-roll']);
    assert.equal(await page.locator('.search-count').textContent(), '1 match');
    await search.fill('storyTeller');
    assert.deepEqual(await matches(), ['narrate'], 'by skill');
    await search.fill('ra');
    // "ra" is in the toolIds narrate and portrait, and in the skill character-portraits (portrait again).
    assert.deepEqual((await matches()).sort(), ['narrate', 'portrait']);
    assert.equal(await page.locator('.search-count').textContent(), '2 matches');
    assert.equal(await node(page, 'weather').evaluate((group) => getComputedStyle(group).opacity), '0.28', 'the others are dimmed');
    await search.press('Enter');
    assert.equal(await page.locator('.search-count').textContent(), '1 of 2');
    assert.equal(await page.locator('.graph-canvas .node.selected').getAttribute('data-tool-id'), 'portrait', 'matches in reading order: level 1 first');
    await search.press('Enter');
    assert.equal(await page.locator('.graph-canvas .node.selected').getAttribute('data-tool-id'), 'narrate');
    await search.press('Enter');
    assert.equal(await page.locator('.graph-canvas .node.selected').getAttribute('data-tool-id'), 'portrait', 'wraps around');
    await search.press('Shift+Enter');
    assert.equal(await page.locator('.search-count').textContent(), '2 of 2');
    await search.fill('nothing-like-this');
    assert.equal(await page.locator('.search-count').textContent(), 'No matches');
    await search.press('Escape');
    assert.equal(await search.inputValue(), '');
    assert.equal(await page.locator('.graph-canvas.searching').count(), 0);
    await assertClean(panel);
  });

  test('focus mode keeps only the selected tool, its dependencies and its dependents', async () => {
    const panel = await openQuest();
    const { page } = panel;
    await node(page, 'reputation').click();
    await page.keyboard.press('f');
    assert.equal(await page.locator('.focus-button').getAttribute('aria-pressed'), 'true');
    const visible = await page
      .locator('.graph-canvas .node')
      .evaluateAll((groups) => groups.filter((group) => getComputedStyle(group).display !== 'none').map((group) => (group as SVGGElement).dataset['toolId']));
    assert.deepEqual(visible.sort(), ['ambience', 'narrate', 'perception', 'persuade-roll', 'reputation']);
    assert.equal(await node(page, 'weather').isVisible(), false);
    const visibleEdges = await page
      .locator('.graph-canvas .edge')
      .evaluateAll((paths) => paths.filter((path) => getComputedStyle(path).display !== 'none').length);
    assert.equal(visibleEdges, 5);
    // Arrows stay inside the focused set.
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('.graph-canvas .node.selected').getAttribute('data-tool-id'), 'narrate');
    await page.keyboard.press('ArrowUp');
    assert.notEqual(await page.locator('.graph-canvas .node.selected').getAttribute('data-tool-id'), 'weather');
    await panel.screenshot('graph-focus-mode');
    await page.locator('.focus-button').click();
    assert.equal(await node(page, 'weather').isVisible(), true);
    await page.locator('.graph-canvas').focus();
    await page.keyboard.press('f');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.focus-button').getAttribute('aria-pressed'), 'false', 'Escape leaves focus mode');
    await assertClean(panel);
  });

  test('runStates change states in place, announce them, and reset clears them', async () => {
    const panel = await openQuest();
    const { page } = panel;
    await node(page, 'persuade-roll').evaluate((group) => ((group as unknown as { previewMark: number }).previewMark = 1));
    await panel.send({
      type: 'runStates',
      states: [
        { id: 'persuade-roll', state: 'running' },
        { id: 'perception', state: 'retrying', attempt: 2 },
      ],
      reset: true,
      runLabel: 'Run quest',
    });
    assert.equal(await node(page, 'persuade-roll').getAttribute('data-state'), 'running');
    assert.match((await node(page, 'persuade-roll').getAttribute('class')) ?? '', /\bstate-running\b/);
    assert.equal(await node(page, 'persuade-roll').locator('.state-icon').textContent(), '\ueb19', 'the loading codicon');
    assert.match((await node(page, 'perception').getAttribute('aria-label')) ?? '', /retrying \(attempt 2\)/);
    assert.equal(await node(page, 'perception').locator('.run-chip').textContent(), '↻1');
    await panel.send({ type: 'runStates', states: [{ id: 'persuade-roll', state: 'success', durationMs: 1200 }], reset: false });
    assert.equal(await page.locator('.graph-root > [aria-live="polite"]').textContent(), 'persuade-roll: succeeded in 1.2 s');
    assert.equal(await node(page, 'persuade-roll').locator('.run-chip').textContent(), '1.2 s');
    assert.equal(await node(page, 'persuade-roll').locator('.state-icon').textContent(), '\ueba4', 'the pass codicon');
    assert.match((await node(page, 'persuade-roll').getAttribute('aria-label')) ?? '', /^persuade-roll, skill dice-roller, roll\.js, succeeded in 1\.2 s/);
    assert.equal(
      await node(page, 'persuade-roll').evaluate((group) => (group as unknown as { previewMark?: number }).previewMark),
      1,
      'the same element: updated in place, not redrawn',
    );
    assert.match(await page.locator('.run-summary').innerText(), /1 retrying[\s\S]*1 succeeded/);
    // A re-layout while the user types keeps the live states.
    await panel.send(graphMessage(questLayout, { version: 2 }, false));
    assert.equal(await node(page, 'persuade-roll').getAttribute('data-state'), 'success');
    await panel.send({ type: 'runStates', states: [...questFinalStates], reset: false });
    assert.match((await page.locator('.graph-root > [aria-live="polite"]').textContent()) ?? '', /more tools changed/);
    await panel.screenshot('graph-run-overlay');
    await panel.send({ type: 'runStates', states: [], reset: true });
    assert.equal(await page.locator('.graph-canvas .node[data-state]').count(), 0);
    assert.equal(await page.locator('.run-summary').isVisible(), false);
    await assertClean(panel);
  });

  test('the stale banner sits over the still-visible last graph', async () => {
    const panel = await openQuest();
    const { page } = panel;
    await panel.send({ type: 'stale', reason: 'Expected comma at line 12, column 5' });
    assert.equal(await page.locator('.stale-banner').innerText(), 'Showing the last valid graph — Expected comma at line 12, column 5');
    assert.equal(await node(page, 'narrate').isVisible(), true);
    await panel.screenshot('graph-stale');
    await panel.send({ type: 'stale', reason: undefined });
    assert.equal(await page.locator('.stale-banner').isVisible(), false);
    await panel.send(graphMessage(questLayout, { version: 3, staleReason: 'Unexpected end of text' }, false));
    assert.match(await page.locator('.stale-banner').innerText(), /Unexpected end of text/);
    await assertClean(panel);
  });

  test('a new graph with fit: false keeps pan and zoom, fit: true fits, an older version is dropped', async () => {
    const panel = await openQuest();
    const { page } = panel;
    await page.locator('.zoom-in').click();
    await page.mouse.move(600, 400);
    await page.mouse.down();
    await page.mouse.move(500, 340, { steps: 4 });
    await page.mouse.up();
    const moved = await viewTransform(page);
    assert.equal(await page.locator('.zoom-label').textContent(), `${Math.round(moved.zoom * 100)}%`);
    await panel.clearPosted();
    await panel.send(
      graphMessage(
        layoutOf({ tools: [...questPlan.tools, { toolId: 'epilogue', toolPath: 'skills/storyteller/scripts/epilogue.js', dependencies: ['ambience'] }] }),
        { version: 5 },
        false,
      ),
    );
    assert.deepEqual(await viewTransform(page), moved, 'pan and zoom kept while typing');
    assert.equal(await page.locator('.graph-canvas .node').count(), 9);
    assert.deepEqual(await panel.posted(), [], 'the drag selected and revealed nothing');
    await panel.send(graphMessage(questLayout, { version: 4 }, false));
    assert.equal(await page.locator('.graph-canvas .node').count(), 9, 'version 4 came after version 5: dropped');
    await panel.send(graphMessage(questLayout, { version: 6 }, true));
    assert.notDeepEqual(await viewTransform(page), moved);
    assert.equal((await viewTransform(page)).zoom, 1, 'a small graph fits at its natural size');
    await assertClean(panel);
  });

  test('ctrl+wheel zooms at the pointer, the wheel pans, and the zoom buttons step', async () => {
    const panel = await openQuest();
    const { page } = panel;
    const start = await viewTransform(page);
    await page.mouse.move(400, 300);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    // Deterministic: wheel events are dispatched asynchronously; wait for the zoom they cause.
    await page.waitForFunction((zoom) => !(document.querySelector('.world')?.getAttribute('transform') ?? '').endsWith(`scale(${zoom})`), start.zoom);
    const zoomed = await viewTransform(page);
    assert.ok(zoomed.zoom > start.zoom);
    await page.mouse.wheel(0, 100);
    await page.waitForFunction((y) => !(document.querySelector('.world')?.getAttribute('transform') ?? '').includes(` ${y})`), zoomed.y);
    const panned = await viewTransform(page);
    assert.equal(panned.zoom, zoomed.zoom);
    assert.equal(panned.y, zoomed.y - 100);
    await page.locator('.zoom-out').click();
    assert.ok((await viewTransform(page)).zoom < zoomed.zoom);
    await page.locator('.fit-button').click();
    assert.equal((await viewTransform(page)).zoom, 1);
    await assertClean(panel);
  });

  test('pan, zoom, selection, focus mode and search survive a reload (getState/setState)', async () => {
    const panel = await openQuest();
    const { page } = panel;
    await page.locator('.zoom-in').click();
    await node(page, 'portrait').click();
    await page.keyboard.press('f');
    await page.locator('.search-input').fill('narr');
    const transform = await viewTransform(page);
    // Deterministic: setState is coalesced to the next animation frame; wait until it has the search.
    await page.waitForFunction(() => (window as unknown as { __savedState?: { search?: string } }).__savedState?.search === 'narr');
    const saved = await panel.savedState();
    assert.deepEqual(
      { ...(saved as object), viewport: undefined },
      { title: 'quest.plan.json', viewport: undefined, selected: 'portrait', focusMode: true, search: 'narr', timelineCollapsed: false },
    );

    const revived = await preview.open({ savedState: saved });
    await revived.send(graphMessage(questLayout, {}, true));
    assert.deepEqual(await viewTransform(revived.page), transform, 'the saved viewport wins over the first fit');
    assert.equal(await revived.page.locator('.search-input').inputValue(), 'narr');
    assert.equal(await revived.page.locator('.search-count').textContent(), '1 match');
    assert.equal(await revived.page.locator('.focus-button').getAttribute('aria-pressed'), 'true');
    assert.equal(await revived.page.locator('.graph-canvas .node.selected').getAttribute('data-tool-id'), 'portrait');
    assert.equal(await node(revived.page, 'weather').isVisible(), false, 'focus mode is back on');
    await assertClean(revived);

    const other = await preview.open({ savedState: saved });
    await other.send(graphMessage(questLayout, { title: 'another.plan.json' }, true));
    assert.equal((await viewTransform(other.page)).zoom, 1, 'another file is fitted, not given this viewport');
  });

  test('hovering a node shows a themed tooltip with its toolPath, badges, state and input, inside the window', async () => {
    const panel = await openQuest({ width: 900, height: 600 });
    const { page } = panel;
    await panel.send({ type: 'runStates', states: [{ id: 'recall-ferryman', state: 'success', durationMs: 180 }], reset: true });
    await node(page, 'recall-ferryman').locator('.box').hover();
    const tooltip = page.locator('.graph-tooltip');
    await tooltip.waitFor({ state: 'visible' });
    const text = await tooltip.innerText();
    assert.match(text, /recall-ferryman/);
    assert.match(text, /skills\/memory\/scripts\/recall\.js/);
    assert.match(text, /What the hero remembers about the ferryman/);
    assert.match(text, /async/);
    assert.match(text, /succeeded in 180 ms/);
    assert.match(text, /"subject": "ferryman",\n\s+"depth": 2/);
    assert.equal(await page.locator('.graph-tooltip pre').count(), 1);
    // Dragged into the bottom-right corner of the window, the tooltip flips to the pointer's other side to stay inside.
    await page.mouse.move(5, 5);
    await tooltip.waitFor({ state: 'hidden' });
    const box = (await node(page, 'recall-ferryman').locator('.box').boundingBox())!;
    const grab = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await page.mouse.move(grab.x, grab.y);
    await page.mouse.down();
    await page.mouse.move(grab.x + (892 - box.x - box.width), grab.y + (592 - box.y - box.height), { steps: 5 });
    await page.mouse.up();
    const moved = (await node(page, 'recall-ferryman').locator('.box').boundingBox())!;
    await page.mouse.move(moved.x + moved.width - 6, moved.y + moved.height - 6);
    await page.waitForFunction(() => document.querySelector('.graph-tooltip:not([hidden]) .tooltip-title')?.textContent === 'recall-ferryman');
    const bounds = (await tooltip.boundingBox())!;
    assert.ok(
      bounds.x >= 0 && bounds.y >= 0 && bounds.x + bounds.width <= 900 && bounds.y + bounds.height <= 600,
      `inside the window (${JSON.stringify(bounds)})`,
    );
    assert.ok(bounds.x + bounds.width <= moved.x + moved.width - 6, 'flipped to the left of the pointer');
    await panel.screenshot('graph-tooltip');
    await page.mouse.move(5, 5);
    await tooltip.waitFor({ state: 'hidden' });
    await assertClean(panel);
  });

  test('layoutStarted shows progress and an overview until the graph arrives; error replaces the graph', async () => {
    const panel = await preview.open();
    const { page } = panel;
    await panel.send({ type: 'layoutStarted', title: 'huge.plan.json', nodeCount: 1000, levels: [3, 40, 120, 200, 300, 200, 100, 37] });
    assert.match(await page.locator('.layout-progress').innerText(), /Laying out huge\.plan\.json: 1,000 tools in 8 levels/);
    assert.equal(await page.locator('.level-bar').count(), 8);
    await panel.screenshot('graph-layout-progress');
    await panel.send(graphMessage(questLayout));
    assert.equal(await page.locator('.layout-progress').isVisible(), false);
    await panel.send({ type: 'layoutStarted', title: 'quest.plan.json', nodeCount: 8, levels: [3, 2, 1, 1, 1] });
    assert.equal(await page.locator('.level-bar').count(), 0, 'with a graph on screen, only the progress line');
    assert.equal(await node(page, 'narrate').isVisible(), true);
    await panel.send({ type: 'error', message: 'The plan has 60,000 tools: too many to lay out.' });
    assert.match(await page.locator('.canvas-message').innerText(), /could not be drawn[\s\S]*60,000 tools/);
    assert.equal(await page.locator('.graph-canvas .node').count(), 0);
    assert.equal(await page.locator('.export-svg').isDisabled(), true);
    await panel.send(graphMessage(questLayout, { version: 2 }));
    assert.equal(await page.locator('.canvas-message').isVisible(), false);
    await assertClean(panel);
  });

  test('a message the view cannot apply is reported as viewError, and the view keeps working', async () => {
    const panel = await openQuest();
    await panel.send({ type: 'graph', graph: { version: 9 }, fit: true } as never);
    const errors = (await panel.posted()).filter((message) => message.type === 'viewError');
    assert.equal(errors.length, 1);
    assert.match((errors[0] as { message: string }).message, /TypeError/);
    await panel.send({ type: 'select', toolId: 'narrate' });
    assert.equal(await panel.page.locator('.graph-canvas .node.selected').count(), 1);
    assert.deepEqual(await panel.problems(), []);
  });
});
