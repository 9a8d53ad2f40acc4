// The plan additions (docs/plan-json-and-protocol.md: conditions, sub-plans, rollback, resume) with real processes: conditions (skip tool and dependents), sub-plans, rollback order, resume.
// Margin: every script here finishes in well under a second; the default 30 s tool and 60 s plan timeouts are far
// beyond what a loaded 2-core machine needs, and no test asserts a duration.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { executePlan } from '../../../src/runtime/executor/planExecutor.js';
import { FileRunStore } from '../../../src/runtime/persistence/runStore.js';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';
import { validatePlanValue } from '../../../src/runtime/validation/validatePlan.js';

const story = path.resolve(import.meta.dirname, '../../fixtures/story');
const echo = 'skills/helpers/scripts/echo.js';
let scratch: string;
before(() => (scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-features-'))));
after(() => rmSync(scratch, { recursive: true, force: true }));

let counter = 0;
const id = () => `bbbbbbbb-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

test('a false condition skips the tool and its dependents; a true one runs it', async () => {
  const result = await executePlan(
    {
      requestId: id(),
      tools: [
        { toolId: 'set', toolPath: echo, input: { patch: { door: { locked: true } } } },
        { toolId: 'open', toolPath: echo, dependencies: ['set'], condition: 'state.door.locked == false', input: { patch: { door: { opened: true } } } },
        { toolId: 'enter', toolPath: echo, dependencies: ['open'] },
        { toolId: 'knock', toolPath: echo, dependencies: ['set'], condition: 'state.door.locked && dependencies.set.ok', input: { patch: { knocked: true } } },
      ],
    },
    { root: story },
  );
  assert.deepEqual(validateAgainst('execution-result.schema.json', result), []);
  const states = Object.fromEntries(result.toolResults.map((tool) => [tool.toolId, [tool.state, tool.skipReason]]));
  assert.deepEqual(states, {
    set: ['success', undefined],
    open: ['skipped', 'condition_false'],
    enter: ['skipped', 'condition_false'],
    knock: ['success', undefined],
  });
  assert.equal(result.success, true, 'skipping by condition is not a failure');
  assert.deepEqual(result.aggregatedState, { door: { locked: true }, knocked: true });
});

test('an invalid condition is a validation error with a position', async () => {
  const validation = await validatePlanValue({ requestId: id(), tools: [{ toolId: 'a', toolPath: echo, condition: 'state.x = 1' }] }, { root: story });
  assert.equal(validation.valid, false);
  const diagnostic = validation.diagnostics.find((entry) => entry.code === 'CONDITION_SYNTAX');
  assert.ok(diagnostic);
  assert.equal(diagnostic.pointer, '/tools/0/condition');
  assert.match(diagnostic.message, /character 9/);
});

test('a sub-plan runs nested, from the parent state, and returns its state, UI events and summary', async () => {
  const result = await executePlan(
    {
      requestId: id(),
      tools: [
        { toolId: 'before', toolPath: echo, input: { patch: { count: 3, hero: { hp: 5 } } } },
        { toolId: 'scene', toolPath: echo, subPlan: 'plans/set-flag.plan.json', dependencies: ['before'] },
        { toolId: 'after', toolPath: echo, dependencies: ['scene'] },
      ],
    },
    { root: story },
  );
  assert.deepEqual(validateAgainst('execution-result.schema.json', result), []);
  assert.equal(result.success, true, JSON.stringify(result.toolResults.map((tool) => tool.error)));
  assert.deepEqual(result.aggregatedState, { hero: { hp: 5 }, flags: { doorOpen: true } }, 'the sub-plan deleted count and set the flag');
  const scene = result.toolResults[1]!;
  assert.deepEqual(scene.output?.uiEvents, [{ event: 'narrative_choice', payload: { choices: ['Enter', 'Wait'] } }]);
  assert.match(scene.output?.summary ?? '', /2\/2 tools succeeded/);
  const after = result.toolResults[2]!.output?.result as { state: unknown };
  assert.deepEqual(after.state, { hero: { hp: 5 }, flags: { doorOpen: true } });
});

test('a failing sub-plan fails its tool; a self-including sub-plan stops at the depth limit', async () => {
  const failing = await executePlan(
    { requestId: id(), tools: [{ toolId: 'scene', toolPath: echo, subPlan: 'plans/failing.plan.json', retryPolicy: { maxRetries: 0 } }] },
    { root: story },
  );
  assert.equal(failing.toolResults[0]!.state, 'failed');
  assert.equal(failing.toolResults[0]!.error?.code, 'SUB_PLAN_FAILED');
  const recursive = await executePlan(
    { requestId: id(), tools: [{ toolId: 'loop', toolPath: echo, subPlan: 'plans/recursive.plan.json', retryPolicy: { maxRetries: 0 } }] },
    { root: story },
  );
  assert.equal(recursive.success, false);
  assert.match(JSON.stringify(recursive.toolResults[0]!.error), /SUB_PLAN/);
  const missing = await validatePlanValue({ requestId: id(), tools: [{ toolId: 'x', toolPath: echo, subPlan: 'plans/nope.json' }] }, { root: story });
  assert.ok(missing.diagnostics.some((entry) => entry.code === 'SUB_PLAN_NOT_FOUND'));
  const outside = await validatePlanValue({ requestId: id(), tools: [{ toolId: 'x', toolPath: echo, subPlan: '../plans/cycle.plan.json' }] }, { root: story });
  assert.ok(outside.diagnostics.some((entry) => entry.code === 'SUB_PLAN_OUTSIDE_ROOT'));
});

test('rollback runs the rollback scripts of completed tools and marks them rolledBack', async () => {
  const result = await executePlan(
    {
      requestId: id(),
      rollbackOnFailure: true,
      tools: [
        { toolId: 'first', toolPath: echo, rollback: { toolPath: 'skills/helpers/scripts/patches.js', input: { patches: [] } } },
        { toolId: 'second', toolPath: echo, dependencies: ['first'], rollback: { toolPath: 'skills/helpers/scripts/sleep.js', input: { ms: 1 } } },
        { toolId: 'boom', toolPath: 'skills/faults/scripts/done-not-ok.js', dependencies: ['second'], retryPolicy: { maxRetries: 0 } },
      ],
    },
    { root: story },
  );
  assert.deepEqual(validateAgainst('execution-result.schema.json', result), []);
  assert.deepEqual(
    result.toolResults.map((tool) => tool.state),
    ['rolledBack', 'rolledBack', 'failed'],
  );
  assert.ok(result.toolResults.every((tool) => tool.state !== 'rolledBack' || tool.rollback?.ok === true));
});

test('a persisted run resumes without re-running its successful tools', async () => {
  const store = new FileRunStore(path.join(scratch, 'runs'));
  const counterFile = path.join(scratch, 'resume.count');
  const firstCounter = path.join(scratch, 'first.count');
  const plan = {
    requestId: id(),
    tools: [
      { toolId: 'once', toolPath: 'skills/helpers/scripts/flaky.js', input: { counterFile: firstCounter, failTimes: 0 } },
      {
        toolId: 'flaky',
        toolPath: 'skills/helpers/scripts/flaky.js',
        dependencies: ['once'],
        input: { counterFile, failTimes: 1 },
        retryPolicy: { maxRetries: 0 },
      },
    ],
  };
  const failed = await executePlan(plan, { root: story, runStore: store });
  assert.equal(failed.success, false);
  const record = await store.load(plan.requestId);
  assert.equal(record?.status, 'failed');
  assert.deepEqual(
    (await store.list()).map((run) => run.planId),
    [plan.requestId],
  );
  const resumed = await executePlan(plan, { root: story, runStore: store, resume: record });
  assert.equal(resumed.success, true);
  const { readFileSync } = await import('node:fs');
  assert.equal(readFileSync(firstCounter, 'utf8').trim(), '1', '"once" ran only in the first run');
  assert.equal(readFileSync(counterFile, 'utf8').trim(), '2');
  assert.equal((await store.load(plan.requestId))?.status, 'succeeded');
});
