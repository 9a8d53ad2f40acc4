// RunRecordText writes what JSON.stringify(record, null, 2) writes: synthetic records of every shape, and every save of real runs (rollback, resume, re-used objects).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { executePlan } from '../../../src/runtime/executor/planExecutor.js';
import { FileRunStore, type RunRecord, type RunStore } from '../../../src/runtime/persistence/runStore.js';
import { RunRecordText } from '../../../src/runtime/persistence/runRecordText.js';
import type { ToolResult } from '../../../src/runtime/contractTypes/executionResult.js';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';

const story = path.resolve(import.meta.dirname, '../../fixtures/story');
const echo = 'skills/helpers/scripts/echo.js';
const expected = (record: unknown) => `${JSON.stringify(record, null, 2)}\n`;

function toolResult(toolId: string, extra: Partial<ToolResult> = {}): ToolResult {
  return {
    toolId,
    toolPath: echo,
    skill: 'helpers',
    state: 'success',
    output: { ok: true, state: { said: `line\nwith "quotes" and \u00e9` }, assets: [], uiEvents: [] },
    events: [{ version: '0', type: 'done', ok: true }],
    retryCount: 0,
    ...extra,
  } as ToolResult;
}

test('a record of every shape is written as JSON.stringify writes it, before and after its objects are kept', () => {
  const writer = new RunRecordText();
  const first = toolResult('a');
  const second = toolResult('b', { state: 'failed' });
  const plan = { requestId: 'cccccccc-0000-4000-8000-000000000001', tools: [{ toolId: 'a', toolPath: echo, input: { nested: { list: [1, [2, {}], []] } } }] };
  const base = {
    formatVersion: 1,
    planId: plan.requestId,
    plan,
    root: '/story',
    status: 'running',
    pid: 42,
    startedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    initialState: { hp: 3, empty: {} },
    seed: undefined,
    tools: {},
  } as unknown as RunRecord;
  const records: RunRecord[] = [
    base,
    { ...base, tools: { a: { result: first, patches: [] } } },
    { ...base, tools: { a: { result: first, patches: [] }, 'b "quoted"': { result: second, patches: [{ hp: 2 }, { gone: null }] } } },
    // The same objects again (kept text), then at another depth, then a replaced result (new text).
    { ...base, tools: { a: { result: first, patches: [] } }, seed: 7 },
    {
      ...base,
      status: 'succeeded',
      tools: { a: { result: first, patches: [] } },
      result: { planId: plan.requestId, toolResults: [first, second, toolResult('c')] },
    },
    { ...base, tools: { a: { result: { ...first, state: 'rolledBack' }, patches: [] } } },
    // A kept result under another id, or with other patches, is written anew.
    { ...base, tools: { renamed: { result: first, patches: [] } } },
    { ...base, tools: { a: { result: first, patches: [{ hp: 1 }] } } },
    { ...base, tools: { a: { result: first, patches: [], note: 'more' } } },
    { ...base, result: { planId: plan.requestId, toolResults: [] } },
    { ...base, tools: { a: { result: first, patches: [], extra: () => 1 } } },
    { ...base, initialState: { when: new Date(0) } },
  ] as unknown as RunRecord[];
  for (const [index, record] of records.entries()) {
    assert.equal(writer.text(record), expected(record), `record ${index}`);
    assert.equal(writer.text(record), expected(record), `record ${index}, written again`);
  }
  // An object written at one depth, then nested at another: its text is indented for where it is.
  const moved = { ...base, plan: first } as unknown as RunRecord;
  assert.equal(writer.text(moved), expected(moved));
});

/** A store that checks every text the file store writes against JSON.stringify, and the record against its schema. */
class CheckedStore implements RunStore {
  saves = 0;
  constructor(private readonly inner: FileRunStore) {}
  async save(record: RunRecord): Promise<void> {
    const snapshot = expected(record);
    await this.inner.save(record);
    assert.equal(readFileSync(this.inner.recordFile(record.planId), 'utf8'), snapshot, `save ${this.saves}`);
    if (record.result) assert.deepEqual(validateAgainst('execution-result.schema.json', record.result), []);
    this.saves++;
  }
  load(planId: string) {
    return this.inner.load(planId);
  }
  list() {
    return this.inner.list();
  }
}

test('every save of real runs (parallel tools with patches, a rollback, a resume) is byte-identical to JSON.stringify', async () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-record-text-'));
  try {
    const store = new CheckedStore(new FileRunStore(path.join(scratch, 'runs')));
    const requestId = 'cccccccc-0000-4000-8000-000000000002';
    const tools = Array.from({ length: 12 }, (_, index) => ({
      toolId: `echo-${index}`,
      toolPath: echo,
      async: true,
      input: { patch: { [`key${index}`]: { index } } },
    }));
    // recordSaveIntervalMs 0: a save after every tool, so each partial record is checked too.
    const parallel = await executePlan({ requestId, parallel: true, tools }, { root: story, runStore: store, concurrency: 3, recordSaveIntervalMs: 0 });
    assert.equal(parallel.status, 'succeeded');
    const rolledBack = await executePlan(
      {
        requestId: 'cccccccc-0000-4000-8000-000000000003',
        rollbackOnFailure: true,
        tools: [
          { toolId: 'first', toolPath: echo, rollback: { toolPath: 'skills/helpers/scripts/patches.js', input: { patches: [] } } },
          { toolId: 'boom', toolPath: 'skills/faults/scripts/done-not-ok.js', dependencies: ['first'], retryPolicy: { maxRetries: 0 } },
        ],
      },
      { root: story, runStore: store, recordSaveIntervalMs: 0 },
    );
    assert.deepEqual(
      rolledBack.toolResults.map((tool) => tool.state),
      ['rolledBack', 'failed'],
    );
    const record = await store.load(requestId);
    assert.ok(record);
    const resumed = await executePlan(record.plan, { root: story, runStore: store, resume: record, recordSaveIntervalMs: 0 });
    assert.equal(resumed.status, 'succeeded');
    assert.ok(store.saves >= 12 + 2 + 1, `${store.saves} saves`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
