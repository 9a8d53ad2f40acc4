// Property tests of the plan executor's DAG scheduler, driven by random DAGs and the in-process fake runner.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { startPlanRun } from '../../../src/runtime/executor/planExecutor.js';
import type { ExecutionResult, ToolResult } from '../../../src/runtime/contractTypes/executionResult.js';
import type { Plan } from '../../../src/runtime/contractTypes/plan.js';
import { deepMerge, type JsonObject } from '../../../src/runtime/state/deepMerge.js';
import { FakeToolRunner, fakeOptions, fakeToolPath, patchEvent, type FakeAttempt } from './fakeToolRunner.js';
import { maxConcurrent } from '../../support/concurrency.js';
import { seedPropertyTests } from '../../support/propertySeed.js';

// Deterministic: a fixed fast-check seed (test/support/propertySeed.ts), so every run checks the same cases.
seedPropertyTests();

const NUM_RUNS = 100;

// ---------------------------------------------------------------------------------------------
// The model: a random DAG (each tool depends on earlier tools), per-tool behaviour and delays.

type Behaviour =
  | { readonly kind: 'succeed' }
  | { readonly kind: 'failThenSucceed'; readonly failures: number }
  | { readonly kind: 'alwaysFail' }
  | { readonly kind: 'timeout' };

/**
 * Per-attempt delay: macrotask hops, plus (rarely) a real millisecond or two. Deterministic: the real milliseconds
 * only vary which interleavings a run exercises; every property below must hold for any interleaving, and none
 * compares clock readings (attempt times are stamps of the fake runner's counter).
 */
interface Delay {
  readonly ticks: number;
  readonly ms: number;
}

interface ToolModel {
  readonly deps: readonly number[];
  readonly required: boolean;
  readonly async: boolean;
  readonly maxRetries: number;
  readonly backoffMs: number;
  readonly behaviour: Behaviour;
  /** State patches emitted by attempt k (index k−1); failed attempts emit patches too (they must be discarded). */
  readonly patches: readonly (readonly JsonObject[])[];
  readonly delays: readonly Delay[];
}

interface PlanModel {
  readonly tools: readonly ToolModel[];
  readonly parallel: boolean;
  readonly concurrency: number;
}

const idOf = (index: number) => `t${index}`;

const behaviourArb: fc.Arbitrary<Behaviour> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ kind: 'succeed' as const }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 3 }).map((failures) => ({ kind: 'failThenSucceed' as const, failures })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'alwaysFail' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'timeout' as const }) },
);

const delayArb: fc.Arbitrary<Delay> = fc.record({
  ticks: fc.integer({ min: 0, max: 5 }),
  ms: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }) }),
});

/** Small patches over a few shared keys, so tools overwrite, merge into and delete each other's state. */
const leafArb = fc.oneof(
  fc.integer({ min: 0, max: 9 }),
  fc.constantFrom('x', 'y'),
  fc.constant(null),
  fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 2 }),
);
const innerArb = fc.dictionary(fc.constantFrom('p', 'q', 'r'), leafArb, { maxKeys: 2 });
const patchArb: fc.Arbitrary<JsonObject> = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.oneof(leafArb, innerArb), { minKeys: 1, maxKeys: 3 });

const maxAttempts = 3; // maxRetries ≤ 2

function toolArb(index: number, withPatches: boolean): fc.Arbitrary<ToolModel> {
  return fc.record({
    deps:
      index === 0
        ? fc.constant([])
        : fc.uniqueArray(fc.integer({ min: 0, max: index - 1 }), { maxLength: Math.min(index, 4) }).map((deps) => [...deps].sort((a, b) => a - b)),
    required: fc.boolean(),
    async: fc.boolean(),
    maxRetries: fc.integer({ min: 0, max: 2 }),
    backoffMs: fc.integer({ min: 0, max: 2 }),
    behaviour: behaviourArb,
    patches: withPatches ? fc.array(fc.array(patchArb, { maxLength: 2 }), { minLength: maxAttempts, maxLength: maxAttempts }) : fc.constant([]),
    delays: fc.array(delayArb, { minLength: maxAttempts, maxLength: maxAttempts }),
  });
}

