// A recorded run as a waterfall: per-tool rows of attempt and backoff segments, concurrency over time, the critical path. Pure data; no I/O, no clock.
import type { AttemptRecord, ToolResult } from '../contractTypes/executionResult.js';
import { criticalPathOf, type DependencyEdge } from './criticalPath.js';
import type { ConcurrencySample, RunTimeline, TimelineRow, TimelineSegment } from './graphTypes.js';

export { markCriticalPath, criticalPathOf, type DependencyEdge, type FinishedTool } from './criticalPath.js';

/** A half-open interval [start, end) of a running tool, in milliseconds since the run started. */
export interface RunningInterval {
  readonly start: number;
  readonly end: number;
}

/**
 * The timeline of a recorded run, or undefined when no tool has a parseable `startedAt`.
 *
 * Times are whole milliseconds since the run started: `runStartedAt` (ExecutionResult.startedAt), else the earliest
 * tool start; a tool stamped before `runStartedAt` moves the origin back, so no time is negative.
 * Every tool gets one row, in start order, ties in plan order (the order of `results`). A tool that never started
 * (skipped, or no timestamps) gets an empty row (no segments, start = end) at the moment it was decided: when its
 * last dependency finished (0 without one), or at the run's end when it was skipped by a cancel or the plan timeout.
 * @param results the run's tool results in plan order
 * @param dependencies the plan's edges (`PlanGraphModel.dependencies`: `to` depends on `from`)
 * @param runStartedAt the run's own start (ISO 8601)
 */
export function buildRunTimeline(results: readonly ToolResult[], dependencies: readonly DependencyEdge[], runStartedAt?: string): RunTimeline | undefined {
  const timings = results.map(timingOf);
  const starts = timings.flatMap((timing) => (timing ? [timing.start] : []));
  if (starts.length === 0) return undefined;
  const runStart = runStartedAt === undefined ? Number.NaN : Date.parse(runStartedAt);
  const origin = starts.reduce((earliest, start) => Math.min(earliest, start), Number.isNaN(runStart) ? Number.POSITIVE_INFINITY : runStart);

  const timed: { readonly row: Omit<TimelineRow, 'critical'>; readonly index: number }[] = [];
  results.forEach((result, index) => {
    const timing = timings[index];
    if (!timing) return;
    const start = timing.start - origin;
    const end = timing.end - origin;
    timed.push({ index, row: { toolId: result.toolId, state: result.state, start, end, segments: segmentsOf(result, start, end) } });
  });
  const durationMs = timed.reduce((latest, { row }) => Math.max(latest, row.end), 0);
  const criticalPath = criticalPathOf(
    timed.map(({ row }) => ({ toolId: row.toolId, end: row.end })),
    dependencies,
  );
  const critical = new Set(criticalPath);
  const untimed = untimedRows(results, timings, timed, dependencies, durationMs);
  const rows = [...timed, ...untimed]
    .sort((left, right) => left.row.start - right.row.start || left.index - right.index)
    .map(({ row }): TimelineRow => ({ ...row, critical: critical.has(row.toolId) }));
  const concurrency = concurrencyOf(timed.map(({ row }) => row));
  return { durationMs, rows, concurrency, maxConcurrency: concurrency.reduce((most, sample) => Math.max(most, sample.running), 0), criticalPath };
}

/**
 * How many intervals are running over time, as steps: a sample at 0, then one at each instant where the count
 * changes (consecutive samples always differ). Intervals are half-open, so one that ends at t and one that
 * starts at t never count together; empty intervals (end ≤ start) never count.
 */
export function concurrencyOf(intervals: readonly RunningInterval[]): ConcurrencySample[] {
  const changes = new Map<number, number>();
  for (const { start, end } of intervals) {
    if (!(end > start)) continue;
    changes.set(start, (changes.get(start) ?? 0) + 1);
    changes.set(end, (changes.get(end) ?? 0) - 1);
  }
  const samples: ConcurrencySample[] = [{ at: 0, running: 0 }];
  let running = 0;
  for (const at of [...changes.keys()].sort((left, right) => left - right)) {
    const change = changes.get(at)!;
    if (change === 0) continue;
    running += change;
    if (at <= 0) samples[0] = { at: 0, running };
    else samples.push({ at, running });
  }
  return samples;
}

interface ToolTiming {
  /** Epoch milliseconds. */
  readonly start: number;
  readonly end: number;
}

/** A tool's start and end (epoch ms), or undefined when it has no parseable startedAt. */
function timingOf(result: ToolResult): ToolTiming | undefined {
  const start = result.startedAt === undefined ? Number.NaN : Date.parse(result.startedAt);
  if (Number.isNaN(start)) return undefined;
  let end = result.finishedAt === undefined ? Number.NaN : Date.parse(result.finishedAt);
  if (Number.isNaN(end)) end = start + (result.executionTimeMs ?? recordedMs(result.attempts ?? []));
  return { start, end: Math.max(start, end) };
}

function recordedMs(attempts: readonly AttemptRecord[]): number {
  return attempts.reduce((total, attempt, index) => total + length(attempt.durationMs) + (index > 0 ? length(attempt.backoffMs) : 0), 0);
}

