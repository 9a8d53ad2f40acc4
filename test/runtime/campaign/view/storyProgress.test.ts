// The play panel's view of a campaign session and the beat graph's play states: from hand-made states, and from a real session of the complete starter campaign.
// Margin: the real session's scripts finish in well under a second; the 120 s tool timeout only replaces the manifests' own, and no test asserts a duration.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { storyProgressOf, turnStoryOf, isCampaignState, type StoryTurnRecord } from '../../../../src/runtime/campaign/view/storyProgress.js';
import { beatPlayOverlay, beatPlayStates } from '../../../../src/runtime/campaign/view/beatPlayStates.js';
import { emptyStoryTurn, type StoryTurn } from '../../../../src/runtime/campaign/play/storyContext.js';
import { PlaySession } from '../../../../src/runtime/session/playSession.js';
import { PatternNarrator } from '../../../../src/runtime/narrator/patternNarrator.js';
import { SkillRegistry } from '../../../../src/runtime/skills/skillRegistry.js';
import { removeCampaignFolders, writeStarterCampaign } from '../campaignFixture.js';

const repo = path.resolve(import.meta.dirname, '../../../..');
after(removeCampaignFolders);

/** A campaign state after three scenes: beat_a triggered in scene 1, beat_b in scene 3 (active), beat_c skipped in 2, beat_d waiting, beat_e holding. */
function state(): Record<string, unknown> {
  return {
    player: { items: ['a lamp'] },
    campaign: {
      title: 'The Salt Lantern',
      scene: 3,
      choices: [],
      offered: [],
      beats: {
        beat_a: {
          status: 'done',
          title: 'The Dark Lantern',
          priority: 'critical',
          scene: 1,
          reason: 'its conditions held since scene 1: scene_count (scene 1)',
        },
        beat_b: { status: 'done', title: "Tamsin's Bargain", priority: 'high', scene: 3, reason: 'its conditions held since scene 2', outcome: 'She agrees' },
        beat_c: {
          status: 'skipped',
          title: 'The Sermon',
          priority: 'medium',
          scene: 2,
          reason: 'its scenes (1-1) passed without its other conditions holding',
        },
        beat_d: { status: 'waiting', title: "The Keeper's Log", priority: 'critical' },
        beat_e: { status: 'holding', title: 'Voices', priority: 'low', heldSince: 3 },
      },
      active: ['beat_b'],
      endingsInReach: [],
      seeded: true,
    },
  };
}

function turn(scene: number, triggered: StoryTurn['triggered'] = [], skipped: StoryTurn['skipped'] = []): StoryTurn {
  return { ...emptyStoryTurn(scene, ''), triggered, skipped };
}

const turns: StoryTurnRecord[] = [
  { index: 1, story: { ...turn(0), opening: true } },
  {
    index: 2,
    story: turn(1, [
      { id: 'beat_a', title: 'The Dark Lantern', reason: 'its conditions held since scene 1: scene_count (scene 1)', lag: 0, told: 'storyteller' },
    ]),
  },
  { index: 3, story: turn(2, [], [{ id: 'beat_c', reason: 'its scenes (1-1) passed without its other conditions holding' }]) },
  {
    index: 4,
    story: turn(3, [{ id: 'beat_b', title: "Tamsin's Bargain", reason: 'its conditions held since scene 2', lag: 1, outcome: 'She agrees', told: 'runtime' }]),
  },
];

test('the story header: title, scene, active beats, beats done in the order they triggered, skipped count, holding beats', () => {
  const story = storyProgressOf(state(), turns);
  assert.ok(story);
  assert.equal(story.title, 'The Salt Lantern');
  assert.equal(story.scene, 3);
  assert.deepEqual(story.active, [{ id: 'beat_b', title: "Tamsin's Bargain" }]);
  assert.deepEqual(
    story.done.map((beat) => beat.id),
    ['beat_a', 'beat_b'],
  );
  assert.equal(story.skipped, 1);
  assert.equal(story.total, 5);
  assert.deepEqual(story.holding, [{ id: 'beat_e', title: 'Voices' }]);
});

test('the beat timeline: each trigger and skip with its scene, its turn and the runtime reason, oldest first', () => {
  const story = storyProgressOf(state(), turns)!;
  assert.deepEqual(
    story.timeline.map((entry) => [entry.event, entry.id, entry.scene, entry.turn, entry.told]),
    [
      ['triggered', 'beat_a', 1, 2, 'storyteller'],
      ['skipped', 'beat_c', 2, 3, undefined],
      ['triggered', 'beat_b', 3, 4, 'runtime'],
    ],
  );
  assert.equal(story.timeline[1]!.title, 'The Sermon', "a skipped beat's title comes from the state");
  assert.match(story.timeline[1]!.reason, /its scenes \(1-1\) passed/);
  assert.equal(story.timeline[2]!.outcome, 'She agrees');
});

