// Test helper: an in-process ToolRunner driven by a per-toolId script, recording a global timeline of attempts.
import * as os from 'node:os';
import type { ExecutePlanOptions } from '../../../src/runtime/executor/planExecutor.js';
import type { ToolAttemptOutcome, ToolAttemptRequest, ToolRunner, ToolStdin } from '../../../src/runtime/executor/toolRunner.js';
import type { ToolError } from '../../../src/runtime/contractTypes/executionResult.js';
import type { DoneEvent, StatePatchEvent, ToolEvent } from '../../../src/runtime/contractTypes/toolEvent.js';

/** How one attempt ends. 'hang' waits until the run is aborted (or `request.timeoutMs` elapses). */
export type FakeOutcome = 'success' | 'fail' | 'timeout' | 'hang';

/** The script of one attempt: wait, emit events (awaiting held ones), then end. */
export interface FakeAttempt {
  readonly outcome: FakeOutcome;
  /** Real-timer wait before the events (keep it small: 0–5 ms). */
  readonly delayMs?: number | undefined;
  /** Macrotask hops (setImmediate) before the events: a cheap "virtual tick" delay. */
  readonly delayTicks?: number | undefined;
  /** Waits for this before the delays and events (or until the run is aborted): an order that no timing can change. */
  readonly after?: Promise<unknown> | undefined;
  /** Events passed to `request.onEvent`, in order (each is cloned, so scripts can be reused). */
  readonly events?: readonly ToolEvent[] | undefined;
  /** Macrotask hops between consecutive events. */
  readonly eventGapTicks?: number | undefined;
  /** For 'timeout': wait until `request.timeoutMs` elapses instead of reporting timedOut at once. */
  readonly realTimeout?: boolean | undefined;
  /** For 'fail' (default true). */
  readonly retryable?: boolean | undefined;
  readonly error?: ToolError | undefined;
}

/** A list (attempt n uses entry n−1; the last entry repeats) or a function of the request. */
export type FakeScript = readonly FakeAttempt[] | ((request: ToolAttemptRequest) => FakeAttempt);

export type FakeAttemptEnd = 'success' | 'failed' | 'timeout' | 'cancelled';

/** One attempt as the runner saw it; `start`/`end` are values of the runner's monotonic counter. */
export interface FakeAttemptLog {
  /** `stdin.tool`: the toolId, or `<toolId>:rollback` for rollback invocations. */
  readonly toolId: string;
  readonly attempt: number;
  readonly start: number;
  end: number;
  ended: FakeAttemptEnd | undefined;
  /** stdin as it was when the attempt started (state included). */
  readonly stdin: ToolStdin;
  readonly timeoutMs: number;
  /** Events handed to onEvent (after their hold promise, if any, settled). */
  readonly emitted: ToolEvent[];
}

const SUCCESS: FakeAttempt = { outcome: 'success' };

export class FakeToolRunner implements ToolRunner {
  /** Every attempt, in start order. */
  readonly log: FakeAttemptLog[] = [];
  private counter = 0;
  private runningNow = 0;
  private maxObserved = 0;

  constructor(
    private readonly scripts: Readonly<Record<string, FakeScript>> = {},
    private readonly fallback: FakeScript = [SUCCESS],
  ) {}

  /** Advances the shared monotonic clock (tests stamp their own observations with it). */
  tick(): number {
    return ++this.counter;
  }

  /** Attempts running right now. */
  get running(): number {
    return this.runningNow;
  }

  /** Highest number of attempts observed running at once. */
  get maxConcurrency(): number {
    return this.maxObserved;
  }

  /** The attempts of one toolId (or `<toolId>:rollback`). */
  attemptsOf(toolId: string): FakeAttemptLog[] {
    return this.log.filter((entry) => entry.toolId === toolId);
  }

  /** ToolIds in the order of their first attempt (rollbacks excluded). */
  startOrder(): string[] {
    const seen = new Set<string>();
    for (const entry of this.log) if (!entry.toolId.endsWith(':rollback')) seen.add(entry.toolId);
    return [...seen];
  }

  /** ToolIds whose rollback ran, in call order. */
  rollbackOrder(): string[] {
    return this.log.filter((entry) => entry.toolId.endsWith(':rollback')).map((entry) => entry.toolId.slice(0, -':rollback'.length));
  }

  async run(request: ToolAttemptRequest): Promise<ToolAttemptOutcome> {
    const startedAt = performance.now();
    const entry: FakeAttemptLog = {
      toolId: request.stdin.tool,
      attempt: request.attempt,
      start: this.tick(),
      end: -1,
      ended: undefined,
      // Snapshot now: the executor builds stdin.state lazily, so reading it later could see a later state.
      stdin: {
        requestId: request.stdin.requestId,
        tool: request.stdin.tool,
        input: request.stdin.input,
        dependencies: request.stdin.dependencies,
        state: request.stdin.state,
      },
      timeoutMs: request.timeoutMs,
      emitted: [],
    };
    this.log.push(entry);
    this.runningNow++;
    this.maxObserved = Math.max(this.maxObserved, this.runningNow);
    let ended: FakeAttemptEnd = 'cancelled';
    let outcome: ToolAttemptOutcome;
    try {
      outcome = await this.play(this.attemptScript(request), request, entry);
      ended = outcome.ok ? 'success' : outcome.cancelled ? 'cancelled' : outcome.timedOut ? 'timeout' : 'failed';
    } finally {
      this.runningNow--;
      entry.end = this.tick();
      entry.ended = ended;
    }
    return { ...outcome, durationMs: performance.now() - startedAt };
  }