interface Piece {
  readonly kind: TimelineSegment['kind'];
  readonly attempt: number;
  readonly ok: boolean | undefined;
  readonly length: number;
}

/**
 * The attempts laid end to end from `start`, each attempt after the first preceded by its backoff, fitted to end
 * exactly at `end`: backoffs keep their recorded length and the attempts share the rest in proportion to their
 * recorded durations (the timestamps also count the process start and hooks, which durations leave out); when the
 * backoffs alone exceed the span (clock skew), everything shrinks in proportion. Boundaries are rounded to whole
 * milliseconds and never decrease, so segments are contiguous, in order and inside [start, end]; a backoff that
 * rounds to nothing is left out.
 */
function segmentsOf(result: ToolResult, start: number, end: number): TimelineSegment[] {
  const attempts = [...(result.attempts ?? [])].sort((left, right) => left.attempt - right.attempt);
  const succeeded = result.state === 'success';
  if (attempts.length === 0) return [{ kind: 'attempt', start, end, attempt: 1, ok: succeeded }];

  const anyDuration = attempts.some((attempt) => length(attempt.durationMs) > 0);
  const pieces: Piece[] = [];
  attempts.forEach((attempt, index) => {
    const last = index === attempts.length - 1;
    if (index > 0 && length(attempt.backoffMs) > 0)
      pieces.push({ kind: 'backoff', attempt: attempt.attempt, ok: undefined, length: length(attempt.backoffMs) });
    // With no recorded durations at all, the attempts share the span equally.
    pieces.push({ kind: 'attempt', attempt: attempt.attempt, ok: attempt.ok ?? (last && succeeded), length: anyDuration ? length(attempt.durationMs) : 1 });
  });
  const span = end - start;
  const backoffTotal = sumOf(pieces, 'backoff');
  const attemptTotal = sumOf(pieces, 'attempt');
  const fits = backoffTotal <= span;
  const backoffScale = fits ? 1 : span / (backoffTotal + attemptTotal);
  const attemptScale = fits ? (attemptTotal > 0 ? (span - backoffTotal) / attemptTotal : 0) : backoffScale;

  const segments: TimelineSegment[] = [];
  let position = start;
  pieces.forEach((piece, index) => {
    const from = Math.min(end, Math.round(position));
    position += piece.length * (piece.kind === 'backoff' ? backoffScale : attemptScale);
    const to = index === pieces.length - 1 ? end : Math.min(end, Math.max(from, Math.round(position)));
    if (piece.kind === 'backoff') {
      if (to > from) segments.push({ kind: 'backoff', start: from, end: to, attempt: piece.attempt });
    } else {
      segments.push({ kind: 'attempt', start: from, end: to, attempt: piece.attempt, ok: piece.ok });
    }
  });
  return segments;
}

function sumOf(pieces: readonly Piece[], kind: Piece['kind']): number {
  return pieces.reduce((total, piece) => (piece.kind === kind ? total + piece.length : total), 0);
}

/** A recorded length in ms: negative, missing or non-finite values count as 0. */
function length(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Empty rows for the tools that never started, placed when they were decided (see buildRunTimeline). */
function untimedRows(
  results: readonly ToolResult[],
  timings: readonly (ToolTiming | undefined)[],
  timed: readonly { readonly row: Omit<TimelineRow, 'critical'> }[],
  dependencies: readonly DependencyEdge[],
  durationMs: number,
): { readonly row: Omit<TimelineRow, 'critical'>; readonly index: number }[] {
  const ends = new Map<string, number>();
  for (const { row } of timed) if (!ends.has(row.toolId)) ends.set(row.toolId, row.end);
  const resultById = new Map<string, ToolResult>();
  for (const result of results) if (!resultById.has(result.toolId)) resultById.set(result.toolId, result);
  const dependenciesOf = new Map<string, string[]>();
  for (const edge of dependencies) dependenciesOf.set(edge.to, [...(dependenciesOf.get(edge.to) ?? []), edge.from]);

  const decided = new Map<string, number>();
  const deciding = new Set<string>();
  const decidedAt = (toolId: string): number => {
    const end = ends.get(toolId);
    if (end !== undefined) return end;
    const known = decided.get(toolId);
    if (known !== undefined) return known;
    const result = resultById.get(toolId);
    // Unknown ids and (in a malformed edge list) cycles decide nothing.
    if (!result || deciding.has(toolId)) return 0;
    deciding.add(toolId);
    const stopped = result.skipReason === 'cancelled' || result.skipReason === 'plan_timeout';
    const at = stopped ? durationMs : Math.max(0, ...(dependenciesOf.get(toolId) ?? []).map(decidedAt));
    deciding.delete(toolId);
    decided.set(toolId, at);
    return at;
  };

  const rows: { readonly row: Omit<TimelineRow, 'critical'>; readonly index: number }[] = [];
  results.forEach((result, index) => {
    if (timings[index]) return;
    const at = decidedAt(result.toolId);
    rows.push({ index, row: { toolId: result.toolId, state: result.state, start: at, end: at, segments: [] } });
  });
  return rows;
}
