// The DAP session of the `narratoria` debug type: turns DAP requests into calls on its DebugTarget (a plan run, a replay or a lone script) and the target's news into DAP events.
import { DebugSession, InitializedEvent, InvalidatedEvent, OutputEvent, StoppedEvent, TerminatedEvent, ThreadEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { PlanDocument } from '../../authoring/planDocument.js';
import { Emitter, type Event } from '../../common/event.js';
import type { ToolStdinEdit } from '../../executor/executionEvents.js';
import { skillOfToolPath } from '../../graph/planGraph.js';
import { DebugHistory } from '../debugHistory.js';
import { EXCEPTION_FILTER_DESCRIPTIONS } from '../exceptionFilters.js';
import { PLAN_THREAD_ID } from '../debugStop.js';
import type { Motion } from '../timeTravel.js';
import { FrameTable } from './debugFrames.js';
import type { DebugHost, DebugLocation, DebugRunStarted } from './debugHost.js';
import { DebugSources } from './debugSources.js';
import { createDebugTarget, type DebugTarget, type DebugTargetEvents, type ShownStop, type StepMotion } from './debugTarget.js';
import { evaluateAt, parseEnteredValue, preview, VariableStore, withValueAt } from './debugVariables.js';
import { LaunchError, resolveLaunch, type NarratoriaLaunchArguments } from './launchArguments.js';
import { SessionBreakpoints } from './sessionBreakpoints.js';

const RESTRICTED_MESSAGE =
  'This workspace is not trusted (Restricted Mode), so Narratoria starts no skill script. Trust the workspace to debug a live run, or replay a recorded run (launch argument "replay").';

export class NarratoriaDebugSession extends DebugSession {
  private readonly breakpoints = new SessionBreakpoints(() => this.history);
  private target: DebugTarget | undefined;
  private sources: DebugSources | undefined;
  /** A lone script's file, shown as its tool's frame. */
  private scriptFile: string | undefined;
  /** The history before a target exists. */
  private readonly noHistory = new DebugHistory();
  private noDebug = false;
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

  private get history(): DebugHistory {
    return this.target?.history ?? this.noHistory;
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
      const launch = await resolveLaunch(args, this.host);
      this.noDebug = args.noDebug === true;
      this.target = createDebugTarget(launch, { host: this.host, args, breakpoints: this.breakpoints, noDebug: this.noDebug, events: this.events });
      this.scriptFile = launch.kind === 'script' ? launch.scriptFile : undefined;
      const planFile = launch.kind === 'script' ? undefined : launch.planFile;
      this.sources = new DebugSources(PlanDocument.parse(launch.text), planFile, () => this.history, `${launch.plan.requestId}.plan.json`);
      this.sendEvent(new InitializedEvent());
      await this.configurationDone;
      this.sendResponse(response);
      this.target.start();
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

  // --- breakpoints ---

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
    this.target?.setExceptionFilters(this.breakpoints.filterIds);
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

  // --- where the debuggee is ---

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    const threads = this.target && !this.ended ? this.target.threads() : [{ id: PLAN_THREAD_ID, name: 'plan' }];
    response.body = { threads: threads.map((thread) => ({ id: thread.id, name: thread.name })) };
    this.sendResponse(response);
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    const reference = this.target?.referenceOf(args.threadId);
    const frames = reference && this.sources ? this.frames.framesOf(reference, this.sources, this.scriptFile) : [];
    const start = args.startFrame ?? 0;
    const count = args.levels && args.levels > 0 ? args.levels : frames.length;
    response.body = { stackFrames: frames.slice(start, start + count), totalFrames: frames.length };
    this.sendResponse(response);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const frame = this.frames.get(args.frameId);
    const target = this.target;
    if (!frame || !target) return this.sendErrorResponse(response, { id: 3002, format: 'this frame is gone: the debuggee ran on' });
    const point = target.pointOf(frame);
    const tool = target.plan.tools.find((candidate) => candidate.toolId === point.toolId);
    // A finish point's attempt result (a recorded tool result in a replay).
    const result = point.kind === 'finish' ? point.result : undefined;
    const { input: _input, ...flags } = tool ?? {};
    const timing = {
      attempt: point.attempt,
      retries: point.attempt - 1,
      atMs: point.timeMs,
      ...(typeof result?.['durationMs'] === 'number' ? { durationMs: result['durationMs'] } : {}),
    };
    const plan = point.kind === 'replan' ? undefined : { ...flags, ...timing };
    response.body = { scopes: this.variables.scopes({ frameId: args.frameId, point, result, plan, editable: target.editable(frame, point) }) };
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
    const target = this.target;
    if (!container || !frame || !target || !container.editable || (container.scope !== 'State' && container.scope !== 'Input')) {
      return this.sendErrorResponse(response, {
        id: 3003,
        format: 'Only State and Input can be edited, before a tool starts: stop at the tool (a breakpoint, or step to it).',
        showUser: true,
      });
    }
    const point = target.pointOf(frame);
    const value = parseEnteredValue(args.value);
    const key = Array.isArray(container.value) && /^\d+$/.test(args.name) ? Number(args.name) : args.name;
    const root = container.scope === 'State' ? point.state : point.input;
    const edited = withValueAt(root, [...container.path, key], value);
    const edit: ToolStdinEdit = container.scope === 'State' ? { state: edited } : { input: edited };
    const refusal = target.edit(frame, point, edit);
    if (refusal !== undefined) return this.sendErrorResponse(response, { id: 3003, format: refusal, showUser: true });
    response.body = { value: preview(value), variablesReference: 0 };
    this.sendResponse(response);
    this.sendEvent(new InvalidatedEvent(['variables']));
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    const target = this.target;
    const frame = args.frameId !== undefined ? this.frames.get(args.frameId) : undefined;
    const reference = frame ?? target?.referenceOf(target.focusedThread());
    if (!target || !reference)
      return this.sendErrorResponse(response, { id: 3004, format: 'nothing to evaluate against: pause the run first', showUser: args.context === 'repl' });
    const evaluated = evaluateAt(args.expression, target.pointOf(reference));
    if (!evaluated.ok) return this.sendErrorResponse(response, { id: 3004, format: evaluated.message.replace(/[{}]/g, ''), showUser: args.context === 'repl' });
    const structured = typeof evaluated.value === 'object' && evaluated.value !== null;
    response.body = { result: preview(evaluated.value), variablesReference: structured ? this.variables.reference(evaluated.value, args.frameId ?? 0) : 0 };
    this.sendResponse(response);
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse, args: DebugProtocol.ExceptionInfoArguments): void {
    const description = this.target?.exceptionOf(args.threadId);
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

  // --- stepping and time travel ---

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    this.sendResponse(response);
    this.resumed();
    this.target?.continue();
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
    this.target?.pause();
    this.sendResponse(response);
  }

  protected override async restartFrameRequest(response: DebugProtocol.RestartFrameResponse, args: DebugProtocol.RestartFrameArguments): Promise<void> {
    const frame = this.frames.get(args.frameId);
    const target = this.target;
    const refusal = target ? target.restartRefusal(frame) : 'this frame is gone';
    if (refusal !== undefined || !target || !frame)
      return this.sendErrorResponse(response, { id: 3006, format: refusal ?? 'this frame is gone', showUser: true });
    this.sendResponse(response);
    await target.restartFrom(frame);
  }

  private step(response: DebugProtocol.Response, threadId: number, motion: StepMotion): void {
    this.sendResponse(response);
    this.resumed();
    this.target?.step(threadId, motion);
  }

  private back(response: DebugProtocol.Response, threadId: number, motion: Motion): void {
    const target = this.target;
    const refusal = target ? target.backRefusal(threadId) : 'pause the run before stepping back';
    if (refusal !== undefined || !target)
      return this.sendErrorResponse(response, { id: 3007, format: refusal ?? 'pause the run before stepping back', showUser: true });
    this.sendResponse(response);
    this.resumed();
    target.back(threadId, motion);
  }

  // --- the end ---

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.sendResponse(response);
    void this.stopTarget().then(() => this.end());
  }

  protected override async disconnectRequest(response: DebugProtocol.DisconnectResponse): Promise<void> {
    await this.stopTarget();
    this.ended = true;
    this.sendResponse(response);
    this.runStartedEmitter.dispose();
    this.locationEmitter.dispose();
    this.shutdown();
  }

  /** Ends the run, if one is going, killing every process tree (the adapter process is about to exit). */
  async close(): Promise<void> {
    await this.stopTarget();
  }

  private async stopTarget(): Promise<void> {
    await this.target?.stop();
  }

  // --- what the target tells the session, as DAP events ---

  private readonly events: DebugTargetEvents = {
    stopped: (stop) => this.stopped(stop),
    output: (category, text, toolId) => this.output(category, text, toolId),
    threadChanged: (reason, threadId) => this.sendEvent(new ThreadEvent(reason, threadId)),
    runStarted: (started) => this.runStartedEmitter.fire(started),
    resumed: () => this.resumed(),
    ended: () => this.end(),
  };

  private stopped(stop: ShownStop): void {
    const event = new StoppedEvent(stop.reason, stop.threadId) as DebugProtocol.StoppedEvent;
    event.body.allThreadsStopped = false;
    if (stop.hitBreakpointIds.length > 0) event.body.hitBreakpointIds = [...stop.hitBreakpointIds];
    if (stop.description) {
      event.body.description = stop.description;
      event.body.text = stop.description;
    }
    if (stop.preserveFocus) event.body.preserveFocusHint = true;
    this.sendEvent(event);
    if (stop.toolId !== undefined) this.locationEmitter.fire({ planFile: this.sources?.planFile, toolId: stop.toolId });
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
