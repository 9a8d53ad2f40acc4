// The debug target of a live run, of a plan or of a lone script: the run's holds and stepping, time travel back over what it passed, edits and Restart Frame.
import type { ToolStdinEdit } from '../../executor/executionEvents.js';
import { formatSummary } from '../../executor/runTranscript.js';
import { ansiTextStyle } from '../../common/textStyle.js';
import type { ExecutionResult } from '../../contractTypes/executionResult.js';
import type { Plan } from '../../contractTypes/plan.js';
import type { RunRecord } from '../../persistence/runStore.js';
import { BreakpointSet } from '../breakpointSet.js';
import { DebugHistory, type DebugPoint } from '../debugHistory.js';
import { restartRecord } from '../frameRestart.js';
import { PLAN_THREAD_ID, type DebugStop, type DebugThread } from '../debugStop.js';
import { PlanDebugRun } from '../planDebugRun.js';
import type { Motion } from '../timeTravel.js';
import type { FrameReference } from './debugFrames.js';
import { debugRePlanner } from './debugRePlanner.js';
import type { DebugTarget, DebugTargetContext, StepMotion } from './debugTarget.js';
import type { NarratoriaLaunchArguments } from './launchArguments.js';
import { TimeTravelCursor } from './timeTravelCursor.js';

/** What a live target runs. */
export interface LiveLaunch {
  readonly plan: Plan;
  readonly root: string;
  readonly initialState: Record<string, unknown>;
  /** The plan file the graph follows; undefined for a lone script. */
  readonly planFile: string | undefined;
  /** Scripts outside the skills folders may run (a lone script). */
  readonly outsideSkills: boolean;
  /** Stops before the first tool unless the launch says otherwise (a lone script). */
  readonly stopOnEntryByDefault: boolean;
}

/** Where a restarted run starts: the record it resumes from, its first tool and that tool's edit. */
interface Restart {
  readonly resume: RunRecord;
  readonly toolId: string;
  readonly edit?: ToolStdinEdit | undefined;
}

export class PlanRunTarget implements DebugTarget {
  /** Every point of the session, kept across restarts (cut back to the restarted point). */
  readonly history = new DebugHistory();
  private run: PlanDebugRun | undefined;
  private runResult: Promise<ExecutionResult> | undefined;
  private readonly travel: TimeTravelCursor;
  /** Edits made at history points, for a restart from there. */
  private readonly forkEdits = new Map<number, ToolStdinEdit>();

  constructor(
    private readonly launch: LiveLaunch,
    private readonly context: DebugTargetContext,
  ) {
    this.travel = new TimeTravelCursor(this.history, context.breakpoints, context.noDebug, context.events);
  }

  get plan(): Plan {
    return this.launch.plan;
  }

  start(): void {
    this.startRun(this.context.args, undefined);
  }

  threads(): readonly DebugThread[] {
    return this.run ? this.run.threads() : [{ id: PLAN_THREAD_ID, name: 'plan' }];
  }

