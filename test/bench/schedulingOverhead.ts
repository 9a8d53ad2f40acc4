// Bench (a): scheduling overhead of the plan executor vs p-graph on a seeded 10,000-node DAG of in-process no-op tools.
import { randomUUID } from 'node:crypto';
import { PGraph, type DependencyList, type PGraphNode } from 'p-graph';
import { executePlan, type ExecutePlanOptions } from '../../src/runtime/executor/planExecutor.js';
import type { ToolAttemptOutcome, ToolRunner } from '../../src/runtime/executor/toolRunner.js';
import type { Plan, ToolInvocation } from '../../src/runtime/contractTypes/plan.js';
import type { DoneEvent } from '../../src/runtime/contractTypes/toolEvent.js';
import { validatePlanValue } from '../../src/runtime/validation/validatePlan.js';
import {
  check,
  collectGarbage,
  median,
  meetsTarget,
  ms,
  ratioText,
  seededRandom,
  targetText,
  type BenchOptions,
  type BenchResult,
  type BenchTarget,
} from './benchUtil.js';

const NODE_COUNT = 10_000;
const SEED = 0x5eed_da6;
/** Dependencies per node: 1..5 distinct earlier nodes, uniformly (mean 3). */
const MAX_DEPENDENCIES = 5;
/** The same limit for both schedulers (fixed so figures compare across machines). */
const CONCURRENCY = 8;
const TARGET: BenchTarget = { op: '<=', value: 1.0 };

interface Dag {
  /** dependencies[i] = indices of the earlier nodes node i waits for. */
  readonly dependencies: readonly (readonly number[])[];
  readonly edgeCount: number;
}

/** A random DAG: every edge points to an earlier node, so it is acyclic by construction. */
export function randomDag(nodeCount: number, seed: number): Dag {
  const random = seededRandom(seed);
  const dependencies: number[][] = [];
  let edgeCount = 0;
  for (let index = 0; index < nodeCount; index++) {
    const wanted = Math.min(index, 1 + Math.floor(random() * MAX_DEPENDENCIES));
    const chosen = new Set<number>();
    while (chosen.size < wanted) chosen.add(Math.floor(random() * index));
    dependencies.push([...chosen]);
    edgeCount += chosen.size;
  }
  return { dependencies, edgeCount };
}

const toolId = (index: number): string => `t${index}`;

function planOf(dag: Dag): Plan {
  const tools: ToolInvocation[] = dag.dependencies.map((dependencies, index) => ({
    toolId: toolId(index),
    toolPath: 'skills/bench/scripts/noop.js',
    async: true,
    dependencies: dependencies.map(toolId),
  }));
  return { requestId: randomUUID(), parallel: true, tools };
}

const DONE: DoneEvent = { version: '0', type: 'done', ok: true };
const OK_OUTCOME: ToolAttemptOutcome = {
  ok: true,
  done: DONE,
  retryable: false,
  timedOut: false,
  cancelled: false,
  exitCode: 0,
  signal: null,
  stderrTail: '',
  durationMs: 0,
};

/** In-process no-op tool: emits `done` and succeeds at once; counts its runs. */
class NoopRunner implements ToolRunner {
  runs = 0;
  stdinBytes = 0;
  /** When set, serializes the stdin document first, as ProcessToolRunner does (reads the lazy state snapshot). */
  constructor(private readonly serializeStdin = false) {}
  async run(request: Parameters<ToolRunner['run']>[0]): Promise<ToolAttemptOutcome> {
    this.runs++;
    if (this.serializeStdin) this.stdinBytes += JSON.stringify(request.stdin).length;
    const held = request.onEvent(DONE);
    if (held) await held;
    return OK_OUTCOME;
  }
}

async function timeExecutor(plan: Plan, serializeStdin = false): Promise<number> {
  const runner = new NoopRunner(serializeStdin);
  const options: ExecutePlanOptions = {
    root: process.cwd(),
    concurrency: CONCURRENCY,
    skipToolPathChecks: true,
    toolRunner: runner,
    skillContext: { contextFor: async () => ({ skill: null }) },
  };
  const started = performance.now();
  const result = await executePlan(plan, options);
  const elapsed = performance.now() - started;
  check(result.status === 'succeeded', `executor run ended ${result.status}: ${JSON.stringify(result.warnings.slice(0, 3))}`);
  check(result.toolResults.length === NODE_COUNT && runner.runs === NODE_COUNT, `executor ran ${runner.runs}/${NODE_COUNT} tools`);
  return elapsed;
}

