// A plan run under the debugger (no DAP here): holds tools at their start and events before they apply, by breakpoints and stepping, with a thread per running tool.
import type { Disposable } from '../common/disposable.js';
import { Emitter, type Event } from '../common/event.js';
import { startPlanRun, type ExecutePlanOptions, type PlanRun } from '../executor/planExecutor.js';
import type { AfterToolAttemptInfo, BeforeEventApplyInfo, BeforeRePlanInfo, BeforeToolStartInfo, ToolStdinEdit } from '../executor/executionEvents.js';
import type { ExecutionResult, ToolResult } from '../contractTypes/executionResult.js';
import type { Plan } from '../contractTypes/plan.js';
import type { ToolEvent } from '../contractTypes/toolEvent.js';
import { skillOfToolPath } from '../graph/planGraph.js';
import { deepMerge } from '../state/deepMerge.js';
import type { BreakpointSet } from './breakpointSet.js';
import type { DataBreakpointSet } from './dataBreakpoints.js';
import { DebugHistory, type DebugPoint, type NewPoint, type PointKind } from './debugHistory.js';
import { exceptionFilterSet, failureException, replanDescription, type ExceptionFilter } from './exceptionFilters.js';

export { EXCEPTION_FILTERS, type ExceptionFilter } from './exceptionFilters.js';

/** The plan's own thread; each running tool attempt gets the next id. */
export const PLAN_THREAD_ID = 1;

/** A debugging session waits at breakpoints far longer than a plan's timeout: under the debugger it defaults to a day. */
const DEBUG_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export type StopReason = 'entry' | 'breakpoint' | 'function breakpoint' | 'data breakpoint' | 'step' | 'pause' | 'exception' | 'restart';

/** Where a thread is held. */
export interface DebugStop {
  readonly reason: StopReason;
  readonly threadId: number;
  readonly toolId: string;
  readonly attempt: number;
  /**
   * `tool`: before the tool's process starts; `event`: before one of its events is applied; `finish`: its attempt's
   * process has ended (before a retry, or before the tool's result counts); `replan`: before the planner is asked
   * for more steps (on the plan thread).
   */
  readonly kind: PointKind;
  /** The stop's point in the run's history. */
  readonly pointIndex: number;
  /** For exceptions: the failure category and message. */
  readonly description?: string | undefined;
  readonly event?: ToolEvent | undefined;
  readonly eventIndex?: number | undefined;
  readonly hitBreakpointIds: readonly number[];
  /** What the tool receives (tool stops), the state before the event applies (event stops), or after the attempt (finish). */
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
  readonly dataBreakpoints?: DataBreakpointSet | undefined;
  readonly stopOnEntry?: boolean | undefined;
  /** Where every boundary and event is recorded (shared across restarts of the session). */
  readonly history?: DebugHistory | undefined;
  /** Restart frame: stop once before this tool starts (reason `restart`) and give it this edit. */
  readonly restartAt?: { readonly toolId: string; readonly edit?: ToolStdinEdit | undefined } | undefined;
}

type StepMode = 'run' | 'stepIn' | 'stepOut';

interface Hold {
  stop: DebugStop;
  readonly release: () => void;
}

/** What each running attempt received, and its state as its patches apply. */
interface AttemptView {
  readonly input: Record<string, unknown>;
  readonly dependencies: Record<string, unknown>;
  readonly skill: string | null;
  state: Record<string, unknown>;
  edit?: ToolStdinEdit | undefined;
}

