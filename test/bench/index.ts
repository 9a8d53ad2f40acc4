// Benchmark entry point (`npm run bench -- [--quick] [--only ids] [--json [FILE]] [--compare FILE [--against FILE2]]`): runs, reports, compares.
import { availableParallelism, cpus, loadavg } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_CATALOG, BENCH_IDS, type BenchId, isBenchId } from './benchCatalog.js';
import { comparisonLines, compareTables } from './benchCompare.js';
import { buildReport, readReport, reportText, writeReport, type BenchError, type BenchReport, type BenchTableRow } from './benchReport.js';
import { ratioText, type BenchOptions, type BenchResult } from './benchUtil.js';
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
import { runCampaignValidation } from './campaignValidation.js';
import { runLoreChunking } from './loreChunking.js';
import { runCampaignScene } from './campaignScene.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUTPUT_FILE = path.join(REPO_ROOT, 'test-output', 'bench.json');

/** Every bench of the catalog with its runner (the Record makes a new catalog entry fail the typecheck until it has one). */
const RUNNERS: Readonly<Record<BenchId, (options: BenchOptions) => Promise<BenchResult>>> = {
  a: runSchedulingOverhead,
  b: runProcessOverhead,
  b2: runNativeSpawnOverhead,
  c: runNdjsonThroughput,
  d: runNarratorLatency,
  e: runLlmNarrator,
  f: runPlanAuthoring,
  g: runGraphLayout,
  h: runDebuggerOverhead,
  i: runPlaytestOverhead,
  j: runExploreOverhead,
  k: runCampaignValidation,
  l: runLoreChunking,
  m: runCampaignScene,
};

const IDS_TEXT = BENCH_IDS.join(',');
const USAGE = `usage: npm run bench -- [--quick] [--only ${IDS_TEXT}] [--json [FILE]] [--compare FILE [--against FILE2]]`;

interface Arguments {
  readonly quick: boolean;
  readonly only: ReadonlySet<BenchId> | undefined;
  /** undefined: no --json; null: --json without a file (the report goes to stdout); else the file. */
  readonly json: string | null | undefined;
  readonly compare: string | undefined;
  readonly against: string | undefined;
}

function parseArguments(argv: readonly string[]): Arguments {
  let quick = false;
  let only: Set<BenchId> | undefined;
  let json: string | null | undefined;
  let compare: string | undefined;
  let against: string | undefined;
  const fileAfter = (index: number, option: string): string => {
    const value = argv[index];
    if (value === undefined || value.startsWith('--')) throw new Error(`${option} expects a file (${USAGE})`);
    return value;
  };
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
      if (ids.length === 0 || !ids.every(isBenchId)) {
        throw new Error(`--only expects ${IDS_TEXT} (comma-separated), got ${JSON.stringify(value)}`);
      }
      only = new Set([...(only ?? []), ...ids]);
    } else if (argument === '--json') {
      const next = argv[index + 1];
      json = next === undefined || next.startsWith('--') ? null : argv[++index]!;
    } else if (argument === '--compare') {
      compare = fileAfter(++index, '--compare');
    } else if (argument === '--against') {
      against = fileAfter(++index, '--against');
    } else if (argument === '--help' || argument === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else {
      throw new Error(`unknown argument ${JSON.stringify(argument)} (${USAGE})`);
    }
  }
  if (against !== undefined && compare === undefined) throw new Error(`--against FILE2 compares with --compare FILE (${USAGE})`);
  if (against !== undefined && (quick || json !== undefined)) {
    throw new Error('--compare FILE --against FILE2 compares two saved reports without running: --quick and --json do not apply');
  }
  return { quick, only, json, compare, against };
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

function printTable(rows: readonly BenchTableRow[], say: (line: string) => void): void {
  const cells = rows.map((row) => [
    `(${row.id}) ${row.title}`,
    row.baseline,
    row.figure,
    ratioText(row.ratio),
    row.noise === null ? '-' : `±${row.noise.mad.toFixed(3)}×`,
    `${row.target.op === '<=' ? '≤' : '≥'} ${row.target.value.toFixed(2)}×`,
    row.status === 'met' ? 'ok' : 'MISSED',
  ]);
  const header = ['bench', 'baseline (median)', 'executor (median)', 'ratio', 'noise', 'target', 'status'];
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => row[column]!.length)));
  const format = (row: readonly string[]) => row.map((cell, column) => pad(cell, widths[column]!, column === 3 || column === 4)).join('  ');
  say('');
  say(format(header));
  say(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of cells) say(format(row));
}

function printComparison(
  beforeFile: string,
  before: BenchReport,
  afterLabel: string,
  after: BenchReport,
  only: Arguments['only'],
  say: (line: string) => void,
): void {
  const keep = (rows: readonly BenchTableRow[]) => rows.filter((row) => !only || only.has(row.id));
  const changes = compareTables(keep(before.table), keep(after.table));
  for (const line of comparisonLines({ label: beforeFile, report: before }, { label: afterLabel, report: after }, changes)) say(line);
}

async function runBenches(args: Arguments, say: (line: string) => void): Promise<{ results: BenchResult[]; errors: BenchError[] }> {
  const options: BenchOptions = { quick: args.quick };
  const selected = BENCH_CATALOG.filter((bench) => !args.only || args.only.has(bench.id));
  say(
    `Narratoria benchmarks${args.quick ? ' (quick)' : ''}: node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), ` +
      `load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}. Ratios are executor ÷ baseline (medians, measured interleaved).`,
  );
  const results: BenchResult[] = [];
  const errors: BenchError[] = [];
  for (const bench of selected) {
    say(`\nrunning (${bench.id}) ${bench.name}…`);
    try {
      const result = await RUNNERS[bench.id](options);
      results.push(result);
      say(result.line);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      errors.push({ id: bench.id, message });
      console.error(`(${bench.id}) ${bench.name} FAILED: ${message}`);
    }
  }
  return { results, errors };
}

async function main(): Promise<number> {
  const args = parseArguments(process.argv.slice(2));
  // Read the earlier report before spending minutes on a run, so a wrong path fails at once.
  const before = args.compare === undefined ? undefined : readReport(args.compare);
  if (args.compare !== undefined && args.against !== undefined) {
    printComparison(args.compare, before!, args.against, readReport(args.against), args.only, (line) => console.log(line));
    return 0;
  }
  // With --json and no file, the report is stdout's only content and everything else goes to stderr.
  const say = args.json === null ? (line: string) => console.error(line) : (line: string) => console.log(line);
  const { results, errors } = await runBenches(args, say);
  const report = buildReport(results, errors, { quick: args.quick, root: REPO_ROOT });
  if (report.table.length > 0) printTable(report.table, say);
  // One report, one destination: --json FILE, stdout for --json alone, else test-output/bench.json.
  if (args.json === null) {
    process.stdout.write(reportText(report));
  } else {
    const file = args.json === undefined ? OUTPUT_FILE : path.resolve(args.json);
    writeReport(file, report);
    say(`\nwrote ${path.relative(process.cwd(), file) || file}`);
  }
  if (args.compare !== undefined) {
    say('');
    printComparison(args.compare, before!, 'this run', report, args.only, say);
  }
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
