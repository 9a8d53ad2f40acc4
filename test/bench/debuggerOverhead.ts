// Bench (h): a 200-tool plan run under the debugger (no breakpoints) vs the executor alone, and stepBack latency at the end of a recorded 10,000-event run.
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import * as path from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { connectInProcess } from '../support/debugClient.js';
import { BreakpointSet } from '../../src/runtime/debug/breakpointSet.js';
import { PlanDebugRun } from '../../src/runtime/debug/planDebugRun.js';
import { executePlan } from '../../src/runtime/executor/planExecutor.js';
import type { Plan, ToolInvocation } from '../../src/runtime/contractTypes/plan.js';
import { check, collectGarbage, median, meetsTarget, ms, ratioText, targetText, type BenchOptions, type BenchResult, type BenchTarget } from './benchUtil.js';

const TOOLS = 200;
const EVENTS = 10_000;
const TARGET: BenchTarget = { op: '<=', value: 1.1 };
const TOOL_PATH = 'skills/bench/scripts/noop.js';
const FIXTURE_STORY = path.resolve(import.meta.dirname, '../fixtures/story');

/** Reads stdin, writes one state_patch and done: a fast script, so the debugger's own cost shows. */
const NOOP_SCRIPT = `'use strict';
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const request = JSON.parse(input);
  process.stdout.write(JSON.stringify({ version: '0', type: 'state_patch', patch: { [request.tool]: true } }) + '\\n{"version":"0","type":"done","ok":true}\\n');
});
`;

function planOf(count: number): Plan {
  const tools: ToolInvocation[] = Array.from({ length: count }, (_, index) => ({ toolId: `noop-${index}`, toolPath: TOOL_PATH, async: true }));
  return { requestId: randomUUID(), parallel: true, tools };
}

async function timeRun(root: string, debug: boolean, concurrency: number): Promise<number> {
  const plan = planOf(TOOLS);
  const started = performance.now();
  const result = debug
    ? await new PlanDebugRun(plan, { root, concurrency, breakpoints: new BreakpointSet() }).start()
    : await executePlan(plan, { root, concurrency });
  const elapsed = performance.now() - started;
  check(
    result.status === 'succeeded' && result.toolResults.every((tool) => tool.state === 'success'),
    `${debug ? 'debugger' : 'executor'} run ended ${result.status}`,
  );
  return elapsed;
}

/** stepBack round trips (request → stopped → stack → scopes → State variables) from the end of a 10,000-event run. */
async function stepBackLatencies(steps: number): Promise<{ samples: number[]; points: number }> {
  const directory = await fs.mkdtemp(path.join(tmpdir(), 'narratoria-bench-travel-'));
  const planFile = path.join(directory, 'travel.plan.json');
  const patches = Array.from({ length: EVENTS - 1 }, (_, index) => ({ count: index, [`key${index % 50}`]: index }));
  await fs.writeFile(
    planFile,
    JSON.stringify({
      requestId: randomUUID(),
      tools: [
        { toolId: 'emit', toolPath: 'skills/helpers/scripts/patches.js', input: { patches } },
        { toolId: 'end', toolPath: 'skills/helpers/scripts/echo.js', dependencies: ['emit'] },
      ],
    }),
  );
  const { client, close } = connectInProcess({ workspaceFolder: FIXTURE_STORY, isTrusted: () => true });
  client.defaultTimeout = 120_000;
  try {
    await client.initializeRequest({ adapterID: 'narratoria', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const configured = client.waitForEvent('initialized').then(async () => {
      await client.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'end' }] });
      await client.configurationDoneRequest();
    });
    const stopped = client.waitForEvent('stopped') as Promise<DebugProtocol.StoppedEvent>;
    await Promise.all([configured, client.launchRequest({ plan: planFile, root: FIXTURE_STORY } as DebugProtocol.LaunchRequestArguments)]);
    const atEnd = await stopped;
    let threadId = atEnd.body.threadId!;
    const samples: number[] = [];
    for (let step = 0; step < steps; step++) {
      const started = performance.now();
      const next = client.waitForEvent('stopped') as Promise<DebugProtocol.StoppedEvent>;
      await client.stepBackRequest({ threadId });
      threadId = (await next).body.threadId!;
      const frame = (await client.stackTraceRequest({ threadId })).body.stackFrames[0]!;
      const scopes = (await client.scopesRequest({ frameId: frame.id })).body.scopes;
      await client.variablesRequest({ variablesReference: scopes[0]!.variablesReference });
      samples.push(performance.now() - started);
    }
    return { samples, points: EVENTS + 4 };
  } finally {
    await close();
    await fs.rm(directory, { recursive: true, force: true });
  }
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

export async function runDebuggerOverhead(options: BenchOptions): Promise<BenchResult> {
  const rounds = options.quick ? 2 : 5;
  const concurrency = availableParallelism();
  const root = await fs.realpath(await fs.mkdtemp(path.join(tmpdir(), 'narratoria-bench-debug-')));
  await fs.mkdir(path.join(root, path.dirname(TOOL_PATH)), { recursive: true });
  await fs.writeFile(path.join(root, TOOL_PATH), NOOP_SCRIPT, { mode: 0o644 });
  const series = { executor: [] as number[], debugger: [] as number[] };
  try {
    await timeRun(root, false, concurrency);
    await timeRun(root, true, concurrency);
    for (let round = 0; round < rounds; round++) {
      collectGarbage();
      series.executor.push(await timeRun(root, false, concurrency));
      collectGarbage();
      series.debugger.push(await timeRun(root, true, concurrency));
    }
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
  const travel = await stepBackLatencies(options.quick ? 50 : 200);
  const executor = median(series.executor);
  const debuggerMs = median(series.debugger);
  const ratio = debuggerMs / executor;
  const stepBackMedian = median(travel.samples);
  const stepBackP95 = percentile(travel.samples, 0.95);
  const line =
    `(h) ${TOOLS}-tool plan (concurrency ${concurrency}, ${rounds} rounds): under the debugger ${ms(debuggerMs)} vs executor ${ms(executor)} → ${ratioText(ratio)} ${targetText(ratio, TARGET)}; ` +
    `stepBack at the end of a ${EVENTS.toLocaleString('en')}-event run: median ${ms(stepBackMedian)}, p95 ${ms(stepBackP95)} (${travel.samples.length} steps, request to State variables)`;
  return {
    id: 'h',
    title: 'debugger overhead and stepBack',
    line,
    ratio,
    target: TARGET,
    met: meetsTarget(ratio, TARGET),
    medians: { executorMs: executor, debuggerMs, stepBackMs: stepBackMedian, stepBackP95Ms: stepBackP95 },
    samples: { executorMs: series.executor, debuggerMs: series.debugger, stepBackMs: travel.samples },
    details: { tools: TOOLS, concurrency, rounds, events: EVENTS, historyPoints: travel.points, order: 'executor, debugger, executor, debugger…' },
  };
}
