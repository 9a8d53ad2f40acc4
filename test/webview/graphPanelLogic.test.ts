// The graph view's pure parts in Node: spatial navigation, lineage and search, the search cursor, time ticks, run wording, saved-state parsing.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { GraphIndex } from '../../src/webview/graph/graphIndex.js';
import { directionOfKey, firstNode, nextNode, type Direction } from '../../src/webview/graph/graphNavigation.js';
import { GraphSearch } from '../../src/webview/graph/graphSearch.js';
import { chipText, describeRun } from '../../src/webview/common/stateIcons.js';
import { tickStep, timeTicks } from '../../src/webview/graph/timeAxis.js';
import { parseUiState } from '../../src/webview/graph/uiState.js';
import { layoutOf, problemPlan, questPlan } from './graphPanelFixtures.js';

const quest = new GraphIndex(layoutOf(questPlan));

function walk(index: GraphIndex, from: string, ...directions: Direction[]): string {
  let current = index.byId.get(from)!;
  for (const direction of directions) current = nextNode(index, current, direction);
  return current.id;
}

test('arrows: up to a dependency, down to a dependent, left and right within a level, nowhere beyond the edges', () => {
  assert.equal(walk(quest, 'portrait', 'up'), 'recall-ferryman');
  assert.equal(walk(quest, 'persuade-roll', 'up'), 'perception');
  assert.equal(walk(quest, 'perception', 'down'), 'persuade-roll');
  assert.equal(walk(quest, 'weather', 'down'), 'narrate', 'a dependent two levels down');
  assert.equal(walk(quest, 'narrate', 'down'), 'ambience');
  assert.equal(walk(quest, 'ambience', 'down'), 'ambience');
  assert.equal(walk(quest, 'recall-ferryman', 'up'), 'recall-ferryman');
  const levelZero = quest.levels.get(0)!.map((node) => node.id);
  assert.deepEqual(levelZero, ['recall-ferryman', 'perception', 'weather'], 'left to right');
  assert.equal(walk(quest, 'recall-ferryman', 'right', 'right', 'right'), 'weather');
  assert.equal(walk(quest, 'weather', 'left', 'left', 'left'), 'recall-ferryman');
  assert.equal(directionOfKey('ArrowDown'), 'down');
  assert.equal(directionOfKey('Enter'), undefined);
});

test('Down without a dependent goes to the nearest tool of the closest level below', () => {
  const index = new GraphIndex(
    layoutOf({
      tools: [
        { toolId: 'a', toolPath: 'a.js' },
        { toolId: 'b', toolPath: 'b.js', dependencies: ['a'] },
        { toolId: 'c', toolPath: 'c.js', dependencies: ['b'] },
        { toolId: 'lonely', toolPath: 'l.js', dependencies: ['b'] },
      ],
    }),
  );
  assert.equal(walk(index, 'a', 'down', 'down'), index.byId.get('c')!.x < index.byId.get('lonely')!.x ? 'c' : 'lonely');
  const orphan = new GraphIndex(
    layoutOf({
      tools: [
        { toolId: 'a', toolPath: 'a.js' },
        { toolId: 'b', toolPath: 'b.js', dependencies: ['a'] },
        { toolId: 'free', toolPath: 'f.js' },
      ],
    }),
  );
  assert.equal(nextNode(orphan, orphan.byId.get('free')!, 'down').id, 'b', 'no dependent: the nearest node below');
});

test('focus mode limits where the arrows go', () => {
  const visible = quest.lineage('reputation');
  assert.deepEqual([...visible].sort(), ['ambience', 'narrate', 'perception', 'persuade-roll', 'reputation']);
  const narrate = quest.byId.get('narrate')!;
  const up = nextNode(quest, narrate, 'up', visible);
  assert.ok(visible.has(up.id), `up from narrate stays in focus (${up.id})`);
  assert.equal(nextNode(quest, quest.byId.get('perception')!, 'right', visible).id, 'perception', 'weather is hidden');
  assert.equal(firstNode(quest, visible)?.id, 'perception');
  assert.equal(firstNode(quest)?.id, 'recall-ferryman');
});

