// Spatial keyboard navigation between nodes: up to a dependency (or the nearest node above), down to a dependent, left/right within a level. Pure.
import type { PlanGraphNode } from '../../runtime/graph/graphTypes.js';
import type { GraphIndex } from './graphIndex.js';

export type Direction = 'up' | 'down' | 'left' | 'right';

/** The key's direction, or undefined for other keys. */
export function directionOfKey(key: string): Direction | undefined {
  return ({ ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' } as const)[key as 'ArrowUp'];
}

/**
 * The node to select after moving `direction` from `current`; `current` itself when there is nowhere to go.
 * `visible` restricts the candidates (focus mode), when given.
 */
export function nextNode(index: GraphIndex, current: PlanGraphNode, direction: Direction, visible?: ReadonlySet<string>): PlanGraphNode {
  const allowed = (node: PlanGraphNode | undefined): node is PlanGraphNode => node !== undefined && (!visible || visible.has(node.id));
  if (direction === 'left' || direction === 'right') {
    const row = (index.levels.get(current.level) ?? []).filter(allowed);
    const position = row.findIndex((node) => node.id === current.id);
    const next = row[position + (direction === 'right' ? 1 : -1)];
    return next ?? current;
  }
  const related = (direction === 'up' ? index.dependencies : index.dependents).get(current.id) ?? [];
  const linked = related
    .map((id) => index.byId.get(id))
    .filter(allowed)
    .filter((node) => (direction === 'up' ? node.level < current.level : node.level > current.level));
  if (linked.length > 0) return nearest(linked, current);
  // No dependency (dependent) in that direction: the nearest node in the closest level that has one.
  const step = direction === 'up' ? -1 : 1;
  const levels = [...index.levels.keys()];
  const last = direction === 'up' ? Math.min(...levels) : Math.max(...levels);
  for (let level = current.level + step; direction === 'up' ? level >= last : level <= last; level += step) {
    const row = (index.levels.get(level) ?? []).filter(allowed);
    if (row.length > 0) return nearest(row, current);
  }
  return current;
}

/** The first node a keyboard user lands on: the top-left-most one that is visible. */
export function firstNode(index: GraphIndex, visible?: ReadonlySet<string>): PlanGraphNode | undefined {
  const levels = [...index.levels.keys()].sort((a, b) => a - b);
  for (const level of levels) {
    const node = (index.levels.get(level) ?? []).find((candidate) => !visible || visible.has(candidate.id));
    if (node) return node;
  }
  return undefined;
}

function nearest(candidates: readonly PlanGraphNode[], from: PlanGraphNode): PlanGraphNode {
  const centre = from.x + from.width / 2;
  let best = candidates[0]!;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = Math.abs(candidate.x + candidate.width / 2 - centre) + Math.abs(candidate.level - from.level) * 10_000;
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
