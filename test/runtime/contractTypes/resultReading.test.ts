// Tests of the tolerant reading of ExecutionResults: other runtimes' field names, state "completed", errors without a category.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { categoryOfCode, readExecutionResult, readToolError, readToolResult } from '../../../src/runtime/contractTypes/resultReading.js';
import { FileRunStore } from '../../../src/runtime/persistence/runStore.js';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';

const PLAN_ID = '0f3e5a7c-2b4d-4c6e-8a1b-3d5f7b9c1e24';

test('categoryOfCode: a category name is itself, then the documented keywords, else tool_failure', () => {
  assert.deepEqual(
    [
      'TOOL_TIMEOUT',
      'timeout',
      'CIRCULAR_DEPENDENCY',
      'INVALID_JSON',
      'PARSE_ERROR',
      'PROTOCOL_ERROR',
      'CANCELLED',
      'INVALID_PLAN',
      'PROCESS_EXIT',
      'SPAWN_FAILED',
      'DOOR_LOCKED',
    ].map(categoryOfCode),
    [
      'timeout',
      'timeout',
      'circular_dependency',
      'invalid_json',
      'invalid_json',
      'protocol_violation',
      'cancelled',
      'invalid_plan',
      'process_error',
      'process_error',
      'tool_failure',
    ],
  );
});

test('an error with no category gets one from its code; a bare string becomes a tool_failure; a whole error is kept as is', () => {
  assert.deepEqual(readToolError({ code: 'TOOL_TIMEOUT', message: 'took too long' }), { code: 'TOOL_TIMEOUT', message: 'took too long', category: 'timeout' });
  assert.deepEqual(readToolError('it broke'), { code: 'TOOL_ERROR', message: 'it broke', category: 'tool_failure' });
  const whole = { code: 'X', message: 'y', category: 'process_error' };
  assert.equal(readToolError(whole), whole);
});

test('a tool result in state "completed" reads as success; unknown states and missing toolIds are left out; our own results are unchanged', () => {
  assert.deepEqual(readToolResult({ toolId: 'a', state: 'completed', output: { ok: true } }), { toolId: 'a', state: 'success', output: { ok: true } });
  assert.equal(readToolResult({ toolId: 'a', state: 'exploded' }), undefined);
  assert.equal(readToolResult({ state: 'success' }), undefined);
  const own = { toolId: 'a', state: 'failed', error: { code: 'E', message: 'm', category: 'tool_failure' } };
  assert.equal(readToolResult(own), own);
});

test('an upstream-shaped result (executionTrace, finalState, totalExecutionTimeMs, no categories) reads into one that passes our schema', () => {
  const upstream = {
    planId: PLAN_ID,
    success: false,
    executionTrace: [
      { toolId: 'light torch', state: 'completed', output: { ok: true, state: {}, assets: [], uiEvents: [] } },
      { toolId: 'examine1', state: 'failed', error: { code: 'TOOL_TIMEOUT', message: 'no answer in 30 s' } },
    ],
    finalState: { torch: 'lit' },
    totalExecutionTimeMs: 1234,
  };
  const read = readExecutionResult(upstream)!;
  assert.deepEqual(
    read.toolResults.map((tool) => [tool.toolId, tool.state, tool.error?.category]),
    [
      ['light torch', 'success', undefined],
      ['examine1', 'failed', 'timeout'],
    ],
  );
  assert.deepEqual(read.aggregatedState, { torch: 'lit' });
  assert.equal(read.executionTimeMs, 1234);
  assert.equal(read.status, 'failed');
  assert.deepEqual(read.failedTools, ['examine1']);
  assert.equal('executionTrace' in read, false);
  assert.deepEqual(validateAgainst('execution-result.schema.json', read), []);
  assert.equal(readExecutionResult({ planId: PLAN_ID }), undefined);
});

test('FileRunStore.load reads the results of a record tolerantly (runs show, resume)', async () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'narratoria-result-reading-'));
  try {
    mkdirSync(directory, { recursive: true });
    const record = {
      formatVersion: 1,
      planId: PLAN_ID,
      plan: { requestId: PLAN_ID, tools: [{ toolId: 'a', toolPath: 'skills/x/scripts/a.js' }] },
      root: directory,
      status: 'failed',
      pid: 1,
      startedAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:01Z',
      initialState: {},
      tools: { a: { result: { toolId: 'a', state: 'completed' }, patches: [] } },
    };
    writeFileSync(path.join(directory, `${PLAN_ID}.json`), JSON.stringify(record));
    const loaded = await new FileRunStore(directory).load(PLAN_ID);
    assert.equal(loaded?.tools['a']?.result.state, 'success');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
