// Bounded re-planning (docs/plan-json-and-protocol.md#re-planning-for-more-context) with real processes: pause, context, _rp ids, remapped dependencies, bound of 2, graceful failure.
// Margin: every script here finishes in well under a second; the default 30 s tool and 60 s plan timeouts are far
// beyond what a loaded 2-core machine needs, and no test asserts a duration.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { executePlan } from '../../../src/runtime/executor/planExecutor.js';
import { mergeRePlannedSteps, type RePlanContext } from '../../../src/runtime/executor/rePlanning.js';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';
import type { ToolInvocation } from '../../../src/runtime/contractTypes/plan.js';

const story = path.resolve(import.meta.dirname, '../../fixtures/story');
const echo = 'skills/helpers/scripts/echo.js';
const needsContext = 'skills/helpers/scripts/needs-context.js';
let counter = 0;
const id = () => `cccccccc-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

test('a needsMoreContext request pauses, asks for steps, merges them with _rp ids and resumes', async () => {
  const contexts: RePlanContext[] = [];
  const plan = {
    requestId: id(),
    narrative: 'Find the hidden door',
    tools: [
      { toolId: 'scan', toolPath: needsContext, input: { suggestion: 'need the map of the cellar' } },
      { toolId: 'later', toolPath: echo, dependencies: ['scan'], input: { patch: { later: true } } },
    ],
  };
  const result = await executePlan(plan, {
    root: story,
    rePlanner: async (context) => {
      contexts.push(context);
      return [
        { toolId: 'map', toolPath: echo, input: { patch: { map: 'cellar' } } },
        { toolId: 'use', toolPath: echo, dependencies: ['map', 'scan', 'ghost'], input: { patch: { used: true } } },
      ];
    },
  });
  assert.deepEqual(validateAgainst('execution-result.schema.json', result), []);
  assert.equal(result.success, true, JSON.stringify(result.warnings));
  assert.equal(result.rePlanIterations, 1);
  assert.equal(contexts.length, 1);
  assert.equal(contexts[0]!.requestedBy, 'scan');
  assert.equal(contexts[0]!.suggestion, 'need the map of the cellar');
  assert.deepEqual(
    contexts[0]!.completed.map((entry) => entry.toolId),
    ['scan'],
  );
  assert.match(contexts[0]!.prompt, /Original plan: Find the hidden door[\s\S]*Steps completed: scan[\s\S]*need the map of the cellar/);
  assert.deepEqual(
    result.originalPlan?.tools.map((tool) => tool.toolId),
    ['scan', 'later'],
  );
  assert.deepEqual(
    result.finalPlan?.tools.map((tool) => [tool.toolId, tool.dependencies]),
    [
      ['scan', undefined],
      ['later', ['scan']],
      ['_rp1_map', []],
      ['_rp1_use', ['_rp1_map', 'scan']],
    ],
  );
  assert.deepEqual(
    result.toolResults.map((tool) => [tool.toolId, tool.state]),
    [
      ['scan', 'success'],
      ['later', 'success'],
      ['_rp1_map', 'success'],
      ['_rp1_use', 'success'],
    ],
  );
  assert.deepEqual(result.aggregatedState, { later: true, map: 'cellar', used: true });
  assert.ok(result.warnings.some((warning) => warning.code === 'RE_PLAN_UNKNOWN_DEPENDENCY'));
});

test('re-planning stops after 2 iterations', async () => {
  let calls = 0;
  const result = await executePlan(
    { requestId: id(), tools: [{ toolId: 'ask', toolPath: needsContext, input: { suggestion: 'more' } }] },
    {
      root: story,
      maxRePlanIterations: 5,
      rePlanner: async () => {
        calls++;
        return [{ toolId: 'again', toolPath: needsContext, input: { suggestion: 'still more' } }];
      },
    },
  );
  assert.equal(calls, 2);
  assert.equal(result.rePlanIterations, 2);
  assert.deepEqual(
    result.toolResults.map((tool) => tool.toolId),
    ['ask', '_rp1_again', '_rp2_again'],
  );
  assert.equal(result.success, true);
});

test('a failing planner ends re-planning gracefully with the results so far', async () => {
  const result = await executePlan(
    {
      requestId: id(),
      tools: [
        { toolId: 'ask', toolPath: needsContext },
        { toolId: 'after', toolPath: echo, dependencies: ['ask'] },
      ],
    },
    { root: story, rePlanner: async () => Promise.reject(new Error('model unavailable')) },
  );
  assert.equal(result.success, true);
  assert.equal(result.rePlanIterations, 1);
  assert.equal(result.originalPlan?.tools.length, result.finalPlan?.tools.length);
  assert.ok(result.warnings.some((warning) => warning.code === 'RE_PLAN_FAILED' && /model unavailable/.test(warning.message)));
  assert.deepEqual(
    result.toolResults.map((tool) => tool.state),
    ['success', 'success'],
  );
});

test('re-planned steps outside skills/ are rejected like any plan; without a re-planner nothing happens', async () => {
  const rejected = await executePlan(
    { requestId: id(), tools: [{ toolId: 'ask', toolPath: needsContext }] },
    { root: story, rePlanner: async () => [{ toolId: 'evil', toolPath: '../../../../etc/passwd' }] },
  );
  assert.ok(rejected.warnings.some((warning) => warning.code === 'RE_PLAN_INVALID' && /TOOL_PATH_OUTSIDE_SKILLS/.test(warning.message)));
  assert.equal(rejected.toolResults.length, 1);
  const plain = await executePlan({ requestId: id(), tools: [{ toolId: 'ask', toolPath: needsContext }] }, { root: story });
  assert.equal(plain.rePlanIterations, undefined);
  assert.equal(plain.toolResults[0]!.output?.needsMoreContext, true);
});

test('mergeRePlannedSteps: prefixes, remaps, drops unknown dependencies, rejects cycles', () => {
  const steps: ToolInvocation[] = [
    { toolId: 'b', toolPath: 'x', dependencies: ['a'] },
    { toolId: 'a', toolPath: 'x', dependencies: ['done1'] },
  ];
  const merged = mergeRePlannedSteps(new Set(['done1']), steps, 2);
  assert.deepEqual(
    merged.tools.map((tool) => [tool.toolId, tool.dependencies]),
    [
      ['_rp2_a', ['done1']],
      ['_rp2_b', ['_rp2_a']],
    ],
    'topological order',
  );
  const cyclic = mergeRePlannedSteps(
    new Set(),
    [
      { toolId: 'x', toolPath: 'p', dependencies: ['y'] },
      { toolId: 'y', toolPath: 'p', dependencies: ['x'] },
    ],
    1,
  );
  assert.deepEqual(cyclic.tools, []);
  assert.equal(cyclic.warnings[0]?.code, 'RE_PLAN_CYCLE');
});
