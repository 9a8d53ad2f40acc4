// Semantic checks of a plan beyond its schema: duplicate toolIds, dependencies, cycles, disabled skills. Pure: no I/O.
import { findCycle, type DagNode } from '../dag/graph.js';
import { closestMatch } from './closestMatch.js';
import { DiagnosticCode, type DiagnosticDraft, type RelatedInformation } from './diagnostic.js';
import { pointerFromPath } from './jsonLocator.js';
import { skillNameOfPath } from './toolPathPolicy.js';

export type { DiagnosticDraft } from './diagnostic.js';

/** What the checks need of one tool, read defensively from data that may have failed the schema. */
export interface ToolView {
  readonly index: number;
  readonly toolId: string | undefined;
  readonly toolPath: string | undefined;
  readonly rollbackToolPath: string | undefined;
  readonly hasSubPlan: boolean;
  readonly subPlan: string | undefined;
  readonly condition: string | undefined;
  /** The tool's `input` as written (undefined when absent). */
  readonly input: unknown;
  /** The dependency strings, in order (non-strings are left out). */
  readonly dependencies: readonly string[];
  /**
   * Index in the plan's `dependencies` array of each entry of `dependencies`, or undefined when
   * every entry is a string (the index is then the entry's own position).
   */
  readonly dependencyPositions: readonly number[] | undefined;
}

/** Index in the plan's `dependencies` array of the `position`-th dependency string of `tool`. */
function dependencyIndex(tool: ToolView, position: number): number {
  return tool.dependencyPositions === undefined ? position : tool.dependencyPositions[position]!;
}

/** Dependency lists up to this length are checked for repeats by a linear scan instead of a Map. */
const LINEAR_DUPLICATE_SCAN_LIMIT = 16;

/** Most dependency cycles reported for one plan. */
const MAX_CYCLE_DIAGNOSTICS = 20;

/** Reads the tools array of a plan into views, whatever the items are. */
export function viewTools(items: readonly unknown[]): ToolView[] {
  const views: ToolView[] = new Array<ToolView>(items.length);
  for (let index = 0; index < items.length; index++) {
    const tool = asRecord(items[index]) ?? {};
    const toolId = tool['toolId'];
    const subPlan = tool['subPlan'];
    const condition = tool['condition'];
    const rollback = tool['rollback'];
    let dependencies: readonly string[] = [];
    let dependencyPositions: number[] | undefined;
    const listed = tool['dependencies'];
    if (Array.isArray(listed)) {
      let allStrings = true;
      for (let position = 0; position < listed.length; position++) {
        if (typeof listed[position] !== 'string') {
          allStrings = false;
          break;
        }
      }
      if (allStrings) {
        // Read-only use: the plan's own array serves as the list (no copy on the common path).
        dependencies = listed as string[];
      } else {
        const strings: string[] = [];
        dependencyPositions = [];
        for (let position = 0; position < listed.length; position++) {
          const id: unknown = listed[position];
          if (typeof id !== 'string') continue;
          strings.push(id);
          dependencyPositions.push(position);
        }
        dependencies = strings;
      }
    }
    views[index] = {
      index,
      toolId: typeof toolId === 'string' ? toolId : undefined,
      toolPath: nonEmptyString(tool['toolPath']),
      rollbackToolPath: rollback === undefined ? undefined : nonEmptyString(asRecord(rollback)?.['toolPath']),
      hasSubPlan: typeof subPlan === 'string',
      subPlan: nonEmptyString(subPlan),
      condition: typeof condition === 'string' ? condition : undefined,
      input: tool['input'],
      dependencies,
      dependencyPositions,
    };
  }
  return views;
}

/** Reports duplicate toolIds (related to the first use); returns each toolId's first index. */
export function checkToolIds(tools: readonly ToolView[], drafts: DiagnosticDraft[]): Map<string, number> {
  const firstIndexById = new Map<string, number>();
  for (const tool of tools) {
    if (tool.toolId === undefined) continue;
    const first = firstIndexById.get(tool.toolId);
    if (first === undefined) {
      firstIndexById.set(tool.toolId, tool.index);
      continue;
    }
    drafts.push({
      severity: 'error',
      code: DiagnosticCode.DUPLICATE_TOOL_ID,
      message: `duplicate toolId "${tool.toolId}": tools/${first} already uses it; toolIds must be unique within a plan`,
      pointer: pointerFromPath(['tools', tool.index, 'toolId']),
      related: [{ pointer: pointerFromPath(['tools', first, 'toolId']), message: `first use of "${tool.toolId}"` }],
    });
  }
  return firstIndexById;
}

/**
 * The tool each dependency names, flat over all tools: the dependency strings of `tools[i]` are at
 * `offsets[i]` to `offsets[i + 1]` of `targets`, which holds the index of the first tool with that
 * toolId, or -1 for unknown ids, self-dependencies and repeats of an earlier dependency.
 */
export interface DependencyTargets {
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
}

/**
 * Reports repeated, self and unknown dependencies (with a "did you mean" for a close toolId).
 * Returns the tool each dependency names, for {@link checkCycles}.
 */
