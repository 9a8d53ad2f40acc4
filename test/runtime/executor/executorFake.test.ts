// Focused example tests of the plan executor with the in-process fake runner: cancellation, plan timeout,
// hold hooks, event cap, non-required failures, disabledSkills, rollback and persistence/resume.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { executePlan, startPlanRun } from '../../../src/runtime/executor/planExecutor.js';
import type { ExecutionResult, ToolResult } from '../../../src/runtime/contractTypes/executionResult.js';
import type { Plan, ToolInvocation } from '../../../src/runtime/contractTypes/plan.js';
import type { RunRecord, RunStore, RunSummary } from '../../../src/runtime/persistence/runStore.js';
import { FakeToolRunner, deferred, doneEvent, fakeOptions, fakeToolPath, logEvent, patchEvent, settle, type Deferred } from './fakeToolRunner.js';

// ---------------------------------------------------------------------------------------------
// Helpers.

/** A tool in skill `s<id>` with no retries (the schema default of 3 retries × 100 ms would slow tests down). */
function tool(id: string, extra: Partial<ToolInvocation> = {}): ToolInvocation {
  return { toolId: id, toolPath: fakeToolPath(id), retryPolicy: { maxRetries: 0, backoffMs: 0 }, ...extra };
}

function planOf(tools: readonly ToolInvocation[], extra: Partial<Plan> = {}): Plan {
  return { requestId: randomUUID(), tools, ...extra };
}

function byId(result: ExecutionResult, toolId: string): ToolResult {
  const found = result.toolResults.find((candidate) => candidate.toolId === toolId);
  assert.ok(found, `no result for ${toolId}`);
  return found;
}

/**
 * Polls `condition` macrotask by macrotask (setImmediate, so it also works while setTimeout is mocked) until it
 * holds. The 30 s deadline is only a safety net against a hang, never a timing assertion: the fake runner does
 * everything in-process, so a condition that holds at all holds after a few hops, loaded machine or not.
 */
