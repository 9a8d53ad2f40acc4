// A monotonic clock in milliseconds for measuring durations, without the ~0.9 ms load of node:perf_hooks that `performance.now()` costs the first time (bench b2).

/** Milliseconds from an arbitrary fixed point: only differences mean anything (like `performance.now()`). */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
