// Playtests of a campaign with the built CLI: expect.beats, expect.ending and expect.lore pass when the story does what they say and fail, at their lines, when it does not.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { narratoria } from './cliHarness.js';

let scratch: string;
let story: string;
before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-campaign-playtests-'));
  story = path.join(scratch, 'salt-lantern');
  const init = await narratoria(['init', story, '--campaign', 'complete']);
  assert.equal(init.code, 0, init.stderr);
  const passing = {
    name: 'The first two beats',
    seed: 3,
    turns: [
      {
        choice: 1,
        expect: {
          beats: { triggered: ['beat_001'], notTriggered: ['beat_002', 'beat_003'], active: ['beat_001'] },
          lore: ['lore/places/the-lantern-tower.md'],
        },
      },
      {
        input: 'Ask Tamsin for help',
        expect: { beats: { triggered: ['beat_001', 'beat_002'], active: ['beat_002'] }, narration: { contains: ["Tamsin's Bargain"] } },
      },
    ],
  };
  const failing = {
    name: 'Expects what does not happen',
    seed: 3,
    turns: [
      {
        input: 'I look around',
        expect: {
          beats: { triggered: ['beat_003'], notTriggered: ['beat_001'] },
          ending: 'rekindled',
          lore: ['lore/history/the-first-keeper.md#1'],
        },
      },
    ],
  };
  writeFileSync(path.join(story, 'playtests', 'beats.playtest.json'), `${JSON.stringify(passing, null, 2)}\n`);
  writeFileSync(path.join(story, 'playtests', 'wrong.playtest.json'), `${JSON.stringify(failing, null, 2)}\n`);
});
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Report {
  readonly playtests: readonly {
    readonly name: string;
    readonly status: string;
    readonly turns: readonly { readonly status: string; readonly failures: readonly { expectation: string; message: string; line: number }[] }[];
  }[];
}

test('beat, ending and lore expectations pass and fail as the campaign plays', async () => {
  const run = await narratoria(['test', '--root', story, '--narrator', 'pattern', '--format', 'json']);
  assert.equal(run.code, 1, run.stderr);
  const report = JSON.parse(run.stdout) as Report;
  assert.deepEqual(validateAgainst('playtest-report.schema.json', report), []);
  const byName = new Map(report.playtests.map((playtest) => [playtest.name, playtest]));
  assert.equal(byName.get('The first two beats')?.status, 'passed', JSON.stringify(byName.get('The first two beats')));
  assert.equal(byName.get('First steps: a seeded dice check, then a look around')?.status, 'passed');
  const wrong = byName.get('Expects what does not happen')!;
  assert.equal(wrong.status, 'failed');
  const failures = wrong.turns[0]!.failures;
  assert.deepEqual(
    failures.map((failure) => failure.expectation),
    ['beats.triggered', 'beats.notTriggered', 'ending', 'lore'],
  );
  const [triggered, notTriggered, ending, lore] = failures;
  assert.match(triggered!.message, /not triggered by this turn: beat_003 is waiting/);
  assert.match(notTriggered!.message, /triggered, which they must not have: beat_001 in scene 1/);
  assert.match(ending!.message, /the ending "rekindled" is not reached: no ending is reached \(in reach: none\)/);
  assert.match(lore!.message, /lore not retrieved for the turn: lore\/history\/the-first-keeper\.md#1 \(retrieved: /);
  // Each failure points at its expectation's line in the file.
  assert.deepEqual(
    failures.map((failure) => failure.line),
    [9, 12, 16, 17],
  );
});