  referenceOf(threadId: number): FrameReference | undefined {
    if (this.travel.active && threadId === PLAN_THREAD_ID) return this.travel.reference();
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

  focusedThread(): number {
    return this.travel.active ? PLAN_THREAD_ID : (this.run?.stops()[0]?.threadId ?? PLAN_THREAD_ID);
  }

  pointOf(frame: FrameReference): DebugPoint {
    const current = this.history.at(frame.point.index) ?? frame.point;
    const edit = this.forkEdits.get(current.index);
    return edit ? { ...current, ...(edit.state ? { state: edit.state } : {}), ...(edit.input ? { input: edit.input } : {}) } : current;
  }

  editable(frame: FrameReference, point: DebugPoint): boolean {
    if (point.kind !== 'tool') return false;
    return frame.live ? this.run?.stopOf(frame.threadId)?.kind === 'tool' : true;
  }

  edit(frame: FrameReference, point: DebugPoint, edit: ToolStdinEdit): string | undefined {
    if (frame.live && !this.travel.active) {
      const outcome = this.run?.editHeldTool(frame.threadId, edit) ?? 'the run has ended';
      return typeof outcome === 'string' ? outcome : undefined;
    }
    this.forkEdits.set(point.index, { ...this.forkEdits.get(point.index), ...edit });
    this.context.events.output(
      'console',
      `${point.toolId}: the edit applies when you restart this frame (Restart Frame runs "${point.toolId}" again from here)\n`,
      point.toolId,
    );
    return undefined;
  }

  exceptionOf(threadId: number): string | undefined {
    return this.travel.active && threadId === PLAN_THREAD_ID ? this.travel.exception() : this.run?.stopOf(threadId)?.description;
  }

  setExceptionFilters(filters: readonly string[]): void {
    this.run?.setExceptionFilters(filters);
  }

  // --- stepping ---

  continue(): void {
    if (this.travel.active) this.travelForward('continue');
    else this.run?.continue();
  }

  step(threadId: number, motion: StepMotion): void {
    if (this.travel.active) return this.travelForward(motion);
    const run = this.run;
    if (!run) return;
    if (motion === 'next') run.next(threadId);
    else if (motion === 'stepIn') run.stepIn(threadId);
    else run.stepOut(threadId);
  }

  pause(): void {
    this.run?.pause();
  }

  // --- time travel ---

  backRefusal(threadId: number): string | undefined {
    if (this.travel.active) return undefined;
    const left = this.heldFor(threadId);
    return !left || left.pointIndex < 0 ? 'pause the run before stepping back' : undefined;
  }

  back(threadId: number, motion: Motion): void {
    let left: DebugStop | undefined;
    if (!this.travel.active) {
      left = this.heldFor(threadId)!;
      // Other threads hold at their next boundary while the session looks back in time.
      this.run?.pause();
      this.travel.enter(left.pointIndex);
    }
    this.travel.backward(motion);
    // The client took the thread that stepped back for running: it is still held where it was.
    if (left)
      this.context.events.stopped({ reason: left.reason, threadId: left.threadId, hitBreakpointIds: [], description: left.description, preserveFocus: true });
  }

  /** The hold a step back leaves: the thread's own, else the first held thread's. */
  private heldFor(threadId: number): DebugStop | undefined {
    return this.run?.stopOf(threadId) ?? this.run?.stops()[0];
  }

  private travelForward(motion: Motion): void {
    if (this.travel.forward(motion)) return;
    // Off the end of the history: the run carries on from where it is held.
    this.run?.cancelPause();
    if (!this.run) {
      this.context.events.output('console', 'The replay reached the end of the recorded run.\n');
      return this.context.events.ended();
    }
    const held = this.run.stops();
    if (motion === 'continue' || held.length === 0) return this.run.continue();
    for (const stop of held) this.stopped({ ...stop, reason: 'step' });
  }

  // --- Restart Frame ---

  restartRefusal(frame: FrameReference | undefined): string | undefined {
    if (!frame || !this.run) return 'this frame is gone';
    return this.pointOf(frame).kind === 'replan' ? 'restart a tool frame' : undefined;
  }

  async restartFrom(frame: FrameReference): Promise<void> {
    const point = this.pointOf(frame);
    const start = this.history.findOfAttempt(point.index, point.toolId, point.attempt, 'tool') ?? point;
    const old = this.run!;
    const resume = restartRecord(this.history, old.finishedResults(), start, this.launch);
    const edit = this.forkEdits.get(start.index) ?? { state: start.state, input: start.input };
    this.run = undefined;
    this.context.events.resumed();
    old.terminate();
    await this.runResult?.catch(() => undefined);
    old.dispose();
    this.history.truncate(start.index);
    this.context.breakpoints.historyChanged();
    this.forkEdits.clear();
    this.travel.leave();
    const count = Object.keys(resume.tools).length;
    this.context.events.output(
      'console',
      `restarting from "${start.toolId}": ${count} earlier tool(s) keep their results; "${start.toolId}" and the tools after it run again\n`,
      start.toolId,
    );
    this.startRun({}, { resume, toolId: start.toolId, edit });
  }

  async stop(): Promise<void> {
    const run = this.run;
    if (!run) return;
    run.terminate();
    await this.runResult?.catch(() => undefined);
  }

  // --- the run ---

  /** Starts a run; a restart runs without the launch's limits and never stops on entry. */
  private startRun(args: NarratoriaLaunchArguments, restart: Restart | undefined): void {
    const { host, breakpoints, noDebug, events } = this.context;
    const launch = this.launch;
    const run = new PlanDebugRun(launch.plan, {
      root: launch.root,
      ...(host.extraSkillRoots ? { extraSkillRoots: host.extraSkillRoots } : {}),
      ...(host.allowedToolRoots ? { allowedToolRoots: host.allowedToolRoots } : {}),
      ...(host.skillContext ? { skillContext: host.skillContext } : {}),
      ...(launch.outsideSkills ? { allowOutsideSkills: true } : {}),
      concurrency: args.concurrency,
      toolTimeoutMs: args.toolTimeoutMs,
      planTimeoutMs: args.planTimeoutMs,
      initialState: launch.initialState,
      breakpoints: noDebug ? new BreakpointSet() : breakpoints.tools,
      dataBreakpoints: noDebug ? undefined : breakpoints.data,
      stopOnEntry: !noDebug && !restart && (args.stopOnEntry ?? launch.stopOnEntryByDefault),
      history: this.history,
      rePlanner: debugRePlanner(launch.plan, {
        root: launch.root,
        extraSkillRoots: host.extraSkillRoots,
        narrator: host.narrator,
        skills: host.narratorSkills,
      }),
      ...(restart ? { resume: restart.resume, restartAt: { toolId: restart.toolId, edit: restart.edit } } : {}),
    });
    if (!noDebug) run.setExceptionFilters(breakpoints.filterIds);
    this.run = run;
    run.onDidStop((stop) => this.stopped(stop));
    run.onDidOutput((output) => events.output(output.category, output.text, output.toolId));
    run.onDidChangeThread(({ reason, thread }) => events.threadChanged(reason, thread.id));
    this.runResult = run.start();
    const planRun = run.planRun;
    if (planRun) events.runStarted({ planFile: launch.planFile, plan: launch.plan, run: planRun });
    void this.runResult.then((result) => {
      if (this.run !== run) return;
      events.output('console', `${formatSummary(result, ansiTextStyle(false))}\n`);
      events.ended();
    });
  }

  private stopped(stop: DebugStop): void {
    // While travelling in time, the graph keeps showing the point being looked at.
    const toolId = this.travel.active ? undefined : stop.toolId;
    this.context.events.stopped({
      reason: stop.reason,
      threadId: stop.threadId,
      hitBreakpointIds: stop.hitBreakpointIds,
      description: stop.description,
      toolId,
    });
  }
}
