// The Debug Adapter Protocol session of the `narratoria` debug type: plans, replays and lone scripts, with breakpoints, stepping and time travel (inline in VS Code, or over stdio).
import { DebugSession, InitializedEvent, InvalidatedEvent, OutputEvent, StoppedEvent, TerminatedEvent, ThreadEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { PlanDocument } from '../../authoring/planDocument.js';
import { Emitter, type Event } from '../../common/event.js';
import type { ToolStdinEdit } from '../../executor/executionEvents.js';
import { formatSummary } from '../../executor/runTranscript.js';
import { ansiTextStyle } from '../../common/textStyle.js';
import type { ExecutionResult } from '../../contractTypes/executionResult.js';
import type { RunRecord } from '../../persistence/runStore.js';
import { skillOfToolPath } from '../../graph/planGraph.js';
import { BreakpointSet } from '../breakpointSet.js';
import { DebugHistory, type DebugPoint } from '../debugHistory.js';
import { EXCEPTION_FILTER_DESCRIPTIONS } from '../exceptionFilters.js';
import { restartRecord } from '../frameRestart.js';
import { PLAN_THREAD_ID, PlanDebugRun, type DebugStop } from '../planDebugRun.js';
import { travel, type Motion, type PointHit, type TravelStop } from '../timeTravel.js';
import { FrameTable, type FrameReference } from './debugFrames.js';
import type { DebugHost, DebugLocation, DebugRunStarted } from './debugHost.js';
import { DebugSources } from './debugSources.js';
import { debugRePlanner } from './debugRePlanner.js';
import { evaluateAt, parseEnteredValue, preview, VariableStore, withValueAt } from './debugVariables.js';
import { LaunchError, resolveLaunch, type LaunchTarget, type NarratoriaLaunchArguments } from './launchArguments.js';
import { SessionBreakpoints } from './sessionBreakpoints.js';

const RESTRICTED_MESSAGE =
  'This workspace is not trusted (Restricted Mode), so Narratoria starts no skill script. Trust the workspace to debug a live run, or replay a recorded run (launch argument "replay").';

export class NarratoriaDebugSession extends DebugSession {
  private readonly breakpoints = new SessionBreakpoints(() => this.history);
  private target: LaunchTarget | undefined;
  private sources: DebugSources | undefined;
  private history = new DebugHistory();
  private run: PlanDebugRun | undefined;
  private runResult: Promise<ExecutionResult> | undefined;
  private noDebug = false;
  /** The history point shown on the plan thread while travelling in time (always set in a replay). */
  private cursor: number | undefined;
  /** The point and reason of the current time-travel stop. */
  private travelStop: TravelStop | undefined;
  /** Edits made at history points, for a restart from there. */
  private readonly forkEdits = new Map<number, ToolStdinEdit>();
  private readonly frames = new FrameTable();
  private readonly variables = new VariableStore();
  private configured!: () => void;
  private readonly configurationDone = new Promise<void>((resolve) => (this.configured = resolve));
  private ended = false;
  private readonly runStartedEmitter = new Emitter<DebugRunStarted>();
  private readonly locationEmitter = new Emitter<DebugLocation | undefined>();

  /** A live run started (the graph view follows it). */
  readonly onDidStartRun: Event<DebugRunStarted> = this.runStartedEmitter.event;
  /** The session paused at a tool, or runs again (undefined). */
  readonly onDidChangeLocation: Event<DebugLocation | undefined> = this.locationEmitter.event;

  constructor(private readonly host: DebugHost) {
    super();
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsLogPoints: true,
      supportsFunctionBreakpoints: true,
      supportsStepBack: true,
      supportsSetVariable: true,
      supportsEvaluateForHovers: true,
      supportsRestartFrame: true,
      supportsDataBreakpoints: true,
      supportsTerminateRequest: true,
      supportsExceptionInfoRequest: true,
      supportsDelayedStackTraceLoading: false,
      exceptionBreakpointFilters: EXCEPTION_FILTER_DESCRIPTIONS.map((filter) => ({ ...filter })),
    };
    this.sendResponse(response);
  }

  protected override async launchRequest(response: DebugProtocol.LaunchResponse, given: NarratoriaLaunchArguments | undefined): Promise<void> {
    const args: NarratoriaLaunchArguments = given ?? {};
    try {
      const live = args.replay === undefined;
      if (live && !this.host.isTrusted()) throw new LaunchError(RESTRICTED_MESSAGE);
      const target = await resolveLaunch(args, this.host);
      this.target = target;
      this.noDebug = args.noDebug === true;
      this.sources = new DebugSources(
        PlanDocument.parse(target.text),
        target.kind === 'script' ? undefined : target.planFile,
        () => this.history,
        `${target.plan.requestId}.plan.json`,
      );
      this.sendEvent(new InitializedEvent());
      await this.configurationDone;
      this.sendResponse(response);
      if (target.kind === 'replay') this.startReplay(target, args.stopOnEntry === true);
      else this.startLive(target, args, undefined);
    } catch (error) {
      const message = error instanceof LaunchError ? error.message : `cannot start: ${error instanceof Error ? error.message : String(error)}`;
      this.sendErrorResponse(response, { id: 3001, format: message.replace(/[{}]/g, (brace) => (brace === '{' ? '(' : ')')), showUser: true });
      this.end();
    }
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.sendResponse(response);
    this.configured();
  }

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    response.body = { breakpoints: this.breakpoints.setLines(args, this.sources, this.noDebug) };
    this.sendResponse(response);
  }

  protected override setFunctionBreakPointsRequest(
    response: DebugProtocol.SetFunctionBreakpointsResponse,
    args: DebugProtocol.SetFunctionBreakpointsArguments,
  ): void {
    const tools = (this.target?.plan.tools ?? []).map((tool) => ({ toolId: tool.toolId, skill: skillOfToolPath(tool.toolPath) }));
    response.body = { breakpoints: this.breakpoints.setFunctions(args, tools) };
    this.sendResponse(response);
  }

  protected override setExceptionBreakPointsRequest(
    response: DebugProtocol.SetExceptionBreakpointsResponse,
    args: DebugProtocol.SetExceptionBreakpointsArguments,
  ): void {
    response.body = { breakpoints: this.breakpoints.setExceptions(args) };
    this.run?.setExceptionFilters(this.breakpoints.filterIds);
    this.sendResponse(response);
  }

  protected override dataBreakpointInfoRequest(response: DebugProtocol.DataBreakpointInfoResponse, args: DebugProtocol.DataBreakpointInfoArguments): void {
    response.body = this.breakpoints.dataInfo(args, this.variables);
    this.sendResponse(response);
  }

  protected override setDataBreakpointsRequest(response: DebugProtocol.SetDataBreakpointsResponse, args: DebugProtocol.SetDataBreakpointsArguments): void {
    response.body = { breakpoints: this.breakpoints.setData(args) };
    this.sendResponse(response);
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    const threads = this.run && !this.ended ? this.run.threads() : [{ id: PLAN_THREAD_ID, name: 'plan' }];
    response.body = { threads: threads.map((thread) => ({ id: thread.id, name: thread.name })) };
    this.sendResponse(response);
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    const reference = this.referenceOf(args.threadId);
    const frames =
      reference && this.sources ? this.frames.framesOf(reference, this.sources, this.target?.kind === 'script' ? this.target.scriptFile : undefined) : [];
    const start = args.startFrame ?? 0;
    const count = args.levels && args.levels > 0 ? args.levels : frames.length;
    response.body = { stackFrames: frames.slice(start, start + count), totalFrames: frames.length };
    this.sendResponse(response);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const frame = this.frames.get(args.frameId);
    if (!frame) return this.sendErrorResponse(response, { id: 3002, format: 'this frame is gone: the debuggee ran on' });
    const point = this.pointOf(frame);
    const tool = this.target?.plan.tools.find((candidate) => candidate.toolId === point.toolId);
    const result = this.resultOf(point);
    const { input: _input, ...flags } = tool ?? {};
    const plan =
      point.kind === 'replan'
        ? undefined
        : {
            ...flags,
            attempt: point.attempt,
            retries: point.attempt - 1,
            atMs: point.timeMs,
            ...(typeof result?.['durationMs'] === 'number' ? { durationMs: result['durationMs'] } : {}),
          };
    response.body = { scopes: this.variables.scopes({ frameId: args.frameId, point, result, plan, editable: this.editable(frame, point) }) };
    this.sendResponse(response);
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    const all = this.variables.variables(args.variablesReference);
    const start = args.start ?? 0;
    response.body = { variables: args.count ? all.slice(start, start + args.count) : all.slice(start) };
    this.sendResponse(response);
  }

  protected override setVariableRequest(response: DebugProtocol.SetVariableResponse, args: DebugProtocol.SetVariableArguments): void {
    const container = this.variables.containerOf(args.variablesReference);
    const frame = container ? this.frames.get(container.frameId) : undefined;
    if (!container || !frame || !container.editable || (container.scope !== 'State' && container.scope !== 'Input')) {
      return this.sendErrorResponse(response, {
        id: 3003,
        format: 'Only State and Input can be edited, before a tool starts: stop at the tool (a breakpoint, or step to it).',
        showUser: true,
      });
    }
    const point = this.pointOf(frame);
    const value = parseEnteredValue(args.value);
    const key = Array.isArray(container.value) && /^\d+$/.test(args.name) ? Number(args.name) : args.name;
    const root = container.scope === 'State' ? point.state : point.input;
    const edited = withValueAt(root, [...container.path, key], value);
    const edit: ToolStdinEdit = container.scope === 'State' ? { state: edited } : { input: edited };
    if (frame.live && this.cursor === undefined) {
      const outcome = this.run?.editHeldTool(frame.threadId, edit) ?? 'the run has ended';
      if (typeof outcome === 'string') return this.sendErrorResponse(response, { id: 3003, format: outcome, showUser: true });
    } else {
      this.forkEdits.set(point.index, { ...this.forkEdits.get(point.index), ...edit });
      this.output(
        'console',
        `${point.toolId}: the edit applies when you restart this frame (Restart Frame runs "${point.toolId}" again from here)\n`,
        point.toolId,
      );
    }
    response.body = { value: preview(value), variablesReference: 0 };
    this.sendResponse(response);
    this.sendEvent(new InvalidatedEvent(['variables']));
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    const frame = args.frameId !== undefined ? this.frames.get(args.frameId) : undefined;
    const reference = frame ?? this.referenceOf(this.cursor !== undefined ? PLAN_THREAD_ID : (this.run?.stops()[0]?.threadId ?? PLAN_THREAD_ID));
    if (!reference)
      return this.sendErrorResponse(response, { id: 3004, format: 'nothing to evaluate against: pause the run first', showUser: args.context === 'repl' });
    const evaluated = evaluateAt(args.expression, this.pointOf(reference));
    if (!evaluated.ok) return this.sendErrorResponse(response, { id: 3004, format: evaluated.message.replace(/[{}]/g, ''), showUser: args.context === 'repl' });
    const structured = typeof evaluated.value === 'object' && evaluated.value !== null;
    response.body = { result: preview(evaluated.value), variablesReference: structured ? this.variables.reference(evaluated.value, args.frameId ?? 0) : 0 };
    this.sendResponse(response);
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse, args: DebugProtocol.ExceptionInfoArguments): void {
    const description =
      this.cursor !== undefined && args.threadId === PLAN_THREAD_ID ? this.travelStop?.description : this.run?.stopOf(args.threadId)?.description;
    const category = description?.split(':')[0] ?? 'exception';
    response.body = { exceptionId: category, description: description ?? 'no exception here', breakMode: 'always' };
    this.sendResponse(response);
  }

  protected override sourceRequest(response: DebugProtocol.SourceResponse, args: DebugProtocol.SourceArguments): void {
    const content = this.sources?.content(args.source?.sourceReference ?? args.sourceReference);
    if (!content) return this.sendErrorResponse(response, { id: 3005, format: 'this document is no longer available' });
    response.body = content;
    this.sendResponse(response);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    this.sendResponse(response);
    this.resumed();
    if (this.cursor !== undefined) this.travelForward('continue');
    else this.run?.continue();
  }

  protected override nextRequest(response: DebugProtocol.NextResponse, args: DebugProtocol.NextArguments): void {
    this.step(response, args.threadId, 'next');
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse, args: DebugProtocol.StepInArguments): void {
    this.step(response, args.threadId, 'stepIn');
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse, args: DebugProtocol.StepOutArguments): void {
    this.step(response, args.threadId, 'stepOut');
  }

  protected override stepBackRequest(response: DebugProtocol.StepBackResponse, args: DebugProtocol.StepBackArguments): void {
    this.back(response, args.threadId, 'stepIn');
  }

  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse, args: DebugProtocol.ReverseContinueArguments): void {
    this.back(response, args.threadId, 'continue');
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    this.run?.pause();
    this.sendResponse(response);
  }

  protected override async restartFrameRequest(response: DebugProtocol.RestartFrameResponse, args: DebugProtocol.RestartFrameArguments): Promise<void> {
    const frame = this.frames.get(args.frameId);
    const target = this.target;
    if (!frame || !target || target.kind === 'replay' || !this.run) {
      return this.sendErrorResponse(response, {
        id: 3006,
        format: target?.kind === 'replay' ? 'a replay runs nothing: restart a frame in a live run' : 'this frame is gone',
        showUser: true,
      });
    }
    const point = this.pointOf(frame);
    if (point.kind === 'replan') return this.sendErrorResponse(response, { id: 3006, format: 'restart a tool frame', showUser: true });
    const start = this.history.findOfAttempt(point.index, point.toolId, point.attempt, 'tool') ?? point;
    this.sendResponse(response);
    await this.restartFrom(target, start);
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.sendResponse(response);
    void this.stopRun().then(() => this.end());
  }

  protected override async disconnectRequest(response: DebugProtocol.DisconnectResponse): Promise<void> {
    await this.stopRun();
    this.ended = true;
    this.sendResponse(response);
    this.runStartedEmitter.dispose();
    this.locationEmitter.dispose();
    this.shutdown();
  }

  /** Ends the run, if one is going, killing every process tree (the adapter process is about to exit). */
  async close(): Promise<void> {
    await this.stopRun();
  }

  // ——— live runs ———

  private startLive(
    target: Extract<LaunchTarget, { kind: 'plan' | 'script' }>,
    args: NarratoriaLaunchArguments,
    restart: { resume: RunRecord; toolId: string; edit?: ToolStdinEdit | undefined } | undefined,
  ): void {
    const run = new PlanDebugRun(target.plan, {
      root: target.root,
      ...(this.host.extraSkillRoots ? { extraSkillRoots: this.host.extraSkillRoots } : {}),
      ...(this.host.allowedToolRoots ? { allowedToolRoots: this.host.allowedToolRoots } : {}),
      ...(this.host.skillContext ? { skillContext: this.host.skillContext } : {}),
      ...(target.kind === 'script' ? { allowOutsideSkills: true } : {}),
      concurrency: args.concurrency,
      toolTimeoutMs: args.toolTimeoutMs,
      planTimeoutMs: args.planTimeoutMs,
      initialState: target.initialState,
      breakpoints: this.noDebug ? new BreakpointSet() : this.breakpoints.tools,
      dataBreakpoints: this.noDebug ? undefined : this.breakpoints.data,
      stopOnEntry: !this.noDebug && !restart && (args.stopOnEntry ?? target.kind === 'script'),
      history: this.history,
      rePlanner: debugRePlanner(target.plan, {
        root: target.root,
        extraSkillRoots: this.host.extraSkillRoots,
        narrator: this.host.narrator,
        skills: this.host.narratorSkills,
      }),
      ...(restart ? { resume: restart.resume, restartAt: { toolId: restart.toolId, edit: restart.edit } } : {}),
    });
    if (!this.noDebug) run.setExceptionFilters(this.breakpoints.filterIds);
    this.run = run;
    run.onDidStop((stop) => this.stopped(stop));
    run.onDidOutput((output) => this.output(output.category, output.text, output.toolId));
    run.onDidChangeThread(({ reason, thread }) => this.sendEvent(new ThreadEvent(reason, thread.id)));
    this.runResult = run.start();
    const planRun = run.planRun;
    if (planRun) this.runStartedEmitter.fire({ planFile: target.kind === 'plan' ? target.planFile : undefined, plan: target.plan, run: planRun });
    void this.runResult.then((result) => {
      if (this.run !== run) return;
      this.output('console', `${formatSummary(result, ansiTextStyle(false))}\n`);
      this.end();
    });
  }

  private async restartFrom(target: Extract<LaunchTarget, { kind: 'plan' | 'script' }>, start: DebugPoint): Promise<void> {
    const old = this.run!;
    const resume = restartRecord(this.history, old.finishedResults(), start, target);
    const edit = this.forkEdits.get(start.index) ?? { state: start.state, input: start.input };
    this.run = undefined;
    this.resumed();
    old.terminate();
    await this.runResult?.catch(() => undefined);
    old.dispose();
    this.history.truncate(start.index);
    this.breakpoints.historyChanged();
    this.forkEdits.clear();
    this.cursor = undefined;
    this.travelStop = undefined;
    this.output(
      'console',
      `restarting from "${start.toolId}": ${Object.keys(resume.tools).length} earlier tool(s) keep their results; "${start.toolId}" and the tools after it run again\n`,
      start.toolId,
    );
    this.startLive(target, {}, { resume, toolId: start.toolId, edit });
  }

  private stopped(stop: DebugStop): void {
    this.sendEvent(this.stoppedEvent(stop.reason, stop.threadId, stop.hitBreakpointIds, stop.description));
    // While travelling in time, the graph keeps showing the point being looked at.
    if (this.cursor === undefined) this.locationEmitter.fire({ planFile: this.sources?.planFile, toolId: stop.toolId });
  }

  private step(response: DebugProtocol.Response, threadId: number, motion: Motion): void {
    this.sendResponse(response);
    this.resumed();
    if (this.cursor !== undefined) return this.travelForward(motion);
    const run = this.run;
    if (!run) return;
    if (motion === 'next') run.next(threadId);
    else if (motion === 'stepIn') run.stepIn(threadId);
    else run.stepOut(threadId);
  }

  private async stopRun(): Promise<void> {
    const run = this.run;
    if (!run) return;
    run.terminate();
    await this.runResult?.catch(() => undefined);
  }

  // ——— time travel and replays ———

  private startReplay(target: Extract<LaunchTarget, { kind: 'replay' }>, stopOnEntry: boolean): void {
    this.history = target.history;
    this.breakpoints.historyChanged();
    this.output('console', `Replaying ${target.recordFile}: ${target.results.length} tool(s), ${target.history.length} recorded point(s); nothing runs.\n`);
    if (target.history.length === 0) return this.end();
    this.cursor = -1;
    if (stopOnEntry) return this.showTravelStop({ index: 0, reason: 'entry', hitBreakpointIds: [] });
    this.travelForward('continue');
  }

  private back(response: DebugProtocol.Response, threadId: number, motion: Motion): void {
    let left: DebugStop | undefined;
    if (this.cursor === undefined) {
      left = this.run?.stopOf(threadId) ?? this.run?.stops()[0];
      if (!left || left.pointIndex < 0) return this.sendErrorResponse(response, { id: 3007, format: 'pause the run before stepping back', showUser: true });
      // Other threads hold at their next boundary while the session looks back in time.
      this.run?.pause();
      this.cursor = left.pointIndex;
    }
    this.sendResponse(response);
    this.resumed();
    const found = travel(this.history, this.cursor, -1, motion, (point, direction) => this.hitAt(point, direction));
    if (found) this.showTravelStop(found);
    // The client took the thread that stepped back for running: it is still held where it was.
    if (left) {
      const still = this.stoppedEvent(left.reason, left.threadId, [], left.description);
      still.body.preserveFocusHint = true;
      this.sendEvent(still);
    }
  }

  private travelForward(motion: Motion): void {
    const found = travel(this.history, this.cursor ?? -1, 1, motion, (point, direction) => this.hitAt(point, direction));
    if (found) return this.showTravelStop(found);
    // Off the end of the history: a replay is over; a live run carries on from where it is held.
    this.cursor = undefined;
    this.travelStop = undefined;
    this.run?.cancelPause();
    if (this.target?.kind === 'replay' || !this.run) {
      this.output('console', 'The replay reached the end of the recorded run.\n');
      return this.end();
    }
    const held = this.run.stops();
    if (motion === 'continue' || held.length === 0) return this.run.continue();
    for (const stop of held) this.stopped({ ...stop, reason: 'step' });
  }

  private showTravelStop(stop: TravelStop): void {
    this.cursor = stop.index;
    this.travelStop = stop;
    const point = this.history.at(stop.index);
    this.sendEvent(this.stoppedEvent(stop.reason, PLAN_THREAD_ID, stop.hitBreakpointIds, stop.description));
    if (point) this.locationEmitter.fire({ planFile: this.sources?.planFile, toolId: point.toolId });
  }

  /** The breakpoint that holds at a recorded point, in either direction (none in a `noDebug` session). */
  private hitAt(point: DebugPoint, direction: 1 | -1): PointHit | undefined {
    if (this.noDebug) return undefined;
    return this.breakpoints.hitAt(point, direction, (message, toolId) => this.output('console', `${message}\n`, toolId));
  }

  // ——— helpers ———

  /** The frame source of a thread: the history point on the plan thread while travelling, else its live hold. */
  private referenceOf(threadId: number): FrameReference | undefined {
    if (this.cursor !== undefined && threadId === PLAN_THREAD_ID) {
      const point = this.history.at(this.cursor);
      return point ? { point, threadId, live: false } : undefined;
    }
    const stop = this.run?.stopOf(threadId);
    if (!stop) return undefined;
    const point = this.history.at(stop.pointIndex) ?? {
      index: stop.pointIndex,
      kind: stop.kind,
      toolId: stop.toolId,
      attempt: stop.attempt,
      skill: null,
      state: stop.state,
      input: stop.input,
      dependencies: stop.dependencies,
      event: stop.event,
      eventIndex: stop.eventIndex,
      timeMs: 0,
    };
    return { point, threadId, live: true };
  }

  /** A frame's point, with the edits made there for a restart. */
  private pointOf(frame: FrameReference): DebugPoint {
    const current = this.history.at(frame.point.index) ?? frame.point;
    const edit = this.forkEdits.get(current.index);
    return edit ? { ...current, ...(edit.state ? { state: edit.state } : {}), ...(edit.input ? { input: edit.input } : {}) } : current;
  }

  private editable(frame: FrameReference, point: DebugPoint): boolean {
    if (point.kind !== 'tool' || this.target?.kind === 'replay') return false;
    return frame.live ? this.run?.stopOf(frame.threadId)?.kind === 'tool' : true;
  }

  /** A finish point's attempt result (a recorded tool result in a replay). */
  private resultOf(point: DebugPoint): Record<string, unknown> | undefined {
    return point.kind === 'finish' ? point.result : undefined;
  }

  private stoppedEvent(reason: string, threadId: number, hitBreakpointIds: readonly number[], description: string | undefined): DebugProtocol.StoppedEvent {
    const event = new StoppedEvent(reason, threadId) as DebugProtocol.StoppedEvent;
    event.body.allThreadsStopped = false;
    if (hitBreakpointIds.length > 0) event.body.hitBreakpointIds = [...hitBreakpointIds];
    if (description) {
      event.body.description = description;
      event.body.text = description;
    }
    return event;
  }

  /** Forgets frame and variable ids: the debuggee runs on. */
  private resumed(): void {
    this.frames.reset();
    this.variables.reset();
    this.locationEmitter.fire(undefined);
  }

  /** A Debug Console line, linked to its tool's range in the plan. */
  private output(category: 'console' | 'stdout' | 'stderr', text: string, toolId?: string): void {
    const event = new OutputEvent(text, category) as DebugProtocol.OutputEvent;
    const range = toolId ? this.sources?.toolRange(toolId) : undefined;
    if (range && this.sources) {
      event.body.source = this.sources.planSource();
      event.body.line = range.line;
      event.body.column = range.column;
    }
    this.sendEvent(event);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.locationEmitter.fire(undefined);
    this.sendEvent(new TerminatedEvent());
  }
}
