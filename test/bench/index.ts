// Benchmark entry point (`npm run bench [-- --quick] [-- --only a,b,b2,…,i]`): runs benches (a)–(j), (l) and (b2), prints a summary, writes test-output/bench.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ms, ratioText, type BenchId, type BenchOptions, type BenchResult } from './benchUtil.js';
import { runNdjsonThroughput } from './ndjsonThroughput.js';
import { runProcessOverhead } from './processOverhead.js';
import { runNativeSpawnOverhead } from './nativeSpawnOverhead.js';
import { runSchedulingOverhead } from './schedulingOverhead.js';
import { runNarratorLatency } from './narratorLatency.js';
import { runLlmNarrator } from './llmNarrator.js';
import { runPlanAuthoring } from './planAuthoring.js';
import { runGraphLayout } from './graphLayout.js';
import { runDebuggerOverhead } from './debuggerOverhead.js';
import { runPlaytestOverhead } from './playtestOverhead.js';
import { runExploreOverhead } from './exploreOverhead.js';
import { runLoreChunking } from './loreChunking.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUTPUT_FILE = path.join(REPO_ROOT, 'test-output', 'bench.json');

const BENCHES: readonly { readonly id: BenchId; readonly name: string; readonly run: (options: BenchOptions) => Promise<BenchResult> }[] = [
  { id: 'a', name: 'scheduling overhead', run: runSchedulingOverhead },
  { id: 'b', name: 'process overhead', run: runProcessOverhead },
  { id: 'b2', name: 'native script overhead', run: runNativeSpawnOverhead },
  { id: 'c', name: 'NDJSON throughput', run: runNdjsonThroughput },
  { id: 'd', name: 'pattern narrator latency', run: runNarratorLatency },
  { id: 'e', name: 'local-model narrator (Phi-3.5-mini shape)', run: runLlmNarrator },
  { id: 'f', name: 'plan validation and completion', run: runPlanAuthoring },
  { id: 'g', name: 'plan graph layout and first paint', run: runGraphLayout },
  { id: 'h', name: 'debugger overhead and stepBack', run: runDebuggerOverhead },
  { id: 'i', name: 'playtests against plain turns', run: runPlaytestOverhead },
  { id: 'j', name: 'explore: turns per second, coverage overhead, peak RSS', run: runExploreOverhead },
  { id: 'l', name: 'lore chunking: 5 MB against a 2 s budget, and retrieval', run: runLoreChunking },
];

const BENCH_IDS = BENCHES.map((bench) => bench.id).join(',');

interface Arguments {
  readonly quick: boolean;
  readonly only: ReadonlySet<BenchId> | undefined;
}

function parseArguments(argv: readonly string[]): Arguments {
  let quick = false;
  let only: Set<BenchId> | undefined;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === '--quick') {
      quick = true;
    } else if (argument === '--only' || argument.startsWith('--only=')) {
      const value = argument === '--only' ? argv[++index] : argument.slice('--only='.length);
      const ids = (value ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== '');
      if (ids.length === 0 || !ids.every((id): id is BenchId => BENCHES.some((bench) => bench.id === id))) {
        throw new Error(`--only expects ${BENCH_IDS} (comma-separated), got ${JSON.stringify(value)}`);
      }
      only = new Set([...(only ?? []), ...ids]);
    } else if (argument === '--help' || argument === '-h') {
      console.log(`usage: npm run bench -- [--quick] [--only ${BENCH_IDS}]`);
      process.exit(0);
    } else {
      throw new Error(`unknown argument ${JSON.stringify(argument)} (expected --quick or --only ${BENCH_IDS})`);
    }
  }
  return { quick, only };
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

