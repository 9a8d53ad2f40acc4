// What the debugger's model reports: where a thread is held and why, its threads, and its Debug Console lines.
import type { ToolEvent } from '../contractTypes/toolEvent.js';
import type { PointKind } from './debugHistory.js';

/** The plan's own thread; each running tool attempt gets the next id. */
export const PLAN_THREAD_ID = 1;

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
