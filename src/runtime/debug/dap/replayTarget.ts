// The debug target of a replay: a recorded run's points, travelled forwards and backwards on the plan thread; nothing runs and nothing can be edited.
import type { Plan } from '../../contractTypes/plan.js';
import type { DebugHistory, DebugPoint } from '../debugHistory.js';
import { PLAN_THREAD_ID, type DebugThread } from '../debugStop.js';
import type { Motion } from '../timeTravel.js';
import type { FrameReference } from './debugFrames.js';
import type { DebugTarget, DebugTargetContext, StepMotion } from './debugTarget.js';
import type { LaunchTarget } from './launchArguments.js';
import { TimeTravelCursor } from './timeTravelCursor.js';

export class ReplayTarget implements DebugTarget {
  private readonly travel: TimeTravelCursor;

  constructor(
    private readonly launch: Extract<LaunchTarget, { kind: 'replay' }>,
    private readonly context: DebugTargetContext,
  ) {
    this.travel = new TimeTravelCursor(launch.history, context.breakpoints, context.noDebug, context.events);
  }

  get plan(): Plan {
    return this.launch.plan;
  }

  get history(): DebugHistory {
    return this.launch.history;
  }

  /** Shows the first point (stopOnEntry) or runs forward to the first breakpoint; an empty recording ends at once. */
  start(): void {
    const { history, recordFile, results } = this.launch;
    this.context.breakpoints.historyChanged();
    this.context.events.output('console', `Replaying ${recordFile}: ${results.length} tool(s), ${history.length} recorded point(s); nothing runs.\n`);
    if (history.length === 0) return this.context.events.ended();
    this.travel.enter(-1);
    if (this.context.args.stopOnEntry === true) return this.travel.show({ index: 0, reason: 'entry', hitBreakpointIds: [] });
    this.travelForward('continue');
  }

  threads(): readonly DebugThread[] {
    return [{ id: PLAN_THREAD_ID, name: 'plan' }];
  }

  referenceOf(threadId: number): FrameReference | undefined {
    return this.travel.active && threadId === PLAN_THREAD_ID ? this.travel.reference() : undefined;
  }

  focusedThread(): number {
    return PLAN_THREAD_ID;
  }

  pointOf(frame: FrameReference): DebugPoint {
    return this.launch.history.at(frame.point.index) ?? frame.point;
  }

  editable(): boolean {
    return false;
  }

  edit(): string | undefined {
    return 'a replay runs nothing: edit a tool in a live run';
  }

  exceptionOf(threadId: number): string | undefined {
    return this.travel.active && threadId === PLAN_THREAD_ID ? this.travel.exception() : undefined;
  }

  setExceptionFilters(): void {
    // Recorded points read the session's filters as they are travelled.
  }

  continue(): void {
    if (this.travel.active) this.travelForward('continue');
  }

  step(_threadId: number, motion: StepMotion): void {
    if (this.travel.active) this.travelForward(motion);
  }

  pause(): void {
    // Nothing runs.
  }

  backRefusal(): string | undefined {
    return this.travel.active ? undefined : 'pause the run before stepping back';
  }

  back(_threadId: number, motion: Motion): void {
    this.travel.backward(motion);
  }

  restartRefusal(): string | undefined {
    return 'a replay runs nothing: restart a frame in a live run';
  }

  async restartFrom(): Promise<void> {
    // Refused (restartRefusal).
  }

  async stop(): Promise<void> {
    // Nothing runs.
  }

  private travelForward(motion: Motion): void {
    if (this.travel.forward(motion)) return;
    this.context.events.output('console', 'The replay reached the end of the recorded run.\n');
    this.context.events.ended();
  }
}
