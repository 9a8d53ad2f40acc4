// batchedWriter: progress text goes out once per event-loop turn for a terminal, at most once per interval for a pipe or a file, and flush() writes what is pending at once and leaves no timer behind.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { batchedWriter } from '../../src/cli/cliSupport.js';

function recorder(): { writes: string[]; write: (text: string) => void } {
  const writes: string[] = [];
  return { writes, write: (text) => writes.push(text) };
}

test('interval 0: the writes of one turn go out together on the next turn', async () => {
  const sink = recorder();
  const writer = batchedWriter(sink.write);
  writer.write('a\n');
  writer.write('b\n');
  assert.deepEqual(sink.writes, [], 'nothing is written synchronously');
  await nextTurn();
  assert.deepEqual(sink.writes, ['a\nb\n']);
  writer.write('c\n');
  await nextTurn();
  assert.deepEqual(sink.writes, ['a\nb\n', 'c\n']);
});

test('an interval: writes of several turns are held until flush, which writes them once and cancels the timer', async () => {
  const sink = recorder();
  // Deterministic: an interval no test run reaches, so only flush() can write.
  const writer = batchedWriter(sink.write, 3_600_000);
  writer.write('a\n');
  await nextTurn();
  writer.write('b\n');
  await nextTurn();
  assert.deepEqual(sink.writes, []);
  writer.flush();
  assert.deepEqual(sink.writes, ['a\nb\n']);
  writer.flush();
  assert.deepEqual(sink.writes, ['a\nb\n'], 'an empty flush writes nothing');
  // Had the hour-long timer survived flush(), node:test would wait for it before ending this file.
});

test('an interval: the timer writes what is pending when it fires, and a later write starts a new one', async () => {
  const sink = recorder();
  const writer = batchedWriter(sink.write, 1);
  writer.write('a\n');
  writer.write('b\n');
  // Deterministic: waits for the timer however late it fires.
  while (sink.writes.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.deepEqual(sink.writes, ['a\nb\n']);
  writer.write('c\n');
  while (sink.writes.length === 1) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.deepEqual(sink.writes, ['a\nb\n', 'c\n']);
});
