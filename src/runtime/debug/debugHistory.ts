// The debugger's record of every boundary and event a run passed (live or replayed): what time travel moves through.
import type { ToolEvent } from '../contractTypes/toolEvent.js';

/**
 * `tool`: before a tool attempt's process starts; `event`: before one of its NDJSON events applies; `finish`: the
 * attempt's process has ended; `replan`: before the re-planner is asked for more steps.
 */
export type PointKind = 'tool' | 'event' | 'finish' | 'replan';

/** How a failed attempt ended (finish points). */
export interface PointFailure {
  readonly category: string;
  readonly message: string;
  readonly timedOut: boolean;
  readonly willRetry: boolean;
}

/** One place in a run, with the values as they were there. Values are shared, never mutated. */
export interface DebugPoint {
  /** Position in the history. */
  readonly index: number;
  readonly kind: PointKind;
  readonly toolId: string;
  readonly attempt: number;
  readonly skill: string | null;
  /** The state at this point: what the tool receives (tool), the state before the event applies (event), after the attempt's patches (finish). */
  readonly state: Record<string, unknown>;
  readonly input: Record<string, unknown>;
  readonly dependencies: Record<string, unknown>;
  readonly event?: ToolEvent | undefined;
  /** 0-based index of the event within its attempt. */
  readonly eventIndex?: number | undefined;
  /** Finish points: true when the attempt succeeded. */
  readonly ok?: boolean | undefined;
  readonly failure?: PointFailure | undefined;
  /** Finish points: what the attempt ended with (exit code, duration, output, error). */
  readonly result?: Record<string, unknown> | undefined;
  /** Replan points: the re-planning iteration and the tool's suggestion. */
  readonly iteration?: number | undefined;
  readonly suggestion?: string | undefined;
  /** Milliseconds since the run started. */
  readonly timeMs: number;
}

export type NewPoint = Omit<DebugPoint, 'index'>;

/** Most points kept; past it a run goes on but is no longer recorded (time travel then covers its start). */
export const MAX_HISTORY_POINTS = 500_000;

/** An append-only list of points, truncated when a run forks from an earlier point. */
export class DebugHistory {
  private readonly points: DebugPoint[] = [];
  /** The event points of each attempt, in order (an attempt's output document reads them at every stop). */
  private readonly events = new Map<string, DebugPoint[]>();
  private overflowed = false;

  get length(): number {
    return this.points.length;
  }

  /** True once a point was not recorded because the history was full. */
  get full(): boolean {
    return this.overflowed;
  }

  at(index: number): DebugPoint | undefined {
    return this.points[index];
  }

  /** Records a point; returns it, or undefined when the history is full. */
  append(point: NewPoint): DebugPoint | undefined {
    if (this.points.length >= MAX_HISTORY_POINTS) {
      this.overflowed = true;
      return undefined;
    }
    const recorded: DebugPoint = { index: this.points.length, ...point };
    this.points.push(recorded);
    if (recorded.kind === 'event') this.indexEvent(recorded);
    return recorded;
  }

  /** Replaces a recorded point's values (an edit made while it was held), keeping its index. */
  replace(index: number, changes: Partial<Pick<DebugPoint, 'state' | 'input'>>): DebugPoint | undefined {
    const point = this.points[index];
    if (!point) return undefined;
    const changed: DebugPoint = { ...point, ...changes };
    this.points[index] = changed;
    if (changed.kind === 'event') {
      const list = this.events.get(attemptKey(changed.toolId, changed.attempt));
      const position = list?.indexOf(point) ?? -1;
      if (list && position >= 0) list[position] = changed;
    }
    return changed;
  }

  /** Forgets every point from `length` on (a restart from an earlier point). */
  truncate(length: number): void {
    this.points.length = Math.min(this.points.length, Math.max(0, length));
    this.overflowed = false;
    this.events.clear();
    for (const point of this.points) if (point.kind === 'event') this.indexEvent(point);
  }

  /** The nearest index after (or before) `from` whose point satisfies `matches`. */
  find(from: number, direction: 1 | -1, matches: (point: DebugPoint) => boolean): number | undefined {
    for (let index = from; index >= 0 && index < this.points.length; index += direction) {
      if (matches(this.points[index]!)) return index;
    }
    return undefined;
  }

  /** The last point of an attempt at or before `from` with the given kind. */
  findOfAttempt(from: number, toolId: string, attempt: number, kind: PointKind): DebugPoint | undefined {
    const index = this.find(Math.min(from, this.points.length - 1), -1, (point) => point.kind === kind && point.toolId === toolId && point.attempt === attempt);
    return index === undefined ? undefined : this.points[index];
  }

  /** Every event point of one attempt, in order (for its output document). */
  eventsOf(toolId: string, attempt: number): readonly DebugPoint[] {
    return this.events.get(attemptKey(toolId, attempt)) ?? [];
  }

  private indexEvent(point: DebugPoint): void {
    const key = attemptKey(point.toolId, point.attempt);
    let list = this.events.get(key);
    if (!list) this.events.set(key, (list = []));
    list.push(point);
  }
}

function attemptKey(toolId: string, attempt: number): string {
  return `${toolId}\u0000${attempt}`;
}
