// The tool panel's per-attempt Graph toggle in headless Chromium: the inline plan graph, live node states, keyboard, saved UI state, themes.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { PlayPanelTestId } from '../../src/protocol/playPanelDom.js';
import { INLINE_GRAPH_MAX_TOOLS, type ToPlayWebview, type ToolRunView } from '../../src/protocol/playPanelMessages.js';
import type { PreviewTheme } from './vscodeThemes.js';
import { guardhouseGraph, guardhouseReplanGraph, sessionState, snapshot, toolRun, turnThree, turnThreeInput } from './playPanelFixtures.js';
import { screenshotDir, type PreviewPage } from './playPanelPreview.js';
import { assertClean, byTestId, PlayPanelTestKit } from './playPanelTestKit.js';

const kit = new PlayPanelTestKit();
before(() => kit.start());
after(() => kit.stop());

const firstTools: ToolRunView[] = [
  toolRun(1, 'recall', 'memory', 'pending'),
  toolRun(1, 'roll', 'dice-roller', 'pending'),
  toolRun(1, 'perceive', 'npc-perception', 'pending'),
  toolRun(1, 'narrate', 'storyteller', 'pending'),
];

/** Turn 3 starts and its first attempt announces its tools and its plan's layout. */
const turnStart: readonly ToPlayWebview[] = [
  { type: 'turnStarted', input: turnThreeInput, index: 3 },
  { type: 'attemptStarted', attempt: 1, planId: 'turn-3-guardhouse', narrator: 'pattern', tools: firstTools, graph: guardhouseGraph },
];

function toggleOf(page: Page, attempt: number) {
  return byTestId(page, PlayPanelTestId.graphToggle, `[data-attempt="${attempt}"]`);
}

function graphOf(page: Page, attempt: number) {
  return byTestId(page, PlayPanelTestId.toolGraph, `[data-attempt="${attempt}"]`);
}

/** toolId → data-state of each node of an attempt's graph ('' when it shows no state). */
function nodeStates(page: Page, attempt: number): Promise<Record<string, string>> {
  return graphOf(page, attempt).evaluate((graph) =>
    Object.fromEntries([...graph.querySelectorAll<SVGGElement>('.node')].map((node) => [node.dataset['toolId'] ?? '', node.dataset['state'] ?? ''])),
  );
}

function chipOf(page: Page, attempt: number, toolId: string): Promise<string> {
  return graphOf(page, attempt)
    .locator(`.node[data-tool-id="${toolId}"] .run-chip`)
    .evaluate((chip) => chip.textContent ?? '');
}

/**
 * Every text of the drawing inside its node box (or band), the drawing inside its frame (scaled or scrollable,
 * never cut), and the text big enough to read: failures listed as strings.
 */
function layoutProblems(page: Page, attempt: number): Promise<string[]> {
  // (No named functions in here: tsx would wrap them in a helper the page does not have.)
  return graphOf(page, attempt).evaluate((frame) => {
    const problems: string[] = [];
    /** [what, inner rectangle, outer rectangle]: each inner one must lie inside its outer one. */
    const containments: [string, DOMRect, DOMRect][] = [];
    const drawing = frame.querySelector('svg')!;
    const box = drawing.getBoundingClientRect();
    if (box.width < 50) problems.push(`the drawing is ${box.width}px wide`);
    if (frame.scrollWidth > frame.clientWidth + 1 && getComputedStyle(frame).overflowX !== 'auto') problems.push('the drawing is cut on the right');
    for (const node of frame.querySelectorAll<SVGGElement>('.node')) {
      const nodeBox = node.querySelector('.box')!.getBoundingClientRect();
      containments.push([`${node.dataset['toolId']}: the node`, nodeBox, box]);
      for (const text of node.querySelectorAll<SVGTextElement>('text')) {
        if (text.textContent) containments.push([`${node.dataset['toolId']}: "${text.textContent}"`, text.getBoundingClientRect(), nodeBox]);
      }
      const title = node.querySelector<SVGTextElement>('.title')!.getBoundingClientRect();
      if (title.height < 8) problems.push(`${node.dataset['toolId']}: the title is ${title.height}px high`);
    }
    for (const label of frame.querySelectorAll<SVGTextElement>('.band-label'))
      containments.push([`"${label.textContent}"`, label.getBoundingClientRect(), box]);
    for (const [what, inner, outer] of containments) {
      if (inner.left < outer.left - 0.5 || inner.right > outer.right + 0.5 || inner.top < outer.top - 0.5 || inner.bottom > outer.bottom + 0.5)
        problems.push(`${what} leaves its box`);
    }
    return problems;
  });
}

