// Bench (c): NDJSON events/s and peak RSS of the executor vs a bare readline + JSON.parse loop on a 200,000-event stream.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ToolStdin } from '../../src/runtime/executor/toolRunner.js';
import type { Plan } from '../../src/runtime/contractTypes/plan.js';
import { buildScriptEnvironment } from '../../src/runtime/process/scriptEnvironment.js';
import { check, median, meetsTarget, mib, ms, ratioText, targetText, type BenchOptions, type BenchResult, type BenchTarget } from './benchUtil.js';

const LOG_EVENTS = 200_000;
/** Lines on stdout: the log events plus the final done. */
const TOTAL_LINES = LOG_EVENTS + 1;
const TARGET: BenchTarget = { op: '>=', value: 0.8 };
export const TOOL_PATH = 'skills/bench/scripts/flood.js';
const THIS_FILE = fileURLToPath(import.meta.url);
const REPO_ROOT = path.resolve(path.dirname(THIS_FILE), '..', '..');

/** Reads stdin, then writes the events in ~2000-line chunks as fast as the pipe takes them. */
export const FLOOD_SCRIPT = `'use strict';
const TOTAL = ${LOG_EVENTS};
const CHUNK_LINES = 2000;
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  JSON.parse(input);
  write(1);
});
function write(next) {
  while (next <= TOTAL) {
    const last = Math.min(TOTAL, next + CHUNK_LINES - 1);
    let text = '';
    for (; next <= last; next++) text += '{"version":"0","type":"log","level":"info","message":"event ' + next + '"}\\n';
    if (next > TOTAL) text += '{"version":"0","type":"done","ok":true}\\n';
    if (!process.stdout.write(text)) {
      const resume = next;
      process.stdout.once('drain', () => write(resume));
      return;
    }
  }
}
`;

type Side = 'executor' | 'baseline' | 'idle';

interface WorkerReport {
  readonly side: Side;
  /** Wall time of each measured run, ms. */
  readonly runsMs: number[];
  /** Peak resident set of the worker process over its whole life (warm-up included), bytes. */
  readonly maxRssBytes: number;
}

function scriptEnvironment(root: string, toolId: string, requestId: string): Record<string, string> {
  const skillDirectory = path.join(root, 'skills', 'bench');
  return {
    ...buildScriptEnvironment({ root, skillDirectory, skillDataDirectory: path.join(skillDirectory, 'data'), toolId, requestId }),
    ELECTRON_RUN_AS_NODE: '1',
  };
}

// ---- worker side (runs in its own process so its peak RSS is its own) ----

async function executorRun(root: string): Promise<number> {
  // Loaded here only, so the baseline worker's RSS does not include the executor's modules.
  const { executePlan } = await import('../../src/runtime/executor/planExecutor.js');
  const plan: Plan = { requestId: randomUUID(), parallel: true, tools: [{ toolId: 'flood', toolPath: TOOL_PATH, async: true }] };
  const started = performance.now();
  const result = await executePlan(plan, { root });
  const elapsed = performance.now() - started;
  const tool = result.toolResults[0];
  check(
    result.status === 'succeeded' && tool?.state === 'success',
    `executor run ended ${result.status}: ${JSON.stringify(tool?.error ?? result.warnings[0])}`,
  );
  const seen = (tool.events?.length ?? 0) + (tool.droppedEvents ?? 0);
  check(seen === TOTAL_LINES, `executor counted ${seen}/${TOTAL_LINES} events`);
  return elapsed;
}

function baselineRun(root: string): Promise<number> {
  const requestId = randomUUID();
  const stdin: ToolStdin = { requestId, tool: 'flood', input: {}, dependencies: {}, state: {} };
  const stdinText = JSON.stringify(stdin);
  const env = scriptEnvironment(root, 'flood', requestId);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, TOOL_PATH)], { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let count = 0;
    let lastType: unknown;
    let exitCode: number | null | undefined;
    let linesDone = false;
    const finish = () => {
      if (exitCode === undefined || !linesDone) return;
      const elapsed = performance.now() - started;
      if (exitCode !== 0) reject(new Error(`flood script exited ${exitCode}`));
      else if (count !== TOTAL_LINES || lastType !== 'done') reject(new Error(`baseline parsed ${count}/${TOTAL_LINES} lines, last type ${String(lastType)}`));
      else resolve(elapsed);
    };
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      const event = JSON.parse(line) as { type?: unknown };
      lastType = event.type;
      count++;
    });
    lines.on('close', () => {
      linesDone = true;
      finish();
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      exitCode = code;
      finish();
    });
    child.stdin.on('error', reject);
    child.stdin.end(stdinText);
  });
}

