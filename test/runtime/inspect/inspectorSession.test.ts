// The Inspector panel's model: rows and marks, the state after each patch, the row cap, stderr and the verdict card (retryable as the executor decides).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { inspectScript } from '../../../src/runtime/inspect/inspectScript.js';
import { InspectorSession } from '../../../src/runtime/inspect/inspectorSession.js';
import { recordingOfText, type Recording } from '../../../src/runtime/inspect/recording.js';

const story = path.resolve(import.meta.dirname, '../../fixtures/story');

async function live(script: string, input: Record<string, unknown> = {}, timeoutMs?: number): Promise<InspectorSession> {
  const session = new InspectorSession();
  const report = await inspectScript({
    scriptPath: script,
    root: story,
    input,
    ...(timeoutMs ? { timeoutMs } : {}),
    onLine: (line) => session.addLine(line),
    onStderr: (chunk) => session.addStderr(chunk),
  });
  session.finish(report);
  return session;
}

test('patches: the state after each state_patch, with the keys it changed, and a successful card', async () => {
  const session = await live('skills/helpers/scripts/patches.js', { patches: [{ a: 1 }, { b: { c: 2 } }, { a: null }] });
  const patches = session.rows.filter((row) => row.type === 'state_patch');
  assert.equal(patches.length, 3);
  assert.deepEqual(
    patches.map((row) => row.state?.changed),
    [['a'], ['b'], ['a']],
  );
  assert.deepEqual(
    patches.map((row) => row.state?.after),
    [{ a: 1 }, { a: 1, b: { c: 2 } }, { b: { c: 2 } }],
  );
  assert.ok(session.rows.every((row) => row.mark === 'ok'));
  assert.equal(session.verdict?.ok, true);
  assert.equal(session.verdict?.retryable, false);
  assert.equal(session.verdict?.exitCode, 0);
  assert.equal(session.verdict?.done?.ok, true);
});

test('garbage line: an ✖ row with its problem, invalid_json, and a plan would retry it', async () => {
  const session = await live('skills/faults/scripts/garbage-line.js');
  const bad = session.rows.find((row) => row.status === 'invalid_json');
  assert.ok(bad);
  assert.equal(bad.mark, 'error');
  assert.equal(bad.type, 'invalid');
  assert.match(bad.problem ?? '', /JSON/);
  assert.equal(session.verdict?.category, 'invalid_json');
  assert.equal(session.verdict?.retryable, true);
});

test('events after done are ⚠ rows; done.ok false is a retryable tool_failure', async () => {
  const after = await live('skills/faults/scripts/events-after-done.js');
  assert.ok(after.rows.some((row) => row.status === 'after_done' && row.mark === 'warning' && row.type === 'ignored'));
  const failed = await live('skills/faults/scripts/done-not-ok.js');
  assert.deepEqual([failed.verdict?.category, failed.verdict?.retryable, failed.verdict?.done?.ok], ['tool_failure', true, false]);
});

test('a timeout is retryable; stderr is kept with its time', async () => {
  const hung = await live('skills/faults/scripts/hang.js', {}, 800);
  assert.deepEqual([hung.verdict?.category, hung.verdict?.retryable, hung.verdict?.timedOut], ['timeout', true, true]);
  const noisy = await live('skills/faults/scripts/stderr-flood.js');
  assert.ok(noisy.stderr.length > 0);
  assert.ok(noisy.stderr.every((chunk) => chunk.elapsedMs >= 0 && chunk.text.length > 0));
});

test('a spawn ENOENT and a cancelled run are never retried (replayed recording)', () => {
  const base = recordingOfText('');
  const enoent: Recording = { texts: [], meta: { ...base.meta, exitCode: null, spawnError: { code: 'ENOENT', message: 'no such file' } } };
  assert.equal(InspectorSession.fromRecording(enoent, 'x.js').verdict?.retryable, false);
  const eagain: Recording = { texts: [], meta: { ...base.meta, exitCode: null, spawnError: { code: 'EAGAIN', message: 'try again' } } };
  assert.equal(InspectorSession.fromRecording(eagain, 'x.js').verdict?.retryable, true);
});

test('the row cap keeps the first rows, counts the dropped ones, and still merges their patches', () => {
  const lines = Array.from({ length: 10 }, (_, index) => JSON.stringify({ version: '0', type: 'state_patch', patch: { n: index } }));
  lines.push(JSON.stringify({ version: '0', type: 'done', ok: true, summary: 'fine' }));
  const session = InspectorSession.fromRecording(recordingOfText(lines.join('\n') + '\n'), 'capped.js', 4);
  assert.equal(session.rows.length, 4);
  assert.equal(session.droppedRows, 7);
  assert.deepEqual(session.currentState, { n: 9 });
  assert.deepEqual([session.verdict?.lineCount, session.verdict?.droppedRows, session.verdict?.done?.summary], [11, 7, 'fine']);
});

test('a replayed recording gives the live rows and verdict', async () => {
  const report = await inspectScript({ scriptPath: 'skills/faults/scripts/unknown-type.js', root: story, record: true });
  const liveSession = new InspectorSession();
  for (const line of report.lines) liveSession.addLine(line);
  liveSession.finish(report);
  const replayed = InspectorSession.fromRecording(report.recording!, 'unknown-type.js');
  assert.deepEqual(
    replayed.rows.map((row) => [row.lineNumber, row.mark, row.type, row.summary]),
    liveSession.rows.map((row) => [row.lineNumber, row.mark, row.type, row.summary]),
  );
  assert.deepEqual({ ...replayed.verdict, durationMs: 0 }, { ...liveSession.verdict, durationMs: 0 });
  assert.ok(replayed.rows.some((row) => row.status === 'unknown_type' && row.mark === 'error'));
});

test('over the line limit and invalid UTF-8 are ⚠ rows; the verdict still fails the run as the runtime does', async () => {
  const session = new InspectorSession();
  const report = await inspectScript({
    scriptPath: 'skills/faults/scripts/huge-line.js',
    root: story,
    input: { bytes: 5000 },
    maxLineBytes: 1000,
    onLine: (line) => session.addLine(line),
  });
  session.finish(report);
  const long = session.rows.find((row) => row.status === 'too_long');
  assert.ok(long, 'the long line is a too_long row');
  assert.equal(long.mark, 'warning');
  assert.match(long.summary, /over the 1000-byte limit/);
  assert.deepEqual([session.verdict?.ok, session.verdict?.category, session.verdict?.code], [false, 'protocol_violation', 'LINE_TOO_LONG']);
  const repaired = await live('skills/faults/scripts/non-utf8.js');
  const bad = repaired.rows.find((row) => row.type === 'log');
  assert.ok(bad?.problem, 'the repaired line says what was wrong');
  assert.equal(bad.mark, 'warning');
});