async function streamFirstAttempt(panel: PreviewPage): Promise<void> {
  await panel.send(
    { type: 'toolUpdated', tool: toolRun(1, 'recall', 'memory', 'success', { durationMs: 12 }) },
    { type: 'toolUpdated', tool: toolRun(1, 'roll', 'dice-roller', 'success', { durationMs: 84 }) },
    { type: 'toolUpdated', tool: toolRun(1, 'perceive', 'npc-perception', 'running') },
  );
}

// Margin: 120 s per test is a safety net against a stuck page; every check waits for a condition, not a time.
describe('play panel webview: inline plan graphs', { timeout: 120_000 }, () => {
  test('the Graph toggle shows the attempt’s plan with every toolId, and node states follow toolUpdated in place', async () => {
    const panel = await kit.openWithSession();
    const { page } = panel;
    await panel.send(...turnStart);
    const toggle = toggleOf(page, 1);
    assert.equal(await toggle.isVisible(), true);
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    assert.equal(await toggle.locator('.codicon-type-hierarchy-sub').count(), 1);
    assert.match(await toggle.innerText(), /Graph/);
    assert.equal(await graphOf(page, 1).count(), 0, 'the drawing is built when first shown');

    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    assert.equal(await graphOf(page, 1).isVisible(), true);
    assert.deepEqual(await nodeStates(page, 1), { recall: 'pending', roll: 'pending', perceive: 'pending', narrate: 'pending' });
    const texts = await graphOf(page, 1).locator('.node .title').allTextContents();
    assert.deepEqual(texts.sort(), firstTools.map((tool) => tool.toolId).sort(), 'every toolId of the attempt is drawn');
    assert.equal(await graphOf(page, 1).locator('.edge').count(), 4);
    assert.equal(await graphOf(page, 1).locator('.node .badge-label').first().textContent(), 'retry ×2');

    // Mark the drawing: an update must change the same elements, not draw a new graph.
    await graphOf(page, 1)
      .locator('svg')
      .evaluate((drawing) => drawing.setAttribute('data-marked', 'yes'));
    await streamFirstAttempt(panel);
    assert.equal(await graphOf(page, 1).locator('svg[data-marked="yes"]').count(), 1, 'states change in place');
    assert.deepEqual(await nodeStates(page, 1), { recall: 'success', roll: 'success', perceive: 'running', narrate: 'pending' });
    assert.equal(await chipOf(page, 1, 'roll'), '84 ms', 'durations appear as tools finish');
    assert.equal(await chipOf(page, 1, 'perceive'), '');

    await panel.send({ type: 'toolUpdated', tool: toolRun(1, 'perceive', 'npc-perception', 'retrying', { retries: 1 }) });
    assert.equal((await nodeStates(page, 1))['perceive'], 'retrying');
    assert.equal(await chipOf(page, 1, 'perceive'), '↻1');
    assert.match((await graphOf(page, 1).locator('.node[data-tool-id="perceive"]').getAttribute('aria-label')) ?? '', /retrying \(attempt 2\)/);

    await panel.send(
      {
        type: 'toolUpdated',
        tool: toolRun(1, 'perceive', 'npc-perception', 'timeout', {
          retries: 1,
          durationMs: 5004,
          error: { category: 'timeout', message: 'perceive took longer than 5 s' },
        }),
      },
      { type: 'toolUpdated', tool: toolRun(1, 'narrate', 'storyteller', 'skipped') },
    );
    assert.deepEqual(await nodeStates(page, 1), { recall: 'success', roll: 'success', perceive: 'timeout', narrate: 'skipped' });
    assert.equal(await chipOf(page, 1, 'perceive'), '5 s ↻1');
    assert.match(
      (await graphOf(page, 1).locator('.node[data-tool-id="perceive"]').getAttribute('aria-label')) ?? '',
      /perceive, skill npc-perception, query\.js, timed out in 5 s after 1 retry/,
    );
    assert.equal(await graphOf(page, 1).locator('.node[role="img"]').count(), 4, 'nodes are labelled images here, not buttons');
    assert.equal(await graphOf(page, 1).getAttribute('aria-label'), 'Plan graph of attempt 1: 4 tools');

    assert.deepEqual(await layoutProblems(page, 1), []);
    const saved = (await panel.savedState()) as { openGraphs: string[] };
    assert.deepEqual(saved.openGraphs, ['3/1/turn-3-guardhouse'], 'the toggle is kept in the UI state');
    await panel.screenshot('dark-wide-inline-graph-states');
    await graphOf(page, 1).screenshot({ path: path.join(screenshotDir, 'dark-inline-graph-states-closeup.png'), animations: 'disabled' });

    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    assert.equal(await graphOf(page, 1).isVisible(), false);
    assert.deepEqual(((await panel.savedState()) as { openGraphs: string[] }).openGraphs, []);
    await assertClean(panel);
  });

  test('the toggle works from the keyboard and a replan opens the next attempt’s graph; ids stay unique', async () => {
    const panel = await kit.openWithSession();
    const { page } = panel;
    await panel.send(...turnStart);
    await page.locator('.attempt-group[data-attempt="1"] .attempt-header').focus();
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset['testid']),
      PlayPanelTestId.graphToggle,
      'Tab reaches the toggle',
    );
    await page.keyboard.press('Enter');
    assert.equal(await toggleOf(page, 1).getAttribute('aria-pressed'), 'true');
    assert.equal(await graphOf(page, 1).isVisible(), true);
    await page.keyboard.press('Space');
    assert.equal(await toggleOf(page, 1).getAttribute('aria-pressed'), 'false');
    await page.keyboard.press('Space');
    assert.equal(await toggleOf(page, 1).getAttribute('aria-pressed'), 'true');
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset['testid']),
      PlayPanelTestId.toolGraph,
      'the drawing is a tab stop, so a keyboard can scroll it',
    );
    await toggleOf(page, 1).focus();

    // A redraw of the attempt (a tool the first message did not list) keeps the toggle focused and the graph open.
    await panel.send({ type: 'toolUpdated', tool: toolRun(1, 'recall_rp1', 'memory', 'running') });
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset['testid']), PlayPanelTestId.graphToggle);
    assert.equal(await graphOf(page, 1).isVisible(), true);
    assert.equal(await graphOf(page, 1).locator('.node').count(), 4, 'tools added by re-planning are listed, not drawn');

    await streamFirstAttempt(panel);
    await panel.send(
      {
        type: 'attemptFinished',
        attempt: {
          attempt: 1,
          planId: 'turn-3-guardhouse',
          narrator: 'pattern',
          outcome: 'failed',
          failedTools: ['perceive'],
          disabledSkills: [],
          tools: ['recall', 'roll', 'perceive', 'narrate'],
        },
      },
      {
        type: 'attemptStarted',
        attempt: 2,
        planId: 'turn-3-guardhouse-r1',
        narrator: 'pattern',
        tools: [toolRun(2, 'roll', 'dice-roller', 'running'), toolRun(2, 'narrate', 'storyteller', 'pending')],
        graph: guardhouseReplanGraph,
      },
    );
    assert.equal(await graphOf(page, 1).isVisible(), false, 'the folded attempt hides its graph');
    assert.equal(await toggleOf(page, 2).getAttribute('aria-pressed'), 'true', 'the replan’s graph opens like the previous one');
    assert.deepEqual(await nodeStates(page, 2), { roll: 'running', narrate: 'pending' });

    // Pressing Graph on a folded attempt unfolds it.
    await toggleOf(page, 1).click();
    await toggleOf(page, 1).click();
    assert.equal(await page.locator('.attempt-group[data-attempt="1"] .attempt-header').getAttribute('aria-expanded'), 'true');
    assert.equal(await graphOf(page, 1).isVisible(), true);
    const duplicates = await page.evaluate(() => {
      const ids = [...document.querySelectorAll('[id]')].map((element) => element.id);
      return ids.filter((id, index) => ids.indexOf(id) !== index);
    });
    assert.deepEqual(duplicates, [], 'two drawings share no element id (arrowheads, nodes)');
    const markerTargets = await page
      .locator('[data-testid="tool-graph"] .edge')
      .evaluateAll((edges) =>
        edges.every((edge) => document.getElementById((edge.getAttribute('marker-end') ?? '').slice(5, -1))?.closest('svg') === edge.closest('svg')),
      );
    assert.equal(markerTargets, true, 'each drawing’s edges point to its own arrowheads');

    await panel.send(
      { type: 'toolUpdated', tool: toolRun(2, 'roll', 'dice-roller', 'success', { durationMs: 71 }) },
      { type: 'toolUpdated', tool: toolRun(2, 'narrate', 'storyteller', 'success', { durationMs: 1250 }) },
      {
        type: 'attemptFinished',
        attempt: {
          attempt: 2,
          planId: 'turn-3-guardhouse-r1',
          narrator: 'pattern',
          outcome: 'success',
          failedTools: [],
          disabledSkills: ['npc-perception'],
          tools: ['roll', 'narrate'],
        },
      },
      {
        type: 'turnFinished',
        turn: turnThree([
          {
            attempt: 1,
            planId: 'turn-3-guardhouse',
            narrator: 'pattern',
            outcome: 'failed',
            failedTools: ['perceive'],
            disabledSkills: [],
            tools: ['recall', 'roll', 'perceive', 'narrate'],
            graph: guardhouseGraph,
          },
          {
            attempt: 2,
            planId: 'turn-3-guardhouse-r1',
            narrator: 'pattern',
            outcome: 'success',
            failedTools: [],
            disabledSkills: ['npc-perception'],
            tools: ['roll', 'narrate'],
            graph: guardhouseReplanGraph,
          },
        ]),
        state: sessionState,
        maxAttemptsReached: false,
      },
    );
    assert.deepEqual(await nodeStates(page, 2), { roll: 'success', narrate: 'success' }, 'the finished turn keeps the live states');
    assert.equal(await chipOf(page, 2, 'narrate'), '1.3 s');
    await assertClean(panel);
  });

  test('the toggle persists with getState/setState: a revived panel shows the graph again, mid-turn and after the turn', async () => {
    const first = await kit.openWithSession();
    await first.send(...turnStart);
    await toggleOf(first.page, 1).click();
    const saved = await first.savedState();

    // Revived mid-turn: the snapshot replays the running attempt with its layout.
    const revived = await kit.openWithSession(
      { savedState: saved },
      {
        busy: true,
        runningInput: turnThreeInput,
        runningAttempts: [
          {
            attempt: 1,
            planId: 'turn-3-guardhouse',
            narrator: 'pattern',
            tools: firstTools.map((tool) => (tool.toolId === 'roll' ? { ...tool, status: 'running' as const } : tool)),
            graph: guardhouseGraph,
          },
        ],
      },
    );
    assert.equal(await toggleOf(revived.page, 1).getAttribute('aria-pressed'), 'true');
    assert.equal(await graphOf(revived.page, 1).isVisible(), true);
    assert.equal((await nodeStates(revived.page, 1))['roll'], 'running');
    await assertClean(revived);

    // Revived after the turn: the recorded turn's attempts carry their layouts; recorded outcomes become node states.
    const finishedTurn = turnThree([
      {
        attempt: 1,
        planId: 'turn-3-guardhouse',
        narrator: 'pattern',
        outcome: 'failed',
        failedTools: ['perceive'],
        disabledSkills: [],
        tools: ['recall', 'roll', 'perceive', 'narrate'],
        graph: guardhouseGraph,
      },
    ]);
    const later = await kit.open({ savedState: saved });
    const base = snapshot(kit.origin);
    await later.send({ type: 'snapshot', snapshot: { ...base, turns: [...base.turns, finishedTurn] } });
    assert.equal(await toggleOf(later.page, 1).getAttribute('aria-pressed'), 'true');
    assert.deepEqual(await nodeStates(later.page, 1), { recall: '', roll: '', perceive: 'failed', narrate: '' }, 'a saved turn knows only its failed tools');
    await assertClean(later);
  });

  test('saved turns without a plan offer no toggle; a plan too big to draw says so and offers nothing else', async () => {
    const panel = await kit.openWithSession();
    const { page } = panel;
    assert.equal(await byTestId(page, PlayPanelTestId.graphToggle).count(), 0, 'the saved session’s turns have no plan to draw');

    const count = INLINE_GRAPH_MAX_TOOLS + 1;
    const tools = Array.from({ length: count }, (_, index) => toolRun(1, `step${index}`, 'dice-roller', 'pending'));
    await panel.send(
      { type: 'turnStarted', input: 'Roll for every guard', index: 3 },
      { type: 'attemptStarted', attempt: 1, planId: 'turn-3-huge', narrator: 'pattern', tools },
    );
    const toggle = toggleOf(page, 1);
    assert.match((await toggle.getAttribute('aria-label')) ?? '', /too big to draw inline/);
    await toggle.press('Enter');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    const area = page.locator('.attempt-group[data-attempt="1"] .attempt-graph');
    assert.equal(await area.innerText(), `This plan has ${count} tools: too big to draw inline (the limit is ${INLINE_GRAPH_MAX_TOOLS}).`);
    assert.equal(await area.locator('svg, button, a').count(), 0, 'nothing else is offered');

    await panel.send(
      { type: 'turnStarted', input: 'Just talk', index: 4 },
      { type: 'attemptStarted', attempt: 1, planId: 'turn-4-talk', narrator: 'pattern', tools: [] },
    );
    assert.equal(await byTestId(page, PlayPanelTestId.graphToggle).count(), 0, 'a narrative-only plan has nothing to draw');
    await assertClean(panel);
  });

  for (const theme of ['dark', 'light'] as const satisfies readonly PreviewTheme[]) {
    test(`the inline graph follows the ${theme} theme, in a wide and a narrow panel`, async () => {
      for (const width of [1280, 560]) {
        const panel = await kit.openWithSession({ theme, width, height: 900 });
        const { page } = panel;
        await panel.send(...turnStart);
        await streamFirstAttempt(panel);
        await toggleOf(page, 1).click();
        const shown = await graphOf(page, 1).evaluate((frame) => {
          const body = frame.closest('.section-body')!.getBoundingClientRect();
          const drawn = frame.getBoundingClientRect();
          return drawn.top >= body.top - 1 && drawn.top < body.bottom - 40;
        });
        assert.equal(shown, true, 'opening the graph scrolls the tool section to it');
        assert.deepEqual(await layoutProblems(page, 1), []);
        const colours = await graphOf(page, 1).evaluate((frame) => ({
          frame: getComputedStyle(frame).backgroundColor,
          title: getComputedStyle(frame.querySelector('.node .title')!).fill,
          box: getComputedStyle(frame.querySelector('.node .box')!).fill,
          success: getComputedStyle(frame.querySelector('.node[data-tool-id="roll"] .state-icon')!).fill,
          running: getComputedStyle(frame.querySelector('.node[data-tool-id="perceive"] .state-icon')!).fill,
        }));
        const expected =
          theme === 'dark'
            ? { frame: 'rgb(31, 31, 31)', title: 'rgb(204, 204, 204)', success: 'rgb(115, 201, 145)', running: 'rgb(55, 148, 255)' }
            : { frame: 'rgb(255, 255, 255)', title: 'rgb(59, 59, 59)', success: 'rgb(56, 138, 52)', running: 'rgb(26, 133, 255)' };
        assert.deepEqual({ ...colours, box: undefined }, { ...expected, box: undefined }, 'colours come from the theme variables');
        assert.notEqual(colours.box, colours.frame, 'node boxes stand out from the background');
        const scale = await graphOf(page, 1).evaluate((frame) => {
          const drawing = frame.querySelector('svg')!;
          return { drawn: drawing.getBoundingClientRect().width, frame: frame.clientWidth, natural: drawing.viewBox.baseVal.width };
        });
        assert.ok(scale.drawn <= scale.natural + 0.5, `never drawn above its natural size (${JSON.stringify(scale)})`);
        assert.ok(
          scale.drawn <= scale.frame + 0.5 || scale.drawn >= scale.natural * 0.75 - 1,
          `fits the panel width or scrolls at the smallest readable scale (${JSON.stringify(scale)})`,
        );
        await panel.screenshot(`${theme}-${width < 900 ? 'narrow' : 'wide'}-inline-graph`);
        if (width > 900) await graphOf(page, 1).screenshot({ path: path.join(screenshotDir, `${theme}-inline-graph-closeup.png`), animations: 'disabled' });
        await assertClean(panel);
      }
    });
  }
});
