// Moving through a run's recorded points, forwards and backwards, with the same stepping and breakpoints as a live run.
import type { DebugHistory, DebugPoint } from './debugHistory.js';
import type { StopReason } from './debugStop.js';

/** `stepIn`: the next point; `next`: the next boundary; `stepOut`: the end of this attempt; `continue`: the next breakpoint. */
export type Motion = 'stepIn' | 'next' | 'stepOut' | 'continue';

/** A breakpoint that holds at a recorded point. */
export interface PointHit {
  readonly reason: StopReason;
  readonly hitBreakpointIds: readonly number[];
  readonly description?: string | undefined;
}

export interface TravelStop extends PointHit {
  readonly index: number;
}

/**
 * Where a motion from point `from` stops, going forward (1) or backward (-1): the first point where a breakpoint
 * holds, or the motion's own target. Undefined when it runs off the end of the history (forward) — backward, the
 * first point is a stop (`entry`).
 */
export function travel(
  history: DebugHistory,
  from: number,
  direction: 1 | -1,
  motion: Motion,
  breakpointAt: (point: DebugPoint, direction: 1 | -1) => PointHit | undefined,
): TravelStop | undefined {
  const current = history.at(from);
  for (let index = from + direction; index >= 0 && index < history.length; index += direction) {
    const point = history.at(index)!;
    const hit = breakpointAt(point, direction);
    if (hit) return { index, ...hit };
    if (targets(motion, point, current)) return { index, reason: 'step', hitBreakpointIds: [] };
  }
  if (direction === -1 && history.length > 0) return { index: 0, reason: from <= 0 ? 'step' : motion === 'continue' ? 'entry' : 'step', hitBreakpointIds: [] };
  return undefined;
}

function targets(motion: Motion, point: DebugPoint, current: DebugPoint | undefined): boolean {
  switch (motion) {
    case 'stepIn':
      return true;
    case 'next':
      return point.kind !== 'event';
    case 'stepOut':
      if (!current || current.kind === 'finish' || current.kind === 'replan') return point.kind !== 'event';
      return point.kind === 'finish' && point.toolId === current.toolId && point.attempt === current.attempt;
    case 'continue':
      return false;
  }
}
