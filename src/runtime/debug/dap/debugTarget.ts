// What a debug session debugs, behind one interface: a plan run, a lone script or a replay of a recorded run; and what each tells the session back.
import type { ToolStdinEdit } from '../../executor/executionEvents.js';
import type { Plan } from '../../contractTypes/plan.js';
import type { DebugHistory, DebugPoint } from '../debugHistory.js';
import type { DebugThread } from '../debugStop.js';
import type { Motion } from '../timeTravel.js';
import type { FrameReference } from './debugFrames.js';
import type { DebugHost, DebugRunStarted } from './debugHost.js';
import type { LaunchTarget, NarratoriaLaunchArguments } from './launchArguments.js';
import { PlanRunTarget } from './planRunTarget.js';
import { ReplayTarget } from './replayTarget.js';
import type { SessionBreakpoints } from './sessionBreakpoints.js';

/** A motion forward from a hold (DAP next, stepIn, stepOut). */
export type StepMotion = Exclude<Motion, 'continue'>;

/**
 * The debuggee as the DAP session sees it. The session translates DAP requests into these calls and the target's
 * events (DebugTargetEvents) into DAP events; a target never speaks DAP.
 */
export interface DebugTarget {
  readonly plan: Plan;
  /** Every point passed so far (a live run) or recorded (a replay). */
  readonly history: DebugHistory;
  /** Begins: a live run starts; a replay shows its first stop. Called once the client has configured the session. */
  start(): void;
  /** The plan thread, and a thread per running tool attempt in a live run. */
  threads(): readonly DebugThread[];
  /** What a thread's frames show: the point in time on the plan thread while travelling, else the thread's live hold. */
  referenceOf(threadId: number): FrameReference | undefined;
  /** The thread an evaluation without a frame reads. */
  focusedThread(): number;
  /** A frame's point as it stands now, with any edit made there for a restart. */
  pointOf(frame: FrameReference): DebugPoint;
  /** Whether a frame's State and Input may be edited (a tool that has not started, live or for a restart). */
  editable(frame: FrameReference, point: DebugPoint): boolean;
  /** Applies an edit of what a tool receives; a message when it cannot. */
  edit(frame: FrameReference, point: DebugPoint, edit: ToolStdinEdit): string | undefined;
  /** The exception a thread is stopped at, if any. */
  exceptionOf(threadId: number): string | undefined;
  /** Which exception filters stop a live run. */
  setExceptionFilters(filters: readonly string[]): void;
  /** Runs on to the next breakpoint. */
  continue(): void;
  step(threadId: number, motion: StepMotion): void;
  /** Why stepping back from `threadId` is refused now, if it is. */
  backRefusal(threadId: number): string | undefined;
  /** Steps back in time from a thread's hold, or from the point shown. */
  back(threadId: number, motion: Motion): void;
  pause(): void;
  /** Why a frame cannot be restarted, if it cannot. */
  restartRefusal(frame: FrameReference | undefined): string | undefined;
  /** Runs the plan again from a frame's tool, the earlier tools keeping their results. */
  restartFrom(frame: FrameReference): Promise<void>;
  /** Ends a live run (every process tree is killed) and waits for it. */
  stop(): Promise<void>;
}

/** A stop to show: a thread held live, or the plan thread at a point in time. */
export interface ShownStop {
  readonly reason: string;
  readonly threadId: number;
  readonly hitBreakpointIds: readonly number[];
  readonly description: string | undefined;
  /** The tool to show as paused in the graph; undefined leaves the graph as it is. */
  readonly toolId?: string | undefined;
  /** The thread only stays where it was: the client keeps its focus where it is. */
  readonly preserveFocus?: boolean | undefined;
}

/** What a target tells the session, which turns it into DAP events. */
export interface DebugTargetEvents {
  stopped(stop: ShownStop): void;
  output(category: 'console' | 'stdout' | 'stderr', text: string, toolId?: string): void;
  threadChanged(reason: 'started' | 'exited', threadId: number): void;
  runStarted(started: DebugRunStarted): void;
  /** The debuggee runs on (frame and variable ids are forgotten). */
  resumed(): void;
  ended(): void;
}

/** What every target is made with. */
export interface DebugTargetContext {
  readonly host: DebugHost;
  readonly args: NarratoriaLaunchArguments;
  readonly breakpoints: SessionBreakpoints;
  /** Run without debugging: no breakpoint or exception filter stops. */
  readonly noDebug: boolean;
  readonly events: DebugTargetEvents;
}

/** The target of a resolved launch. A lone script is a one-tool plan run of a script outside the skills folders. */
export function createDebugTarget(launch: LaunchTarget, context: DebugTargetContext): DebugTarget {
  switch (launch.kind) {
    case 'replay':
      return new ReplayTarget(launch, context);
    case 'plan': {
      const { plan, root, initialState, planFile } = launch;
      return new PlanRunTarget({ plan, root, initialState, planFile, outsideSkills: false, stopOnEntryByDefault: false }, context);
    }
    case 'script': {
      const { plan, root, initialState } = launch;
      return new PlanRunTarget({ plan, root, initialState, planFile: undefined, outsideSkills: true, stopOnEntryByDefault: true }, context);
    }
  }
}
