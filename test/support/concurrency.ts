// Test support: the most intervals open at one instant (a sweep over start and end times).

/** A half-open interval [start, end) in milliseconds. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * The largest number of spans open at the same instant. Spans are half-open, so one that ends at t and one
 * that starts at t never count together: a scheduler starts the next tool only once a slot is free, and with
 * millisecond clocks both can carry the same time stamp. Counting, for each span, the spans it overlaps
 * would be wrong: a long span overlapping two spans that never ran together would count three.
 */
export function maxConcurrent(spans: readonly Span[]): number {
  const points: { time: number; delta: number }[] = [];
  for (const span of spans) {
    if (!(span.end >= span.start)) throw new Error(`span ends before it starts: ${JSON.stringify(span)}`);
    points.push({ time: span.start, delta: 1 }, { time: span.end, delta: -1 });
  }
  // Ends before starts at equal times (half-open spans).
  points.sort((left, right) => left.time - right.time || left.delta - right.delta);
  let open = 0;
  let most = 0;
  for (const point of points) {
    open += point.delta;
    most = Math.max(most, open);
  }
  return most;
}

/** Span of an ISO-8601 start and finish pair, as the runtime writes them in ToolResult. */
export function spanOfIso(startedAt: string, finishedAt: string): Span {
  return { start: Date.parse(startedAt), end: Date.parse(finishedAt) };
}
