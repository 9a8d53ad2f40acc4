// Tests of the test support helpers: the concurrency sweep and the zombie-aware liveness check.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { maxConcurrent } from './concurrency.js';
import { isProcessAlive, waitForProcessExit } from './processes.js';

test('maxConcurrent: a long span overlapping two that never ran together counts two, not three', () => {
  // The case that failed CI: A [10, 300), B [200, 500), C [300, 600) with a limit of 2.
  assert.equal(
    maxConcurrent([
      { start: 10, end: 300 },
      { start: 200, end: 500 },
      { start: 300, end: 600 },
    ]),
    2,
  );
});

test('maxConcurrent: spans are half-open, nested spans all count, empty input is zero', () => {
  assert.equal(maxConcurrent([]), 0);
  assert.equal(
    maxConcurrent([
      { start: 0, end: 5 },
      { start: 5, end: 9 },
    ]),
    1,
  );
  assert.equal(
    maxConcurrent([
      { start: 0, end: 10 },
      { start: 1, end: 9 },
      { start: 2, end: 8 },
    ]),
    3,
  );
  assert.throws(() => maxConcurrent([{ start: 5, end: 1 }]), /ends before it starts/);
});

test('isProcessAlive: a zombie is dead, a running process alive, a reaped one dead', { skip: process.platform !== 'linux' }, async () => {
  // A shell that starts a child and execs into something that never waits: the killed child stays a zombie.
  const parent = spawn('/bin/sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const [chunk] = (await once(parent.stdout, 'data')) as [Buffer];
    const child = Number(chunk.toString().trim());
    assert.equal(isProcessAlive(child), true);
    process.kill(child, 'SIGKILL');
    // `sleep` never reaps it, so it stays a zombie until its parent dies; the check must still say dead.
    assert.equal(await waitForProcessExit(child), true);
    assert.equal(isProcessAlive(parent.pid!), true);
  } finally {
    parent.kill('SIGKILL');
    await once(parent, 'exit');
  }
  assert.equal(await waitForProcessExit(parent.pid!), true);
});
