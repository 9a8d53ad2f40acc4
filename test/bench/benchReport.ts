// The bench report (contracts/bench-report.schema.json): one table row per bench with its noise, built, written and read back.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import * as path from 'node:path';
import { BENCH_CATALOG, type BenchId, isBenchId } from './benchCatalog.js';
import { median, ms, type BenchResult, type BenchTarget } from './benchUtil.js';

export const REPORT_FORMAT_VERSION = 2;

/** How much the interleaved pairs of one bench disagree: the spread of their ratios (each pair's executor ÷ baseline). */
export interface BenchNoise {
  /** Median absolute deviation of the pair ratios from their median, in ratio units (0.03 means ±0.03×). */
  readonly mad: number;
  readonly pairs: number;
  readonly lowest: number;
  readonly highest: number;
}

export interface BenchTableRow {
  readonly id: BenchId;
  readonly name: string;
  readonly title: string;
  readonly baseline: string;
  readonly figure: string;
  readonly ratio: number;
  readonly target: BenchTarget;
  readonly status: 'met' | 'missed';
  readonly noise: BenchNoise | null;
}

export interface BenchError {
  readonly id: BenchId;
  readonly message: string;
}

export interface BenchReport {
  readonly formatVersion: number;
  readonly createdAt: string;
  readonly commit: string | null;
  readonly quick: boolean;
  readonly node: string;
  readonly platform: string;
  readonly cpus: number;
  readonly loadAverage: readonly number[];
  readonly table: readonly BenchTableRow[];
  readonly results: readonly BenchResult[];
  readonly errors: readonly BenchError[];
}

/**
 * The paired sample series whose per-pair ratio is the bench's headline ratio: [numerator, denominator] keys of
 * `samples`, index by index. A bench with no interleaved pairs (a percentile against a fixed allowance, one run
 * per side) has none and reports no noise. When a bench has several candidates (f: two plan sizes, the worst
 * one is the headline), the one whose ratio of medians is closest to the headline gives the noise.
 */
const NOISE_PAIRS: Readonly<Record<BenchId, readonly (readonly [string, string])[]>> = {
  a: [['executorMs', 'pgraphMs']],
  b: [['executorMs', 'baselineMs']],
  b2: [
    ['cli', 'bareProcess'],
    ['cliJson', 'bareProcess'],
  ],
  // (c) reports a rate (executor events/s ÷ baseline events/s), which is the baseline's time ÷ the executor's.
  c: [['baselineMs', 'executorMs']],
  d: [],
  e: [],
  f: [
    ['validator1000Ms', 'ajv1000Ms'],
    ['validator10000Ms', 'ajv10000Ms'],
  ],
  g: [['layoutPlusPaintMs', 'elkMs']],
  h: [['debuggerMs', 'executorMs']],
  i: [['jobsOneMs', 'baselineMs']],
  j: [],
  k: [],
  l: [],
  m: [],
};

/** Fewer pairs than this give no meaningful spread. */
const MINIMUM_PAIRS = 3;

/** The noise of a set of pair ratios, or null when there are too few. */
export function noiseOfRatios(ratios: readonly number[]): BenchNoise | null {
  const finite = ratios.filter((ratio) => Number.isFinite(ratio));
  if (finite.length < MINIMUM_PAIRS) return null;
  const middle = median(finite);
  return {
    mad: median(finite.map((ratio) => Math.abs(ratio - middle))),
    pairs: finite.length,
    lowest: Math.min(...finite),
    highest: Math.max(...finite),
  };
}

/** The noise measured for one bench from its interleaved samples, or null when it has none. */
export function benchNoise(result: Pick<BenchResult, 'id' | 'ratio' | 'samples'>): BenchNoise | null {
  let best: { distance: number; ratios: number[] } | undefined;
  for (const [numeratorKey, denominatorKey] of NOISE_PAIRS[result.id] ?? []) {
    const numerator = result.samples[numeratorKey];
    const denominator = result.samples[denominatorKey];
    if (numerator === undefined || denominator === undefined || numerator.length !== denominator.length) continue;
    const distance = Math.abs(median(numerator) / median(denominator) - result.ratio);
    if (best === undefined || distance < best.distance) best = { distance, ratios: numerator.map((value, index) => value / denominator[index]!) };
  }
  return best === undefined ? null : noiseOfRatios(best.ratios);
}

