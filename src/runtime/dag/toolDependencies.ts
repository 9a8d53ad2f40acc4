// DAG utilities over tool dependencies (docs/plan-json-and-protocol.md#dependencies): stable Kahn sort, DFS cycle path, levels, dependents.

/** The minimal shape the graph algorithms need. */
export interface DagNode {
  readonly toolId: string;
  readonly dependencies?: readonly string[];
}

export type TopologicalSortResult = { readonly ok: true; readonly order: readonly string[] } | { readonly ok: false; readonly cycle: readonly string[] };

/**
 * Kahn's algorithm. Ties keep plan order: the ready set is a min-heap on the plan index, so the
 * result is the lexicographically smallest order by plan position. Unknown dependencies are ignored
 * (validation reports them). On a cycle, returns the cycle path found by DFS.
 */
export function topologicalSort(nodes: readonly DagNode[]): TopologicalSortResult {
  const indexById = new Map<string, number>();
  nodes.forEach((node, index) => indexById.set(node.toolId, index));
  const inDegree = new Int32Array(nodes.length);
  const dependents: number[][] = nodes.map(() => []);
  nodes.forEach((node, index) => {
    for (const dependency of new Set(node.dependencies ?? [])) {
      const from = indexById.get(dependency);
      if (from === undefined) continue;
      dependents[from]!.push(index);
      inDegree[index]!++;
    }
  });
  const ready = new MinHeap();
  for (let index = 0; index < nodes.length; index++) if (inDegree[index] === 0) ready.push(index);
  const order: string[] = [];
  while (ready.size > 0) {
    const current = ready.pop();
    order.push(nodes[current]!.toolId);
    for (const next of dependents[current]!) {
      if (--inDegree[next]! === 0) ready.push(next);
    }
  }
  if (order.length !== nodes.length) return { ok: false, cycle: findCycle(nodes) ?? [] };
  return { ok: true, order };
}

/**
 * DFS cycle detection (docs/plan-json-and-protocol.md#cycles). Returns the cycle as a path that starts and ends at the same
 * toolId, following dependency edges in the direction "x depends on y" (e.g. ['x', 'y', 'z', 'x']),
 * or undefined when the graph is acyclic. Self-dependencies are reported as ['x', 'x'].
 */
export function findCycle(nodes: readonly DagNode[]): string[] | undefined {
  const byId = new Map<string, DagNode>();
  for (const node of nodes) if (!byId.has(node.toolId)) byId.set(node.toolId, node);
  const color = new Map<string, 1 | 2>(); // 1 = on the stack, 2 = finished
  for (const start of nodes) {
    if (color.has(start.toolId)) continue;
    // Iterative DFS so deep chains cannot overflow the call stack.
    const stack: { id: string; next: number }[] = [{ id: start.toolId, next: 0 }];
    const path: string[] = [start.toolId];
    color.set(start.toolId, 1);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const dependencies = byId.get(frame.id)?.dependencies ?? [];
      if (frame.next < dependencies.length) {
        const dependency = dependencies[frame.next++]!;
        if (!byId.has(dependency)) continue;
        const state = color.get(dependency);
        if (state === 1) {
          return [...path.slice(path.indexOf(dependency)), dependency];
        }
        if (state === undefined) {
          color.set(dependency, 1);
          stack.push({ id: dependency, next: 0 });
          path.push(dependency);
        }
      } else {
        color.set(frame.id, 2);
        stack.pop();
        path.pop();
      }
    }
  }
  return undefined;
}

/**
 * Parallel groups by level (docs/plan-json-and-protocol.md#levels): level = length of the longest dependency path from a
 * source. Tools in one group never depend on each other. Groups keep plan order. Requires a DAG.
 */
export function parallelLevels(nodes: readonly DagNode[]): string[][] {
  const sorted = topologicalSort(nodes);
  if (!sorted.ok) throw new Error(`parallelLevels needs an acyclic graph (cycle: ${sorted.cycle.join(' -> ')})`);
  const byId = new Map(nodes.map((node) => [node.toolId, node] as const));
  const level = new Map<string, number>();
  for (const id of sorted.order) {
    let max = -1;
    for (const dependency of byId.get(id)?.dependencies ?? []) {
      const dependencyLevel = level.get(dependency);
      if (dependencyLevel !== undefined && dependencyLevel > max) max = dependencyLevel;
    }
    level.set(id, max + 1);
  }
  const groups: string[][] = [];
  for (const node of nodes) {
    const nodeLevel = level.get(node.toolId)!;
    (groups[nodeLevel] ??= []).push(node.toolId);
  }
  return groups;
}

/** Every tool that depends, directly or transitively, on `toolId` (not including `toolId`). */
export function transitiveDependents(nodes: readonly DagNode[], toolId: string): Set<string> {
  const dependentsOf = new Map<string, string[]>();
  for (const node of nodes) {
    for (const dependency of node.dependencies ?? []) {
      let list = dependentsOf.get(dependency);
      if (!list) dependentsOf.set(dependency, (list = []));
      list.push(node.toolId);
    }
  }
  const result = new Set<string>();
  const queue = [toolId];
  while (queue.length > 0) {
    for (const dependent of dependentsOf.get(queue.pop()!) ?? []) {
      if (dependent !== toolId && !result.has(dependent)) {
        result.add(dependent);
        queue.push(dependent);
      }
    }
  }
  return result;
}

/** Binary min-heap of plan indices (the ready set of the stable Kahn sort and of the scheduler). */
export class MinHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(value: number): void {
    const items = this.items;
    items.push(value);
    let child = items.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (items[parent]! <= value) break;
      items[child] = items[parent]!;
      child = parent;
    }
    items[child] = value;
  }

  peek(): number | undefined {
    return this.items[0];
  }

  pop(): number {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      let parent = 0;
      const length = items.length;
      for (;;) {
        const left = 2 * parent + 1;
        if (left >= length) break;
        const right = left + 1;
        const child = right < length && items[right]! < items[left]! ? right : left;
        if (items[child]! >= last) break;
        items[parent] = items[child]!;
        parent = child;
      }
      items[parent] = last;
    }
    return top;
  }
}
