// A recorded run's critical path (the dependency chain that decided when it finished) and its marks on a graph layout. Pure data; no I/O.
import type { PlanGraphEdge, PlanGraphLayout, PlanGraphNode } from './graphTypes.js';

/** A dependency edge: `to` depends on `from` (the shape of `PlanGraphModel.dependencies`). */
export interface DependencyEdge {
  readonly from: string;
  readonly to: string;
}

/** A tool that ran, with when it finished (any time unit, as long as all tools share it). */
export interface FinishedTool {
  readonly toolId: string;
  readonly end: number;
}

/**
 * The chain of dependencies that decided when the run finished, first to last: from the tool that finished last,
 * step to its dependency that finished last, until a tool has no dependency among `tools`. Ties go to the tool
 * that comes first in `tools` (plan order), so the path is deterministic. Empty when `tools` is empty.
 * @param tools the tools that ran, in plan order; a toolId seen twice keeps its first entry
 * @param dependencies the plan's edges; edges to or from tools not in `tools` are ignored
 */
export function criticalPathOf(tools: readonly FinishedTool[], dependencies: readonly DependencyEdge[]): string[] {
  const order = new Map<string, { readonly end: number; readonly index: number }>();
  tools.forEach((tool, index) => {
    if (!order.has(tool.toolId)) order.set(tool.toolId, { end: tool.end, index });
  });
  const dependenciesOf = new Map<string, string[]>();
  for (const edge of dependencies) {
    if (!order.has(edge.from) || !order.has(edge.to)) continue;
    const list = dependenciesOf.get(edge.to);
    if (list) list.push(edge.from);
    else dependenciesOf.set(edge.to, [edge.from]);
  }
  const latest = (candidates: Iterable<string>): string | undefined => {
    let best: string | undefined;
    for (const candidate of candidates) {
      if (best === undefined || finishesLater(order.get(candidate)!, order.get(best)!)) best = candidate;
    }
    return best;
  };

  const path: string[] = [];
  // The visited set only guards against a cyclic edge list; a recorded run's dependencies never form a cycle.
  const visited = new Set<string>();
  for (let current = latest(order.keys()); current !== undefined; ) {
    path.push(current);
    visited.add(current);
    current = latest((dependenciesOf.get(current) ?? []).filter((dependency) => !visited.has(dependency)));
  }
  return path.reverse();
}

/**
 * A copy of `layout` with `critical: true` on the nodes of `criticalPath` and on the edges between consecutive
 * ones (edge.from = the earlier tool, edge.to = the next); every other node and edge loses any earlier mark.
 */
export function markCriticalPath(layout: PlanGraphLayout, criticalPath: readonly string[]): PlanGraphLayout {
  const onPath = new Set(criticalPath);
  const links = new Set<string>();
  for (let index = 1; index < criticalPath.length; index++) links.add(linkKey(criticalPath[index - 1]!, criticalPath[index]!));
  const nodes = layout.nodes.map((node): PlanGraphNode => {
    const { critical: _critical, ...plain } = node;
    return onPath.has(node.id) ? { ...plain, critical: true } : plain;
  });
  const edges = layout.edges.map((edge): PlanGraphEdge => {
    const { critical: _critical, ...plain } = edge;
    return links.has(linkKey(edge.from, edge.to)) ? { ...plain, critical: true } : plain;
  });
  return { ...layout, nodes, edges };
}

function finishesLater(candidate: { readonly end: number; readonly index: number }, best: { readonly end: number; readonly index: number }): boolean {
  return candidate.end > best.end || (candidate.end === best.end && candidate.index < best.index);
}

function linkKey(from: string, to: string): string {
  return `${from}\u0000${to}`;
}