/** Baseline and measured figure in display form (each bench names its series differently). */
export function summaryCells(result: BenchResult): { baseline: string; figure: string } {
  const m = result.medians;
  switch (result.id) {
    case 'a':
      return { baseline: `p-graph ${ms(m['pgraphMs']!)}`, figure: `${ms(m['executorMs']!)} (valid. ${ms(m['validationMs']!)})` };
    case 'b':
      return { baseline: `spawn ${ms(m['baselineMs']!)}`, figure: ms(m['executorMs']!) };
    case 'b2':
      return {
        baseline: `bare loop process ${ms(m['bareProcessMs']!)}`,
        // Reports written before the JSON side was measured have only the bare run.
        figure: `narratoria run ${ms(m['cliMs']!)}${m['cliJsonMs'] !== undefined ? `; --format json + record ${ms(m['cliJsonMs'])}` : ''}`,
      };
    case 'e': {
      // Reports written before the memory targets were judged have no memory figures.
      const mebibytes = (bytes: number | undefined): string => `${Math.round((bytes ?? Number.NaN) / (1024 * 1024))} MiB`;
      const memory = m['peakRssBytes'] !== undefined ? `; worker peak ${mebibytes(m['peakRssBytes'])}, anonymous ${mebibytes(m['anonBytes'])}` : '';
      return { baseline: 'budget 5 s', figure: `turn p50 ${ms(m['turnMs']!)}, p95 ${ms(m['turnP95Ms']!)}${memory}` };
    }
    case 'd':
      return {
        baseline: `allowance ${ms(m['allowanceMs']!)}`,
        figure: `p50 ${(m['generationMs']! * 1000).toFixed(0)} µs, p99 ${(m['p99Ms']! * 1000).toFixed(0)} µs`,
      };
    case 'f':
      return {
        baseline: `Ajv 10k ${ms(m['ajv10000Ms']!)}`,
        figure: `${ms(m['validator10000Ms']!)}; completion p50 ${ms(m['completionMs']!)}, p95 ${ms(m['completionP95Ms']!)}`,
      };
    case 'g':
      return {
        baseline: `elkjs ${ms(m['elkMs']!)}`,
        figure:
          `${ms(m['layoutPlusPaintMs']!)} (layout ${ms(m['layoutMs']!)}, paint ${ms(m['paintMs']!)}); ` +
          `10k: worker ${ms(m['hugeLayoutMs']!)}, lag max ${ms(m['hugeLagMaxMs']!)}; edit p50 ${ms(m['editMs']!)}`,
      };
    case 'h':
      return {
        baseline: `executor ${ms(m['executorMs']!)}`,
        figure: `${ms(m['debuggerMs']!)}; stepBack p50 ${ms(m['stepBackMs']!)}, p95 ${ms(m['stepBackP95Ms']!)}`,
      };
    case 'i':
      return { baseline: `in-process turns ${ms(m['baselineMs']!)}`, figure: `--jobs 1 ${ms(m['jobsOneMs']!)}, --jobs 2 ${ms(m['jobsTwoMs']!)}` };
    case 'j':
      return {
        baseline: `no coverage ${ms(m['plainMs']!)}`,
        figure:
          `--coverage ${ms(m['coverageMs']!)}; ${m['jobsOneTurnsPerSecond']!.toFixed(2)} / ${m['jobsTwoTurnsPerSecond']!.toFixed(2)} turns/s (jobs 1/2); ` +
          `peak RSS ${(m['peakRssBytes']! / 1048576).toFixed(0)} MiB`,
      };
    case 'k':
      return {
        baseline: `budget ${ms(m['budgetMs']!)}`,
        figure: `${m['cliMs'] !== undefined ? `validate process ${ms(m['cliMs'])}, ` : ''}in-process ${ms(m['inProcessMs']!)}`,
      };
    case 'l':
      return {
        baseline: `budget ${ms(m['budgetMs']!)}`,
        figure: `5 MB in ${ms(m['chunkMs']!)} (${m['megabytesPerSecond']!.toFixed(2)} MB/s); query p50 ${ms(m['queryMs']!)}`,
      };
    case 'm':
      return {
        baseline: `SC-001 ${ms(m['budgetMs']!)}`,
        figure: `p50 ${ms(m['p50Ms']!)}, p95 ${ms(m['p95Ms']!)} (as no campaign: p50 ${ms(m['plainP50Ms']!)})`,
      };
    case 'c':
      return {
        baseline: `${(m['baselineEventsPerSecond']! / 1000).toFixed(0)}k ev/s`,
        figure: `${(m['executorEventsPerSecond']! / 1000).toFixed(0)}k ev/s`,
      };
  }
}

function benchName(id: BenchId): string {
  return BENCH_CATALOG.find((bench) => bench.id === id)?.name ?? id;
}

/** One bench's row of the table. A result written by an older bench that lacks a series keeps empty cells. */
export function tableRow(result: BenchResult): BenchTableRow {
  let cells = { baseline: '', figure: '' };
  try {
    cells = summaryCells(result);
  } catch {
    // An older report's medians may not have every series this version prints.
  }
  return {
    id: result.id,
    name: benchName(result.id),
    title: result.title,
    ...cells,
    ratio: result.ratio,
    target: result.target,
    status: result.met ? 'met' : 'missed',
    noise: benchNoise(result),
  };
}

function currentCommit(root: string): string | null {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    let dirty = false;
    try {
      execFileSync('git', ['diff', '--quiet', 'HEAD', '--'], { cwd: root, stdio: 'ignore' });
    } catch {
      dirty = true;
    }
    return dirty ? `${commit}-dirty` : commit;
  } catch {
    return null;
  }
}

/** The report of one `npm run bench` run, as written to test-output/bench.json and to `--json FILE`. */
export function buildReport(results: readonly BenchResult[], errors: readonly BenchError[], options: { quick: boolean; root: string }): BenchReport {
  return {
    formatVersion: REPORT_FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    commit: currentCommit(options.root),
    quick: options.quick,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: availableParallelism(),
    loadAverage: loadavg(),
    table: results.map(tableRow),
    results,
    errors,
  };
}

export function reportText(report: BenchReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

export function writeReport(file: string, report: BenchReport): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, reportText(report));
}

/** Reads a saved report. A report of format 1 (before the table) gets its table derived from its results. */
export function readReport(file: string): BenchReport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the bench report ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const report = parsed as Partial<BenchReport> & { formatVersion?: unknown };
  if (typeof report !== 'object' || report === null || !Array.isArray(report.results)) {
    throw new Error(`${file} is not a bench report (no "results" array): write one with npm run bench -- --json ${file}`);
  }
  if (report.formatVersion === 1) {
    const results = (report.results as readonly BenchResult[]).filter((result) => isBenchId(result.id));
    return { ...(report as BenchReport), commit: null, table: results.map(tableRow), results };
  }
  if (report.formatVersion !== REPORT_FORMAT_VERSION || !Array.isArray(report.table)) {
    throw new Error(`${file}: unknown bench report format ${JSON.stringify(report.formatVersion)} (this version reads 1 and ${REPORT_FORMAT_VERSION})`);
  }
  return report as BenchReport;
}