function planModelArb(options: { withPatches?: boolean; parallel?: boolean; minTools?: number; maxTools?: number } = {}): fc.Arbitrary<PlanModel> {
  return fc.integer({ min: options.minTools ?? 5, max: options.maxTools ?? 40 }).chain((count) =>
    fc.record({
      tools: fc.tuple(...Array.from({ length: count }, (_, index) => toolArb(index, options.withPatches ?? false))),
      parallel: options.parallel === undefined ? fc.boolean() : fc.constant(options.parallel),
      concurrency: fc.integer({ min: 1, max: 4 }),
    }),
  );
}

function toPlan(model: PlanModel): Plan {
  return {
    requestId: randomUUID(),
    parallel: model.parallel,
    tools: model.tools.map((tool, index) => ({
      toolId: idOf(index),
      toolPath: fakeToolPath(index % 5),
      dependencies: tool.deps.map(idOf),
      required: tool.required,
      async: tool.async,
      retryPolicy: { maxRetries: tool.maxRetries, backoffMs: tool.backoffMs },
    })),
  };
}

/** The fake script of attempt `attempt` (1-based) of a tool. */
function attemptScript(tool: ToolModel, attempt: number, delays: readonly Delay[] = tool.delays): FakeAttempt {
  const behaviour = tool.behaviour;
  const outcome =
    behaviour.kind === 'succeed'
      ? 'success'
      : behaviour.kind === 'failThenSucceed'
        ? attempt > behaviour.failures
          ? 'success'
          : 'fail'
        : behaviour.kind === 'alwaysFail'
          ? 'fail'
          : 'timeout';
  const delay = delays[Math.min(attempt, delays.length) - 1] ?? { ticks: 0, ms: 0 };
  return {
    outcome,
    delayTicks: delay.ticks,
    delayMs: delay.ms,
    events: (tool.patches[attempt - 1] ?? []).map(patchEvent),
    eventGapTicks: delay.ticks % 2,
  };
}

// ---------------------------------------------------------------------------------------------
// What the model predicts.

type FinalState = 'success' | 'failed' | 'timeout' | 'skipped';

/** Final state and number of attempts of each tool if it runs. */
function ownOutcome(tool: ToolModel): { state: Exclude<FinalState, 'skipped'>; attempts: number } {
  const allowed = tool.maxRetries + 1;
  switch (tool.behaviour.kind) {
    case 'succeed':
      return { state: 'success', attempts: 1 };
    case 'failThenSucceed':
      return tool.behaviour.failures < allowed ? { state: 'success', attempts: tool.behaviour.failures + 1 } : { state: 'failed', attempts: allowed };
    case 'alwaysFail':
      return { state: 'failed', attempts: allowed };
    case 'timeout':
      return { state: 'timeout', attempts: allowed };
  }
}

/** docs/plan-json-and-protocol.md#failure-handling: a required tool that does not succeed skips all its transitive dependents; others run. */
function expectedStates(model: PlanModel): FinalState[] {
  const states: FinalState[] = [];
  const blocked: boolean[] = [];
  model.tools.forEach((tool, index) => {
    blocked[index] = tool.deps.some((dep) => blocked[dep] || (model.tools[dep]!.required && (states[dep] === 'failed' || states[dep] === 'timeout')));
    states[index] = blocked[index] ? 'skipped' : ownOutcome(tool).state;
  });
  return states;
}

/** Stable Kahn order (ties by plan index), written independently of src/runtime/dag/toolDependencies.ts. */
function stableTopologicalOrder(model: PlanModel): number[] {
  const done = new Set<number>();
  const order: number[] = [];
  while (order.length < model.tools.length) {
    const next = model.tools.findIndex((tool, index) => !done.has(index) && tool.deps.every((dep) => done.has(dep)));
    done.add(next);
    order.push(next);
  }
  return order;
}

