// Hit counts and logpoints over a recorded run (time travel, replays): the n-th time a breakpoint is reached is counted in the recording, so both directions agree with the live run.
import { interpolateLogMessage } from './hitCondition.js';
import type { BreakpointSet } from './breakpointSet.js';
import type { DebugHistory, DebugPoint } from './debugHistory.js';

/** What the breakpoints do at a recorded tool boundary. */
export interface RecordedDecision {
  readonly stopIds: number[];
  readonly logs: string[];
}

/** For each breakpoint, the history indexes where it is reached (tool and condition match), scanned once and extended as the history grows. */
export class RecordedHits {
  private readonly reached = new Map<number, number[]>();
  private scanned = 0;

  constructor(
    private readonly history: () => DebugHistory,
    private readonly breakpoints: BreakpointSet,
  ) {}

  /** Forget the counts: the breakpoints changed, or the history was cut or replaced. */
  reset(): void {
    this.reached.clear();
    this.scanned = 0;
  }

  /** The stopping breakpoints and the logpoint messages of a tool point, with hit conditions applied by the recorded count. */
  at(point: DebugPoint): RecordedDecision {
    const decision: RecordedDecision = { stopIds: [], logs: [] };
    if (point.kind !== 'tool') return decision;
    this.scanTo(point.index);
    const scope = { state: point.state, dependencies: point.dependencies, input: point.input };
    for (const match of this.breakpoints.matchAt({ toolId: point.toolId, skill: point.skill }, scope)) {
      const indexes = this.reached.get(match.id) ?? [];
      const hits = lowerBound(indexes, point.index) + 1;
      if (match.hitCondition && !match.hitCondition.matches(hits)) continue;
      if (match.logMessage !== undefined) decision.logs.push(interpolateLogMessage(match.logMessage, scope));
      else decision.stopIds.push(match.id);
    }
    return decision;
  }

  private scanTo(index: number): void {
    const history = this.history();
    const last = Math.min(index, history.length - 1);
    for (; this.scanned <= last; this.scanned++) {
      const point = history.at(this.scanned)!;
      if (point.kind !== 'tool') continue;
      for (const match of this.breakpoints.matchAt({ toolId: point.toolId, skill: point.skill }, { state: point.state, dependencies: point.dependencies })) {
        let indexes = this.reached.get(match.id);
        if (!indexes) this.reached.set(match.id, (indexes = []));
        indexes.push(this.scanned);
      }
    }
  }
}

/** The number of sorted values below `value`. */
function lowerBound(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
