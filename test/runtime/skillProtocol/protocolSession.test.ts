// Unit tests of the protocol rules: line classification and the verdict for every way an invocation can end.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decodeEventLine } from '../../../src/runtime/skillProtocol/eventDecoder.js';
import { ProtocolSession, type ProcessEnd } from '../../../src/runtime/skillProtocol/protocolSession.js';

const line = (text: string, lineNumber = 1, partial = false) => ({ kind: 'line' as const, line: text, lineNumber, partial });
const ended = (overrides: Partial<ProcessEnd> = {}): ProcessEnd => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  cancelled: false,
  stderrTail: '',
  ...overrides,
});
const done = (ok = true) => JSON.stringify({ version: '0', type: 'done', ok, summary: ok ? 'fine' : 'broken' });

test('decodeEventLine classifies lines', () => {
  assert.equal(decodeEventLine('{"version":"0","type":"log","level":"info","message":"hi"}').kind, 'event');
  assert.equal(decodeEventLine('   ').kind, 'blank');
  assert.equal(decodeEventLine('not json').kind, 'invalid_json');
  assert.equal(decodeEventLine('[1,2]').kind, 'invalid_json');
  assert.equal(decodeEventLine('{"version":"0","type":"telepathy"}').kind, 'unknown_type');
  assert.equal(decodeEventLine('{"version":"0"}').kind, 'unknown_type');
  assert.equal(decodeEventLine('{"version":"1","type":"log","level":"info","message":"x"}').kind, 'invalid_event');
  assert.equal(decodeEventLine('{"version":"0","type":"state_patch","patch":[1]}').kind, 'invalid_event');
  assert.equal(decodeEventLine('{"version":"0","type":"ui_event","event":"narrative_choice"}').kind, 'invalid_event');
  assert.equal(decodeEventLine('{"version":"0","type":"log","level":"loud","message":"x"}').kind, 'invalid_event');
  const extra = decodeEventLine('{"version":"0","type":"log","level":"info","message":"x","extra":1}');
  assert.equal(extra.kind, 'event', 'unknown extra fields are allowed');
  const replaced = decodeEventLine('{"version":"0","type":"log","level":"info","message":"\uFFFD"}');
  assert.ok(replaced.kind === 'event' && replaced.replacedInvalidUtf8);
});

test('verdicts: success, done ok:false, missing done, non-zero exit, timeout, cancel, spawn error', () => {
  const success = new ProtocolSession();
  success.accept(line(done()));
  assert.deepEqual(success.verdict(ended(), 1000, 's'), { ok: true, retryable: false });

  const failure = new ProtocolSession();
  failure.accept(line(done(false)));
  assert.equal(failure.verdict(ended(), 1000, 's').error?.category, 'tool_failure');

  assert.equal(new ProtocolSession().verdict(ended(), 1000, 's').error?.code, 'MISSING_DONE');
  assert.equal(new ProtocolSession().verdict(ended({ exitCode: 2 }), 1000, 's').error?.code, 'NONZERO_EXIT');
  assert.equal(new ProtocolSession().verdict(ended({ exitCode: null, signal: 'SIGKILL' }), 1000, 's').error?.code, 'PROCESS_KILLED');

  const afterDone = new ProtocolSession();
  afterDone.accept(line(done()));
  const exitAfterDone = afterDone.verdict(ended({ exitCode: 1 }), 1000, 's');
  assert.equal(exitAfterDone.error?.category, 'process_error', 'a non-zero exit fails even after done ok:true');
  assert.match(exitAfterDone.error!.message, /after its done event/);

  const timeout = new ProtocolSession().verdict(ended({ timedOut: true, exitCode: null, signal: 'SIGTERM' }), 1500, 's');
  assert.equal(timeout.error?.code, 'TOOL_TIMEOUT');
  assert.match(timeout.error!.message, /1500ms/);
  assert.equal(timeout.retryable, true);

  const cancelled = new ProtocolSession().verdict(ended({ cancelled: true }), 1000, 's');
  assert.equal(cancelled.error?.category, 'cancelled');
  assert.equal(cancelled.retryable, false);

  const spawn = new ProtocolSession().verdict(ended({ spawnError: { code: 'ENOENT', message: 'no such file' } }), 1000, 's');
  assert.equal(spawn.error?.code, 'SPAWN_FAILED');
  assert.equal(spawn.retryable, false);
});

test('the first protocol error wins; events after done are warnings', () => {
  const session = new ProtocolSession(100);
  assert.equal(session.accept(line('garbage', 1)).fatal?.code, 'INVALID_JSON');
  const second = session.accept({ kind: 'oversized', lineNumber: 2, byteLength: 500 });
  assert.equal(second.status, 'too_long');
  assert.equal(second.fatal, undefined, 'only the first error is fatal');
  assert.equal(session.verdict(ended(), 1000, 's').error?.code, 'INVALID_JSON');

  const after = new ProtocolSession();
  after.accept(line(done(), 1));
  const report = after.accept(line('{"version":"0","type":"log","level":"info","message":"late"}', 2));
  assert.equal(report.status, 'after_done');
  assert.equal(report.warning?.code, 'EVENT_AFTER_DONE');
  assert.equal(after.accept(line('not even json', 3)).status, 'after_done', 'anything after done is ignored');
  assert.equal(after.verdict(ended(), 1000, 's').ok, true);

  const truncated = new ProtocolSession();
  assert.equal(truncated.accept(line('{"version":"0","type":"done","ok":tr', 1, true)).fatal?.code, 'TRUNCATED_OUTPUT');
  const lastWithoutNewline = new ProtocolSession();
  lastWithoutNewline.accept(line(done(), 1, true));
  assert.equal(lastWithoutNewline.verdict(ended(), 1000, 's').ok, true, 'a complete last line without newline is fine');
});
