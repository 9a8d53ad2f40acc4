// A plan run under the debugger (no DAP here): holds tools at their start and events before they apply, by breakpoints and stepping, with a thread per running tool.
import type { Disposable } from '../common/disposable.js';
import { Emitter, type Event } from '../common/event.js';
import { startPlanRun, type ExecutePlanOptions, type PlanRun } from '../executor/planExecutor.js';
import type { AfterToolAttemptInfo, BeforeEventApplyInfo, BeforeToolStartInfo } from '../executor/executionEvents.js';
import type { ExecutionResult } from '../model/executionResult.js';
import type { Plan } from '../model/plan.js';
import type { ToolEvent } from '../model/toolEvent.js';
import { skillOfToolPath } from '../graph/planGraph.js';
import type { BreakpointSet } from './breakpointSet.js';

/** The plan's own thread; each running tool attempt gets the next id. */
export const PLAN_THREAD_ID = 1;

/** A debugging session waits at breakpoints far longer than a plan's timeout: under the debugger it defaults to a day. */
const DEBUG_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export type StopReason = 'entry' | 'breakpoint' | 'function breakpoint' | 'step' | 'pause' | 'exception';

/** The exception breakpoint filters (DAP exceptionBreakpointFilters ids). */
export const EXCEPTION_FILTERS = ['toolFailure', 'protocolError', 'timeout', 'replan'] as const;
export type ExceptionFilter = (typeof EXCEPTION_FILTERS)[number];

/** Where a thread is held. */
export interface DebugStop {
  readonly reason: StopReason;
  readonly threadId: number;
  readonly toolId: string;
  readonly attempt: number;
  /**
   * `tool`: before the tool's process starts; `event`: before one of its events is applied; `finish`: its attempt's
   * process has ended (before a retry, or before the tool's result counts).
   */
  readonly kind: 'tool' | 'event' | 'finish';
  /** For exceptions: the failure category and message. */
  readonly description?: string | undefined;
  readonly event?: ToolEvent | undefined;
  readonly eventIndex?: number | undefined;
  readonly hitBreakpointIds: readonly number[];
  /** What the tool receives (tool stops) or received (event stops). */
  readonly state: Record<string, unknown>;
  readonly input: Record<string, unknown>;
  readonly dependencies: Record<string, unknown>;
}

export interface DebugThread {
  readonly id: number;
  readonly name: string;
  readonly toolId?: string | undefined;
}

export interface DebugOutput {
  readonly category: 'console' | 'stdout' | 'stderr';
  readonly text: string;
  readonly toolId?: string | undefined;
}

export interface PlanDebugOptions extends ExecutePlanOptions {
  readonly breakpoints: BreakpointSet;
  readonly stopOnEntry?: boolean | undefined;
}

type StepMode = 'run' | 'stepIn' | 'stepOut';

interface Hold {
  readonly stop: DebugStop;
  readonly release: () => void;
}

/** One plan run under the debugger. Call start() after subscribing. */
export class PlanDebugRun implements Disposable {
  private run: PlanRun | undefined;
  private nextThreadId = PLAN_THREAD_ID + 1;
  private readonly threadsByAttempt = new Map<string, DebugThread>();
  private readonly holds = new Map<number, Hold>();
  private readonly modes = new Map<number, StepMode>();
  private entryPending: boolean;
  private nextPending = false;
  private pausePending = false;
  private terminated = false;
  private exceptionFilters = new Set<ExceptionFilter>();
  /** The state committed so far (what an event stop shows). */
  private committedState: Record<string, unknown> = {};
  /** What each thread's tool received at its start. */
  private readonly received = new Map<number, Pick<DebugStop, 'input' | 'dependencies'>>();
  private readonly stoppedEmitter = new Emitter<DebugStop>();
  private readonly outputEmitter = new Emitter<DebugOutput>();
  private readonly threadEmitter = new Emitter<{ readonly reason: 'started' | 'exited'; readonly thread: DebugThread }>();
  private readonly endedEmitter = new Emitter<ExecutionResult>();

  readonly onDidStop: Event<DebugStop> = this.stoppedEmitter.event;
  readonly onDidOutput: Event<DebugOutput> = this.outputEmitter.event;
  readonly onDidChangeThread = this.threadEmitter.event;
  readonly onDidEnd: Event<ExecutionResult> = this.endedEmitter.event;

  constructor(
    private readonly plan: Plan,
    private readonly options: PlanDebugOptions,
  ) {
    this.entryPending = options.stopOnEntry === true;
  }