export function checkDependencies(
  tools: readonly ToolView[],
  firstIndexById: ReadonlyMap<string, number>,
  drafts: DiagnosticDraft[],
): DependencyTargets {
  const offsets = new Int32Array(tools.length + 1);
  for (let index = 0; index < tools.length; index++) offsets[index + 1] = offsets[index]! + tools[index]!.dependencies.length;
  const targets = new Int32Array(offsets[tools.length]!).fill(-1);
  for (const tool of tools) {
    const ids = tool.dependencies;
    if (ids.length === 0) continue;
    const offset = offsets[tool.index]!;
    // Long lists find repeats through a Map of first positions; short ones by scanning the earlier entries.
    const firstPositionOf = ids.length > LINEAR_DUPLICATE_SCAN_LIMIT ? new Map<string, number>() : undefined;
    for (let position = 0; position < ids.length; position++) {
      const id = ids[position]!;
      let earlier = -1;
      if (firstPositionOf !== undefined) {
        const found = firstPositionOf.get(id);
        if (found === undefined) firstPositionOf.set(id, position);
        else earlier = found;
      } else {
        for (let candidate = 0; candidate < position; candidate++) {
          if (ids[candidate] === id) {
            earlier = candidate;
            break;
          }
        }
      }
      if (earlier >= 0) {
        drafts.push({
          severity: 'warning',
          code: DiagnosticCode.DUPLICATE_DEPENDENCY,
          message: `${toolName(tool)} lists the dependency "${id}" more than once`,
          pointer: dependencyPointer(tool, position),
          related: [{ pointer: dependencyPointer(tool, earlier), message: 'first listed here' }],
        });
        continue;
      }
      if (id === tool.toolId) {
        const message = `${toolName(tool)} lists itself in its dependencies; a tool cannot wait for itself`;
        drafts.push({ severity: 'error', code: DiagnosticCode.SELF_DEPENDENCY, message, pointer: dependencyPointer(tool, position) });
        continue;
      }
      const target = firstIndexById.get(id);
      if (target !== undefined) {
        targets[offset + position] = target;
      } else {
        const suggestion = closestMatch(id, firstIndexById.keys());
        const hint = suggestion ? `; did you mean "${suggestion}"?` : '';
        const message = `${toolName(tool)} depends on "${id}", which is not the toolId of any tool in this plan${hint}`;
        drafts.push({ severity: 'error', code: DiagnosticCode.UNKNOWN_DEPENDENCY, message, pointer: dependencyPointer(tool, position) });
      }
    }
  }
  return { offsets, targets };
}

/** Pointer of the `position`-th dependency string of `tool` (built only when a diagnostic needs it). */
function dependencyPointer(tool: ToolView, position: number): string {
  return pointerFromPath(['tools', tool.index, 'dependencies', dependencyIndex(tool, position)]);
}

/**
 * Reports dependency cycles as paths (`x -> y -> z -> x`, starting at the member listed first).
 * Self-dependencies and unknown ids are left out: they have their own codes. After each cycle its
 * members are removed and the search goes on, so separate cycles are each reported.
 */
export function checkCycles(
  tools: readonly ToolView[],
  firstIndexById: ReadonlyMap<string, number>,
  dependencyTargets: DependencyTargets,
  drafts: DiagnosticDraft[],
): void {
  const stuck = toolsNotOrdered(tools, firstIndexById, dependencyTargets);
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
function toolsNotOrdered(
  tools: readonly ToolView[],
  firstIndexById: ReadonlyMap<string, number>,
  { offsets, targets }: DependencyTargets,
): Uint8Array | undefined {
  const count = tools.length;
  const isNode = new Uint8Array(count);
  let nodeCount = 0;
  for (const tool of tools) {
    if (tool.toolId !== undefined && firstIndexById.get(tool.toolId) === tool.index) {
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

/**
 * Warns about tools whose skill is in the plan's disabledSkills. The skill is the `<name>` of
 * `skills/<name>/…` in the toolPath, or the skill its resolved script lies in (`resolvedSkill`).
 */
export function checkDisabledSkills(
  tools: readonly ToolView[],
  disabledSkills: unknown,
  resolvedSkill: (toolPath: string) => string | null,
  drafts: DiagnosticDraft[],
): void {
  if (!Array.isArray(disabledSkills)) return;
  const disabledIndex = new Map<string, number>();
  disabledSkills.forEach((skill: unknown, index) => {
    if (typeof skill === 'string' && !disabledIndex.has(skill)) disabledIndex.set(skill, index);
  });
  for (const tool of tools) {
    if (tool.toolPath === undefined) continue;
    const names = [skillNameOfPath(tool.toolPath), resolvedSkill(tool.toolPath)];
    const skill = names.find((name): name is string => name !== null && disabledIndex.has(name));
    if (skill === undefined) continue;
    drafts.push({
      severity: 'warning',
      code: DiagnosticCode.TOOL_IN_DISABLED_SKILL,
      message: `${toolName(tool)} uses the skill "${skill}", which this plan lists in disabledSkills`,
      pointer: pointerFromPath(['tools', tool.index, 'toolPath']),
      related: [{ pointer: pointerFromPath(['disabledSkills', disabledIndex.get(skill)!]), message: `"${skill}" is disabled here` }],
    });
  }
}

/** A record when `value` is a non-array object. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** How messages name a tool: its quoted toolId, or `tools/<index>` without one. */
export function toolName(tool: ToolView): string {
  return tool.toolId !== undefined ? `"${tool.toolId}"` : `tools/${tool.index}`;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
