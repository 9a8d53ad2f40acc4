// The beats' lifecycle scene by scene: conditions of every kind, priority, a holding beat waiting at most one scene, skips with reasons, timeouts and fallbacks, outcomes.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { advanceBeats, drawOutcome } from '../../../../src/runtime/campaign/play/beatProgress.js';
import type { StoryBeat } from '../../../../src/runtime/campaign/play/storyCampaign.js';
import { campaignStateOf, type CampaignState } from '../../../../src/runtime/campaign/play/storyState.js';
import type { Evidence } from '../../../../src/runtime/campaign/play/meaningJudge.js';

let index = 0;
function beat(id: string, conditions: Record<string, unknown>, extra: Partial<StoryBeat> = {}): StoryBeat {
  return {
    id,
    index: index++,
    title: id,
    description: `${id} happens`,
    priority: 'medium',
    conditions,
    outcomes: [],
    dialogue: [],
    consequences: [],
    skippable: false,
    ...extra,
  };
}

/** Plays scenes 1..n with a state per scene; returns every scene's result. */
function play(beats: StoryBeat[], scenes: { state?: Record<string, unknown>; choices?: string[]; memories?: Evidence[] }[]) {
  let prior: CampaignState = campaignStateOf({});
  const results = [];
  for (const [at, scene] of scenes.entries()) {
    const choices = [...prior.choices, ...(scene.choices ?? [])];
    const result = advanceBeats(
      { beats },
      { ...prior, choices },
      { scene: at + 1, choices: new Set(choices), state: scene.state ?? {}, memories: scene.memories ?? [], npcs: [] },
      42,
    );
    prior = { ...prior, choices, scene: at + 1, beats: result.beats };
    results.push(result);
  }
  return results;
}

test('a beat triggers in the scene its window opens; one that requires it triggers once it is done', () => {
  const results = play([beat('beat_001', { scene_count: { min: 2, max: 3 } }), beat('beat_002', { requires_beat: 'beat_001' })], [{}, {}, {}]);
  assert.deepEqual(
    results.map((result) => result.triggered.map((each) => each.beat.id)),
    [[], ['beat_001'], ['beat_002']],
  );
  assert.match(results[1]!.triggered[0]!.reason, /held since scene 2: scene_count \(scene 2, scenes 2-3\)/);
  assert.equal(results[2]!.beats['beat_002']!.availableSince, 3);
});

test('higher priority first; a beat holding since an earlier scene triggers, so none waits more than one scene', () => {
  const beats = [
    beat('beat_010', { scene_count: { min: 1 } }, { priority: 'low' }),
    beat('beat_011', { scene_count: { min: 1 } }, { priority: 'critical' }),
    beat('beat_012', { scene_count: { min: 1 } }, { priority: 'high' }),
  ];
  const results = play(beats, [{}, {}]);
  assert.deepEqual(
    results[0]!.triggered.map((each) => each.beat.id),
    ['beat_011'],
  );
  assert.deepEqual(
    results[1]!.triggered.map((each) => [each.beat.id, each.lag]),
    [
      ['beat_012', 1],
      ['beat_010', 1],
    ],
  );
});

test('a beat whose window passed is skipped with the reason, and a beat requiring it is skipped in the same scene', () => {
  const beats = [beat('beat_020', { scene_count: { max: 1 }, player_choice: 'never_taken' }), beat('beat_021', { requires_beat: ['beat_020'] })];
  const results = play(beats, [{}, {}]);
  assert.deepEqual(results[0]!.skipped, []);
  assert.deepEqual(
    results[1]!.skipped.map((each) => each.id),
    ['beat_020', 'beat_021'],
  );
  assert.match(results[1]!.skipped[0]!.reason, /its scenes \(0-1\) passed/);
  assert.match(results[1]!.skipped[1]!.reason, /requires beat_020, which was skipped/);
  assert.equal(results[1]!.beats['beat_021']!.status, 'skipped');
});

test('requires_any_beat is skipped only when all were skipped', () => {
  const beats = [
    beat('beat_030', { scene_count: { max: 0 }, player_choice: 'x' }),
    beat('beat_031', { player_choice: 'y' }),
    beat('beat_032', { requires_any_beat: ['beat_030', 'beat_031'] }),
  ];
  const [first, second] = play(beats, [{}, { choices: ['y'] }]);
  assert.deepEqual(
    first!.skipped.map((each) => each.id),
    ['beat_030'],
  );
  assert.deepEqual(
    second!.triggered.map((each) => each.beat.id),
    ['beat_031'],
  );
  assert.equal(second!.beats['beat_032']!.status, 'waiting');
});