  private attemptScript(request: ToolAttemptRequest): FakeAttempt {
    const script = this.scripts[request.stdin.tool] ?? this.fallback;
    if (typeof script === 'function') return script(request);
    return script[Math.min(request.attempt, script.length) - 1] ?? SUCCESS;
  }

  private async play(script: FakeAttempt, request: ToolAttemptRequest, entry: FakeAttemptLog): Promise<ToolAttemptOutcome> {
    const signal = request.signal;
    if (script.after && (await settledOrAborted(script.after, signal))) return cancelled();
    if (await wait(script.delayMs ?? 0, script.delayTicks ?? 0, signal)) return cancelled();
    let done: DoneEvent | undefined;
    const events = script.events ?? [];
    for (let index = 0; index < events.length; index++) {
      if (index > 0 && (await wait(0, script.eventGapTicks ?? 0, signal))) return cancelled();
      if (signal.aborted) return cancelled();
      const event = structuredClone(events[index]!);
      if (event.type === 'done') done = event;
      await request.onEvent(event);
      entry.emitted.push(event);
    }
    if (signal.aborted) return cancelled();
    switch (script.outcome) {
      case 'success':
        return base({ ok: true, retryable: false, exitCode: 0, done });
      case 'fail':
        return base({
          ok: false,
          retryable: script.retryable ?? true,
          exitCode: 1,
          done,
          error: script.error ?? { code: 'FAKE_FAILURE', message: `${request.stdin.tool} failed (attempt ${request.attempt})`, category: 'tool_failure' },
        });
      case 'timeout':
      case 'hang':
        if (script.outcome === 'hang' || script.realTimeout) {
          if (await wait(request.timeoutMs, 0, signal)) return cancelled();
        }
        return base({
          ok: false,
          retryable: true,
          timedOut: true,
          exitCode: null,
          signal: 'SIGKILL',
          error: {
            code: 'TOOL_TIMEOUT',
            message: `Tool exceeded ${request.timeoutMs}ms timeout`,
            category: 'timeout',
            details: { timeoutMs: request.timeoutMs },
          },
        });
    }
  }
}

function base(fields: Partial<ToolAttemptOutcome> & Pick<ToolAttemptOutcome, 'ok' | 'retryable'>): ToolAttemptOutcome {
  return { timedOut: false, cancelled: false, exitCode: null, signal: null, stderrTail: '', durationMs: 0, ...fields };
}

function cancelled(): ToolAttemptOutcome {
  return base({
    ok: false,
    retryable: false,
    cancelled: true,
    signal: 'SIGTERM',
    error: { code: 'CANCELLED', message: 'the run was cancelled', category: 'cancelled' },
  });
}

/** Waits `ticks` macrotask hops then `ms` real milliseconds; resolves true as soon as `signal` aborts. */
/** Waits for `promise` to settle; true when the run was aborted first. */
function settledOrAborted(promise: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const onAbort = () => resolve(true);
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      signal.removeEventListener('abort', onAbort);
      resolve(false);
    };
    promise.then(settle, settle);
  });
}

async function wait(ms: number, ticks: number, signal: AbortSignal): Promise<boolean> {
  for (let hop = 0; hop < ticks; hop++) {
    if (signal.aborted) return true;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (signal.aborted) return true;
  if (ms <= 0) return false;
  return new Promise<boolean>((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(false);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A `state_patch` event. */
export function patchEvent(patch: Record<string, unknown>): StatePatchEvent {
  return { version: '0', type: 'state_patch', patch };
}

/** A `log` event. */
export function logEvent(message: string): ToolEvent {
  return { version: '0', type: 'log', level: 'info', message };
}

/** A `done` event. */
export function doneEvent(ok = true, output?: Record<string, unknown>): DoneEvent {
  return output === undefined ? { version: '0', type: 'done', ok } : { version: '0', type: 'done', ok, output };
}

/** toolPath of a fake tool in skill `s<skill>` (the executor derives the skill name from `skills/<name>/`). */
export function fakeToolPath(skill: number | string): string {
  return `skills/s${skill}/scripts/t.js`;
}

/** Executor options for in-process fakes (no tool-path checks, no manifests). */
export function fakeOptions(runner: ToolRunner, extra: Partial<ExecutePlanOptions> = {}): ExecutePlanOptions {
  return {
    root: os.tmpdir(),
    toolRunner: runner,
    skipToolPathChecks: true,
    skillContext: { contextFor: async () => ({ skill: null }) },
    ...extra,
  };
}

/** A promise with its resolver exposed. */
export interface Deferred<T = void> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  settled: boolean;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  const result: Deferred<T> = {
    promise,
    settled: false,
    resolve(value: T) {
      result.settled = true;
      resolve(value);
    },
  };
  return result;
}

/** Resolves after `hops` macrotask turns (lets the executor make progress). */
export async function settle(hops = 10): Promise<void> {
  for (let hop = 0; hop < hops; hop++) await new Promise<void>((resolve) => setImmediate(resolve));
}