  /** Starts the run; resolves with its result. */
  start(): Promise<ExecutionResult> {
    const run = startPlanRun(this.plan, {
      ...this.options,
      // Tool timeouts stay the plan's and skills' own (a timeout is something to debug); toolTimeoutMs raises them.
      planTimeoutMs: this.options.planTimeoutMs ?? DEBUG_TIMEOUT_MS,
      hooks: {
        beforeToolStart: (info) => this.beforeToolStart(info),
        beforeEventApply: (info) => this.beforeEventApply(info),
        afterToolAttempt: (info) => this.afterToolAttempt(info),
      },
    });
    this.run = run;
    this.committedState = this.options.initialState ?? {};
    run.onDidChangeState(({ state }) => (this.committedState = state));
    run.onDidWriteStderr(({ toolId, text }) => this.outputEmitter.fire({ category: 'stderr', text, toolId }));
    run.onDidEmitEvent(({ toolId, event }) => {
      if (event.type === 'log') this.outputEmitter.fire({ category: 'stdout', text: `[${toolId}] ${String(event['level'] ?? 'info')}: ${String(event['message'] ?? '')}\n`, toolId });
    });
    run.onDidScheduleRetry(({ toolId, nextAttempt, delayMs, error }) => this.outputEmitter.fire({ category: 'console', text: `${toolId}: ${error.category} (${error.message}); attempt ${nextAttempt} in ${delayMs} ms\n`, toolId }));
    run.onDidFinishTool(({ result }) => {
      for (const [key, thread] of this.threadsByAttempt) {
        if (thread.toolId !== result.toolId) continue;
        this.threadsByAttempt.delete(key);
        this.modes.delete(thread.id);
        this.received.delete(thread.id);
        this.threadEmitter.fire({ reason: 'exited', thread });
      }
    });
    return run.result.then((result) => {
      this.endedEmitter.fire(result);
      return result;
    });
  }

  /** The plan thread and one per running tool attempt. */
  threads(): DebugThread[] {
    return [{ id: PLAN_THREAD_ID, name: 'plan' }, ...this.threadsByAttempt.values()];
  }

  /** Where `threadId` is held, if it is. */
  stopOf(threadId: number): DebugStop | undefined {
    return this.holds.get(threadId)?.stop;
  }

  /** Every held thread's stop. */
  stops(): DebugStop[] {
    return [...this.holds.values()].map((hold) => hold.stop);
  }

  /** Which exception filters stop the run (DAP setExceptionBreakpoints); unknown ids are ignored. */
  setExceptionFilters(filters: readonly string[]): void {
    this.exceptionFilters = new Set(filters.filter((filter): filter is ExceptionFilter => (EXCEPTION_FILTERS as readonly string[]).includes(filter)));
  }

  /** Releases every held thread; they run until the next breakpoint. */
  continue(): void {
    this.nextPending = false;
    for (const threadId of [...this.holds.keys()]) this.release(threadId, 'run');
  }

  /** Runs to the next tool boundary: a tool starts, or a tool's process ends. */
  next(threadId: number): void {
    this.nextPending = true;
    this.release(threadId, 'run');
  }

  /** At a tool: into its NDJSON events one at a time; at an event: to the next event. */
  stepIn(threadId: number): void {
    this.release(threadId, 'stepIn');
  }

  /** Runs to the end of the tool (its process ends). */
  stepOut(threadId: number): void {
    this.release(threadId, this.holds.get(threadId)?.stop.kind === 'finish' ? 'run' : 'stepOut');
  }

  /** Holds at the next boundary or event. */
  pause(): void {
    this.pausePending = true;
  }

  /** Cancels the run (every process tree is killed) and releases every hold. */
  terminate(): void {
    this.terminated = true;
    this.run?.cancel();
    for (const threadId of [...this.holds.keys()]) this.release(threadId, 'run');
  }

  dispose(): void {
    this.terminate();
    this.stoppedEmitter.dispose();
    this.outputEmitter.dispose();
    this.threadEmitter.dispose();
    this.endedEmitter.dispose();
  }

  private release(threadId: number, mode: StepMode): void {
    const hold = this.holds.get(threadId);
    if (!hold) return;
    this.holds.delete(threadId);
    this.modes.set(threadId, mode);
    hold.release();
  }

