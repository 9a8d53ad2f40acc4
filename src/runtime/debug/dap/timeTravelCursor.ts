// Time travel in a debug session: the recorded point the plan thread shows, moved forwards and backwards with the breakpoints a live run has.
import type { DebugHistory, DebugPoint } from '../debugHistory.js';
import { PLAN_THREAD_ID } from '../debugStop.js';
import { travel, type Motion, type PointHit, type TravelStop } from '../timeTravel.js';
import type { FrameReference } from './debugFrames.js';
import type { DebugTargetEvents } from './debugTarget.js';
import type { SessionBreakpoints } from './sessionBreakpoints.js';

/** Where the plan thread is in time, while the session travels (always, in a replay). */
export class TimeTravelCursor {
  /** The history point shown on the plan thread (-1 before the first); undefined when not travelling. */
  private cursor: number | undefined;
  /** The point and reason of the current stop. */
  private shown: TravelStop | undefined;

  constructor(
    private readonly history: DebugHistory,
    private readonly breakpoints: SessionBreakpoints,
    /** A `noDebug` session: no breakpoint holds at a recorded point. */
    private readonly noDebug: boolean,
    private readonly events: DebugTargetEvents,
  ) {}

  /** True while the plan thread shows a point in time. */
  get active(): boolean {
    return this.cursor !== undefined;
  }

  /** The plan thread's frame source while travelling. */
  reference(): FrameReference | undefined {
    const point = this.cursor !== undefined ? this.history.at(this.cursor) : undefined;
    return point ? { point, threadId: PLAN_THREAD_ID, live: false } : undefined;
  }

  /** The exception of the current stop, if it is one. */
  exception(): string | undefined {
    return this.shown?.description;
  }

  /** Starts travelling from history point `index` (a live hold's point, or -1 before a replay's first point). */
  enter(index: number): void {
    this.cursor = index;
  }

  /** Stops travelling. */
  leave(): void {
    this.cursor = undefined;
    this.shown = undefined;
  }

  /** Moves forward and shows where it stops; false when it ran off the end of the history (travelling is over then). */
  forward(motion: Motion): boolean {
    const found = travel(this.history, this.cursor ?? -1, 1, motion, (point, direction) => this.hitAt(point, direction));
    if (found) {
      this.show(found);
      return true;
    }
    this.leave();
    return false;
  }

  /** Moves backward (call `enter` first when not travelling) and shows where it stops. */
  backward(motion: Motion): void {
    const found = travel(this.history, this.cursor!, -1, motion, (point, direction) => this.hitAt(point, direction));
    if (found) this.show(found);
  }

  /** Shows a stop at a point in time on the plan thread. */
  show(stop: TravelStop): void {
    this.cursor = stop.index;
    this.shown = stop;
    const point = this.history.at(stop.index);
    this.events.stopped({
      reason: stop.reason,
      threadId: PLAN_THREAD_ID,
      hitBreakpointIds: stop.hitBreakpointIds,
      description: stop.description,
      toolId: point?.toolId,
    });
  }

  /** The breakpoint that holds at a recorded point, in either direction (none in a `noDebug` session). */
  private hitAt(point: DebugPoint, direction: 1 | -1): PointHit | undefined {
    if (this.noDebug) return undefined;
    return this.breakpoints.hitAt(point, direction, (message, toolId) => this.events.output('console', `${message}\n`, toolId));
  }
}
