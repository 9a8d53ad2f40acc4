// RunRecordWriter: one save in flight, the latest record wins, records built when their save starts, saves spaced by the interval unless flushed.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { RunRecordWriter, type RunRecord, type RunStore } from '../../../src/runtime/persistence/runStore.js';

const PLAN_ID = 'dddddddd-0000-4000-8000-000000000001';

function record(status: RunRecord['status'], tools: number): RunRecord {
  const stored = { result: { toolId: 't', toolPath: 'x', state: 'success', retryCount: 0 }, patches: [] } as unknown as RunRecord['tools'][string];
  return {
    formatVersion: 1,
    planId: PLAN_ID,
    plan: { requestId: PLAN_ID, tools: [] },
    root: '/story',
    status,
    pid: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    initialState: {},
    tools: Object.fromEntries(Array.from({ length: tools }, (_, index) => [`t${index}`, stored])),
  };
}

/** A store that keeps what it was asked to save, each save taking `delayMs`. */
class MemoryStore implements RunStore {
  readonly saved: { status: string; tools: number; at: number }[] = [];
  constructor(private readonly delayMs = 0) {}
  async save(saved: RunRecord): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    this.saved.push({ status: saved.status, tools: Object.keys(saved.tools).length, at: performance.now() });
  }
  load(): Promise<RunRecord | undefined> {
    return Promise.resolve(undefined);
  }
  list() {
    return Promise.resolve([]);
  }
}

test('a burst of saves writes the first at once and then only the latest, built when its save starts', async () => {
  const store = new MemoryStore(5);
  const writer = new RunRecordWriter(store);
  let finished = 0;
  let built = 0;
  for (let index = 0; index < 10; index++) {
    finished++;
    writer.schedule(PLAN_ID, () => (built++, record('running', finished)));
  }
  finished++;
  await writer.flush();
  assert.deepEqual(
    store.saved.map((entry) => entry.tools),
    [1, 11],
    'the first save starts at once; the one after it is built when it starts, with every tool finished by then',
  );
  assert.equal(built, 2);
});

test('with an interval, saves are spaced by it while the run goes on, and flush writes the last one at once', async () => {
  const store = new MemoryStore();
  // Long enough that a test on a loaded machine never reaches it by itself.
  const writer = new RunRecordWriter(store, 60_000);
  const started = performance.now();
  writer.schedule(record('running', 1));
  writer.schedule(record('running', 2));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(
    store.saved.map((entry) => entry.tools),
    [1],
    'the first save is not held back; the second waits for the interval',
  );
  writer.schedule(record('succeeded', 3));
  await writer.flush();
  assert.deepEqual(
    store.saved.map((entry) => [entry.status, entry.tools]),
    [
      ['running', 1],
      ['succeeded', 3],
    ],
  );
  assert.ok(store.saved[1]!.at - started < 60_000, 'flush did not wait for the interval');
  // The writer starts again with the next save.
  writer.schedule(record('running', 4));
  await writer.flush();
  assert.equal(store.saved.length, 3);
});