async function until(condition: () => boolean, deadlineMs = 30_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`condition not reached within ${deadlineMs} ms: ${condition.toString()}`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

class MemoryRunStore implements RunStore {
  readonly records = new Map<string, RunRecord>();
  saves = 0;

  async save(record: RunRecord): Promise<void> {
    this.saves++;
    this.records.set(record.planId, JSON.parse(JSON.stringify(record)) as RunRecord);
  }

  async load(planId: string): Promise<RunRecord | undefined> {
    const record = this.records.get(planId);
    return record ? (JSON.parse(JSON.stringify(record)) as RunRecord) : undefined;
  }

  async list(): Promise<RunSummary[]> {
    return [...this.records.values()].map((record) => ({
      planId: record.planId,
      status: record.status,
      startedAt: record.startedAt,
      updatedAt: record.updatedAt,
      toolsFinished: Object.keys(record.tools).length,
      toolsTotal: record.plan.tools.length,
      pid: record.pid,
      alive: false,
    }));
  }
}

// ---------------------------------------------------------------------------------------------
// Cancellation.

test('run.cancel(): the running tool is cancelled, pending tools are skipped (cancelled), no replan', async () => {
  const runner = new FakeToolRunner({ a: [{ outcome: 'hang' }] });
  const plan = planOf([tool('done'), tool('a'), tool('b'), tool('c', { required: false })]);
  const run = startPlanRun(plan, fakeOptions(runner));
  await until(() => runner.attemptsOf('a').length === 1);
  run.cancel();
  const result = await run.result;
  // Deterministic, no wall-clock bound: a 'hang' attempt ends only by the abort (it would say 'timeout' had it
  // run into its 30 s tool timeout instead), and the last assertion below checks it ended 'cancelled'.
  assert.equal(result.status, 'cancelled');
  assert.equal(result.success, false);
  assert.equal(result.canReplan, false);
  assert.equal(result.failureReason, 'cancelled');
  assert.deepEqual(result.failedTools, []);
  assert.deepEqual(result.disabledSkills, []);
  assert.equal(byId(result, 'done').state, 'success');
  assert.equal(byId(result, 'a').state, 'cancelled');
  assert.equal(byId(result, 'a').error?.category, 'cancelled');
  for (const id of ['b', 'c']) {
    assert.equal(byId(result, id).state, 'skipped');
    assert.equal(byId(result, id).skipReason, 'cancelled');
  }
  assert.deepEqual(runner.startOrder(), ['done', 'a']);
  assert.equal(runner.attemptsOf('a')[0]!.ended, 'cancelled');
});

test('an external AbortSignal cancels the run like run.cancel()', async () => {
  const runner = new FakeToolRunner({ a: [{ outcome: 'hang' }] });
  const controller = new AbortController();
  const plan = planOf([tool('a', { async: true }), tool('b', { async: true })], { parallel: true });
  const run = startPlanRun(plan, fakeOptions(runner, { signal: controller.signal, concurrency: 1 }));
  await until(() => runner.running === 1);
  controller.abort();
  const result = await run.result;
  assert.equal(result.status, 'cancelled');
  assert.equal(result.canReplan, false);
  assert.equal(byId(result, 'a').state, 'cancelled');
  assert.equal(byId(result, 'b').state, 'skipped');
  assert.equal(byId(result, 'b').skipReason, 'cancelled');
  assert.deepEqual(runner.startOrder(), ['a']);
});

test('an AbortSignal aborted before the run starts skips every tool (cancelled)', async () => {
  const runner = new FakeToolRunner();
  const plan = planOf([tool('a'), tool('b', { required: false }), tool('c', { async: true })]);
  const result = await executePlan(plan, fakeOptions(runner, { signal: AbortSignal.abort() }));
  assert.equal(result.status, 'cancelled');
  assert.equal(runner.log.length, 0);
  for (const toolResult of result.toolResults) {
    assert.equal(toolResult.state, 'skipped');
    assert.equal(toolResult.skipReason, 'cancelled');
  }
});

// ---------------------------------------------------------------------------------------------
// Plan timeout.

test('plan timeout: status timeout, the running tool times out with PLAN_TIMEOUT, pending tools are skipped (plan_timeout)', async (t) => {
  // Deterministic: setTimeout is mocked, so the plan timer fires exactly when the test ticks the clock — once
  // 'done' has finished and 'a' is running — however slowly the machine got there.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const runner = new FakeToolRunner({ a: [{ outcome: 'hang' }] });
  const plan = planOf([tool('done'), tool('a'), tool('b')]);
  const run = startPlanRun(plan, fakeOptions(runner, { planTimeoutMs: 40 }));
  await until(() => runner.running === 1 && runner.attemptsOf('a').length === 1);
  t.mock.timers.tick(40);
  const result = await run.result;
  assert.equal(result.status, 'timeout');
  assert.equal(result.success, false);
  assert.equal(result.canReplan, true);
  assert.equal(result.failureReason, 'timeout');
  assert.equal(byId(result, 'done').state, 'success');
  const running = byId(result, 'a');
  assert.equal(running.state, 'timeout');
  assert.equal(running.error?.code, 'PLAN_TIMEOUT');
  assert.equal(running.error?.category, 'timeout');
  // A tool that hangs past the plan timeout counts against its skill (FR-024): the next attempt runs without it.
  assert.deepEqual(result.disabledSkills, running.skill ? [running.skill] : []);
  assert.equal(byId(result, 'b').state, 'skipped');
  assert.equal(byId(result, 'b').skipReason, 'plan_timeout');
  assert.deepEqual(result.failedTools, ['a']);
});

test('dependents of the tool that was running when the run stopped are skipped for the stop reason, not dependency_failed', async (t) => {
  // Deterministic: setTimeout is mocked, so the plan timeout fires only when the test ticks the clock, while 'a' runs.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  for (const [stop, required] of [
    ['aborted before start', true],
    ['aborted before start', false],
    ['cancel', true],
    ['cancel', false],
    ['plan_timeout', true],
  ] as const) {
    const runner = new FakeToolRunner({ a: [{ outcome: 'hang' }] });
    const plan = planOf([tool('a', { required }), tool('b', { dependencies: ['a'] }), tool('c', { dependencies: ['b'] })]);
    const options = stop === 'plan_timeout' ? { planTimeoutMs: 30 } : stop === 'cancel' ? {} : { signal: AbortSignal.abort() };
    const run = startPlanRun(plan, fakeOptions(runner, options));
    if (stop === 'cancel' || stop === 'plan_timeout') await until(() => runner.running === 1);
    if (stop === 'cancel') run.cancel();
    if (stop === 'plan_timeout') t.mock.timers.tick(30);
    const result = await run.result;
    if (stop !== 'aborted before start')
      assert.equal(byId(result, 'a').state, stop === 'cancel' ? 'cancelled' : 'timeout', `${stop}: a was running when the run stopped`);
    const reason = stop === 'plan_timeout' ? 'plan_timeout' : 'cancelled';
    for (const id of ['b', 'c']) {
      assert.equal(byId(result, id).state, 'skipped');
      assert.equal(byId(result, id).skipReason, reason, `${stop} (a required: ${required}): ${id} skipReason`);
      assert.equal(byId(result, id).error, undefined, `${stop} (a required: ${required}): ${id} carries ${byId(result, id).error?.code}`);
    }
  }
});

