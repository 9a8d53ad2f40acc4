// The Explore report's Story section as data: never-triggered beats (closest session, playtest), skips by reason, the endings' histogram, median scenes, SC-004.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { exploreStoryView } from '../../../src/runtime/explore/exploreStoryView.js';
import type { ExploreStoryReport } from '../../../src/runtime/explore/exploreTypes.js';

const REPORT: ExploreStoryReport = {
  title: 'The Salt Lantern',
  beats: [
    { id: 'beat_001', title: 'The Dark Lantern', triggered: 8, medianScene: 1, skipped: 0, skipReasons: {} },
    {
      id: 'beat_003',
      title: "The Tide-Priest's Sermon",
      triggered: 0,
      medianScene: null,
      skipped: 2,
      skipReasons: { 'it requires beat_002, which was skipped': 1, 'its scenes (2-5) passed without its other conditions holding': 1 },
      closest: { session: 1, scene: 10, met: 1, of: 4, reason: 'world_state: world.fog is not set', playtest: 'explore/explore-seed-7-beat_003.playtest.json' },
    },
    {
      id: 'beat_004',
      title: "The Keeper's Log",
      triggered: 5,
      medianScene: 4.5,
      skipped: 3,
      skipReasons: { 'its scenes (3-6) passed without its other conditions holding': 3 },
    },
  ],
  neverTriggered: ['beat_003'],
  endings: { departed: 0, rekindled: 2, none: 6 },
  sc004: { held: 21, withinTwoScenes: 21, share: 1, tooLate: 2 },
};

test('the summary, the unreached-beat problem and each beat never triggered with its closest session and playtest', () => {
  const view = exploreStoryView(REPORT, 8);
  assert.equal(view.title, 'The Salt Lantern');
  assert.equal(view.summary, '3 beats: 2 triggered in some session, 1 never.');
  assert.match(view.problem ?? '', /^1 beat no session reached: beat_003\. Each is a problem \(narratoria explore exits 1\)/);
  assert.deepEqual(view.neverTriggered, [
    {
      id: 'beat_003',
      title: "The Tide-Priest's Sermon",
      closest: 'session 1, scene 10: 1 of 4 conditions held; world_state: world.fog is not set',
      playtest: 'explore/explore-seed-7-beat_003.playtest.json',
    },
  ]);
});

test('skipped beats with each reason and its sessions, most frequent first', () => {
  const view = exploreStoryView(REPORT, 8);
  assert.deepEqual(
    view.skipped.map((beat) => [beat.id, beat.sessions, beat.reasons.map((reason) => reason.sessions)]),
    [
      ['beat_003', 2, [1, 1]],
      ['beat_004', 3, [3]],
    ],
  );
});

test('the endings as a histogram ("no ending" last), shares of the sessions, bar lengths against the longest', () => {
  const view = exploreStoryView(REPORT, 8);
  assert.deepEqual(view.endings, [
    { id: 'departed', label: 'departed', sessions: 0, share: 0, length: 0 },
    { id: 'rekindled', label: 'rekindled', sessions: 2, share: 0.25, length: 2 / 6 },
    { id: 'none', label: 'no ending', sessions: 6, share: 0.75, length: 1 },
  ]);
});

test("each beat's sessions and median scene (a dash when it never triggered); SC-004 in words", () => {
  const view = exploreStoryView(REPORT, 8);
  assert.deepEqual(
    view.beats.map((beat) => [beat.id, beat.triggered, beat.medianScene, beat.skipped, beat.neverTriggered]),
    [
      ['beat_001', '8 of 8', '1', 0, false],
      ['beat_003', '0 of 8', '\u2013', 2, true],
      ['beat_004', '5 of 8', '4.5', 3, false],
    ],
  );
  assert.equal(view.sc004, '100.0% of the beats whose conditions held triggered within 2 scenes (21 of 21; 2 held too late in their session to count).');
  const none = exploreStoryView(
    { ...REPORT, sc004: { held: 0, withinTwoScenes: 0, share: null, tooLate: 0 }, beats: [REPORT.beats[0]!], neverTriggered: [] },
    8,
  );
  assert.equal(none.problem, undefined);
  assert.equal(none.sc004, "No beat's conditions held with two scenes left to play.");
});