/** One plan run under the debugger. Call start() after subscribing. */
export class PlanDebugRun implements Disposable {
  private run: PlanRun | undefined;
  private nextThreadId = PLAN_THREAD_ID + 1;
  private readonly threadsByAttempt = new Map<string, DebugThread>();
  private readonly holds = new Map<number, Hold>();
  private readonly modes = new Map<number, StepMode>();
  private readonly attempts = new Map<number, AttemptView>();
  private readonly finished = new Map<string, ToolResult>();
  /** Tools whose running attempt wrote output after its done event (the first such warning). */
  private readonly afterDone = new Map<string, string>();
  private entryPending: boolean;
  private restartPending: PlanDebugOptions['restartAt'];
  private nextPending = false;
  private pausePending = false;
  private terminated = false;
  private exceptionFilters = new Set<ExceptionFilter>();
  private startedAt = 0;
  /** The state committed so far. */
  private committedState: Record<string, unknown> = {};
  readonly history: DebugHistory;
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
    this.restartPending = options.restartAt;
    this.history = options.history ?? new DebugHistory();
  }

  /** The executor's run (after start()). */
  get planRun(): PlanRun | undefined {
    return this.run;
  }

  /** Starts the run; resolves with its result. */
  start(): Promise<ExecutionResult> {
    this.startedAt = performance.now();
    const run = startPlanRun(this.plan, {
      ...this.options,
      // Tool timeouts stay the plan's and skills' own (a timeout is something to debug); toolTimeoutMs raises them.
      planTimeoutMs: this.options.planTimeoutMs ?? DEBUG_TIMEOUT_MS,
      hooks: {
        beforeToolStart: (info) => this.beforeToolStart(info),
        beforeEventApply: (info) => this.beforeEventApply(info),
        afterToolAttempt: (info) => this.afterToolAttempt(info),
        beforeRePlan: (info) => this.beforeRePlan(info),
      },
    });
    this.run = run;
    this.committedState = this.options.resume?.initialState ?? this.options.initialState ?? {};
    run.onDidChangeState(({ state }) => (this.committedState = state));
    run.onDidWriteStderr(({ toolId, text }) => this.outputEmitter.fire({ category: 'stderr', text, toolId }));
    run.onDidEmitEvent(({ toolId, event }) => {
      if (event.type === 'log') this.outputEmitter.fire({ category: 'stdout', text: `[${toolId}] ${event.level}: ${event.message}\n`, toolId });
      if (event.type === 'error')
        this.outputEmitter.fire({ category: 'stderr', text: `[${toolId}] error ${event.errorCode}: ${event.errorMessage}\n`, toolId });
    });
    run.onDidRaiseWarning(({ warning }) => {
      this.outputEmitter.fire({ category: 'console', text: `warning ${warning.code}: ${warning.message}\n`, toolId: warning.toolId });
      // Output after done does not fail the attempt, but it breaks the protocol: the protocolError filter stops at its end.
      if (warning.code === 'EVENT_AFTER_DONE' && warning.toolId !== undefined && !this.afterDone.has(warning.toolId))
        this.afterDone.set(warning.toolId, warning.message);
    });
    run.onDidScheduleRetry(({ toolId, nextAttempt, delayMs, error }) =>
      this.outputEmitter.fire({
        category: 'console',
        text: `${toolId}: ${error.category} (${error.message}); attempt ${nextAttempt} in ${delayMs} ms\n`,
        toolId,
      }),
    );
    run.onDidFinishTool(({ result }) => {
      this.finished.set(result.toolId, result);
      if (result.state !== 'success' && result.state !== 'skipped') {
        const reason = result.error ? `${result.error.category}: ${result.error.message}` : result.state;
        this.outputEmitter.fire({ category: 'stderr', text: `${result.toolId} ${result.state} (${reason})\n`, toolId: result.toolId });
      }
      for (const [key, thread] of this.threadsByAttempt) {
        if (thread.toolId !== result.toolId) continue;
        this.threadsByAttempt.delete(key);
        this.modes.delete(thread.id);
        this.attempts.delete(thread.id);
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

  /** Results of the tools that have finished so far, by toolId. */
  finishedResults(): ReadonlyMap<string, ToolResult> {
    return this.finished;
  }

  /** Which exception filters stop the run (DAP setExceptionBreakpoints); unknown ids are ignored. */
  setExceptionFilters(filters: readonly string[]): void {
    this.exceptionFilters = exceptionFilterSet(filters);
  }

  /**
   * Edits what a tool held before its start receives (DAP setVariable): its `state` or its `input`. Returns the
   * updated stop, or an error message when the thread is not held before a tool starts.
   */
  editHeldTool(threadId: number, edit: ToolStdinEdit): DebugStop | string {
    const hold = this.holds.get(threadId);
    if (!hold || hold.stop.kind !== 'tool') return 'only a tool that has not started yet can be edited: stop before it starts (a breakpoint, or step to it)';
    const view = this.attempts.get(threadId);
    if (view) view.edit = { ...view.edit, ...edit };
    const changes = { ...(edit.state ? { state: edit.state } : {}), ...(edit.input ? { input: edit.input } : {}) };
    hold.stop = { ...hold.stop, ...changes };
    this.history.replace(hold.stop.pointIndex, changes);
    return hold.stop;
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
    const kind = this.holds.get(threadId)?.stop.kind;
    this.release(threadId, kind === 'finish' || kind === 'replan' ? 'run' : 'stepOut');
  }

  /** Holds at the next boundary or event. */
  pause(): void {
    this.pausePending = true;
  }

  /** Withdraws a pause that has not held anything yet. */
  cancelPause(): void {
    this.pausePending = false;
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

  private record(point: Omit<NewPoint, 'timeMs'>): DebugPoint | undefined {
    return this.history.append({ ...point, timeMs: Math.round(performance.now() - this.startedAt) });
  }

  private async beforeToolStart(info: BeforeToolStartInfo): Promise<ToolStdinEdit | undefined> {
    if (this.terminated) return undefined;
    const toolId = info.tool.toolId;
    const thread: DebugThread = { id: this.nextThreadId++, name: info.attempt > 1 ? `${toolId} (attempt ${info.attempt})` : toolId, toolId };
    this.threadsByAttempt.set(`${toolId}\u0000${info.attempt}`, thread);
    this.threadEmitter.fire({ reason: 'started', thread });
    const skill = skillOfToolPath(info.tool.toolPath);
    this.afterDone.delete(toolId);
    const restart = this.restartPending?.toolId === toolId ? this.restartPending : undefined;
    if (restart) this.restartPending = undefined;
    const state = restart?.edit?.state ?? info.stdin.state;
    const input = restart?.edit?.input ?? info.stdin.input;
    const dependencies = info.stdin.dependencies as Record<string, unknown>;
    const view: AttemptView = { input, dependencies, skill, state, edit: restart?.edit };
    this.attempts.set(thread.id, view);
    const point = this.record({ kind: 'tool', toolId, attempt: info.attempt, skill, state, input, dependencies });
    const decision = this.options.breakpoints.beforeTool({ toolId, skill }, { state, dependencies, input });
    for (const log of decision.logs) this.outputEmitter.fire({ category: 'console', text: `${log}\n`, toolId });
    for (const error of decision.errors) this.outputEmitter.fire({ category: 'stderr', text: `${error}\n`, toolId });
    let reason: StopReason | undefined;
    if (restart) reason = 'restart';
    else if (this.entryPending) reason = 'entry';
    else if (decision.stop) reason = 'breakpoint';
    else if (this.nextPending) reason = 'step';
    else if (this.pausePending) reason = 'pause';
    this.entryPending = false;
    if (reason) {
      await this.hold({
        reason,
        threadId: thread.id,
        toolId,
        attempt: info.attempt,
        kind: 'tool',
        pointIndex: point?.index ?? -1,
        hitBreakpointIds: decision.hitBreakpointIds,
        state,
        input,
        dependencies,
      });
    }
    const edit = view.edit;
    if (edit?.state) view.state = edit.state;
    return edit;
  }

  private beforeEventApply(info: BeforeEventApplyInfo): Promise<void> | undefined {
    if (this.terminated) return undefined;
    const thread = this.threadsByAttempt.get(`${info.toolId}\u0000${info.attempt}`);
    if (!thread) return undefined;
    const view = this.attempts.get(thread.id);
    const before = view?.state ?? this.committedState;
    const point = this.record({
      kind: 'event',
      toolId: info.toolId,
      attempt: info.attempt,
      skill: view?.skill ?? null,
      state: before,
      input: view?.input ?? {},
      dependencies: view?.dependencies ?? {},
      event: info.event,
      eventIndex: info.index,
    });
    let data: { ids: number[]; pointers: string[] } | undefined;
    if (info.event.type === 'state_patch') {
      if (this.options.dataBreakpoints && this.options.dataBreakpoints.size > 0) data = this.options.dataBreakpoints.changedBy(before, info.event.patch);
      if (view) view.state = deepMerge(before, info.event.patch);
    }
    const mode = this.modes.get(thread.id) ?? 'run';
    let reason: StopReason | undefined;
    if (data && data.ids.length > 0) reason = 'data breakpoint';
    else if (mode === 'stepIn') reason = 'step';
    else if (this.pausePending) reason = 'pause';
    if (!reason) return undefined;
    return this.hold({
      reason,
      threadId: thread.id,
      toolId: info.toolId,
      attempt: info.attempt,
      kind: 'event',
      pointIndex: point?.index ?? -1,
      event: info.event,
      eventIndex: info.index,
      hitBreakpointIds: data?.ids ?? [],
      ...(data && data.ids.length > 0 ? { description: `state ${data.pointers.join(', ')} changes` } : {}),
      state: before,
      input: view?.input ?? {},
      dependencies: view?.dependencies ?? {},
    });
  }

  private async afterToolAttempt(info: AfterToolAttemptInfo): Promise<void> {
    if (this.terminated) return;
    const thread = this.threadsByAttempt.get(`${info.tool.toolId}\u0000${info.attempt}`);
    if (!thread) return;
    const view = this.attempts.get(thread.id);
    const failure = info.ok
      ? undefined
      : {
          category: info.timedOut ? 'timeout' : (info.error?.category ?? 'process_error'),
          message: info.error?.message ?? 'the tool failed',
          timedOut: info.timedOut,
          willRetry: info.willRetry,
        };
    const state = view?.state ?? this.committedState;
    const input = view?.input ?? {};
    const dependencies = view?.dependencies ?? {};
    const point = this.record({
      kind: 'finish',
      toolId: info.tool.toolId,
      attempt: info.attempt,
      skill: view?.skill ?? null,
      state,
      input,
      dependencies,
      ok: info.ok,
      failure,
      result: {
        ok: info.ok,
        attempt: info.attempt,
        exitCode: info.exitCode,
        durationMs: info.durationMs,
        output: info.output,
        ...(info.error ? { error: info.error } : {}),
        willRetry: info.willRetry,
      },
    });
    const mode = this.modes.get(thread.id) ?? 'run';
    const afterDone = this.afterDone.get(info.tool.toolId);
    const exception = failure
      ? failureException(failure, this.exceptionFilters)
      : afterDone !== undefined && this.exceptionFilters.has('protocolError')
        ? `protocol_violation: output after done (${afterDone})`
        : undefined;
    let reason: StopReason | undefined;
    if (exception) reason = 'exception';
    else if (mode === 'stepIn' || mode === 'stepOut' || this.nextPending) reason = 'step';
    else if (this.pausePending) reason = 'pause';
    if (!reason) return;
    await this.hold({
      reason,
      threadId: thread.id,
      toolId: info.tool.toolId,
      attempt: info.attempt,
      kind: 'finish',
      pointIndex: point?.index ?? -1,
      hitBreakpointIds: [],
      ...(exception ? { description: exception } : {}),
      state,
      input,
      dependencies,
    });
  }

  private async beforeRePlan(info: BeforeRePlanInfo): Promise<void> {
    if (this.terminated) return;
    const point = this.record({
      kind: 'replan',
      toolId: info.toolId,
      attempt: 1,
      skill: null,
      state: this.committedState,
      input: {},
      dependencies: {},
      iteration: info.iteration,
      suggestion: info.suggestion,
    });
    this.outputEmitter.fire({
      category: 'console',
      text: `re-planning (iteration ${info.iteration}): "${info.toolId}" asked for more context${info.suggestion ? `: ${info.suggestion}` : ''}\n`,
      toolId: info.toolId,
    });
    let reason: StopReason | undefined;
    if (this.exceptionFilters.has('replan')) reason = 'exception';
    else if (this.pausePending) reason = 'pause';
    if (!reason) return;
    await this.hold({
      reason,
      threadId: PLAN_THREAD_ID,
      toolId: info.toolId,
      attempt: 1,
      kind: 'replan',
      pointIndex: point?.index ?? -1,
      hitBreakpointIds: [],
      ...(reason === 'exception' ? { description: replanDescription(info.toolId, info.suggestion) } : {}),
      state: this.committedState,
      input: {},
      dependencies: {},
    });
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
