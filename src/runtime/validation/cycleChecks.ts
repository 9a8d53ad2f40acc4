// Dependency cycle checks: a Kahn pass finds the tools that cannot be ordered, a DFS reports each cycle as a path. Pure: no I/O.
import { findCycle, type DagNode } from '../dag/toolDependencies.js';
import { DiagnosticCode, type DiagnosticDraft, type RelatedInformation } from './diagnostic.js';
import { pointerFromPath } from './jsonLocator.js';
import { dependencyIndex, type DependencyTargets, type ToolIdIndex, type ToolView } from './planChecks.js';

/** Most dependency cycles reported for one plan. */
const MAX_CYCLE_DIAGNOSTICS = 20;

/**
 * Reports dependency cycles as paths (`x -> y -> z -> x`, starting at the member listed first).
 * Self-dependencies and unknown ids are left out: they have their own codes. After each cycle its
 * members are removed and the search goes on, so separate cycles are each reported.
 */
export function checkCycles(tools: readonly ToolView[], toolIds: ToolIdIndex, dependencyTargets: DependencyTargets, drafts: DiagnosticDraft[]): void {
  // The usual plan lists each tool after its dependencies: no cycle is possible, and no pass is needed.
  if (dependencyTargets.onlyEarlier) return;
  const { firstIndexById } = toolIds;
  const stuck = toolsNotOrdered(tools, toolIds, dependencyTargets);
  if (stuck === undefined) return;
  // Only the tools Kahn's pass could not order can lie on a cycle. The others (and edges to them)
  // are left out: every dependency of an ordered tool is ordered, so the DFS of findCycle would
  // finish them without meeting a tool on its stack, and the cycles it finds stay the same.
  let nodes: DagNode[] = [];
  for (const tool of tools) {
    if (!stuck[tool.index]) continue;
    const dependencies: string[] = [];
    for (const id of new Set(tool.dependencies)) {
      if (id === tool.toolId) continue;
      const target = firstIndexById.get(id);
      if (target !== undefined && stuck[target]) dependencies.push(id);
    }
    nodes.push({ toolId: tool.toolId!, dependencies });
  }
  const edgePointer = (from: string, to: string): string => {
    const tool = tools[firstIndexById.get(from)!]!;
    const position = tool.dependencies.indexOf(to);
    return pointerFromPath(['tools', tool.index, 'dependencies', ...(position >= 0 ? [dependencyIndex(tool, position)] : [])]);
  };
  for (let reported = 0; reported < MAX_CYCLE_DIAGNOSTICS; reported++) {
    const cycle = findCycle(nodes);
    if (!cycle || cycle.length < 2) return;
    const members = cycle.slice(0, -1);
    let start = 0;
    members.forEach((id, position) => {
      if (firstIndexById.get(id)! < firstIndexById.get(members[start]!)!) start = position;
    });
    const path = [...members.slice(start), ...members.slice(0, start), members[start]!];
    // Every edge, the first one included, so each is a clickable location.
    const related: RelatedInformation[] = [];
    for (let step = 0; step < path.length - 1; step++) {
      related.push({ pointer: edgePointer(path[step]!, path[step + 1]!), message: `"${path[step]}" depends on "${path[step + 1]}"` });
    }
    drafts.push({
      severity: 'error',
      code: DiagnosticCode.DEPENDENCY_CYCLE,
      message: `dependency cycle: ${path.join(' -> ')} (each tool waits for the next, so none of them can start)`,
      pointer: edgePointer(path[0]!, path[1]!),
      related,
    });
    const removed = new Set(members);
    nodes = nodes
      .filter((node) => !removed.has(node.toolId))
      .map((node) => ({ toolId: node.toolId, dependencies: (node.dependencies ?? []).filter((id) => !removed.has(id)) }));
  }
}

/**
 * Kahn's pass over tool indices: the graph holds the first tool of each toolId, with an edge per
 * dependency on another such tool (self-dependencies, unknown ids and repeats left out). Returns
 * undefined when every tool can be ordered (no cycle), else a flag per tool index: set for the
 * tools that cannot be ordered, i.e. those on a cycle or waiting, directly or not, for one.
 */
function toolsNotOrdered(tools: readonly ToolView[], { firstIndexById, unique }: ToolIdIndex, { offsets, targets }: DependencyTargets): Uint8Array | undefined {
  const count = tools.length;
  const isNode = new Uint8Array(count);
  let nodeCount = 0;
  for (const tool of tools) {
    if (tool.toolId !== undefined && (unique || firstIndexById.get(tool.toolId) === tool.index)) {
      isNode[tool.index] = 1;
      nodeCount++;
    }
  }
  // inDegree: dependencies still waited for; dependents of each tool in compressed rows.
  const inDegree = new Int32Array(count);
  const rowStart = new Int32Array(count + 1);
  let edges = 0;
  for (let index = 0; index < count; index++) {
    if (!isNode[index]) continue;
    for (let slot = offsets[index]!; slot < offsets[index + 1]!; slot++) {
      const target = targets[slot]!;
      if (target < 0 || target === index) continue;
      inDegree[index]!++;
      rowStart[target + 1]!++;
      edges++;
    }
  }
  if (edges === 0) return undefined;
  for (let index = 0; index < count; index++) rowStart[index + 1]! += rowStart[index]!;
  const fill = rowStart.slice(0, count);
  const dependents = new Int32Array(edges);
  for (let index = 0; index < count; index++) {
    if (!isNode[index]) continue;
    for (let slot = offsets[index]!; slot < offsets[index + 1]!; slot++) {
      const target = targets[slot]!;
      if (target < 0 || target === index) continue;
      dependents[fill[target]!++] = index;
    }
  }
  const queue = new Int32Array(nodeCount);
  let tail = 0;
  for (let index = 0; index < count; index++) if (isNode[index] && inDegree[index] === 0) queue[tail++] = index;
  for (let head = 0; head < tail; head++) {
    const current = queue[head]!;
    for (let edge = rowStart[current]!; edge < rowStart[current + 1]!; edge++) {
      const next = dependents[edge]!;
      if (--inDegree[next]! === 0) queue[tail++] = next;
    }
  }
  if (tail === nodeCount) return undefined;
  const stuck = new Uint8Array(count);
  for (let index = 0; index < count; index++) if (isNode[index] && inDegree[index]! > 0) stuck[index] = 1;
  return stuck;
}
