// `narratoria inspect --record FILE` and `inspect --replay FILE.ndjson`: the recording's two files, the replay's report and its exit codes (0, 1, 2), nothing run on replay.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { narratoria, storyRoot } from './cliHarness.js';

let scratch: string;
before(() => (scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-cli-recording-'))));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('inspect --record writes the raw lines and a sidecar; --replay reports them with the same verdict and exit code', async () => {
  const good = path.join(scratch, 'roll.ndjson');
  const live = await narratoria(['inspect', 'skills/dice-roller/scripts/roll.js', '--input', '{"formula":"2d6-1"}', '--record', good, '--format', 'json']);
  assert.equal(live.code, 0, live.stderr);
  const meta = JSON.parse(readFileSync(`${good}.meta.json`, 'utf8')) as { input: unknown; lines: unknown[] };
  assert.deepEqual(validateAgainst('recording.schema.json', meta), []);
  assert.deepEqual(meta.input, { formula: '2d6-1' });
  assert.equal(readFileSync(good, 'utf8').trimEnd().split('\n').length, meta.lines.length);
  const replayed = await narratoria(['inspect', '--replay', good, '--format', 'json']);
  assert.equal(replayed.code, 0, replayed.stderr);
  const liveReport = JSON.parse(live.stdout) as { verdict: unknown; lines: { status: string }[] };
  const replayReport = JSON.parse(replayed.stdout) as { verdict: unknown; lines: { status: string }[] };
  assert.deepEqual(validateAgainst('inspect-report.schema.json', replayReport), []);
  assert.deepEqual(replayReport.verdict, liveReport.verdict);
  assert.deepEqual(
    replayReport.lines.map((line) => line.status),
    liveReport.lines.map((line) => line.status),
  );
  const text = await narratoria(['inspect', '--replay', good]);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /✔ ok/);
});

test('inspect --replay of a recording that breaks the protocol exits 1; a script deleted since still replays (nothing runs)', async () => {
  const copy = path.join(scratch, 'garbage-copy.js');
  writeFileSync(
    copy,
    readFileSync(path.join(storyRoot, 'skills/faults/scripts/garbage-line.js'), 'utf8').replace("'../../../lib/", `'${path.join(storyRoot, 'lib')}/`),
  );
  const file = path.join(scratch, 'garbage.ndjson');
  const live = await narratoria(['inspect', copy, '--record', file]);
  assert.equal(live.code, 1, live.stdout + live.stderr);
  unlinkSync(copy);
  const replayed = await narratoria(['inspect', '--replay', file, '--format', 'json']);
  assert.equal(replayed.code, 1);
  const report = JSON.parse(replayed.stdout) as { verdict: { code: string }; lines: { status: string }[] };
  assert.equal(report.verdict.code, 'INVALID_JSON');
  assert.ok(report.lines.some((line) => line.status === 'invalid_json'));
  assert.equal(existsSync(copy), false);
});

test('inspect --replay: an unreadable or damaged recording and misused flags exit 2', async () => {
  assert.equal((await narratoria(['inspect', '--replay', path.join(scratch, 'missing.ndjson')])).code, 2);
  const damaged = path.join(scratch, 'damaged.ndjson');
  writeFileSync(damaged, '{"version":"0","type":"done","ok":true}\n');
  writeFileSync(`${damaged}.meta.json`, '{ not json');
  const broken = await narratoria(['inspect', '--replay', damaged]);
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /is not valid JSON/);
  const misuse = await narratoria(['inspect', 'skills/dice-roller/scripts/roll.js', '--replay', damaged]);
  assert.equal(misuse.code, 2);
  assert.match(misuse.stderr, /--replay runs nothing/);
});
