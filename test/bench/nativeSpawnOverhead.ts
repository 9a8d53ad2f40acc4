// Bench (b2): 200 /bin/sh runs at concurrency 2: `narratoria run` as a whole process (bare, and with --format json and its run record) against a bare Node spawn loop.
import { spawn, type SpawnOptions } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { executePlan } from '../../src/runtime/executor/planExecutor.js';
import type { Plan } from '../../src/runtime/contractTypes/plan.js';
import { snapshotHostEnvironment } from '../../src/runtime/process/scriptEnvironment.js';
import { check, collectGarbage, median, meetsTarget, ms, ratioText, targetText, type BenchOptions, type BenchResult, type BenchTarget } from './benchUtil.js';

const RUNS = 200;
const CONCURRENCY = 2;
const TARGET: BenchTarget = { op: '<=', value: 1.25 };
const TOOL_PATH = 'skills/bench/scripts/noop.sh';
const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli.cjs');

/** Reads its stdin document and reports success: a script in a language that starts in about a millisecond. */
const NOOP_SCRIPT = `#!/bin/sh
cat > /dev/null
echo '{"version":"0","type":"done","ok":true}'
`;

/** The bare loop as its own Node process: spawn with the same stdin document, read stdout to its end, `CONCURRENCY` at a time. */
const BARE_LOOP = `
const { spawn } = require('node:child_process');
const [script, runs, concurrency, env] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3]), JSON.parse(process.argv[4])];
let next = 0;
const once = (index) => new Promise((resolve, reject) => {
  const child = spawn(script, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.on('error', reject);
  child.on('close', (code) => (code === 0 && out.includes('"ok":true') ? resolve() : reject(new Error('exit ' + code))));
  child.stdin.end(JSON.stringify({ requestId: 'bench', tool: 'noop-' + index, input: {}, dependencies: {}, state: {} }));
});
const worker = async () => { while (next < runs) await once(next++); };
Promise.all(Array.from({ length: concurrency }, worker)).catch((error) => { console.error(error); process.exit(1); });
`;

interface Story {
  readonly root: string;
  readonly script: string;
  readonly planFile: string;
  /** Where `narratoria run` records the plan's run (its requestId's file under .narratoria/runs). */
  readonly recordFile: string;
}

async function createStory(): Promise<Story> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(tmpdir(), 'narratoria-bench-b2-')));
  const script = path.join(root, TOOL_PATH);
  await fs.mkdir(path.dirname(script), { recursive: true });
  await fs.writeFile(script, NOOP_SCRIPT, { mode: 0o755 });
  await fs.chmod(script, 0o755);
  const planFile = path.join(root, 'noop.plan.json');
  const plan = planOf(RUNS);
  await fs.writeFile(planFile, JSON.stringify(plan));
  return { root, script, planFile, recordFile: path.join(root, '.narratoria', 'runs', `${plan.requestId}.json`) };
}

function planOf(count: number): Plan {
  return {
    requestId: randomUUID(),
    parallel: true,
    tools: Array.from({ length: count }, (_, index) => ({ toolId: `noop-${index}`, toolPath: TOOL_PATH, async: true })),
  };
}

/** Wall time of a whole process, from spawn to exit; it must exit 0. With `read`, its stdout is a pipe read to its end (as `| jq` would). */
function timeProcess(file: string, args: readonly string[], options: SpawnOptions = {}, read?: (bytes: number) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { stdio: ['ignore', read ? 'pipe' : 'ignore', 'pipe'], ...options });
    let stderr = '';
    let bytes = 0;
    child.stdout?.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.stdout?.on('end', () => read?.(bytes));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`${path.basename(file)} ${args[0] ?? ''} exited ${code}: ${stderr.slice(-400)}`)),
    );
  });
}

async function timeExecutor(story: Story): Promise<number> {
  const started = performance.now();
  const result = await executePlan(planOf(RUNS), { root: story.root, concurrency: CONCURRENCY });
  const elapsed = performance.now() - started;
  check(result.status === 'succeeded', `executor run ended ${result.status}`);
  return elapsed;
}