test('a tool waiting for its retry when the run stops ends cancelled (or PLAN_TIMEOUT), not failed', async (t) => {
  // Deterministic, no wall-clock bound: setTimeout is mocked and the clock only ever advances by the plan
  // timeout (50 ms), never to the 5 s backoff, so the run can end only if the stop interrupts the backoff sleep
  // (otherwise run.result never settles and the test fails with "Promise resolution is still pending").
  t.mock.timers.enable({ apis: ['setTimeout'] });
  for (const stop of ['cancel', 'plan_timeout'] as const) {
    const runner = new FakeToolRunner({ a: [{ outcome: 'fail' }] });
    const plan = planOf([tool('a', { retryPolicy: { maxRetries: 3, backoffMs: 5000 } })]);
    const run = startPlanRun(plan, fakeOptions(runner, stop === 'plan_timeout' ? { planTimeoutMs: 50 } : {}));
    let retryScheduled = false;
    run.onDidScheduleRetry(() => (retryScheduled = true));
    // The executor enters the backoff sleep right after announcing the retry: stop it from a later macrotask,
    // while it sleeps (stopping inside the announcement would skip the sleep altogether).
    await until(() => retryScheduled);
    if (stop === 'cancel') run.cancel();
    else t.mock.timers.tick(50);
    const result = await run.result;
    assert.equal(runner.attemptsOf('a').length, 1);
    if (stop === 'cancel') {
      assert.equal(byId(result, 'a').state, 'cancelled');
      assert.deepEqual(result.failedTools, []);
      assert.deepEqual(result.disabledSkills, []);
    } else {
      assert.equal(byId(result, 'a').state, 'timeout');
      assert.equal(byId(result, 'a').error?.code, 'PLAN_TIMEOUT');
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Hold hooks.

test('hooks.beforeToolStart holds a tool: nothing starts until the hold is released', async () => {
  const runner = new FakeToolRunner();
  const holds = new Map<string, Deferred>();
  const started: string[] = [];
  const plan = planOf([tool('a', { async: true }), tool('b', { async: true }), tool('c', { dependencies: ['a', 'b'] })], { parallel: true });
  const run = startPlanRun(
    plan,
    fakeOptions(runner, {
      concurrency: 2,
      hooks: {
        beforeToolStart: (info) => {
          assert.equal(info.attempt, 1);
          assert.equal(info.stdin.tool, info.tool.toolId);
          const hold = deferred();
          holds.set(info.tool.toolId, hold);
          return hold.promise;
        },
      },
    }),
  );
  run.onDidStartTool(({ toolId }) => started.push(toolId));
  await until(() => holds.size === 2);
  await settle(20);
  assert.equal(runner.log.length, 0);
  assert.deepEqual(started, []);

  holds.get('b')!.resolve();
  await until(() => runner.attemptsOf('b')[0]?.ended !== undefined);
  await settle(20);
  assert.deepEqual(runner.startOrder(), ['b']);
  assert.deepEqual(started, ['b']);
  assert.equal(holds.has('c'), false, 'c waits for a');

  holds.get('a')!.resolve();
  await until(() => holds.has('c'));
  await settle(20);
  assert.deepEqual(runner.startOrder(), ['b', 'a']);
  holds.get('c')!.resolve();
  const result = await run.result;
  assert.equal(result.success, true);
  assert.deepEqual(runner.startOrder(), ['b', 'a', 'c']);
});

test('hooks.beforeEventApply holds each event: onDidEmitEvent for event k+1 never fires before event k is released', async () => {
  const events = [logEvent('zero'), patchEvent({ n: 1 }), logEvent('two'), doneEvent(true, { n: 3 })];
  const runner = new FakeToolRunner({ a: [{ outcome: 'success', events }] });
  const holds: Deferred[] = [];
  const emitted: number[] = [];
  const run = startPlanRun(
    planOf([tool('a')]),
    fakeOptions(runner, {
      hooks: {
        beforeEventApply: (info) => {
          assert.equal(info.index, holds.length);
          const hold = deferred();
          holds.push(hold);
          return hold.promise;
        },
      },
    }),
  );
  run.onDidEmitEvent(({ index, toolId }) => {
    assert.equal(toolId, 'a');
    emitted.push(index);
  });
  for (let k = 0; k < events.length; k++) {
    await until(() => holds.length === k + 1);
    await settle(20);
    assert.deepEqual(emitted, [...Array(k).keys()], `before releasing event ${k}`);
    assert.equal(holds.length, k + 1, `event ${k + 1} reached the hook before ${k} was released`);
    assert.equal(runner.attemptsOf('a')[0]!.emitted.length, k, 'the runner is paused too');
    holds[k]!.resolve();
    await until(() => emitted.length === k + 1);
  }
  const result = await run.result;
  assert.deepEqual(emitted, [0, 1, 2, 3]);
  assert.deepEqual(result.aggregatedState, { n: 1 });
  assert.deepEqual(byId(result, 'a').output?.result, { n: 3 });
});

// ---------------------------------------------------------------------------------------------
// Event cap.

test('maxEventsPerTool caps the recorded events and counts the rest in droppedEvents (their effects still apply)', async () => {
  const events = [logEvent('1'), logEvent('2'), patchEvent({ late: true }), logEvent('4'), doneEvent(true, { ok: 1 })];
  const runner = new FakeToolRunner({ a: [{ outcome: 'success', events }] });
  const result = await executePlan(planOf([tool('a'), tool('b')]), fakeOptions(runner, { maxEventsPerTool: 2 }));
  const a = byId(result, 'a');
  assert.deepEqual(a.events, events.slice(0, 2));
  assert.equal(a.droppedEvents, 3);
  assert.equal(byId(result, 'b').droppedEvents, 0);
  assert.deepEqual(result.aggregatedState, { late: true });
  assert.deepEqual(a.output?.result, { ok: 1 });
});

// ---------------------------------------------------------------------------------------------
// Failures.

test('a non-required failure gives dependents null in stdin.dependencies, and the dependents still run', async () => {
  const runner = new FakeToolRunner({
    a: [{ outcome: 'fail' }],
    c: [{ outcome: 'success', events: [patchEvent({ from: 'c' }), doneEvent(true, { v: 1 })] }],
  });
  const plan = planOf([tool('a', { required: false }), tool('c'), tool('b', { dependencies: ['a', 'c'] })]);
  const result = await executePlan(plan, fakeOptions(runner));
  assert.equal(result.status, 'succeeded');
  assert.equal(result.success, true);
  assert.equal(byId(result, 'a').state, 'failed');
  assert.equal(byId(result, 'b').state, 'success');
  assert.deepEqual(result.failedTools, ['a']);
  assert.deepEqual(result.disabledSkills, ['sa']);
  const stdin = runner.attemptsOf('b')[0]!.stdin;
  assert.equal(stdin.dependencies['a'], null);
  assert.equal(stdin.dependencies['c']?.ok, true);
  assert.deepEqual(stdin.dependencies['c']?.result, { v: 1 });
  assert.deepEqual(stdin.dependencies['c']?.state, { from: 'c' });
});

test('a required failure skips its transitive dependents (dependency_failed) and fails the plan', async () => {
  const runner = new FakeToolRunner({ a: [{ outcome: 'fail' }] });
  const plan = planOf([tool('a'), tool('b', { dependencies: ['a'] }), tool('c', { dependencies: ['b'] }), tool('d')]);
  const result = await executePlan(plan, fakeOptions(runner));
  assert.equal(result.status, 'failed');
  assert.equal(result.canReplan, true);
  assert.equal(result.failureReason, 'tool_failure');
  for (const id of ['b', 'c']) {
    assert.equal(byId(result, id).state, 'skipped');
    assert.equal(byId(result, id).skipReason, 'dependency_failed');
  }
  assert.equal(byId(result, 'd').state, 'success');
  assert.deepEqual(runner.startOrder(), ['a', 'd']);
});

test('regression (found by property (d)): a required failure also skips dependents reached through a non-required tool', async () => {
  const runner = new FakeToolRunner({ a: [{ outcome: 'fail' }] });
  const plan = planOf([tool('a'), tool('b', { dependencies: ['a'], required: false }), tool('c', { dependencies: ['b'] })]);
  const result = await executePlan(plan, fakeOptions(runner));
  assert.equal(byId(result, 'b').skipReason, 'dependency_failed');
  assert.equal(byId(result, 'c').state, 'skipped', `c ran with stdin.dependencies ${JSON.stringify(runner.attemptsOf('c')[0]?.stdin.dependencies)}`);
  assert.equal(byId(result, 'c').skipReason, 'dependency_failed');
  assert.deepEqual(runner.startOrder(), ['a']);
});

test('disabledSkills lists the skills of failed and timed-out tools, once each, in plan order', async () => {
  const at = (skill: string) => `skills/${skill}/scripts/t.js`;
  const runner = new FakeToolRunner({ f1: [{ outcome: 'fail' }], f2: [{ outcome: 'fail' }], t: [{ outcome: 'timeout' }], e: [{ outcome: 'fail' }] });
  const plan = planOf([
    tool('ok', { toolPath: at('gamma') }),
    tool('f1', { toolPath: at('alpha'), required: false }),
    tool('t', { toolPath: at('beta'), required: false }),
    tool('f2', { toolPath: at('alpha'), required: false }),
    tool('e', { toolPath: at('epsilon') }),
    tool('s', { toolPath: at('delta'), dependencies: ['e'] }),
  ]);
  const result = await executePlan(plan, fakeOptions(runner));
  assert.deepEqual(result.failedTools, ['f1', 't', 'f2', 'e']);
  assert.deepEqual(result.disabledSkills, ['alpha', 'beta', 'epsilon']);
  assert.equal(byId(result, 't').state, 'timeout');
  assert.equal(byId(result, 's').state, 'skipped');
});

// ---------------------------------------------------------------------------------------------
// Rollback.

test('rollbackOnFailure: completed tools with a rollback are rolled back in reverse completion order', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'narratoria-rollback-'));
  try {
    const undoPath = (id: string) => `skills/s${id}/scripts/undo.js`;
    for (const id of ['a', 'b', 'c']) {
      await fs.mkdir(path.join(root, 'skills', `s${id}`, 'scripts'), { recursive: true });
      await fs.writeFile(path.join(root, undoPath(id)), '');
    }
    // b, then c, then a finish, whatever the timing: c waits for b's end and a for c's (macrotask hops alone let a
    // loaded machine start b and c late enough for a to finish first, a CI failure).
    const ends = new Map(['b', 'c'].map((id) => [id, deferred()] as const));
    const runner = new FakeToolRunner({
      a: [{ outcome: 'success', after: ends.get('c')!.promise }],
      b: [{ outcome: 'success', delayTicks: 1 }],
      c: [{ outcome: 'success', after: ends.get('b')!.promise }],
      n: [{ outcome: 'success', delayTicks: 2 }],
      m: [{ outcome: 'success' }],
      d: [{ outcome: 'fail' }],
    });
    const withRollback = (id: string) => tool(id, { async: true, rollback: { toolPath: undoPath(id), input: { undo: id } } });
    const plan = planOf(
      [
        withRollback('a'),
        withRollback('b'),
        withRollback('c'),
        tool('n', { async: true }),
        // A rollback whose script does not exist: recorded as a failed rollback, the others still run.
        tool('m', { async: true, rollback: { toolPath: 'skills/sm/scripts/missing.js' } }),
        tool('d', { async: true, dependencies: ['a', 'b', 'c', 'n', 'm'] }),
      ],
      { parallel: true, rollbackOnFailure: true },
    );
    const run = startPlanRun(plan, fakeOptions(runner, { root, concurrency: 5 }));
    const completion: string[] = [];
    run.onDidFinishTool(({ result }) => {
      if (result.state === 'success') completion.push(result.toolId);
      ends.get(result.toolId)?.resolve();
    });
    const result = await run.result;
    assert.equal(result.status, 'failed');
    assert.deepEqual(
      completion.filter((id) => ['a', 'b', 'c'].includes(id)),
      ['b', 'c', 'a'],
      'completion order differs from plan order',
    );
    const expectedOrder = [...completion].reverse().filter((id) => ['a', 'b', 'c'].includes(id));
    assert.deepEqual(runner.rollbackOrder(), expectedOrder);
    for (const id of ['a', 'b', 'c']) {
      const toolResult = byId(result, id);
      assert.equal(toolResult.state, 'rolledBack');
      assert.equal(toolResult.rollback?.ok, true);
      const call = runner.attemptsOf(`${id}:rollback`)[0]!;
      assert.deepEqual(call.stdin.input, { undo: id });
    }
    assert.equal(byId(result, 'n').state, 'success');
    assert.equal(byId(result, 'm').state, 'success');
    assert.equal(byId(result, 'm').rollback?.ok, false);
    assert.equal(byId(result, 'm').rollback?.error?.code, 'TOOL_PATH_NOT_FOUND');
    assert.equal(byId(result, 'd').state, 'failed');
    // Rollbacks run after every tool has finished, one at a time.
    const lastToolEnd = Math.max(...runner.log.filter((entry) => !entry.toolId.endsWith(':rollback')).map((entry) => entry.end));
    const rollbacks = runner.log.filter((entry) => entry.toolId.endsWith(':rollback'));
    assert.ok(rollbacks.every((entry) => entry.start > lastToolEnd));
    rollbacks.slice(1).forEach((entry, index) => assert.ok(entry.start > rollbacks[index]!.end));
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
});

test('without rollbackOnFailure nothing is rolled back', async () => {
  const runner = new FakeToolRunner({ d: [{ outcome: 'fail' }] });
  const plan = planOf([tool('a', { rollback: { toolPath: 'skills/sa/scripts/undo.js' } }), tool('d', { dependencies: ['a'] })]);
  const result = await executePlan(plan, fakeOptions(runner));
  assert.equal(result.status, 'failed');
  assert.deepEqual(runner.rollbackOrder(), []);
  assert.equal(byId(result, 'a').state, 'success');
});

// ---------------------------------------------------------------------------------------------
// Persistence and resume.

test('resume: tools that succeeded are not run again and the final state equals a clean full run', async () => {
  const scripts = {
    a: [{ outcome: 'success' as const, events: [patchEvent({ x: 1, list: [1, 2], nested: { keep: true, drop: 1 } })] }],
    b: [{ outcome: 'success' as const, events: [patchEvent({ nested: { drop: null, more: 'b' } }), doneEvent(true, { from: 'b' })] }],
    c: [{ outcome: 'success' as const, events: [patchEvent({ x: 2, list: [3] })] }],
    d: [{ outcome: 'success' as const, events: [patchEvent({ w: true })] }],
  };
  const plan = planOf([tool('a'), tool('b', { dependencies: ['a'] }), tool('c', { dependencies: ['b'] }), tool('d')]);
  const initialState = { seed: 0 };

  // First run: c fails (and its failing attempt's patch must not leak into the state).
  const store = new MemoryRunStore();
  const failing = new FakeToolRunner({ ...scripts, c: [{ outcome: 'fail', events: [patchEvent({ leaked: true })] }] });
  const first = await executePlan(plan, fakeOptions(failing, { runStore: store, initialState }));
  assert.equal(first.status, 'failed');
  assert.deepEqual(failing.startOrder(), ['a', 'b', 'c', 'd']);
  const record = await store.load(plan.requestId);
  assert.ok(record, 'the run was saved');
  assert.equal(record.status, 'failed');
  assert.deepEqual(Object.keys(record.tools).sort(), ['a', 'b', 'c', 'd']);
  assert.equal(record.tools['c']?.result.state, 'failed');

  // Resume: only c runs.
  const resuming = new FakeToolRunner(scripts);
  const resumed = await executePlan(plan, fakeOptions(resuming, { runStore: store, resume: record }));
  assert.deepEqual(resuming.startOrder(), ['c']);
  assert.equal(resumed.status, 'succeeded');

  // A clean full run of the same plan.
  const clean = new FakeToolRunner(scripts);
  const full = await executePlan(plan, fakeOptions(clean, { initialState }));
  assert.deepEqual(clean.startOrder(), ['a', 'b', 'c', 'd']);
  assert.deepEqual(resumed.aggregatedState, full.aggregatedState);
  assert.deepEqual(full.aggregatedState, { seed: 0, x: 2, list: [3], nested: { keep: true, more: 'b' }, w: true });
  assert.deepEqual(
    resumed.toolResults.map((result) => result.state),
    full.toolResults.map((result) => result.state),
  );
  // c saw the same inputs as in the clean run.
  assert.deepEqual(resuming.attemptsOf('c')[0]!.stdin.dependencies, clean.attemptsOf('c')[0]!.stdin.dependencies);
  assert.deepEqual(resuming.attemptsOf('c')[0]!.stdin.state, clean.attemptsOf('c')[0]!.stdin.state);

  const saved = await store.load(plan.requestId);
  assert.equal(saved?.status, 'succeeded');
  assert.equal(saved?.result?.success, true);
});
