// Compares two bench reports (`npm run bench -- --compare FILE [--against FILE2]`): each ratio's change against the noise of the bench.
import { BENCH_IDS, type BenchId } from './benchCatalog.js';
import type { BenchNoise, BenchReport, BenchTableRow } from './benchReport.js';

/**
 * within-noise: the change is no larger than the bench's noise; worse / better: beyond it, in the direction the
 * target calls worse or better; no-noise: the ratio moved and neither report measured noise for this bench;
 * only-before / only-after: one report has no row for the bench.
 */
export type ChangeVerdict = 'within-noise' | 'worse' | 'better' | 'no-noise' | 'only-before' | 'only-after';

export interface BenchChange {
  readonly id: BenchId;
  readonly name: string;
  readonly before: BenchTableRow | null;
  readonly after: BenchTableRow | null;
  /** after.ratio - before.ratio, in ratio units. */
  readonly change: number | null;
  /** The change relative to the earlier ratio (0.05 is 5%). */
  readonly relative: number | null;
  /** The largest change still counted as noise, or null when neither report measured it. */
  readonly noise: number | null;
  readonly verdict: ChangeVerdict;
}

/** The noise of a difference of two runs: the two runs' noise combined (root of the sum of squares), or the one measured. */
export function combinedNoise(before: BenchNoise | null, after: BenchNoise | null): number | null {
  if (before === null && after === null) return null;
  return Math.hypot(before?.mad ?? 0, after?.mad ?? 0);
}

function changeOf(before: BenchTableRow, after: BenchTableRow): BenchChange {
  const change = after.ratio - before.ratio;
  const noise = combinedNoise(before.noise, after.noise);
  let verdict: ChangeVerdict;
  if (change === 0 || (noise !== null && Math.abs(change) <= noise)) verdict = 'within-noise';
  else if (noise === null) verdict = 'no-noise';
  else verdict = (after.target.op === '<=') === change > 0 ? 'worse' : 'better';
  return { id: after.id, name: after.name, before, after, change, relative: before.ratio === 0 ? null : change / before.ratio, noise, verdict };
}

/** Each bench's change from `before` to `after`, in the catalog's order (benches the catalog does not know last). */
export function compareTables(before: readonly BenchTableRow[], after: readonly BenchTableRow[]): BenchChange[] {
  const ids = [...new Set([...before.map((row) => row.id), ...after.map((row) => row.id)])];
  const rank = (id: BenchId) => {
    const index = BENCH_IDS.indexOf(id);
    return index === -1 ? BENCH_IDS.length : index;
  };
  ids.sort((left, right) => rank(left) - rank(right));
  return ids.map((id): BenchChange => {
    const earlier = before.find((row) => row.id === id) ?? null;
    const later = after.find((row) => row.id === id) ?? null;
    if (earlier !== null && later !== null) return changeOf(earlier, later);
    const only = (earlier ?? later)!;
    const verdict = earlier === null ? 'only-after' : 'only-before';
    return { id, name: only.name, before: earlier, after: later, change: null, relative: null, noise: null, verdict };
  });
}

/** What makes two reports' ratios less comparable: quick against full, another machine or Node. */
export function comparisonWarnings(before: BenchReport, after: BenchReport): string[] {
  const warnings: string[] = [];
  if (before.quick !== after.quick) {
    warnings.push(`one report is a quick run and the other a full run (${before.quick ? 'quick' : 'full'} → ${after.quick ? 'quick' : 'full'}): sizes differ`);
  }
  if (before.platform !== after.platform || before.cpus !== after.cpus) {
    warnings.push(`different machines: ${before.platform}, ${before.cpus} CPUs → ${after.platform}, ${after.cpus} CPUs`);
  }
  if (before.node !== after.node) warnings.push(`different Node versions: ${before.node} → ${after.node}`);
  return warnings;
}

const VERDICT_TEXT: Readonly<Record<ChangeVerdict, string>> = {
  'within-noise': 'within noise',
  worse: 'WORSE beyond noise',
  better: 'better beyond noise',
  'no-noise': 'changed (no noise measured)',
  'only-before': 'only in the earlier report',
  'only-after': 'only in the later report',
};

function ratioCell(row: BenchTableRow | null): string {
  return row === null ? '-' : `${row.ratio.toFixed(3)}×`;
}

function signed(value: number, digits: number): string {
  return `${value >= 0 ? '+' : '-'}${Math.abs(value).toFixed(digits)}`;
}

function statusText(status: BenchTableRow['status']): string {
  return status === 'met' ? 'ok' : 'MISSED';
}

function reportLabel(label: string, report: BenchReport): string {
  return `${label} (${report.createdAt}${report.commit === null ? '' : `, ${report.commit}`}${report.quick ? ', quick' : ''})`;
}

/** The printed comparison: a header naming both reports, any warnings, and one aligned row per bench. */
export function comparisonLines(
  before: { label: string; report: BenchReport },
  after: { label: string; report: BenchReport },
  changes: readonly BenchChange[],
): string[] {
  const lines = [`Comparing ${reportLabel(before.label, before.report)}`, `     with ${reportLabel(after.label, after.report)}`];
  for (const warning of comparisonWarnings(before.report, after.report)) lines.push(`warning: ${warning}`);
  const rows = changes.map((change) => {
    const statusChange =
      change.before !== null && change.after !== null && change.before.status !== change.after.status
        ? ` (${statusText(change.before.status)} → ${statusText(change.after.status)})`
        : '';
    return [
      `(${change.id}) ${change.name}`,
      ratioCell(change.before),
      ratioCell(change.after),
      change.change === null ? '-' : `${signed(change.change, 3)}×${change.relative === null ? '' : ` (${signed(change.relative * 100, 1)}%)`}`,
      change.noise === null ? '-' : `±${change.noise.toFixed(3)}×`,
      `${VERDICT_TEXT[change.verdict]}${statusChange}`,
    ];
  });
  const header = ['bench', 'before', 'after', 'change', 'noise', 'verdict'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: readonly string[]) =>
    row
      .map((cell, column) => (column === 0 || column === row.length - 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  lines.push('', format(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(format));
  lines.push('', "noise: the spread (median absolute deviation) of each run's interleaved pair ratios, both runs combined.");
  return lines;
}