async function workerMain(side: Side, root: string, warmups: number, runs: number): Promise<void> {
  const runsMs: number[] = [];
  if (side !== 'idle') {
    const once = side === 'executor' ? () => executorRun(root) : () => baselineRun(root);
    for (let index = 0; index < warmups + runs; index++) {
      const elapsed = await once();
      if (index >= warmups) runsMs.push(elapsed);
    }
  }
  // maxRSS is in KiB (RUSAGE_SELF: this process only, not the flood script).
  const report: WorkerReport = { side, runsMs, maxRssBytes: process.resourceUsage().maxRSS * 1024 };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

// ---- parent side ----

/** The parent's --cpu-prof, --cpu-prof-dir and --cpu-prof-interval flags (not --cpu-prof-name: workers would overwrite one file). */
function profilingFlags(execArgv: readonly string[]): string[] {
  const flags: string[] = [];
  for (let index = 0; index < execArgv.length; index++) {
    const flag = execArgv[index]!;
    if (flag === '--cpu-prof' || flag.startsWith('--cpu-prof-dir=') || flag.startsWith('--cpu-prof-interval=')) flags.push(flag);
    else if ((flag === '--cpu-prof-dir' || flag === '--cpu-prof-interval') && index + 1 < execArgv.length) flags.push(flag, execArgv[++index]!);
  }
  return flags;
}

function runWorker(side: Side, root: string, warmups: number, runs: number): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    // `node --cpu-prof … index.ts --only c` also profiles the workers (where the executor runs).
    const profiling = profilingFlags(process.execArgv);
    const args = [...profiling, '--import', 'tsx', THIS_FILE, '--worker', side, root, String(warmups), String(runs)];
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0) {
        reject(new Error(`${side} worker exited ${code}: ${stderr.slice(-2000)}`));
        return;
      }
      try {
        resolve(JSON.parse(last) as WorkerReport);
      } catch {
        reject(new Error(`${side} worker printed no report: ${stdout.slice(-500)} ${stderr.slice(-500)}`));
      }
    });
  });
}

export async function runNdjsonThroughput(options: BenchOptions): Promise<BenchResult> {
  // 9 rounds even in CI's quick mode, so the headline is the median of at least 9 interleaved pairs: with 3 rounds,
  // a quick run read anywhere from 0.78x to 0.95x on the same code.
  const rounds = 9;
  const runsPerWorker = options.quick ? 1 : 2;
  const warmupsPerWorker = 1;
  const root = await fs.realpath(await fs.mkdtemp(path.join(tmpdir(), 'narratoria-bench-ndjson-')));
  const series = { executor: [] as number[], baseline: [] as number[] };
  const peaks = { executor: [] as number[], baseline: [] as number[], idle: [] as number[] };
  try {
    const script = path.join(root, TOOL_PATH);
    await fs.mkdir(path.dirname(script), { recursive: true });
    await fs.writeFile(script, FLOOD_SCRIPT, { mode: 0o644 });
    peaks.idle.push((await runWorker('idle', root, 0, 0)).maxRssBytes);
    for (let round = 0; round < rounds; round++) {
      // Alternate which side goes first each round.
      const order: Side[] = round % 2 === 0 ? ['baseline', 'executor'] : ['executor', 'baseline'];
      for (const side of order) {
        const report = await runWorker(side, root, warmupsPerWorker, runsPerWorker);
        if (side === 'idle') continue;
        series[side].push(...report.runsMs);
        peaks[side].push(report.maxRssBytes);
      }
    }
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
  const executorMs = median(series.executor);
  const baselineMs = median(series.baseline);
  const executorRate = TOTAL_LINES / (executorMs / 1000);
  const baselineRate = TOTAL_LINES / (baselineMs / 1000);
  // Each pair is one run of each side in the same round (a rate ratio is the baseline's time ÷ the executor's).
  const ratio = median(series.executor.map((executor, index) => series.baseline[index]! / executor));
  const executorRss = median(peaks.executor);
  const baselineRss = median(peaks.baseline);
  const idleRss = median(peaks.idle);
  const rate = (value: number) => `${(value / 1000).toFixed(0)}k ev/s`;
  const line =
    `(c) NDJSON ${LOG_EVENTS / 1000}k events, ${series.executor.length} interleaved pairs: executor ${rate(executorRate)} (${ms(executorMs)}) vs readline+JSON.parse ${rate(baselineRate)} (${ms(baselineMs)}) → ` +
    `${ratioText(ratio)} (median of the pairs) ${targetText(ratio, TARGET)}; peak RSS executor ${mib(executorRss)} vs baseline ${mib(baselineRss)} (idle worker ${mib(idleRss)})`;
  return {
    id: 'c',
    title: 'NDJSON throughput, 200k events',
    line,
    ratio,
    target: TARGET,
    met: meetsTarget(ratio, TARGET),
    medians: {
      executorMs,
      baselineMs,
      executorEventsPerSecond: executorRate,
      baselineEventsPerSecond: baselineRate,
      executorPeakRssBytes: executorRss,
      baselinePeakRssBytes: baselineRss,
      idleWorkerPeakRssBytes: idleRss,
    },
    samples: {
      executorMs: series.executor,
      baselineMs: series.baseline,
      executorPeakRssBytes: peaks.executor,
      baselinePeakRssBytes: peaks.baseline,
      idleWorkerPeakRssBytes: peaks.idle,
    },
    details: {
      events: LOG_EVENTS,
      lines: TOTAL_LINES,
      rounds,
      warmupsPerWorker,
      runsPerWorker,
      memoryMethod:
        'each side runs in its own `node --import tsx` worker process; peak = process.resourceUsage().maxRSS of that worker (RUSAGE_SELF, excludes the script), over warm-up + measured runs. The idle worker (same runtime, no work) is the floor.',
      timing: "wall time from executePlan() to its result / from spawn to the last parsed line and exit; both scripts get the executor's minimal environment",
    },
  };
}

if (process.argv[1] !== undefined && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url && process.argv[2] === '--worker') {
  const [side, root, warmups, runs] = process.argv.slice(3);
  workerMain(side as Side, root!, Number(warmups), Number(runs)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exitCode = 1;
  });
}
