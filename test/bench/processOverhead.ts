// Bench (b): wall time of 200 real Node script runs through the executor vs a bare child_process.spawn pool.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import * as path from 'node:path';
import { executePlan } from '../../src/runtime/executor/planExecutor.js';
import type { ToolStdin } from '../../src/runtime/executor/toolRunner.js';
import type { Plan, ToolInvocation } from '../../src/runtime/contractTypes/plan.js';
import { buildScriptEnvironment } from '../../src/runtime/process/scriptEnvironment.js';
import { check, collectGarbage, median, meetsTarget, ms, ratioText, targetText, type BenchOptions, type BenchResult, type BenchTarget } from './benchUtil.js';

const RUNS = 200;
const WARMUP_RUNS = 20;
const TARGET: BenchTarget = { op: '<=', value: 1.1 };
const TOOL_PATH = 'skills/bench/scripts/noop.js';

/** Reads the whole stdin document, then reports success. CommonJS so it runs without a package.json. */
const NOOP_SCRIPT = `'use strict';
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  JSON.parse(input);
  process.stdout.write('{"version":"0","type":"done","ok":true}\\n');
});
`;

interface StoryRoot {
  readonly root: string;
  readonly script: string;
}

async function createStoryRoot(): Promise<StoryRoot> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(tmpdir(), 'narratoria-bench-proc-')));
  const script = path.join(root, TOOL_PATH);
  await fs.mkdir(path.dirname(script), { recursive: true });
  // Not executable: the executor must pick process.execPath for it, like the baseline does.
  await fs.writeFile(script, NOOP_SCRIPT, { mode: 0o644 });
  await fs.chmod(script, 0o644);
  return { root, script };
}

function planOf(count: number): Plan {
  const tools: ToolInvocation[] = Array.from({ length: count }, (_, index) => ({ toolId: `noop-${index}`, toolPath: TOOL_PATH, async: true }));
  return { requestId: randomUUID(), parallel: true, tools };
}

async function timeExecutor(story: StoryRoot, count: number, concurrency: number): Promise<number> {
  const plan = planOf(count);
  const started = performance.now();
  const result = await executePlan(plan, { root: story.root, concurrency });
  const elapsed = performance.now() - started;
  check(
    result.status === 'succeeded',
    `executor run ended ${result.status}: ${JSON.stringify(result.toolResults.find((tool) => tool.state !== 'success') ?? result.warnings[0])}`,
  );
  check(
    result.toolResults.length === count && result.toolResults.every((tool) => tool.state === 'success' && tool.retryCount === 0),
    'not every executor tool succeeded on its first attempt',
  );
  return elapsed;
}

/**
 * The environment the executor gives the script (allowlisted host variables + NARRATORIA_*). The
 * baseline uses it too: the host environment can change Node's startup cost a lot (e.g.
 * NODE_EXTRA_CA_CERTS makes every start parse a CA bundle), which would compare environments, not
 * launch overhead.
 */
function scriptEnvironment(story: StoryRoot, toolId: string, requestId: string): Record<string, string> {
  const skillDirectory = path.join(story.root, 'skills', 'bench');
  return {
    ...buildScriptEnvironment({ root: story.root, skillDirectory, skillDataDirectory: path.join(skillDirectory, 'data'), toolId, requestId }),
    ELECTRON_RUN_AS_NODE: '1',
  };
}

/** One bare run: spawn, write the same stdin document the executor sends, read stdout to its end. */
function spawnOnce(story: StoryRoot, stdinText: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [story.script], { cwd: story.root, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 && stdout.endsWith('"ok":true}\n')) resolve();
      else reject(new Error(`baseline script exited ${code}: ${stderr.slice(-500)}`));
    });
    child.stdin.on('error', reject);
    child.stdin.end(stdinText);
  });
}

async function timeBaseline(story: StoryRoot, count: number, concurrency: number): Promise<number> {
  const requestId = randomUUID();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      const tool = `noop-${index}`;
      const stdin: ToolStdin = { requestId, tool, input: {}, dependencies: {}, state: {} };
      await spawnOnce(story, JSON.stringify(stdin), scriptEnvironment(story, tool, requestId));
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return performance.now() - started;
}

export async function runProcessOverhead(options: BenchOptions): Promise<BenchResult> {
  const rounds = options.quick ? 1 : 3;
  const concurrency = availableParallelism();
  const story = await createStoryRoot();
  const series = { baseline: [] as number[], executor: [] as number[] };
  // CPU time of this (parent) process per script run: less noisy than wall time on a busy machine.
  const cpu = { baseline: [] as number[], executor: [] as number[] };
  const measure = async (side: 'baseline' | 'executor') => {
    collectGarbage();
    const before = process.cpuUsage();
    series[side].push(side === 'baseline' ? await timeBaseline(story, RUNS, concurrency) : await timeExecutor(story, RUNS, concurrency));
    const used = process.cpuUsage(before);
    cpu[side].push((used.user + used.system) / 1000 / RUNS);
  };
  try {
    await timeBaseline(story, WARMUP_RUNS, concurrency);
    await timeExecutor(story, WARMUP_RUNS, concurrency);
    for (let round = 0; round < rounds; round++) {
      await measure('baseline');
      await measure('executor');
    }
  } finally {
    await fs.rm(story.root, { recursive: true, force: true });
  }
  const baseline = median(series.baseline);
  const executor = median(series.executor);
  const ratio = executor / baseline;
  // Extra wall time per script run, spread over the concurrency slots.
  const overheadPerRun = ((executor - baseline) * concurrency) / RUNS;
  const executorCpu = median(cpu.executor);
  const baselineCpu = median(cpu.baseline);
  const line =
    `(b) ${RUNS} script runs (concurrency ${concurrency}, ${rounds} round${rounds === 1 ? '' : 's'}): ` +
    `executor ${ms(executor)} vs bare spawn ${ms(baseline)} → ${ratioText(ratio)} ${targetText(ratio, TARGET)}; ` +
    `≈ ${overheadPerRun.toFixed(2)} ms extra wall per run; parent CPU per run ${executorCpu.toFixed(2)} ms vs ${baselineCpu.toFixed(2)} ms`;
  return {
    id: 'b',
    title: '200 real script runs',
    line,
    ratio,
    target: TARGET,
    met: meetsTarget(ratio, TARGET),
    medians: { executorMs: executor, baselineMs: baseline, executorParentCpuMsPerRun: executorCpu, baselineParentCpuMsPerRun: baselineCpu },
    samples: { executorMs: series.executor, baselineMs: series.baseline, executorParentCpuMsPerRun: cpu.executor, baselineParentCpuMsPerRun: cpu.baseline },
    details: {
      runs: RUNS,
      concurrency,
      rounds,
      warmupRuns: WARMUP_RUNS,
      overheadPerRunMs: overheadPerRun,
      order: 'baseline, executor, baseline, executor…',
      baselineEnvironment: 'the same minimal environment the executor builds (buildScriptEnvironment + ELECTRON_RUN_AS_NODE)',
    },
  };
}