/** In this process: `CONCURRENCY` workers each running `once` until `RUNS` are done. */
async function timeLoop(once: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < RUNS) await once(next++);
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return performance.now() - started;
}

const stdinOf = (index: number) => JSON.stringify({ requestId: 'bench', tool: `noop-${index}`, input: {}, dependencies: {}, state: {} });

/**
 * What every baseline's scripts get: the host variables `narratoria run` passes its scripts (PATH, HOME, LANG…), as a
 * plain spawn would inherit them. With PATH alone, the scripts' `cat` ran in the C locale and skipped loading the
 * user's, which made the baselines 5–6% faster than any loop whose scripts see the user's LANG.
 */
const SCRIPT_ENVIRONMENT = snapshotHostEnvironment();

function spawnOnce(story: Story, index: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(story.script, [], { cwd: story.root, env: SCRIPT_ENVIRONMENT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 && out.includes('"ok":true') ? resolve() : reject(new Error(`exit ${code}`))));
    child.stdin.end(stdinOf(index));
  });
}

/** execa alone, with the options the executor's launcher passes (detached group, no buffering, input). */
async function execaOnce(story: Story, index: number): Promise<void> {
  const child = execa(story.script, [], {
    cwd: story.root,
    env: SCRIPT_ENVIRONMENT,
    extendEnv: false,
    input: stdinOf(index),
    buffer: false,
    detached: true,
    cleanup: false,
    reject: false,
    stripFinalNewline: false,
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const result = await child;
  check(result.exitCode === 0 && out.includes('"ok":true'), `execa run exited ${result.exitCode}`);
}

/** Every order of the three whole processes: round r runs them in ORDERS[r % 6], so none always follows another. */
const ORDERS: readonly (readonly number[])[] = [
  [0, 1, 2],
  [1, 2, 0],
  [2, 0, 1],
  [0, 2, 1],
  [2, 1, 0],
  [1, 0, 2],
];

/** Each round's ratio of `measured` to `baseline` (the same round's samples). */
const pairRatios = (measured: readonly number[], baseline: readonly number[]) => measured.map((value, index) => value / baseline[index]!);

export async function runNativeSpawnOverhead(options: BenchOptions): Promise<BenchResult> {
  check(
    await fs.stat(CLI).then(
      () => true,
      () => false,
    ),
    `${CLI} is missing: run npm run build first`,
  );
  const rounds = options.quick ? 3 : 5; // odd, so each median is a real sample
  // The target's ratios (whole processes, ~0.4 s each) get more samples: they move with the machine's load.
  const wholeProcessRounds = options.quick ? 9 : 15;
  const story = await createStory();
  const series = {
    executor: [] as number[],
    bare: [] as number[],
    floor: [] as number[],
    cli: [] as number[],
    cliJson: [] as number[],
    bareProcess: [] as number[],
    execa: [] as number[],
    spawn: [] as number[],
  };
  let jsonBytes = 0;
  const cliArguments = [CLI, 'run', story.planFile, '--root', story.root, '--concurrency', String(CONCURRENCY)];
  // Both sides start Node once. NODE_EXTRA_CA_CERTS (set on some machines, such as the project's VMs) makes every Node
  // start read and parse a certificate bundle, ~100 ms here: the same on both sides, so it would only shrink the ratio.
  const { NODE_EXTRA_CA_CERTS: caCertificates, ...processEnvironment } = process.env;
  const whole = { env: processEnvironment };
  const wholeProcesses: [keyof typeof series, () => Promise<number>][] = [
    [
      'bareProcess',
      () => timeProcess(process.execPath, ['-e', BARE_LOOP, story.script, String(RUNS), String(CONCURRENCY), JSON.stringify(SCRIPT_ENVIRONMENT)], whole),
    ],
    ['cli', () => timeProcess(process.execPath, [...cliArguments, '--no-save'], whole)],
    // As `narratoria run` is used by a program: the ExecutionResult as JSON on a pipe, and the run record written.
    ['cliJson', () => timeProcess(process.execPath, [...cliArguments, '--format', 'json'], whole, (bytes) => (jsonBytes = bytes))],
  ];
  const sides: [keyof typeof series, () => Promise<number>][] = [
    ['bare', () => timeLoop((index) => spawnOnce(story, index))],
    ['executor', () => timeExecutor(story)],
    [
      'floor',
      () => timeProcess('/bin/sh', ['-c', `seq ${RUNS} | xargs -P${CONCURRENCY} -I{} sh -c 'echo "{}" | "$0" > /dev/null' ${JSON.stringify(story.script)}`]),
    ],
    ['spawn', () => timeLoop((index) => spawnOnce(story, index))],
    ['execa', () => timeLoop((index) => execaOnce(story, index))],
  ];
  let recordBytes = 0;
  try {
    for (const [, measure] of [...sides, ...wholeProcesses]) await measure(); // warm-up: the file cache, the JIT, the code cache
    recordBytes = (await fs.stat(story.recordFile)).size;
    for (let round = 0; round < rounds; round++) {
      for (const [side, measure] of sides) {
        collectGarbage();
        series[side].push(await measure());
      }
    }
    // The three whole processes back to back, in an order that changes each round; each round's bare loop is its pairs' baseline.
    for (let round = 0; round < wholeProcessRounds; round++) {
      for (const index of ORDERS[round % ORDERS.length]!) {
        const [side, measure] = wholeProcesses[index]!;
        collectGarbage();
        series[side].push(await measure());
      }
    }
  } finally {
    await fs.rm(story.root, { recursive: true, force: true });
  }
  const m = Object.fromEntries(Object.entries(series).map(([side, values]) => [side, median(values)])) as Record<keyof typeof series, number>;
  // Medians of the pairs' ratios: a round slowed by the machine slows both of its sides.
  const bareRatio = median(pairRatios(series.cli, series.bareProcess));
  const jsonRatio = median(pairRatios(series.cliJson, series.bareProcess));
  const ratio = Math.max(bareRatio, jsonRatio);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  const line =
    `(b2) ${RUNS} /bin/sh runs (concurrency ${CONCURRENCY}), whole processes, medians of ${wholeProcessRounds} interleaved pairs: ` +
    `narratoria run ${ms(m.cli)} vs a bare Node loop ${ms(m.bareProcess)} → ${ratioText(bareRatio)}; ` +
    `with --format json (${kib(jsonBytes)} on stdout) and the run record (${kib(recordBytes)}) ${ms(m.cliJson)} → ${ratioText(jsonRatio)}; ` +
    `the worse ${targetText(ratio, TARGET)}; ${rounds} rounds of the rest: ` +
    `in-process executor ${ms(m.executor)} vs bare loop ${ms(m.bare)} → ${ratioText(m.executor / m.bare)}, vs the fork/exec floor (xargs -P${CONCURRENCY}) ${ms(m.floor)} → ${ratioText(m.executor / m.floor)}; ` +
    `execa alone ${ms(m.execa)} vs spawn alone ${ms(m.spawn)} → ${ratioText(m.execa / m.spawn)}`;
  return {
    id: 'b2',
    title: '200 native fast script runs',
    line,
    ratio,
    target: TARGET,
    met: meetsTarget(ratio, TARGET),
    medians: {
      cliMs: m.cli,
      cliJsonMs: m.cliJson,
      bareProcessMs: m.bareProcess,
      bareRatio,
      jsonRatio,
      executorMs: m.executor,
      bareLoopMs: m.bare,
      floorMs: m.floor,
      execaMs: m.execa,
      spawnMs: m.spawn,
    },
    samples: series,
    details: {
      runs: RUNS,
      concurrency: CONCURRENCY,
      rounds,
      wholeProcessRounds,
      jsonBytes,
      recordBytes,
      withoutNodeExtraCaCerts: caCertificates !== undefined,
      order: `${sides.map(([side]) => side).join(', ')}; then rounds of ${wholeProcesses.map(([side]) => side).join(', ')}, the order changing each round`,
      ratio: 'the worse of the two: median of cli / bareProcess and median of cliJson / bareProcess, over the rounds',
      executorVsBare: m.executor / m.bare,
      executorVsFloor: m.executor / m.floor,
      execaVsSpawn: m.execa / m.spawn,
    },
  };
}