// ---------------------------------------------------------------------------------------------
// Running a model through the executor.

interface Observation {
  readonly result: ExecutionResult;
  readonly runner: FakeToolRunner;
  /** Counter stamp of each tool's onDidFinishTool (by toolId); several entries mean it fired several times. */
  readonly finished: Map<string, number[]>;
  readonly retries: { toolId: string; nextAttempt: number; delayMs: number }[];
  readonly startEvents: Map<string, number>;
}

async function execute(model: PlanModel, plan: Plan = toPlan(model), delays?: readonly (readonly Delay[])[]): Promise<Observation> {
  const runner = new FakeToolRunner({}, (request) => {
    const index = Number(request.stdin.tool.slice(1));
    return attemptScript(model.tools[index]!, request.attempt, delays?.[index]);
  });
  const run = startPlanRun(plan, fakeOptions(runner, { concurrency: model.concurrency }));
  const finished = new Map<string, number[]>();
  const retries: Observation['retries'] = [];
  const startEvents = new Map<string, number>();
  run.onDidFinishTool(({ result }) => {
    const stamps = finished.get(result.toolId) ?? [];
    stamps.push(runner.tick());
    finished.set(result.toolId, stamps);
  });
  run.onDidScheduleRetry(({ toolId, nextAttempt, delayMs }) => retries.push({ toolId, nextAttempt, delayMs }));
  run.onDidStartTool(({ toolId }) => startEvents.set(toolId, (startEvents.get(toolId) ?? 0) + 1));
  const result = await run.result;
  run.dispose();
  return { result, runner, finished, retries, startEvents };
}

function describe(model: PlanModel): string {
  return JSON.stringify({
    parallel: model.parallel,
    concurrency: model.concurrency,
    tools: model.tools.map((tool, index) => ({
      id: idOf(index),
      deps: tool.deps.map(idOf),
      required: tool.required,
      async: tool.async,
      maxRetries: tool.maxRetries,
      behaviour: tool.behaviour,
    })),
  });
}

const resultOf = (observation: Observation, index: number): ToolResult => observation.result.toolResults[index]!;

// ---------------------------------------------------------------------------------------------
// Properties.

test('(a) no tool starts before all its dependencies have finished', async () => {
  await fc.assert(
    fc.asyncProperty(planModelArb(), async (model) => {
      const observation = await execute(model);
      model.tools.forEach((tool, index) => {
        const attempts = observation.runner.attemptsOf(idOf(index));
        if (attempts.length === 0) return;
        const firstStart = attempts[0]!.start;
        for (const dep of tool.deps) {
          const depId = idOf(dep);
          const finishedAt = observation.finished.get(depId)?.[0];
          assert.ok(finishedAt !== undefined && finishedAt < firstStart, `${idOf(index)} started at ${firstStart} before ${depId} finished (${finishedAt})`);
          for (const depAttempt of observation.runner.attemptsOf(depId)) {
            assert.ok(depAttempt.end !== -1 && depAttempt.end < firstStart, `${idOf(index)} started while ${depId} attempt ${depAttempt.attempt} was running`);
          }
        }
      });
    }),
    { numRuns: NUM_RUNS },
  );
});