  private async beforeToolStart(info: BeforeToolStartInfo): Promise<void> {
    if (this.terminated) return;
    const thread: DebugThread = { id: this.nextThreadId++, name: info.attempt > 1 ? `${info.tool.toolId} (attempt ${info.attempt})` : info.tool.toolId, toolId: info.tool.toolId };
    this.threadsByAttempt.set(`${info.tool.toolId}\u0000${info.attempt}`, thread);
    this.threadEmitter.fire({ reason: 'started', thread });
    const state = info.stdin.state;
    const input = info.stdin.input;
    const dependencies = info.stdin.dependencies as Record<string, unknown>;
    this.received.set(thread.id, { input, dependencies });
    const decision = this.options.breakpoints.beforeTool({ toolId: info.tool.toolId, skill: skillOfToolPath(info.tool.toolPath) }, { state, dependencies, input });
    for (const log of decision.logs) this.outputEmitter.fire({ category: 'console', text: `${log}\n`, toolId: info.tool.toolId });
    for (const error of decision.errors) this.outputEmitter.fire({ category: 'stderr', text: `${error}\n`, toolId: info.tool.toolId });
    let reason: StopReason | undefined;
    if (this.entryPending) reason = 'entry';
    else if (decision.stop) reason = 'breakpoint';
    else if (this.nextPending) reason = 'step';
    else if (this.pausePending) reason = 'pause';
    this.entryPending = false;
    if (!reason) return;
    await this.hold({ reason, threadId: thread.id, toolId: info.tool.toolId, attempt: info.attempt, kind: 'tool', hitBreakpointIds: decision.hitBreakpointIds, state, input, dependencies });
  }

  private async beforeEventApply(info: BeforeEventApplyInfo): Promise<void> {
    if (this.terminated) return;
    const thread = this.threadsByAttempt.get(`${info.toolId}\u0000${info.attempt}`);
    if (!thread) return;
    const mode = this.modes.get(thread.id) ?? 'run';
    let reason: StopReason | undefined;
    if (mode === 'stepIn') reason = 'step';
    else if (this.pausePending) reason = 'pause';
    if (!reason) return;
    const received = this.received.get(thread.id);
    await this.hold({
      reason,
      threadId: thread.id,
      toolId: info.toolId,
      attempt: info.attempt,
      kind: 'event',
      event: info.event,
      eventIndex: info.index,
      hitBreakpointIds: [],
      state: this.committedState,
      input: received?.input ?? {},
      dependencies: received?.dependencies ?? {},
    });
  }

  private async afterToolAttempt(info: AfterToolAttemptInfo): Promise<void> {
    if (this.terminated) return;
    const thread = this.threadsByAttempt.get(`${info.tool.toolId}\u0000${info.attempt}`);
    if (!thread) return;
    const mode = this.modes.get(thread.id) ?? 'run';
    const exception = info.ok ? undefined : this.exceptionOf(info);
    let reason: StopReason | undefined;
    if (exception) reason = 'exception';
    else if (mode === 'stepIn' || mode === 'stepOut' || this.nextPending) reason = 'step';
    else if (this.pausePending) reason = 'pause';
    if (!reason) return;
    const received = this.received.get(thread.id);
    await this.hold({
      reason,
      threadId: thread.id,
      toolId: info.tool.toolId,
      attempt: info.attempt,
      kind: 'finish',
      hitBreakpointIds: [],
      ...(exception ? { description: exception } : {}),
      state: this.committedState,
      input: received?.input ?? {},
      dependencies: received?.dependencies ?? {},
    });
  }

  /** The exception a failed attempt stops at, by the filters set: "timeout: …", "protocol_violation: …", "tool_failure: …". */
  private exceptionOf(info: AfterToolAttemptInfo): string | undefined {
    const category = info.timedOut ? 'timeout' : (info.error?.category ?? 'process_error');
    const message = info.error?.message ?? 'the tool failed';
    const filters = this.exceptionFilters;
    const protocol = category === 'invalid_json' || category === 'protocol_violation';
    const matched =
      (filters.has('timeout') && category === 'timeout') || (filters.has('protocolError') && protocol) || (filters.has('toolFailure') && !info.willRetry && category !== 'cancelled');
    return matched ? `${category}: ${message}${info.willRetry ? ' (it will be retried)' : ''}` : undefined;
  }

  private hold(stop: DebugStop): Promise<void> {
    this.nextPending = false;
    this.pausePending = false;
    return new Promise<void>((resolve) => {
      this.holds.set(stop.threadId, { stop, release: resolve });
      this.stoppedEmitter.fire(stop);
    });
  }
}
