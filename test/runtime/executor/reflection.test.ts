// Unit tests of the rule-based post-run reflection.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { reflectOnRun } from '../../../src/runtime/executor/reflection.js';
import type { ToolResult } from '../../../src/runtime/contractTypes/executionResult.js';

test('reflection reports failures, timeouts, retries, slow tools and skipped branches with suggestions', () => {
  const results: ToolResult[] = [
    {
      toolId: 'roll',
      toolPath: 'skills/d/scripts/roll.js',
      state: 'failed',
      retryCount: 3,
      executionTimeMs: 50,
      error: { code: 'INVALID_JSON', message: 'line 2 is not JSON', category: 'invalid_json' },
    },
    { toolId: 'narrate', state: 'skipped', skipReason: 'dependency_failed' },
    { toolId: 'map', state: 'success', retryCount: 1, executionTimeMs: 2500 },
    {
      toolId: 'wait',
      state: 'timeout',
      executionTimeMs: 30000,
      error: { code: 'TOOL_TIMEOUT', message: 'Tool exceeded 30000ms timeout', category: 'timeout' },
    },
  ];
  const reflection = reflectOnRun(
    results,
    [
      { code: 'EVENT_AFTER_DONE', message: 'x' },
      { code: 'EVENT_AFTER_DONE', message: 'y' },
    ],
    33000,
  );
  assert.equal(reflection.source, 'rules');
  assert.equal(reflection.summary, '4 tool(s): 1 succeeded, 2 failed (roll, wait), 1 skipped, in 33000 ms.');
  const kinds = reflection.findings.map((finding) => `${finding.kind}:${finding.toolId ?? ''}`);
  for (const expected of ['failure:roll', 'retry:roll', 'retry:map', 'slow:map', 'timeout:wait', 'skipped:', 'warning:'])
    assert.ok(kinds.includes(expected), `${expected} in ${kinds}`);
  assert.ok(reflection.suggestions.some((suggestion) => /narratoria inspect/.test(suggestion)));
  assert.ok(reflection.suggestions.some((suggestion) => /timeout of wait/.test(suggestion)));
  assert.equal(reflectOnRun([], [], 0).summary, 'No tools ran.');
});