test('(b) running attempts never exceed the concurrency limit; an async:false tool in a parallel plan runs alone', async () => {
  await fc.assert(
    fc.asyncProperty(planModelArb(), async (model) => {
      const observation = await execute(model);
      const runner = observation.runner;
      const limit = model.parallel ? model.concurrency : 1;
      assert.ok(runner.maxConcurrency <= limit, `max concurrency ${runner.maxConcurrency} > limit ${limit}`);
      // Recompute from the intervals (independent of the runner's own counter): the most attempts open at one instant.
      // Deterministic: start/end are stamps of the runner's monotonic counter, not clock readings, so no two coincide.
      const most = maxConcurrent(runner.log.map((entry) => ({ start: entry.start, end: entry.end })));
      assert.ok(most <= limit, `${most} attempts running at once (limit ${limit})`);
      if (!model.parallel) return;
      // A tool "starts" with its first attempt; retries of an already started tool are not new starts.
      const firstStarts = model.tools.map((_, index) => runner.attemptsOf(idOf(index))[0]?.start);
      model.tools.forEach((tool, index) => {
        const attempts = runner.attemptsOf(idOf(index));
        if (tool.async || attempts.length === 0) return;
        const from = attempts[0]!.start;
        const to = attempts[attempts.length - 1]!.end;
        firstStarts.forEach((start, other) => {
          if (other === index || start === undefined) return;
          assert.ok(start < from || start > to, `${idOf(other)} started at ${start} while async:false ${idOf(index)} ran [${from}, ${to}]`);
        });
        // Nothing else is running at all while it runs (it waited for the running tools to finish).
        for (const entry of runner.log) {
          if (entry.toolId === idOf(index)) continue;
          assert.ok(
            entry.end < from || entry.start > to,
            `${entry.toolId} ran [${entry.start}, ${entry.end}] during async:false ${idOf(index)} [${from}, ${to}]`,
          );
        }
      });
    }),
    { numRuns: NUM_RUNS },
  );
});

test('(c) every tool ends in exactly one final state, once in toolResults (plan order), one onDidFinishTool', async () => {
  await fc.assert(
    fc.asyncProperty(planModelArb(), async (model) => {
      const observation = await execute(model);
      const results = observation.result.toolResults;
      assert.deepEqual(
        results.map((result) => result.toolId),
        model.tools.map((_, index) => idOf(index)),
      );
      for (const result of results) {
        assert.ok(['success', 'failed', 'timeout', 'skipped'].includes(result.state), `${result.toolId}: unexpected state ${result.state}`);
        assert.deepEqual(
          observation.finished.get(result.toolId)?.length,
          1,
          `${result.toolId}: onDidFinishTool fired ${observation.finished.get(result.toolId)?.length ?? 0} times`,
        );
      }
      assert.equal(observation.finished.size, model.tools.length);
      // Nothing runs after the tool was reported finished.
      model.tools.forEach((_, index) => {
        const finishedAt = observation.finished.get(idOf(index))![0]!;
        for (const attempt of observation.runner.attemptsOf(idOf(index))) assert.ok(attempt.end < finishedAt);
      });
    }),
    { numRuns: NUM_RUNS },
  );
});

test('(d) a tool is skipped (dependency_failed) exactly when a transitive ancestor is required and failed/timed out; otherwise it ran', async () => {
  await fc.assert(
    fc.asyncProperty(planModelArb(), async (model) => {
      const observation = await execute(model);
      const expected = expectedStates(model);
      model.tools.forEach((tool, index) => {
        const result = resultOf(observation, index);
        const attempts = observation.runner.attemptsOf(idOf(index)).length;
        assert.equal(result.state, expected[index], `${idOf(index)}: state ${result.state}, expected ${expected[index]} in ${describe(model)}`);
        if (expected[index] === 'skipped') {
          assert.equal(result.skipReason, 'dependency_failed');
          assert.equal(attempts, 0, `${idOf(index)} was skipped but ran ${attempts} attempts`);
        } else {
          assert.equal(result.skipReason, undefined);
          assert.equal(attempts, ownOutcome(tool).attempts, `${idOf(index)} ran ${attempts} attempts`);
        }
      });
    }),
    { numRuns: NUM_RUNS },
  );
});

