// A plan run under the debugger (no DAP here): records each tool start, event and attempt end, and holds there as breakpoints and stepping decide; a thread per running tool.
import type { Disposable } from '../common/disposable.js';
import { Emitter, type Event } from '../common/event.js';
import { startPlanRun, type ExecutePlanOptions, type PlanRun } from '../executor/planExecutor.js';
import type { AfterToolAttemptInfo, BeforeEventApplyInfo, BeforeRePlanInfo, BeforeToolStartInfo, ToolStdinEdit } from '../executor/executionEvents.js';
import type { ExecutionResult, ToolResult } from '../contractTypes/executionResult.js';
import type { Plan } from '../contractTypes/plan.js';
import { skillOfToolPath } from '../graph/planGraph.js';
import { deepMerge } from '../state/deepMerge.js';
import type { BreakpointSet } from './breakpointSet.js';
import type { DataBreakpointSet } from './dataBreakpoints.js';
import { DebugHistory, type DebugPoint, type NewPoint } from './debugHistory.js';
import { PLAN_THREAD_ID, type DebugOutput, type DebugStop, type DebugThread, type StopReason } from './debugStop.js';
import { exceptionFilterSet, failureException, replanDescription, type ExceptionFilter } from './exceptionFilters.js';
import { forwardRunOutput } from './runOutput.js';
import { ThreadStepping } from './threadStepping.js';

export { EXCEPTION_FILTERS, type ExceptionFilter } from './exceptionFilters.js';
export { PLAN_THREAD_ID, type DebugOutput, type DebugStop, type DebugThread, type StopReason } from './debugStop.js';

/** A debugging session waits at breakpoints far longer than a plan's timeout: under the debugger it defaults to a day. */
const DEBUG_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export interface PlanDebugOptions extends ExecutePlanOptions {
  readonly breakpoints: BreakpointSet;
  readonly dataBreakpoints?: DataBreakpointSet | undefined;
  readonly stopOnEntry?: boolean | undefined;
  /** Where every boundary and event is recorded (shared across restarts of the session). */
  readonly history?: DebugHistory | undefined;
  /** Restart frame: stop once before this tool starts (reason `restart`) and give it this edit. */
  readonly restartAt?: { readonly toolId: string; readonly edit?: ToolStdinEdit | undefined } | undefined;
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
  private readonly stepping: ThreadStepping;
  private readonly attempts = new Map<number, AttemptView>();
  private readonly finished = new Map<string, ToolResult>();
  /** Tools whose running attempt wrote output after its done event (the first such warning). */
  private readonly afterDone = new Map<string, string>();
  private restartPending: PlanDebugOptions['restartAt'];
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
    this.stepping = new ThreadStepping(options.stopOnEntry === true, (stop) => this.stoppedEmitter.fire(stop));
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
    forwardRunOutput(run, (line) => this.outputEmitter.fire(line));
    run.onDidRaiseWarning(({ warning }) => {
      // Output after done does not fail the attempt, but it breaks the protocol: the protocolError filter stops at its end.
      if (warning.code === 'EVENT_AFTER_DONE' && warning.toolId !== undefined && !this.afterDone.has(warning.toolId))
        this.afterDone.set(warning.toolId, warning.message);
    });
    run.onDidFinishTool(({ result }) => {
      this.finished.set(result.toolId, result);
      for (const [key, thread] of this.threadsByAttempt) {
        if (thread.toolId !== result.toolId) continue;
        this.threadsByAttempt.delete(key);
        this.stepping.forget(thread.id);
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
    return this.stepping.stopOf(threadId);
  }

  /** Every held thread's stop. */
  stops(): DebugStop[] {
    return this.stepping.stops();
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
    if (this.stepping.stopOf(threadId)?.kind !== 'tool')
      return 'only a tool that has not started yet can be edited: stop before it starts (a breakpoint, or step to it)';
    const view = this.attempts.get(threadId);
    if (view) view.edit = { ...view.edit, ...edit };
    const changes = { ...(edit.state ? { state: edit.state } : {}), ...(edit.input ? { input: edit.input } : {}) };
    const stop = this.stepping.updateStop(threadId, changes)!;
    this.history.replace(stop.pointIndex, changes);
    return stop;
  }

  /** Releases every held thread; they run until the next breakpoint. */
  continue(): void {
    this.stepping.continue();
  }

  /** Runs to the next tool boundary: a tool starts, or a tool's process ends. */
  next(threadId: number): void {
    this.stepping.next(threadId);
  }

  /** At a tool: into its NDJSON events one at a time; at an event: to the next event. */
  stepIn(threadId: number): void {
    this.stepping.stepIn(threadId);
  }

  /** Runs to the end of the tool (its process ends). */
  stepOut(threadId: number): void {
    this.stepping.stepOut(threadId);
  }

  /** Holds at the next boundary or event. */
  pause(): void {
    this.stepping.pause();
  }

  /** Withdraws a pause that has not held anything yet. */
  cancelPause(): void {
    this.stepping.cancelPause();
  }

  /** Cancels the run (every process tree is killed) and releases every hold. */
  terminate(): void {
    this.terminated = true;
    this.run?.cancel();
    this.stepping.releaseAll();
  }

  dispose(): void {
    this.terminate();
    this.stoppedEmitter.dispose();
    this.outputEmitter.dispose();
    this.threadEmitter.dispose();
    this.endedEmitter.dispose();
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
    const stepReason = this.stepping.atToolStart(decision.stop);
    const reason: StopReason | undefined = restart ? 'restart' : stepReason;
    if (reason) {
      const pointIndex = point?.index ?? -1;
      await this.stepping.hold({
        reason,
        threadId: thread.id,
        toolId,
        attempt: info.attempt,
        kind: 'tool',
        pointIndex,
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
    const reason = this.stepping.atEvent(thread.id, data !== undefined && data.ids.length > 0);
    if (!reason) return undefined;
    return this.stepping.hold({
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
    const result = {
      ok: info.ok,
      attempt: info.attempt,
      exitCode: info.exitCode,
      durationMs: info.durationMs,
      output: info.output,
      ...(info.error ? { error: info.error } : {}),
      willRetry: info.willRetry,
    };
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
      result,
    });
    const afterDone = this.afterDone.get(info.tool.toolId);
    const exception = failure
      ? failureException(failure, this.exceptionFilters)
      : afterDone !== undefined && this.exceptionFilters.has('protocolError')
        ? `protocol_violation: output after done (${afterDone})`
        : undefined;
    const reason = this.stepping.afterAttempt(thread.id, exception !== undefined);
    if (!reason) return;
    await this.stepping.hold({
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
    const { toolId, iteration, suggestion } = info;
    const point = this.record({
      kind: 'replan',
      toolId,
      attempt: 1,
      skill: null,
      state: this.committedState,
      input: {},
      dependencies: {},
      iteration,
      suggestion,
    });
    const asked = `re-planning (iteration ${iteration}): "${toolId}" asked for more context${suggestion ? `: ${suggestion}` : ''}\n`;
    this.outputEmitter.fire({ category: 'console', text: asked, toolId });
    const reason = this.stepping.beforeRePlan(this.exceptionFilters.has('replan'));
    if (!reason) return;
    await this.stepping.hold({
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
}
