// `narratoria explore` on a campaign with the built CLI: beats never triggered and skipped with reasons, endings, SC-004; an unreachable beat exits 1 with a playtest.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import type { ExploreReport } from '../../src/runtime/explore/exploreTypes.js';
import { narratoria } from './cliHarness.js';

let scratch: string;
let story: string;
before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-explore-campaign-'));
  story = path.join(scratch, 'beacon');
  const init = await narratoria(['init', story, '--campaign', 'minimal']);
  assert.equal(init.code, 0, init.stderr);
  mkdirSync(path.join(story, 'plot', 'endings'), { recursive: true });
  const beats = {
    beats: [
      {
        id: 'beat_001',
        title: 'The Cold Beacon',
        description: 'The player finds the beacon on the cliff unlit.',
        conditions: { scene_count: { min: 1, max: 2 } },
        priority: 'critical',
      },
      {
        id: 'beat_002',
        title: 'Fire on the Cliff',
        description: 'The player lights the beacon and ships turn toward it.',
        conditions: { requires_beat: 'beat_001', player_choice: 'lit_the_beacon' },
      },
      // Deliberately unreachable: it needs beat_002, which cannot trigger before scene 2, within scene 1.
      {
        id: 'beat_009',
        title: 'The Impossible Ship',
        description: 'A ship arrives before anyone could have called it.',
        conditions: { requires_beat: 'beat_002', scene_count: { max: 1 } },
      },
    ],
  };
  writeFileSync(path.join(story, 'plot', 'beats.json'), `${JSON.stringify(beats, null, 2)}\n`);
  writeFileSync(path.join(story, 'plot', 'endings', 'lit.md'), '# Ending: The beacon burns\n\nShips come home.\n\n**Reached when** beat_002 happens.\n');
});
after(() => rmSync(scratch, { recursive: true, force: true }));

test('explore names the unreachable beat and why, exits 1, and saves the closest session as a playtest that fails the same way', async () => {
  const run = await narratoria(['explore', '--root', story, '--runs', '4', '--turns', '5', '--seed', '2', '--format', 'json', '--narrator', 'pattern']);
  assert.equal(run.code, 1, run.stderr);
  const report = JSON.parse(run.stdout) as ExploreReport;
  assert.deepEqual(validateAgainst('explore-report.schema.json', report), []);
  const beats = report.story!;
  assert.ok(beats.neverTriggered.includes('beat_009'), JSON.stringify(beats));
  assert.equal(report.problems.byKind.unreached_beat, beats.neverTriggered.length);
  const impossible = beats.beats.find((beat) => beat.id === 'beat_009')!;
  assert.equal(impossible.triggered, 0);
  assert.equal(impossible.medianScene, null);
  assert.deepEqual(Object.keys(impossible.skipReasons), ['its scenes (0-1) passed without its other conditions holding']);
  assert.equal(impossible.skipReasons['its scenes (0-1) passed without its other conditions holding'], 4);
  const first = beats.beats.find((beat) => beat.id === 'beat_001')!;
  assert.equal(first.triggered, 4);
  assert.equal(first.medianScene, 1);
  assert.equal(
    Object.values(beats.endings).reduce((sum, count) => sum + count, 0),
    4,
  );
  assert.ok(beats.sc004.held >= 4);
  assert.equal(beats.sc004.share, 1);
  assert.ok(impossible.closest?.playtest, JSON.stringify(impossible));
  assert.match(impossible.closest!.reason, /scene_count|requires_beat/);

  const saved = path.join(story, impossible.closest!.playtest!);
  assert.ok(existsSync(saved));
  const replay = await narratoria(['test', saved, '--root', story, '--narrator', 'pattern']);
  assert.equal(replay.code, 1, replay.stdout + replay.stderr);
  assert.match(
    replay.stdout,
    /beats\.triggered: not triggered by this turn: beat_009 is skipped \(its scenes \(0-1\) passed without its other conditions holding\)/,
  );

  const text = await narratoria(['explore', '--root', story, '--runs', '2', '--turns', '3', '--seed', '2', '--narrator', 'pattern']);
  assert.equal(text.code, 1);
  assert.match(text.stdout, /Campaign "[^"]+": beats\n {2}beat_001 "The Cold Beacon": triggered in 2 sessions, median scene 1\n/);
  assert.match(text.stdout, / {4}skipped in 2 sessions: its scenes \(0-1\) passed without its other conditions holding\n/);
  assert.match(text.stdout, /beats no session reached: .*beat_009/);
  assert.match(text.stdout, /endings: lit \d+, none \d+/);
});
