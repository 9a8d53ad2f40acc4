// Unit tests of the shared primitives: Emitter, DisposableStore, atomic JSON writes, the run store.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Emitter } from '../../../src/runtime/common/event.js';
import { DisposableStore, toDisposable } from '../../../src/runtime/common/disposable.js';
import { writeJsonAtomic } from '../../../src/runtime/common/atomicWrite.js';
import { FileRunStore, RunRecordWriter, type RunRecord } from '../../../src/runtime/persistence/runStore.js';

test('Emitter delivers to listeners until they are disposed, and isolates listener errors', () => {
  const errors: unknown[] = [];
  const emitter = new Emitter<number>((error) => errors.push(error));
  const seen: number[] = [];
  assert.equal(emitter.hasListeners, false);
  const subscription = emitter.event((value) => seen.push(value));
  emitter.event(() => {
    throw new Error('listener bug');
  });
  emitter.fire(1);
  subscription.dispose();
  emitter.fire(2);
  assert.deepEqual(seen, [1]);
  assert.equal(errors.length, 2);
});

test('DisposableStore disposes in reverse order, once, and disposes late additions at once', () => {
  const order: string[] = [];
  const store = new DisposableStore();
  store.add(toDisposable(() => order.push('first')));
  store.add(toDisposable(() => order.push('second')));
  store.dispose();
  store.dispose();
  assert.deepEqual(order, ['second', 'first']);
  store.add(toDisposable(() => order.push('late')));
  assert.deepEqual(order, ['second', 'first', 'late']);
});

test('writeJsonAtomic replaces the file whole and leaves no temp files', async () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'narratoria-atomic-'));
  try {
    const file = path.join(directory, 'nested', 'state.json');
    await writeJsonAtomic(file, { a: 1 });
    await Promise.all(Array.from({ length: 20 }, (_, index) => writeJsonAtomic(file, { a: index, pad: 'x'.repeat(10_000) })));
    const value = JSON.parse(readFileSync(file, 'utf8')) as { a: number };
    assert.equal(typeof value.a, 'number');
    assert.deepEqual(readdirSync(path.dirname(file)), ['state.json']);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('FileRunStore saves, loads, lists (newest first), ignores foreign files and rejects odd ids', async () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'narratoria-runs-'));
  try {
    const store = new FileRunStore(directory);
    const record = (planId: string, startedAt: string): RunRecord => ({
      formatVersion: 1,
      planId,
      plan: { requestId: planId, tools: [{ toolId: 'a', toolPath: 'x' }] },
      root: directory,
      status: 'running',
      pid: 999_999_999,
      startedAt,
      updatedAt: startedAt,
      initialState: {},
      tools: {},
    });
    const writer = new RunRecordWriter(store);
    writer.schedule(record('11111111-1111-4111-8111-111111111111', '2026-01-01T00:00:00.000Z'));
    writer.schedule({ ...record('11111111-1111-4111-8111-111111111111', '2026-01-01T00:00:00.000Z'), status: 'succeeded' });
    writer.schedule(record('22222222-2222-4222-8222-222222222222', '2026-02-01T00:00:00.000Z'));
    await writer.flush();
    writeFileSync(path.join(directory, 'notes.json'), 'not a record');
    assert.equal((await store.load('11111111-1111-4111-8111-111111111111'))?.status, 'succeeded', 'the latest scheduled record wins');
    const list = await store.list();
    assert.deepEqual(
      list.map((entry) => entry.planId),
      ['22222222-2222-4222-8222-222222222222', '11111111-1111-4111-8111-111111111111'],
    );
    assert.equal(list[0]!.alive, false, 'a running record whose process is gone is not alive');
    assert.equal(await store.load('33333333-3333-4333-8333-333333333333'), undefined);
    await assert.rejects(store.load('../escape'), /Invalid run id/);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
