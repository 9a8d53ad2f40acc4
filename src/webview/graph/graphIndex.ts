// Lookups over one layout: nodes by id, dependencies and dependents, ancestors and descendants, search matches. Pure (no DOM).
import type { PlanGraphLayout, PlanGraphNode } from '../../runtime/graph/graphTypes.js';

export class GraphIndex {
  readonly byId: ReadonlyMap<string, PlanGraphNode>;
  /** toolId → the toolIds it depends on (known tools only). */
  readonly dependencies: ReadonlyMap<string, readonly string[]>;
  /** toolId → the toolIds that depend on it. */
  readonly dependents: ReadonlyMap<string, readonly string[]>;
  /** Nodes of each level, left to right. */
  readonly levels: ReadonlyMap<number, readonly PlanGraphNode[]>;

  constructor(readonly layout: PlanGraphLayout) {
    this.byId = new Map(layout.nodes.map((node) => [node.id, node]));
    const dependencies = new Map<string, string[]>();
    const dependents = new Map<string, string[]>();
    for (const edge of layout.edges) {
      if (edge.kind === 'unknownDependency' || edge.from === edge.to) continue;
      push(dependencies, edge.to, edge.from);
      push(dependents, edge.from, edge.to);
    }
    this.dependencies = dependencies;
    this.dependents = dependents;
    const levels = new Map<number, PlanGraphNode[]>();
    for (const node of layout.nodes) push(levels, node.level, node);
    for (const row of levels.values()) row.sort((a, b) => a.x - b.x);
    this.levels = levels;
  }

  /** The node, its transitive dependencies and its transitive dependents. */
  lineage(id: string): Set<string> {
    const found = new Set<string>([id]);
    for (const relation of [this.dependencies, this.dependents]) {
      const queue = [id];
      const seen = new Set<string>([id]);
      while (queue.length > 0) {
        for (const next of relation.get(queue.pop()!) ?? []) {
          if (seen.has(next)) continue;
          seen.add(next);
          found.add(next);
          queue.push(next);
        }
      }
    }
    return found;
  }

  /** Nodes whose toolId or skill contains `query` (case-insensitive), in plan order. */
  search(query: string): PlanGraphNode[] {
    const needle = query.trim().toLowerCase();
    if (!needle) return [];
    return this.layout.nodes
      .filter(
        (node) =>
          node.id.toLowerCase().includes(needle) || (node.skill ?? '').toLowerCase().includes(needle) || (node.title ?? '').toLowerCase().includes(needle),
      )
      .sort((a, b) => a.level - b.level || a.x - b.x);
  }

  /** Bounding box of the given nodes (all nodes when `ids` is undefined), or undefined when there are none. */
  bounds(ids?: ReadonlySet<string>): { x: number; y: number; width: number; height: number } | undefined {
    let left = Infinity;
    let top = Infinity;
    let right = -Infinity;
    let bottom = -Infinity;
    for (const node of this.layout.nodes) {
      if (ids && !ids.has(node.id)) continue;
      left = Math.min(left, node.x);
      top = Math.min(top, node.y);
      right = Math.max(right, node.x + node.width);
      bottom = Math.max(bottom, node.y + node.height);
    }
    if (left === Infinity) return undefined;
    return { x: left, y: top, width: right - left, height: bottom - top };
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
