// Beat breakpoints and the Story scope's flags, without a debug session: names, lines of the beats file, conditions, hit counts, logpoints; the state keys beats read.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { BeatBreakpoints, isBeatBreakpointName, type BeatCatalog } from '../../../src/runtime/debug/beatBreakpoints.js';
import { beatFlags } from '../../../src/runtime/debug/storyScope.js';
import type { StoryBeat } from '../../../src/runtime/campaign/play/storyCampaign.js';

const catalog: BeatCatalog = {
  file: '/campaign/plot/beats.json',
  beats: [
    { id: 'beat_001', title: 'One', file: '/campaign/plot/beats.json', range: { line: 3, column: 5, endLine: 10, endColumn: 6 } },
    { id: 'beat_002', title: 'Two', file: '/campaign/plot/beats.json', range: { line: 11, column: 5, endLine: 20, endColumn: 6 } },
  ],
};

function breakpoints(): BeatBreakpoints {
  let id = 1;
  return new BeatBreakpoints(() => id++);
}

test('beat: names are recognized whatever their case and spacing', () => {
  assert.equal(isBeatBreakpointName('beat:beat_001'), true);
  assert.equal(isBeatBreakpointName('  Beat: beat_001'), true);
  assert.equal(isBeatBreakpointName('beat_001'), false);
  assert.equal(isBeatBreakpointName('dice-roller'), false);
});

test('function breakpoints: verified for a beat of the campaign, unverified with a reason otherwise', () => {
  const set = breakpoints();
  const statuses = set.setFunctions(
    [{ name: 'beat:beat_002' }, { name: 'beat:' }, { name: 'beat:beat_02' }, { name: 'beat:finale' }, { name: 'beat:beat_001', condition: 'state.a ==' }],
    catalog,
  );
  assert.deepEqual(
    statuses.map((status) => [status.id, status.verified, status.line]),
    [
      [1, true, 11],
      [2, false, undefined],
      [3, false, undefined],
      [4, false, undefined],
      [5, false, undefined],
    ],
  );
  assert.match(statuses[1]!.message!, /name a beat after "beat:"/);
  assert.match(statuses[2]!.message!, /did you mean "beat_002"\?/);
  assert.match(statuses[3]!.message!, /no beat "finale" in this campaign \(its beats: beat_001, beat_002\)/);
  assert.match(statuses[4]!.message!, /^condition: /);
  const outside = breakpoints().setFunctions([{ name: 'beat:beat_001' }], undefined);
  assert.match(outside[0]!.message!, /beat breakpoints hold in a story turn: launch with "playerInput"/);
});

test('lines of the beats file bind to the beat around them, else the nearest one', () => {
  const statuses = breakpoints().setLines([{ line: 12 }, { line: 1 }, { line: 25 }], catalog);
  assert.deepEqual(
    statuses.map((status) => [status.verified, status.line, status.message]),
    [
      [true, 12, undefined],
      [true, 3, 'line 1 is outside every beat: moved to "beat_001"'],
      [true, 11, 'line 25 is outside every beat: moved to "beat_002"'],
    ],
  );
});

test('at a scene: only the triggered beats hold; conditions, hit counts and logpoints as on tools', () => {
  const set = breakpoints();
  set.setFunctions(
    [
      { name: 'beat:beat_001', condition: 'state.campaign.scene >= 2' },
      { name: 'beat:beat_002', hitCondition: '== 2' },
    ],
    catalog,
  );
  set.setLines([{ line: 4, logMessage: 'scene {state.campaign.scene}' }], catalog);
  const scope = (scene: number) => ({ state: { campaign: { scene } }, dependencies: {} });
  const first = set.atScene(['beat_001', 'beat_002'], scope(1));
  assert.deepEqual([first.hitBreakpointIds, first.beats, first.logs], [[], [], ['scene 1']]);
  const second = set.atScene(['beat_001', 'beat_002'], scope(2));
  assert.deepEqual([second.hitBreakpointIds, second.beats, second.byName, second.logs], [[1, 2], ['beat_001', 'beat_002'], true, ['scene 2']]);
  assert.deepEqual(set.atScene(['beat_002'], scope(3)).hitBreakpointIds, [], 'the hit condition held on the second hit only');
  assert.deepEqual(set.atScene([], scope(4)).hitBreakpointIds, []);
});

test("a line breakpoint's hold is a breakpoint, not a function breakpoint", () => {
  const set = breakpoints();
  set.setLines([{ line: 5 }], catalog);
  const decision = set.atScene(['beat_001'], { state: {}, dependencies: {} });
  assert.deepEqual([decision.hitBreakpointIds, decision.byName], [[1], false]);
});

test("the flags: each state key a beat's conditions read, with its value or null", () => {
  const beat = (id: string, conditions: Record<string, unknown>): StoryBeat =>
    ({ id, index: 0, title: id, description: '', priority: 'medium', conditions, outcomes: [], dialogue: [], consequences: [], skippable: false }) as StoryBeat;
  const campaign = {
    beats: [
      beat('a', { player_state: { saltlight: 1 }, world_state: { tide: 'lowest' } }),
      beat('b', { player_state: 'established in Camelot', npc_state: { tamsin: 'worried' } }),
      beat('c', { custom: { expression: 'player.saltlight >= 1 && world.fog == "haze"' }, scene_count: { min: 2 } }),
    ],
    npcs: [{ key: 'tamsin', name: 'Tamsin Reed', aliases: ['tamsin', 'tamsin reed', 'reed'] }] as never,
  };
  const state = { player: { saltlight: 2, items: ['key'] }, npcs: { 'Tamsin Reed': { attitude: 'cordial' } }, world: { tide: 'high' } };
  assert.deepEqual(beatFlags(campaign, state), {
    'player.saltlight': 2,
    'world.tide': 'high',
    player: { saltlight: 2, items: ['key'] },
    'npcs.Tamsin Reed': { attitude: 'cordial' },
    'world.fog': null,
  });
});
