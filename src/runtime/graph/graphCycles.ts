// Cycles of a dependency graph: Tarjan's strongly connected components, one cycle path per component, and cycle-edge membership.

interface CycleInput {
  readonly toolId: string;
  readonly dependencies: readonly string[];
}

export interface CycleSearch {
  /** Each cycle as toolIds along "depends on" edges, without repeating the first; self-dependencies are `[x]`. */
  readonly cycles: readonly (readonly string[])[];
  /** Whether the edge "dependent depends on dependency" lies on a cycle. */
  inCycle(dependency: string, dependent: string): boolean;
}

/** Finds every strongly connected component with a cycle (iteratively, so long chains cannot overflow the stack). */
export function findCycles(nodes: readonly CycleInput[]): CycleSearch {
  const indexById = new Map<string, number>();
  nodes.forEach((node, index) => indexById.set(node.toolId, index));
  const successors = nodes.map((node) => node.dependencies.map((id) => indexById.get(id)).filter((index): index is number => index !== undefined));
  const component = tarjan(successors);
  const cycles: string[][] = [];
  const reported = new Set<number>();
  const sizes = new Map<number, number>();
  for (const id of component) sizes.set(id, (sizes.get(id) ?? 0) + 1);
  nodes.forEach((node, index) => {
    const id = component[index]!;
    if (reported.has(id)) return;
    const selfLoop = successors[index]!.includes(index);
    if (sizes.get(id)! < 2 && !selfLoop) return;
    reported.add(id);
    cycles.push(cycleThrough(index, successors, component).map((position) => nodes[position]!.toolId));
  });
  return {
    cycles,
    inCycle(dependency, dependent) {
      const from = indexById.get(dependent);
      const to = indexById.get(dependency);
      if (from === undefined || to === undefined || !reported.has(component[from]!)) return false;
      return component[from] === component[to];
    },
  };
}

/** Component id of every node (Tarjan, iterative). */
function tarjan(successors: readonly (readonly number[])[]): number[] {
  const count = successors.length;
  const order = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const component = new Array<number>(count).fill(-1);
  const stack: number[] = [];
  let counter = 0;
  let components = 0;
  for (let start = 0; start < count; start++) {
    if (order[start] !== -1) continue;
    const frames: { node: number; next: number }[] = [{ node: start, next: 0 }];
    order[start] = low[start] = counter++;
    stack.push(start);
    onStack[start] = 1;
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const next = successors[frame.node]![frame.next++];
      if (next !== undefined) {
        if (order[next] === -1) {
          order[next] = low[next] = counter++;
          stack.push(next);
          onStack[next] = 1;
          frames.push({ node: next, next: 0 });
        } else if (onStack[next]) low[frame.node] = Math.min(low[frame.node]!, order[next]!);
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low[parent.node] = Math.min(low[parent.node]!, low[frame.node]!);
      if (low[frame.node] === order[frame.node]) {
        let member: number;
        do {
          member = stack.pop()!;
          onStack[member] = 0;
          component[member] = components;
        } while (member !== frame.node);
        components++;
      }
    }
  }
  return component;
}

/** A shortest cycle from `start` back to itself inside its component (breadth-first). */
function cycleThrough(start: number, successors: readonly (readonly number[])[], component: readonly number[]): number[] {
  const previous = new Map<number, number>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const next of successors[node]!) {
      if (component[next] !== component[start]) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return path;
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}