test('(e) success iff no required tool failed or timed out; canReplan = !success; failedTools = failed/timeout ids', async () => {
  await fc.assert(
    fc.asyncProperty(planModelArb(), async (model) => {
      const { result } = await execute(model);
      const requiredFailure = result.toolResults.some(
        (toolResult, index) => model.tools[index]!.required && (toolResult.state === 'failed' || toolResult.state === 'timeout'),
      );
      assert.equal(result.success, !requiredFailure);
      assert.equal(result.status, requiredFailure ? 'failed' : 'succeeded');
      assert.equal(result.canReplan, !result.success);
      assert.deepEqual(
        result.failedTools,
        result.toolResults.filter((toolResult) => toolResult.state === 'failed' || toolResult.state === 'timeout').map((toolResult) => toolResult.toolId),
      );
      const skills = new Set(
        result.toolResults.filter((toolResult) => toolResult.state === 'failed' || toolResult.state === 'timeout').map((toolResult) => toolResult.skill),
      );
      assert.deepEqual(new Set(result.disabledSkills), skills);
      if (result.success) assert.equal(result.failureReason, undefined);
      else assert.ok(result.failureReason === 'tool_failure' || result.failureReason === 'timeout');
    }),
    { numRuns: NUM_RUNS },
  );
});

test('(f) retryCount = attempts − 1 ≤ maxRetries, and retry n waits backoffMs × 2^(n−1)', async () => {
  await fc.assert(
    fc.asyncProperty(planModelArb(), async (model) => {
      const observation = await execute(model);
      model.tools.forEach((tool, index) => {
        const id = idOf(index);
        const result = resultOf(observation, index);
        const ran = observation.runner.attemptsOf(id);
        if (ran.length === 0) {
          assert.equal(result.state, 'skipped');
          assert.equal(result.retryCount, 0);
          return;
        }
        assert.deepEqual(
          ran.map((attempt) => attempt.attempt),
          ran.map((_, position) => position + 1),
        );
        assert.equal(result.retryCount, ran.length - 1);
        assert.equal(result.attempts?.length, ran.length);
        assert.ok(ran.length - 1 <= tool.maxRetries, `${id}: ${ran.length - 1} retries > maxRetries ${tool.maxRetries}`);
        assert.equal(ran.length, ownOutcome(tool).attempts, `${id}: ${ran.length} attempts`);
        assert.equal(observation.startEvents.get(id), ran.length);
        const retries = observation.retries.filter((retry) => retry.toolId === id);
        assert.deepEqual(
          retries.map((retry) => [retry.nextAttempt, retry.delayMs]),
          ran.slice(1).map((attempt) => [attempt.attempt, tool.backoffMs * 2 ** (attempt.attempt - 2)]),
        );
        result.attempts!.forEach((record, position) => {
          assert.equal(record.attempt, position + 1);
          assert.equal(record.backoffMs, position === 0 ? undefined : tool.backoffMs * 2 ** (position - 1));
        });
      });
    }),
    { numRuns: NUM_RUNS },
  );
});

test('(g) aggregatedState does not depend on timing and equals folding successful patches in stable topological order', async () => {
  const arb = planModelArb({ withPatches: true }).chain((model) =>
    fc.tuple(
      fc.constant(model),
      fc.array(fc.array(delayArb, { minLength: maxAttempts, maxLength: maxAttempts }), { minLength: model.tools.length, maxLength: model.tools.length }),
    ),
  );
  await fc.assert(
    fc.asyncProperty(arb, async ([model, otherDelays]) => {
      const plan = toPlan(model);
      const first = await execute(model, plan);
      const second = await execute(model, { ...plan, requestId: randomUUID() }, otherDelays);
      assert.deepEqual(
        second.result.toolResults.map((result) => result.state),
        first.result.toolResults.map((result) => result.state),
      );
      assert.deepEqual(second.result.aggregatedState, first.result.aggregatedState);
      let expected: JsonObject = {};
      for (const index of stableTopologicalOrder(model)) {
        const result = resultOf(first, index);
        if (result.state !== 'success') continue;
        for (const patch of model.tools[index]!.patches[result.attempts!.length - 1] ?? []) expected = deepMerge(expected, patch);
      }
      assert.deepEqual(first.result.aggregatedState, expected);
    }),
    { numRuns: NUM_RUNS },
  );
});

