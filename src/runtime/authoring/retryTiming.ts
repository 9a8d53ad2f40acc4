// Retry timing of one tool as the executor really runs it: backoff delays (docs/plan-json-and-protocol.md#retry-backoff: no cap, no jitter), attempt timeout and worst case. Pure.
import { DEFAULT_BACKOFF_MS, DEFAULT_MAX_RETRIES, DEFAULT_TOOL_TIMEOUT_MS, MAX_BACKOFF_MS, MAX_RETRIES, retryDelayMs } from '../contractTypes/plan.js';
import { formatDuration } from '../common/humanText.js';

/** Bounds of `#/$defs/RetryPolicy` in contracts/plan-json.schema.json (the runtime clamps larger values to them). */
export const MAX_RETRIES_LIMIT = MAX_RETRIES;
export const BACKOFF_MS_LIMIT = MAX_BACKOFF_MS;

/** Where a tool's attempt timeout comes from (a run option can still override it at run time). */
export type TimeoutSource = 'tool' | 'script' | 'default';

/** What a plan and the catalog say about one tool's retries; undefined fields take the defaults. */
export interface RetryTimingInput {
  /** `retryPolicy.maxRetries` as written (any JSON number). */
  readonly maxRetries?: number | undefined;
  /** `retryPolicy.backoffMs` as written. */
  readonly backoffMs?: number | undefined;
  /** The tool's own `timeoutMs`. */
  readonly toolTimeoutMs?: number | undefined;
  /** The script's timeout from its skill manifest. */
  readonly scriptTimeoutMs?: number | undefined;
}

/** The effective retry behaviour of a tool. */
export interface RetryTiming {
  readonly maxRetries: number;
  readonly backoffMs: number;
  /** Attempts at most: the first one plus the retries. */
  readonly attempts: number;
  /** Delay before retry n (index n−1): backoffMs × 2^(n−1). */
  readonly delaysMs: readonly number[];
  readonly totalDelayMs: number;
  readonly timeoutMs: number;
  readonly timeoutSource: TimeoutSource;
  /** Every attempt running into its timeout, plus every delay: attempts × timeout + total delay. */
  readonly worstCaseMs: number;
  /** Values that are outside the schema's bounds and were replaced by the default. */
  readonly invalid: readonly ('maxRetries' | 'backoffMs')[];
}

/** Computes the delays and the worst case the way runToolWithRetries does (src/runtime/executor/toolExecution.ts). */
export function retryTiming(input: RetryTimingInput): RetryTiming {
  const invalid: ('maxRetries' | 'backoffMs')[] = [];
  const maxRetries = boundedInteger(input.maxRetries, 0, MAX_RETRIES_LIMIT, DEFAULT_MAX_RETRIES, () => invalid.push('maxRetries'));
  const backoffMs = boundedInteger(input.backoffMs, 0, BACKOFF_MS_LIMIT, DEFAULT_BACKOFF_MS, () => invalid.push('backoffMs'));
  const delaysMs = Array.from({ length: maxRetries }, (_, index) => retryDelayMs(backoffMs, index + 1));
  const totalDelayMs = delaysMs.reduce((sum, delay) => sum + delay, 0);
  const [timeoutMs, timeoutSource]: [number, TimeoutSource] =
    input.toolTimeoutMs !== undefined
      ? [input.toolTimeoutMs, 'tool']
      : input.scriptTimeoutMs !== undefined
        ? [input.scriptTimeoutMs, 'script']
        : [DEFAULT_TOOL_TIMEOUT_MS, 'default'];
  const attempts = maxRetries + 1;
  return { maxRetries, backoffMs, attempts, delaysMs, totalDelayMs, timeoutMs, timeoutSource, worstCaseMs: attempts * timeoutMs + totalDelayMs, invalid };
}

/** One line, e.g. "retries after 100, 200, 400 ms; at most 20.7 s with timeouts". */
export function describeRetryTiming(timing: RetryTiming): string {
  if (timing.maxRetries === 0) return `no retries: one attempt of at most ${formatDuration(timing.timeoutMs)}`;
  return `retries after ${formatDelays(timing.delaysMs)}; at most ${formatDuration(timing.worstCaseMs)} with timeouts`;
}

/** A list of delays: "100, 200, 400 ms" when all are below a second, else each with its unit. */
export function formatDelays(delaysMs: readonly number[]): string {
  if (delaysMs.every((delay) => Math.round(delay) < 1000)) return `${delaysMs.map((delay) => Math.round(delay)).join(', ')} ms`;
  return delaysMs.map(formatDuration).join(', ');
}

function boundedInteger(value: number | undefined, minimum: number, maximum: number, fallback: number, onInvalid: () => void): number {
  if (value === undefined) return fallback;
  if (Number.isInteger(value) && value >= minimum && value <= maximum) return value;
  onInvalid();
  return fallback;
}