test('lineage follows cycles without looping; search matches toolId or skill in reading order', () => {
  const problems = new GraphIndex(layoutOf(problemPlan));
  assert.deepEqual([...problems.lineage('loop-a')].sort(), ['loop-a', 'loop-b']);
  assert.deepEqual(
    quest.search('  ROLL ').map((node) => node.id),
    ['persuade-roll'],
  );
  assert.deepEqual(
    quest.search('ra').map((node) => node.id),
    ['portrait', 'narrate'],
  );
  assert.deepEqual(quest.search(''), []);
  assert.deepEqual(quest.bounds(new Set(['nothing'])), undefined);
});

test('the search cursor starts at the selection, wraps both ways and counts', () => {
  const search = new GraphSearch();
  assert.equal(search.countText(), '');
  search.run(quest, 'a');
  const count = search.matches.length;
  assert.equal(search.countText(), `${count} matches`);
  const first = search.step(false, undefined)!;
  assert.equal(search.countText(), `1 of ${count}`);
  assert.equal(search.step(true, first.id)!.id, search.matches[count - 1]!.id, 'backwards from the first wraps to the last');
  search.run(quest, 'a');
  assert.equal(search.countText(), `${count} of ${count}`, 'the same query keeps the cursor');
  search.run(quest, 'weather');
  assert.equal(search.countText(), '1 match');
  assert.equal(search.step(false, 'weather')!.id, 'weather', 'starting from the selected match, one match cycles to itself');
  search.run(quest, 'zzz');
  assert.equal(search.countText(), 'No matches');
  assert.equal(search.step(false, undefined), undefined);
});

test('time ticks are round and cover the run', () => {
  assert.equal(tickStep(2450), 500);
  assert.equal(tickStep(95), 20);
  assert.equal(tickStep(60_000), 10_000);
  assert.deepEqual(
    timeTicks(2450).map((tick) => tick.label),
    ['0', '500 ms', '1 s', '1.5 s', '2 s'],
  );
  assert.deepEqual(
    timeTicks(1000).map((tick) => tick.percent),
    [0, 20, 40, 60, 80, 100],
  );
  assert.deepEqual(
    timeTicks(0).map((tick) => tick.label),
    ['0', '1 ms'],
  );
});

test('run wording for screen readers and the run chip', () => {
  assert.equal(describeRun({ state: 'success', durationMs: 1200 }), 'succeeded in 1.2 s');
  assert.equal(describeRun({ state: 'failed', durationMs: 80, retryCount: 2 }), 'failed in 80 ms after 2 retries');
  assert.equal(describeRun({ state: 'retrying', attempt: 3 }), 'retrying (attempt 3)');
  assert.equal(describeRun({ state: 'running', durationMs: 10 }), 'running');
  assert.equal(chipText({ state: 'retrying', attempt: 3 }), '↻2');
  assert.equal(chipText({ state: 'success', durationMs: 12_345, retryCount: 9 }), '12.3 s ↻9');
  assert.equal(chipText(undefined), '');
});

test('a saved state is read field by field; anything malformed falls back', () => {
  assert.deepEqual(parseUiState(undefined), {
    title: undefined,
    viewport: undefined,
    selected: undefined,
    focusMode: false,
    search: '',
    timelineCollapsed: false,
  });
  assert.deepEqual(parseUiState({ title: 't', viewport: { x: 1, y: 2, zoom: 0.5 }, selected: 'a', focusMode: true, search: 'q', timelineCollapsed: true }), {
    title: 't',
    viewport: { x: 1, y: 2, zoom: 0.5 },
    selected: 'a',
    focusMode: true,
    search: 'q',
    timelineCollapsed: true,
  });
  assert.equal(parseUiState({ viewport: { x: 1, y: 2, zoom: 0 } }).viewport, undefined);
  assert.equal(parseUiState({ viewport: { x: Number.NaN, y: 2, zoom: 1 } }).viewport, undefined);
  assert.equal(parseUiState({ focusMode: 'yes', search: 3 }).focusMode, false);
});