test("a timeout skips the beat after its scenes and makes its fallback due, whatever the fallback's conditions", () => {
  const beats = [
    beat('beat_040', { player_choice: 'never' }, { timeout: { scenes: 2, fallback: 'beat_041' } }),
    beat('beat_041', { player_choice: 'also_never' }),
  ];
  const results = play(beats, [{}, {}, {}, {}]);
  assert.deepEqual(
    results.map((result) => result.skipped.map((each) => each.id)),
    [[], [], ['beat_040'], []],
  );
  assert.match(results[2]!.skipped[0]!.reason, /timed out: 2 scene\(s\) after it became possible \(scene 1\)/);
  assert.deepEqual(
    results[2]!.triggered.map((each) => [each.beat.id, each.reason]),
    [['beat_041', 'the fallback of beat_040, which timed out']],
  );
});

test('player choices, custom expressions, world and npc state read their documented keys', () => {
  const beats = [
    beat('beat_050', { player_choices: ['followed_alder', 'stayed_out_after_dark'] }),
    beat('beat_051', { custom: { expression: 'player.saltlight >= 1 && world.tide == "lowest"' } }),
    beat('beat_052', { world_state: { fog: 'haze', time: 'dusk' } }),
    beat('beat_053', { npc_state: { mira: 'friendly' } }),
  ];
  const state = { player: { saltlight: 1 }, world: { tide: 'lowest', fog: 'Haze', time: 'dusk' }, npcs: { Mira: { attitude: 'friendly' } } };
  const [first, second] = play(beats, [
    { choices: ['followed_alder'], state: { player: { saltlight: 0 } } },
    { choices: ['stayed_out_after_dark'], state },
  ]);
  assert.deepEqual(first!.triggered, []);
  assert.match(first!.checks['beat_050']![0]!.reason, /has not chosen stayed_out_after_dark/);
  assert.match(first!.checks['beat_051']![0]!.reason, /is false \(player\.saltlight = 0, world\.tide = null\)/);
  assert.match(first!.checks['beat_052']![0]!.reason, /world\.fog is not set/);
  assert.deepEqual(
    second!.triggered.map((each) => each.beat.id),
    ['beat_050'],
  );
  // The others held in scene 2 too: they trigger in scene 3 at the latest.
  for (const id of ['beat_051', 'beat_052', 'beat_053']) assert.equal(second!.beats[id]!.status, 'holding', id);
});

test('a free-text condition is judged by meaning against the memories, and the judgement keeps its reason', () => {
  const beats = [beat('beat_060', { player_state: 'has the tower key' })];
  const memories = [
    { source: 'the summary of scene 1', text: 'Scene 1: You walk along the harbour wall.' },
    { source: 'a memory', text: 'You take the tower key from the hook by the door.' },
  ];
  const [first] = play(beats, [{ memories: memories.slice(0, 1) }]);
  const judged = first!.checks['beat_060']![0]!;
  assert.equal(judged.holds, false);
  assert.match(judged.reason, /"has the tower key": nothing in the state or the memories says so/);
  const [again] = play(beats, [{ memories }]);
  assert.equal(again!.triggered[0]?.beat.id, 'beat_060');
  assert.match(again!.checks['beat_060']![0]!.reason, /holds by meaning \(1\.00\): a memory "You take the tower key/);
});

test('an outcome is drawn by its probability with the session seed, and the beat it names is enabled', () => {
  const withOutcomes = beat(
    'beat_070',
    {},
    {
      outcomes: [
        { description: 'yes', triggersBeat: 'beat_071', probability: 1 },
        { description: 'no', probability: 0 },
      ],
    },
  );
  const results = play([withOutcomes, beat('beat_071', { requires_beat: 'beat_099' })], [{}, {}]);
  assert.equal(results[0]!.triggered[0]!.outcome, 'yes');
  assert.equal(results[0]!.beats['beat_071']!.enabledBy, 'beat_070');
  assert.deepEqual(
    results[1]!.triggered.map((each) => each.beat.id),
    ['beat_071'],
  );
  const even = { id: 'beat_072', outcomes: [{ description: 'a' }, { description: 'b' }] };
  const drawn = new Set(Array.from({ length: 40 }, (_, seed) => drawOutcome(even, seed)?.description));
  assert.deepEqual([...drawn].sort(), ['a', 'b']);
  assert.equal(drawOutcome(even, 5)?.description, drawOutcome(even, 5)?.description);
});