async function timeValidation(plan: Plan): Promise<number> {
  const started = performance.now();
  // The same call (and options) the executor makes first.
  const validation = await validatePlanValue(plan, { root: process.cwd(), checkToolPaths: false });
  const elapsed = performance.now() - started;
  check(validation.valid, `plan did not validate: ${JSON.stringify(validation.diagnostics.slice(0, 3))}`);
  return elapsed;
}

async function timePGraph(dag: Dag): Promise<number> {
  // Inputs are built outside the timing, like the executor's plan object; constructing the graph
  // (which checks for cycles and computes priorities) and running it are timed.
  const nodes = new Map<string, PGraphNode>();
  const edges: DependencyList = [];
  dag.dependencies.forEach((dependencies, index) => {
    nodes.set(toolId(index), {});
    for (const dependency of dependencies) edges.push([toolId(dependency), toolId(index)]);
  });
  let runs = 0;
  const noop = async (): Promise<void> => {
    runs++;
  };
  const started = performance.now();
  await new PGraph(nodes, edges).run({ concurrency: CONCURRENCY, run: noop });
  const elapsed = performance.now() - started;
  check(runs === NODE_COUNT, `p-graph ran ${runs}/${NODE_COUNT} nodes`);
  return elapsed;
}

export async function runSchedulingOverhead(options: BenchOptions): Promise<BenchResult> {
  const warmups = options.quick ? 2 : 3;
  const repetitions = options.quick ? 5 : 9;
  const dag = randomDag(NODE_COUNT, SEED);
  const plan = planOf(dag);
  const series = { executor: [] as number[], pgraph: [] as number[], validation: [] as number[] };
  const measures: readonly [keyof typeof series, () => Promise<number>][] = [
    ['executor', () => timeExecutor(plan)],
    ['pgraph', () => timePGraph(dag)],
    ['validation', () => timeValidation(plan)],
  ];
  for (let round = 0; round < warmups + repetitions; round++) {
    // Rotate the order every round so neither side always runs first (or right after the other's garbage).
    for (let step = 0; step < measures.length; step++) {
      const [name, measure] = measures[(round + step) % measures.length]!;
      collectGarbage();
      const elapsed = await measure();
      if (round >= warmups) series[name].push(elapsed);
    }
  }
  // Informational (full mode only): the same run when the runner serializes stdin like a real process
  // runner, which also builds each tool's state snapshot. Not part of the headline ratio.
  const withStdin: number[] = [];
  if (!options.quick) {
    for (let round = 0; round < 3; round++) {
      collectGarbage();
      withStdin.push(await timeExecutor(plan, true));
    }
  }
  const executor = median(series.executor);
  const pgraph = median(series.pgraph);
  const validation = median(series.validation);
  const ratio = executor / pgraph;
  const schedulingRatio = (executor - validation) / pgraph;
  const line =
    `(a) scheduling ${NODE_COUNT / 1000}k-node DAG (${dag.edgeCount} edges, concurrency ${CONCURRENCY}): ` +
    `executor ${ms(executor)} (validation ${ms(validation)}, rest ${ms(executor - validation)}) vs p-graph ${ms(pgraph)} → ` +
    `${ratioText(ratio)} ${targetText(ratio, TARGET)}; without validation ${ratioText(schedulingRatio)}` +
    (withStdin.length > 0 ? `\n    info: same executor run with the runner serializing stdin (as ProcessToolRunner does): ${ms(median(withStdin))}` : '');
  return {
    id: 'a',
    title: 'scheduling overhead, 10k-node DAG',
    line,
    ratio,
    target: TARGET,
    met: meetsTarget(ratio, TARGET),
    medians: { executorMs: executor, validationMs: validation, executorWithoutValidationMs: executor - validation, pgraphMs: pgraph },
    samples: { executorMs: series.executor, validationMs: series.validation, pgraphMs: series.pgraph, executorSerializingStdinMs: withStdin },
    details: {
      nodes: NODE_COUNT,
      edges: dag.edgeCount,
      seed: SEED,
      concurrency: CONCURRENCY,
      warmups,
      repetitions,
      schedulingRatioWithoutValidation: schedulingRatio,
      ...(withStdin.length > 0 ? { executorSerializingStdinMedianMs: median(withStdin) } : {}),
      validationNote: 'validatePlanValue timed separately on the same plan with the options the executor uses',
    },
  };
}