test('beats the state records but no turn carries (an older session file) still appear, from the state, without a turn', () => {
  const story = storyProgressOf(state(), [])!;
  assert.deepEqual(
    story.timeline.map((entry) => [entry.event, entry.id, entry.scene, entry.turn]),
    [
      ['triggered', 'beat_a', 1, undefined],
      ['skipped', 'beat_c', 2, undefined],
      ['triggered', 'beat_b', 3, undefined],
    ],
  );
  assert.match(story.timeline[0]!.reason, /held since scene 1/);
});

test('a story that is no campaign has no story view; an ending reached is in the header', () => {
  assert.equal(storyProgressOf({ dice: { lastRoll: 4 } }, []), undefined);
  assert.equal(isCampaignState({}), false);
  const ended = state();
  (ended['campaign'] as Record<string, unknown>)['ending'] = { id: 'rekindled', title: 'The lantern rekindled', scene: 3, reason: 'the player chose it' };
  assert.deepEqual(storyProgressOf(ended, turns)!.ending, { id: 'rekindled', title: 'The lantern rekindled', scene: 3, reason: 'the player chose it' });
});

test("a turn's beats: triggered with why and who told it, skipped with the title from the state, the ending", () => {
  const view = turnStoryOf({ ...turns[2]!.story!, ending: { id: 'drowned', title: 'Drowned', reason: 'judged' } }, state());
  assert.deepEqual(view, {
    scene: 2,
    opening: false,
    triggered: [],
    skipped: [{ id: 'beat_c', title: 'The Sermon', reason: 'its scenes (1-1) passed without its other conditions holding' }],
    ending: { id: 'drowned', title: 'Drowned', reason: 'judged' },
  });
  assert.equal(turnStoryOf(undefined, state()), undefined);
  assert.equal(turnStoryOf(turns[0]!.story, state())!.opening, true);
});

test('the beat graph in play: active, done, skipped and reachable beats with why; a beat that can never happen keeps its own mark', () => {
  const ids = ['beat_a', 'beat_b', 'beat_c', 'beat_d', 'beat_e', 'beat_f'];
  const states = beatPlayStates(state(), ids, new Set(['beat_f']));
  assert.deepEqual(
    states.map((beat) => [beat.id, beat.status]),
    [
      ['beat_a', 'done'],
      ['beat_b', 'active'],
      ['beat_c', 'skipped'],
      ['beat_d', 'reachable'],
      ['beat_e', 'reachable'],
    ],
  );
  assert.match(states[0]!.detail, /^triggered in scene 1: its conditions held since scene 1/);
  assert.match(states[1]!.detail, /^active, triggered in scene 3/);
  assert.match(states[2]!.detail, /^skipped in scene 2: its scenes \(1-1\) passed/);
  assert.match(states[4]!.detail, /hold since scene 3: it triggers next scene/);
  const overlay = beatPlayOverlay('2026-11-29-1015', state(), ids);
  assert.equal(overlay.label, 'Play-through 2026-11-29-1015, scene 3');
  assert.equal(overlay.beats.find((beat) => beat.id === 'beat_f')?.status, 'reachable', 'a beat the state does not know yet can still happen');
});

test('a real session of the complete starter: the opening, then the choice that triggers beat_001 shows in the header, the timeline and the turn', async () => {
  const root = writeStarterCampaign('complete');
  const registry = await SkillRegistry.load({ root, extraSkillRoots: [path.join(repo, 'skills')] });
  const session = await PlaySession.open({
    root,
    file: path.join(root, '.narratoria', 'sessions', 'test', 'session.json'),
    narrator: new PatternNarrator(),
    skills: registry,
    execution: { extraSkillRoots: [path.join(repo, 'skills')], skillContext: registry, toolTimeoutMs: 120_000 },
    attemptLogFile: null,
    seed: 7,
  });
  try {
    const opening = storyProgressOf(session.state, session.turns)!;
    assert.equal(opening.title, 'The Salt Lantern');
    assert.equal(opening.scene, 0);
    assert.deepEqual(opening.timeline, []);
    assert.equal(opening.total, 6);
    const choice = session.lastChoices.findIndex((text) => /^Go to the Lantern tower/.test(text));
    assert.ok(choice >= 0, JSON.stringify(session.lastChoices));
    await session.choose(choice);
    const story = storyProgressOf(session.state, session.turns)!;
    assert.equal(story.scene, 1);
    assert.deepEqual(story.active, [{ id: 'beat_001', title: 'The Dark Lantern' }]);
    assert.deepEqual(
      story.timeline.map((entry) => [entry.event, entry.id, entry.scene, entry.turn]),
      [['triggered', 'beat_001', 1, 2]],
    );
    assert.match(story.timeline[0]!.reason, /^its conditions held since scene 1: /);
    const entry = turnStoryOf(session.turns.at(-1)!.story, session.state)!;
    assert.deepEqual(
      entry.triggered.map((beat) => beat.id),
      ['beat_001'],
    );
    const graph = beatPlayStates(session.state, ['beat_001', 'beat_002', 'beat_003', 'beat_004', 'beat_005', 'beat_006']);
    assert.equal(graph.find((beat) => beat.id === 'beat_001')?.status, 'active');
    assert.ok(graph.filter((beat) => beat.status === 'reachable').length >= 4, JSON.stringify(graph));
  } finally {
    session.dispose();
    registry.dispose();
  }
});
