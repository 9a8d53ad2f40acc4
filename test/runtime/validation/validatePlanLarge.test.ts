// Tests of plan validation on large plans: cycles deep inside thousands of tools, and long dependency lists.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { DiagnosticCode, validatePlanValue, type PlanValidationOptions } from '../../../src/runtime/validation/index.js';
import { REQUEST_ID } from './planHelpers.js';

const options: PlanValidationOptions = { root: '/tmp', checkToolPaths: false };
const TOOL_PATH = 'skills/s/scripts/t.js';

/** t<i> depends on t<i-1> and t<i/2>; `extra` adds dependencies (toolId → ids inserted at position 1). */
function chainPlan(count: number, extra: Readonly<Record<string, readonly string[]>> = {}): unknown {
  const tools = [];
  for (let index = 0; index < count; index++) {
    const toolId = `t${index}`;
    const dependencies = index === 0 ? [] : [...new Set([`t${index - 1}`, `t${index >> 1}`])];
    dependencies.splice(1, 0, ...(extra[toolId] ?? []));
    tools.push({ toolId, toolPath: TOOL_PATH, dependencies, async: true });
  }
  return { requestId: REQUEST_ID, parallel: true, tools };
}

describe('validatePlanValue: large plans', () => {
  test('an acyclic plan of 10,000 tools has no diagnostics', async () => {
    const result = await validatePlanValue(chainPlan(10_000), options);
    assert.deepEqual(result.diagnostics, []);
    assert.equal(result.valid, true);
  });

  test('DEPENDENCY_CYCLE: cycles deep inside 5,000 tools are reported with their paths, in order', async () => {
    // t3000 -> t3003 -> t3002 -> t3001 -> t3000 and t4500 -> t4501 -> t4500; every later tool waits on them.
    const result = await validatePlanValue(chainPlan(5000, { t3000: ['t3003'], t4500: ['t4501'] }), options);
    const cycle = (message: string): string => `dependency cycle: ${message} (each tool waits for the next, so none of them can start)`;
    assert.deepEqual(result.diagnostics, [
      {
        severity: 'error',
        code: DiagnosticCode.DEPENDENCY_CYCLE,
        message: cycle('t3000 -> t3003 -> t3002 -> t3001 -> t3000'),
        pointer: '/tools/3000/dependencies/1',
        related: [
          { pointer: '/tools/3000/dependencies/1', message: '"t3000" depends on "t3003"' },
          { pointer: '/tools/3003/dependencies/0', message: '"t3003" depends on "t3002"' },
          { pointer: '/tools/3002/dependencies/0', message: '"t3002" depends on "t3001"' },
          { pointer: '/tools/3001/dependencies/0', message: '"t3001" depends on "t3000"' },
        ],
      },
      {
        severity: 'error',
        code: DiagnosticCode.DEPENDENCY_CYCLE,
        message: cycle('t4500 -> t4501 -> t4500'),
        pointer: '/tools/4500/dependencies/1',
        related: [
          { pointer: '/tools/4500/dependencies/1', message: '"t4500" depends on "t4501"' },
          { pointer: '/tools/4501/dependencies/0', message: '"t4501" depends on "t4500"' },
        ],
      },
    ]);
    assert.equal(result.valid, false);
  });

  test('a long dependency list: repeats, self and unknown ids point at their index among non-string entries', async () => {
    const unknown = Array.from({ length: 14 }, (_, index) => `x${index + 1}`);
    const plan = {
      requestId: REQUEST_ID,
      tools: [
        { toolId: 'a', toolPath: TOOL_PATH },
        { toolId: 'b', toolPath: TOOL_PATH, dependencies: ['a'] },
        { toolId: 'c', toolPath: TOOL_PATH, dependencies: ['a', 7, 'b', ...unknown, null, 'b', 'c', 'a', 'x3'] },
      ],
    };
    const result = await validatePlanValue(plan, options);
    const summary = result.diagnostics
      .filter((diagnostic) => diagnostic.code !== DiagnosticCode.UNKNOWN_DEPENDENCY)
      .map((diagnostic) => [diagnostic.code, diagnostic.pointer, diagnostic.related?.[0]?.pointer]);
    assert.deepEqual(summary, [
      [DiagnosticCode.SCHEMA_TYPE, '/tools/2/dependencies/1', undefined],
      [DiagnosticCode.SCHEMA_TYPE, '/tools/2/dependencies/17', undefined],
      [DiagnosticCode.DUPLICATE_DEPENDENCY, '/tools/2/dependencies/18', '/tools/2/dependencies/2'],
      [DiagnosticCode.SELF_DEPENDENCY, '/tools/2/dependencies/19', undefined],
      [DiagnosticCode.DUPLICATE_DEPENDENCY, '/tools/2/dependencies/20', '/tools/2/dependencies/0'],
      [DiagnosticCode.DUPLICATE_DEPENDENCY, '/tools/2/dependencies/21', '/tools/2/dependencies/5'],
    ]);
    const unknownPointers = result.diagnostics
      .filter((diagnostic) => diagnostic.code === DiagnosticCode.UNKNOWN_DEPENDENCY)
      .map((diagnostic) => diagnostic.pointer);
    assert.deepEqual(
      unknownPointers,
      unknown.map((_, index) => `/tools/2/dependencies/${index + 3}`),
    );
    assert.equal(
      result.diagnostics.some((diagnostic) => diagnostic.code === DiagnosticCode.DEPENDENCY_CYCLE),
      false,
    );
  });
});
