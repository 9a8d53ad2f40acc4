// Stepping in a live debug run: which threads are held and where, each thread's step mode, and the pending entry, next and pause that decide where a thread holds next.
import type { DebugStop, StopReason } from './debugStop.js';

/** How a released thread runs on: to the next breakpoint, into its events one at a time, or to the end of its attempt. */
export type StepMode = 'run' | 'stepIn' | 'stepOut';

interface Hold {
  stop: DebugStop;
  readonly release: () => void;
}

/** The holds and step modes of one run's threads; `stopped` hears of each new hold. */
export class ThreadStepping {
  private readonly holds = new Map<number, Hold>();
  private readonly modes = new Map<number, StepMode>();
  private entryPending: boolean;
  private nextPending = false;
  private pausePending = false;

  constructor(
    stopOnEntry: boolean,
    private readonly stopped: (stop: DebugStop) => void,
  ) {
    this.entryPending = stopOnEntry;
  }

  /** Where `threadId` is held, if it is. */
  stopOf(threadId: number): DebugStop | undefined {
    return this.holds.get(threadId)?.stop;
  }

  /** Every held thread's stop. */
  stops(): DebugStop[] {
    return [...this.holds.values()].map((hold) => hold.stop);
  }

  /** Changes what a held thread's stop shows (an edit of what its tool receives); undefined when it is not held. */
  updateStop(threadId: number, changes: Partial<DebugStop>): DebugStop | undefined {
    const hold = this.holds.get(threadId);
    if (!hold) return undefined;
    hold.stop = { ...hold.stop, ...changes };
    return hold.stop;
  }

  /** Releases every held thread; they run until the next breakpoint. */
  continue(): void {
    this.nextPending = false;
    this.releaseAll();
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

  /** Releases every hold, leaving a pending next as it is (the run is ending). */
  releaseAll(): void {
    for (const threadId of [...this.holds.keys()]) this.release(threadId, 'run');
  }

  /** Forgets the step mode of a thread that exited. */
  forget(threadId: number): void {
    this.modes.delete(threadId);
  }

  /** Why a thread holds before its tool starts: entry, a breakpoint, a pending next or a pause (the entry is taken either way). */
  atToolStart(breakpoint: boolean): StopReason | undefined {
    let reason: StopReason | undefined;
    if (this.entryPending) reason = 'entry';
    else if (breakpoint) reason = 'breakpoint';
    else if (this.nextPending) reason = 'step';
    else if (this.pausePending) reason = 'pause';
    this.entryPending = false;
    return reason;
  }

  /** Why a thread holds before one of its events applies: a data breakpoint, stepping in, or a pause. */
  atEvent(threadId: number, dataBreakpoint: boolean): StopReason | undefined {
    if (dataBreakpoint) return 'data breakpoint';
    if (this.modeOf(threadId) === 'stepIn') return 'step';
    if (this.pausePending) return 'pause';
    return undefined;
  }

  /** Why a thread holds once its attempt's process ended: an exception filter, a step, or a pause. */
  afterAttempt(threadId: number, exception: boolean): StopReason | undefined {
    const mode = this.modeOf(threadId);
    if (exception) return 'exception';
    if (mode === 'stepIn' || mode === 'stepOut' || this.nextPending) return 'step';
    if (this.pausePending) return 'pause';
    return undefined;
  }

  /** Why the plan thread holds before re-planning: the `replan` exception filter, or a pause. */
  beforeRePlan(exception: boolean): StopReason | undefined {
    if (exception) return 'exception';
    if (this.pausePending) return 'pause';
    return undefined;
  }

  /** Holds a thread at `stop` until it is released; a hold takes any pending next or pause. */
  hold(stop: DebugStop): Promise<void> {
    this.nextPending = false;
    this.pausePending = false;
    return new Promise<void>((resolve) => {
      this.holds.set(stop.threadId, { stop, release: resolve });
      this.stopped(stop);
    });
  }

  private modeOf(threadId: number): StepMode {
    return this.modes.get(threadId) ?? 'run';
  }

  private release(threadId: number, mode: StepMode): void {
    const hold = this.holds.get(threadId);
    if (!hold) return;
    this.holds.delete(threadId);
    this.modes.set(threadId, mode);
    hold.release();
  }
}
