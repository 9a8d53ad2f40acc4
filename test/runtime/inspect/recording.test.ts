// Recordings of skill-script runs: every fault fixture gives the same line statuses and verdict live and replayed, the sidecar follows contracts/recording.schema.json, and damaged recordings are refused.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';
import { inspectRecording } from '../../../src/runtime/inspect/inspectReplay.js';
import { inspectScript } from '../../../src/runtime/inspect/inspectScript.js';
import { metaFileOf, readRecording, RecordingError, writeRecording } from '../../../src/runtime/inspect/recording.js';
import { diagnoseNdjson } from '../../../src/runtime/inspect/ndjsonDiagnostics.js';

const story = path.resolve(import.meta.dirname, '../../fixtures/story');
let scratch: string;
before(() => (scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-recording-'))));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The fault fixtures that end on their own (hang and ignore-sigterm need a timeout; given one, they are here too). */
const scripts: readonly { readonly script: string; readonly timeoutMs?: number }[] = [
  { script: 'skills/faults/scripts/bad-version.js' },
  { script: 'skills/faults/scripts/crash-mid-stream.js' },
  { script: 'skills/faults/scripts/done-not-ok.js' },
  { script: 'skills/faults/scripts/events-after-done.js' },
  { script: 'skills/faults/scripts/garbage-line.js' },
  { script: 'skills/faults/scripts/huge-line.js' },
  { script: 'skills/faults/scripts/no-done-exit0.js' },
  { script: 'skills/faults/scripts/no-done-exit1.js' },
  { script: 'skills/faults/scripts/non-utf8.js' },
  { script: 'skills/faults/scripts/partial-last-line.js' },
  { script: 'skills/faults/scripts/stderr-flood.js' },
  { script: 'skills/faults/scripts/unknown-type.js' },
  // Margin: a short timeout so the test never waits for the default one; nothing here measures it.
  { script: 'skills/faults/scripts/hang.js', timeoutMs: 1500 },
  { script: 'skills/helpers/scripts/echo.js' },
  { script: 'skills/helpers/scripts/patches.js' },
];

for (const { script, timeoutMs } of scripts) {
  test(`${path.basename(script)}: the same statuses and verdict live and replayed`, async () => {
    const live = await inspectScript({
      scriptPath: script,
      root: story,
      record: true,
      input: { patches: [{ a: 1 }, { b: 2 }] },
      ...(timeoutMs ? { timeoutMs } : {}),
    });
    assert.ok(live.recording, 'a recording was kept');
    const file = path.join(scratch, `${path.basename(script)}.ndjson`);
    await writeRecording(file, live.recording);
    const meta = JSON.parse(readFileSync(metaFileOf(file), 'utf8')) as unknown;
    assert.deepEqual(validateAgainst('recording.schema.json', meta), []);
    const replayed = inspectRecording(await readRecording(file), file);
    assert.deepEqual(
      replayed.lines.map((line) => [line.lineNumber, line.status, line.problem]),
      live.lines.map((line) => [line.lineNumber, line.status, line.problem]),
    );
    assert.deepEqual(
      replayed.lines.map((line) => line.elapsedMs),
      live.lines.map((line) => line.elapsedMs),
      'the recorded timing',
    );
    assert.deepEqual(replayed.verdict, live.verdict);
    assert.deepEqual(validateAgainst('inspect-report.schema.json', replayed), []);
    assert.equal(replayed.stderr.endsWith(live.stderr.slice(-200)), true, 'stderr is kept');
  });
}

test('an .ndjson file without a sidecar replays as written at 0 ms by a process that exited 0', async () => {
  const file = path.join(scratch, 'bare.ndjson');
  writeFileSync(file, '{"version":"0","type":"log","level":"info","message":"hi"}\nnot json\n{"version":"0","type":"done","ok":true}\n');
  const report = inspectRecording(await readRecording(file), file);
  assert.deepEqual(
    report.lines.map((line) => line.status),
    ['event', 'invalid_json', 'event'],
  );
  assert.deepEqual([report.verdict.ok, report.verdict.code], [false, 'INVALID_JSON']);
});

test('a sidecar that does not match its .ndjson file, or is not a sidecar, is refused with the reason', async () => {
  const file = path.join(scratch, 'damaged.ndjson');
  writeFileSync(file, '{"version":"0","type":"done","ok":true}\n');
  writeFileSync(
    metaFileOf(file),
    JSON.stringify({ formatVersion: 1, script: 'x', input: {}, durationMs: 0, lines: [], stderr: [], exitCode: 0, signal: null, timedOut: false }),
  );
  await assert.rejects(
    readRecording(file),
    (error: unknown) => error instanceof RecordingError && /1 line\(s\) but its sidecar describes 0/.test(error.message),
  );
  writeFileSync(metaFileOf(file), '{"hello": 1}');
  await assert.rejects(readRecording(file), (error: unknown) => error instanceof RecordingError && /not a recording sidecar/.test(error.message));
  await assert.rejects(
    readRecording(path.join(scratch, 'missing.ndjson')),
    (error: unknown) => error instanceof RecordingError && /cannot read/.test(error.message),
  );
});

test('diagnostics of an .ndjson text: invalid JSON at its column, an unknown type with a suggestion, a schema violation, a line after done', () => {
  const text = [
    '{"version":"0","type":"log","level":"info","message":"ok"}',
    '{"version":"0","type":"lgo","level":"info","message":"typo"}',
    '{"version":"0","type":"log","level":"loud","message":"bad level"}',
    '{"version":"0","type" "log"}',
    '{"version":"0","type":"done","ok":true}',
    '{"version":"0","type":"log","level":"info","message":"late"}',
  ].join('\n');
  const diagnostics = diagnoseNdjson(`${text}\n`);
  assert.deepEqual(
    diagnostics.map((diagnostic) => [diagnostic.line, diagnostic.code, diagnostic.severity]),
    [
      [2, 'UNKNOWN_EVENT_TYPE', 'error'],
      [3, 'INVALID_EVENT', 'error'],
      [4, 'INVALID_JSON', 'error'],
      [6, 'EVENT_AFTER_DONE', 'warning'],
    ],
  );
  assert.match(diagnostics[0]!.message, /did you mean "log"\?/);
  assert.equal(diagnostics[0]!.column, text.split('\n')[1]!.indexOf('"lgo"') + 1);
  assert.match(diagnostics[1]!.message, /\/level/);
  assert.equal(diagnostics[2]!.column, '{"version":"0","type" '.length + 1, 'the column where JSON.parse stopped');
});

test('diagnostics of an .ndjson text without a done event report it on the last line', () => {
  const diagnostics = diagnoseNdjson('{"version":"0","type":"log","level":"info","message":"only"}\n');
  assert.deepEqual(
    diagnostics.map((diagnostic) => [diagnostic.line, diagnostic.code]),
    [[1, 'MISSING_DONE']],
  );
});