/** Baseline and executor medians in display form (each bench names its series differently). */
function summaryCells(result: BenchResult): { baseline: string; executor: string } {
  const m = result.medians;
  switch (result.id) {
    case 'a':
      return { baseline: `p-graph ${ms(m['pgraphMs']!)}`, executor: `${ms(m['executorMs']!)} (valid. ${ms(m['validationMs']!)})` };
    case 'b':
      return { baseline: `spawn ${ms(m['baselineMs']!)}`, executor: ms(m['executorMs']!) };
    case 'b2':
      return { baseline: `bare loop process ${ms(m['bareProcessMs']!)}`, executor: `narratoria run ${ms(m['cliMs']!)}` };
    case 'e':
      return { baseline: 'budget 5 s', executor: `turn p50 ${ms(m['turnMs']!)}, p95 ${ms(m['turnP95Ms']!)}` };
    case 'd':
      return {
        baseline: `allowance ${ms(m['allowanceMs']!)}`,
        executor: `p50 ${(m['generationMs']! * 1000).toFixed(0)} µs, p99 ${(m['p99Ms']! * 1000).toFixed(0)} µs`,
      };
    case 'f':
      return {
        baseline: `Ajv 10k ${ms(m['ajv10000Ms']!)}`,
        executor: `${ms(m['validator10000Ms']!)}; completion p50 ${ms(m['completionMs']!)}, p95 ${ms(m['completionP95Ms']!)}`,
      };
    case 'g':
      return {
        baseline: `elkjs ${ms(m['elkMs']!)}`,
        executor: `${ms(m['layoutPlusPaintMs']!)} (layout ${ms(m['layoutMs']!)}, paint ${ms(m['paintMs']!)}); 10k: worker ${ms(m['hugeLayoutMs']!)}, lag max ${ms(m['hugeLagMaxMs']!)}; edit p50 ${ms(m['editMs']!)}`,
      };
    case 'h':
      return {
        baseline: `executor ${ms(m['executorMs']!)}`,
        executor: `${ms(m['debuggerMs']!)}; stepBack p50 ${ms(m['stepBackMs']!)}, p95 ${ms(m['stepBackP95Ms']!)}`,
      };
    case 'i':
      return { baseline: `in-process turns ${ms(m['baselineMs']!)}`, executor: `--jobs 1 ${ms(m['jobsOneMs']!)}, --jobs 2 ${ms(m['jobsTwoMs']!)}` };
    case 'j':
      return {
        baseline: `no coverage ${ms(m['plainMs']!)}`,
        executor: `--coverage ${ms(m['coverageMs']!)}; ${m['jobsOneTurnsPerSecond']!.toFixed(2)} / ${m['jobsTwoTurnsPerSecond']!.toFixed(2)} turns/s (jobs 1/2); peak RSS ${(m['peakRssBytes']! / 1048576).toFixed(0)} MiB`,
      };
    case 'l':
      return {
        baseline: `budget ${ms(m['budgetMs']!)}`,
        executor: `5 MB in ${ms(m['chunkMs']!)} (${m['megabytesPerSecond']!.toFixed(2)} MB/s); query p50 ${ms(m['queryMs']!)}`,
      };
    case 'c':
      return {
        baseline: `${(m['baselineEventsPerSecond']! / 1000).toFixed(0)}k ev/s`,
        executor: `${(m['executorEventsPerSecond']! / 1000).toFixed(0)}k ev/s`,
      };
  }
}

function printTable(results: readonly BenchResult[]): void {
  const rows = results.map((result) => {
    const cells = summaryCells(result);
    return [
      `(${result.id}) ${result.title}`,
      cells.baseline,
      cells.executor,
      ratioText(result.ratio),
      `${result.target.op === '<=' ? '≤' : '≥'} ${result.target.value.toFixed(2)}×`,
      result.met ? 'ok' : 'MISSED',
    ];
  });
  const header = ['bench', 'baseline (median)', 'executor (median)', 'ratio', 'target', 'status'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: readonly string[]) => row.map((cell, column) => pad(cell, widths[column]!, column === 3)).join('  ');
  console.log('');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(format(row));
}

async function main(): Promise<number> {
  const args = parseArguments(process.argv.slice(2));
  const options: BenchOptions = { quick: args.quick };
  const selected = BENCHES.filter((bench) => !args.only || args.only.has(bench.id));
  console.log(
    `Narratoria benchmarks${args.quick ? ' (quick)' : ''}: node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), ` +
      `load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}. Ratios are executor ÷ baseline (medians, measured interleaved).`,
  );
  const results: BenchResult[] = [];
  const errors: { id: BenchId; message: string }[] = [];
  for (const bench of selected) {
    console.log(`\nrunning (${bench.id}) ${bench.name}…`);
    try {
      const result = await bench.run(options);
      results.push(result);
      console.log(result.line);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      errors.push({ id: bench.id, message });
      console.error(`(${bench.id}) ${bench.name} FAILED: ${message}`);
    }
  }
  if (results.length > 0) printTable(results);

  mkdirSync(path.dirname(OUTPUT_FILE), { recursive: true });
  const report = {
    formatVersion: 1,
    createdAt: new Date().toISOString(),
    quick: args.quick,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: availableParallelism(),
    loadAverage: loadavg(),
    results,
    errors,
  };
  writeFileSync(OUTPUT_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(process.cwd(), OUTPUT_FILE) || OUTPUT_FILE}`);
  if (errors.length > 0) {
    console.error(`${errors.length} bench(es) failed: ${errors.map((error) => error.id).join(', ')}`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
