// Readiness and concurrency: the tools whose dependencies are done, taken in plan order under the run's limit, a parallel plan's non-async tool running alone.
import { MinHeap } from '../dag/toolDependencies.js';
import type { ToolSchedule } from './toolSchedule.js';

/** The ready tools (a min-heap on plan index, so ties keep plan order) and the running count they are started under. */
export class ReadyQueue {
  private readonly ready = new MinHeap();
  private running = 0;
  private exclusiveRunning = false;

  constructor(
    private readonly schedule: ToolSchedule,
    /** A parallel plan runs up to `limit` tools at once; any other plan runs one at a time (limit 1). */
    private readonly parallel: boolean,
    private readonly limit: number,
  ) {}

  /** No tool is ready to start and none runs. */
  get idle(): boolean {
    return this.running === 0 && this.ready.size === 0;
  }

  /** How many tools run now. */
  get runningCount(): number {
    return this.running;
  }

  /** A tool whose dependencies are all done. */
  push(index: number): void {
    this.ready.push(index);
  }

  /** A tool finished and releases its dependents: those with nothing left to wait for are ready. */
  release(index: number): void {
    for (const dependent of this.schedule.dependents[index]!) {
      if (this.schedule.countDown(dependent)) this.ready.push(dependent);
    }
  }

  /**
   * The next ready tool that may start now, taken off the queue; undefined when the limit is reached, a tool runs
   * alone, or the next tool must run alone and waits for the running ones. Tools no longer pending are dropped.
   */
  take(): number | undefined {
    while (this.ready.size > 0 && this.running < this.limit && !this.exclusiveRunning) {
      const index = this.ready.peek()!;
      const pending = this.schedule.isPending(index);
      // In a parallel plan a tool with async: false runs alone: it waits for the running tools to
      // finish (the tools after it in plan order wait too, so it cannot starve), and nothing else
      // starts until it ends.
      if (pending && this.running > 0 && this.exclusive(index)) return undefined;
      this.ready.pop();
      if (pending) return index;
    }
    return undefined;
  }

  /** Counts a taken tool as running; true when it runs alone (pass that to `ended`). */
  started(index: number): boolean {
    this.running++;
    const exclusive = this.exclusive(index);
    if (exclusive) this.exclusiveRunning = true;
    return exclusive;
  }

  /** Counts a running tool as ended. */
  ended(exclusive: boolean): void {
    this.running--;
    if (exclusive) this.exclusiveRunning = false;
  }

  private exclusive(index: number): boolean {
    return this.parallel && !this.schedule.tools[index]!.async;
  }
}