/** Transitive dependencies of a tool (indices). */
function ancestorsOf(model: PlanModel, index: number): Set<number> {
  const found = new Set<number>();
  const queue = [...model.tools[index]!.deps];
  while (queue.length > 0) {
    const next = queue.pop()!;
    if (found.has(next)) continue;
    found.add(next);
    queue.push(...model.tools[next]!.deps);
  }
  return found;
}

test("(h) stdin: state holds every successful ancestor's patches (whatever the timing) and only finished tools' patches; dependencies hold outputs or null", async () => {
  // Each tool writes its own key (every attempt, so failed attempts' patches would show up if they leaked).
  const arb = planModelArb().map((model) => ({
    ...model,
    tools: model.tools.map((tool, index) => ({
      ...tool,
      patches: Array.from({ length: maxAttempts }, (_, attempt) => [{ [`k${index}`]: { by: index, attempt: attempt + 1 } }]),
    })),
  }));
  await fc.assert(
    fc.asyncProperty(arb, async (model) => {
      const observation = await execute(model);
      model.tools.forEach((tool, index) => {
        for (const attempt of observation.runner.attemptsOf(idOf(index))) {
          const state = attempt.stdin.state;
          for (const ancestor of ancestorsOf(model, index)) {
            const ancestorResult = resultOf(observation, ancestor);
            if (ancestorResult.state !== 'success') continue;
            assert.deepEqual(
              state[`k${ancestor}`],
              { by: ancestor, attempt: ancestorResult.attempts!.length },
              `${idOf(index)} attempt ${attempt.attempt} misses ancestor ${idOf(ancestor)}'s patch`,
            );
          }
          for (const key of Object.keys(state)) {
            const writer = Number(key.slice(1));
            const writerResult = resultOf(observation, writer);
            assert.equal(writerResult.state, 'success', `${idOf(index)} sees ${key} from a tool that did not succeed`);
            assert.ok(observation.finished.get(idOf(writer))![0]! < attempt.start, `${idOf(index)} sees ${key} before ${idOf(writer)} finished`);
            assert.deepEqual(state[key], { by: writer, attempt: writerResult.attempts!.length });
          }
          assert.deepEqual(Object.keys(attempt.stdin.dependencies).sort(), tool.deps.map(idOf).sort());
          for (const dep of tool.deps) {
            const output = attempt.stdin.dependencies[idOf(dep)];
            const depResult = resultOf(observation, dep);
            if (depResult.state === 'success') {
              assert.equal(output?.ok, true);
              assert.deepEqual(output?.state, { [`k${dep}`]: { by: dep, attempt: depResult.attempts!.length } });
            } else {
              assert.equal(output, null, `${idOf(index)} got a non-null output from ${idOf(dep)} (${depResult.state})`);
              assert.equal(model.tools[dep]!.required, false, `${idOf(index)} ran after required ${idOf(dep)} ended ${depResult.state}`);
            }
          }
        }
      });
    }),
    { numRuns: NUM_RUNS },
  );
});

test('sequential plans (parallel: false) start tools in stable topological order', async () => {
  await fc.assert(
    fc.asyncProperty(planModelArb({ parallel: false }), async (model) => {
      const observation = await execute(model);
      const started = new Set(observation.runner.startOrder());
      const expected = stableTopologicalOrder(model)
        .map(idOf)
        .filter((id) => started.has(id));
      assert.deepEqual(observation.runner.startOrder(), expected);
      assert.equal(observation.runner.maxConcurrency <= 1, true);
    }),
    { numRuns: NUM_RUNS },
  );
});

test('sequential plans where every tool succeeds run every tool once, in stable topological order', async () => {
  const allSucceed = planModelArb({ parallel: false }).map((model) => ({
    ...model,
    tools: model.tools.map((tool) => ({ ...tool, behaviour: { kind: 'succeed' as const } })),
  }));
  await fc.assert(
    fc.asyncProperty(allSucceed, async (model) => {
      const observation = await execute(model);
      assert.deepEqual(observation.runner.startOrder(), stableTopologicalOrder(model).map(idOf));
      assert.equal(observation.result.success, true);
    }),
    { numRuns: NUM_RUNS },
  );
});
