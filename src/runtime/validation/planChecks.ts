// Semantic checks of a plan beyond its schema: duplicate toolIds, dependencies, cycles, disabled skills. Pure: no I/O.
import { findCycle, type DagNode } from '../dag/graph.js';
import { parseCondition } from '../state/conditionExpression.js';
import { closestMatch } from './closestMatch.js';
import { DiagnosticCode, type DiagnosticSeverity, type RelatedInformation } from './diagnostic.js';
import { pointerFromPath, type PointerTarget } from './jsonLocator.js';
import { skillNameOfPath } from './toolPathPolicy.js';

/** A diagnostic before it gets a source range. */
export interface DiagnosticDraft {
  readonly severity: DiagnosticSeverity;
  readonly code: DiagnosticCode;
  readonly message: string;
  readonly pointer: string;
  /** Range on the property key instead of the value (unknown properties). */
  readonly target?: PointerTarget;
  readonly related?: readonly RelatedInformation[];
}

/** What the checks need of one tool, read defensively from data that may have failed the schema. */
export interface ToolView {
  readonly index: number;
  readonly toolId: string | undefined;
  readonly toolPath: string | undefined;
  readonly rollbackToolPath: string | undefined;
  readonly hasSubPlan: boolean;
  readonly subPlan: string | undefined;
  readonly condition: string | undefined;
  /** Dependency strings with their index in the `dependencies` array (non-strings are left out). */
  readonly dependencies: readonly { readonly id: string; readonly index: number }[];
}

/** Most dependency cycles reported for one plan. */
const MAX_CYCLE_DIAGNOSTICS = 20;

/** Reports conditions that do not parse, with the offending position in the message. */
export function checkConditions(tools: readonly ToolView[], drafts: DiagnosticDraft[]): void {
  for (const tool of tools) {
    if (tool.condition === undefined) continue;
    const parsed = parseCondition(tool.condition);
    if (parsed.ok) continue;
    drafts.push({
      severity: 'error',
      code: DiagnosticCode.CONDITION_SYNTAX,
      message: `${toolName(tool)}: invalid condition at character ${parsed.offset + 1}: ${parsed.message} (example: state.dice.lastRoll.success == true)`,
      pointer: pointerFromPath(['tools', tool.index, 'condition']),
    });
  }
}

/** Reads the tools array of a plan into views, whatever the items are. */
export function viewTools(items: readonly unknown[]): ToolView[] {
  return items.map((item, index) => {
    const tool = asRecord(item) ?? {};
    const dependencies = Array.isArray(tool['dependencies']) ? (tool['dependencies'] as unknown[]) : [];
    return {
      index,
      toolId: typeof tool['toolId'] === 'string' ? tool['toolId'] : undefined,
      toolPath: nonEmptyString(tool['toolPath']),
      rollbackToolPath: nonEmptyString(asRecord(tool['rollback'])?.['toolPath']),
      hasSubPlan: typeof tool['subPlan'] === 'string',
      subPlan: nonEmptyString(tool['subPlan']),
      condition: typeof tool['condition'] === 'string' ? tool['condition'] : undefined,
      dependencies: dependencies.flatMap((id, position) => (typeof id === 'string' ? [{ id, index: position }] : [])),
    };
  });
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

/** Reports repeated, self and unknown dependencies (with a "did you mean" for a close toolId). */
export function checkDependencies(tools: readonly ToolView[], firstIndexById: ReadonlyMap<string, number>, drafts: DiagnosticDraft[]): void {
  for (const tool of tools) {
    const name = toolName(tool);
    const firstPositionOf = new Map<string, number>();
    for (const dependency of tool.dependencies) {
      const pointer = pointerFromPath(['tools', tool.index, 'dependencies', dependency.index]);
      const earlier = firstPositionOf.get(dependency.id);
      if (earlier !== undefined) {
        drafts.push({
          severity: 'warning',
          code: DiagnosticCode.DUPLICATE_DEPENDENCY,
          message: `${name} lists the dependency "${dependency.id}" more than once`,
          pointer,
          related: [{ pointer: pointerFromPath(['tools', tool.index, 'dependencies', earlier]), message: 'first listed here' }],
        });
        continue;
      }
      firstPositionOf.set(dependency.id, dependency.index);
      if (dependency.id === tool.toolId) {
        const message = `${name} lists itself in its dependencies; a tool cannot wait for itself`;
        drafts.push({ severity: 'error', code: DiagnosticCode.SELF_DEPENDENCY, message, pointer });
      } else if (!firstIndexById.has(dependency.id)) {
        const suggestion = closestMatch(dependency.id, firstIndexById.keys());
        const hint = suggestion ? `; did you mean "${suggestion}"?` : '';
        const message = `${name} depends on "${dependency.id}", which is not the toolId of any tool in this plan${hint}`;
        drafts.push({ severity: 'error', code: DiagnosticCode.UNKNOWN_DEPENDENCY, message, pointer });
      }
    }
  }
}

/**
 * Reports dependency cycles as paths (`x -> y -> z -> x`, starting at the member listed first).
 * Self-dependencies and unknown ids are left out: they have their own codes. After each cycle its
 * members are removed and the search goes on, so separate cycles are each reported.
 */
export function checkCycles(tools: readonly ToolView[], firstIndexById: ReadonlyMap<string, number>, drafts: DiagnosticDraft[]): void {
  let nodes: DagNode[] = tools
    .filter((tool) => tool.toolId !== undefined && firstIndexById.get(tool.toolId) === tool.index)
    .map((tool) => ({
      toolId: tool.toolId!,
      dependencies: [...new Set(tool.dependencies.map((dependency) => dependency.id))].filter(
        (id) => id !== tool.toolId && firstIndexById.has(id),
      ),
    }));
  const edgePointer = (from: string, to: string): string => {
    const tool = tools[firstIndexById.get(from)!]!;
    const dependency = tool.dependencies.find((candidate) => candidate.id === to);
    return pointerFromPath(['tools', tool.index, 'dependencies', ...(dependency ? [dependency.index] : [])]);
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
    const related: RelatedInformation[] = [];
    for (let step = 1; step < path.length - 1; step++) {
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

function toolName(tool: ToolView): string {
  return tool.toolId !== undefined ? `"${tool.toolId}"` : `tools/${tool.index}`;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
