// Semantic checks of a plan beyond its schema: tool views, duplicate toolIds, dependencies, disabled skills. Pure: no I/O.
import { closestMatch } from './closestMatch.js';
import { DiagnosticCode, type DiagnosticDraft } from './diagnostic.js';
import { pointerFromPath } from './jsonLocator.js';
import { resolvedSkill, type ToolPathResolutions } from './pathChecks.js';
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
export function dependencyIndex(tool: ToolView, position: number): number {
  return tool.dependencyPositions === undefined ? position : tool.dependencyPositions[position]!;
}

/** Dependency lists up to this length are checked for repeats by a linear scan instead of a Map. */
const LINEAR_DUPLICATE_SCAN_LIMIT = 16;

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

/** The first tool index of each toolId. */
export interface ToolIdIndex {
  /** Its keys are not in plan order: see {@link checkToolIds}. */
  readonly firstIndexById: ReadonlyMap<string, number>;
  /** True when no toolId repeats: every tool with a toolId is then the first with it (no lookup needed). */
  readonly unique: boolean;
}

/** Reports duplicate toolIds (related to the first use); returns each toolId's first index. */
export function checkToolIds(tools: readonly ToolView[], drafts: DiagnosticDraft[]): ToolIdIndex {
  // Filled from the last tool to the first, so that each toolId ends with its first index after one
  // Map operation per tool (looking up before setting costs a second one). Repeats show in the size.
  const firstIndexById = new Map<string, number>();
  let withIds = 0;
  for (let index = tools.length - 1; index >= 0; index--) {
    const toolId = tools[index]!.toolId;
    if (toolId === undefined) continue;
    firstIndexById.set(toolId, index);
    withIds++;
  }
  const unique = firstIndexById.size === withIds;
  if (unique) return { firstIndexById, unique };
  for (const tool of tools) {
    if (tool.toolId === undefined) continue;
    const first = firstIndexById.get(tool.toolId)!;
    if (first === tool.index) continue;
    drafts.push({
      severity: 'error',
      code: DiagnosticCode.DUPLICATE_TOOL_ID,
      message: `duplicate toolId "${tool.toolId}": tools/${first} already uses it; toolIds must be unique within a plan`,
      pointer: pointerFromPath(['tools', tool.index, 'toolId']),
      related: [{ pointer: pointerFromPath(['tools', first, 'toolId']), message: `first use of "${tool.toolId}"` }],
    });
  }
  return { firstIndexById, unique };
}

/** The distinct toolIds in order of first use (suggestions prefer the earlier of equally close ids). */
function toolIdsInOrder(tools: readonly ToolView[], firstIndexById: ReadonlyMap<string, number>): string[] {
  const ids: string[] = [];
  for (const tool of tools) {
    if (tool.toolId !== undefined && firstIndexById.get(tool.toolId) === tool.index) ids.push(tool.toolId);
  }
  return ids;
}

/**
 * The tool each dependency names, flat over all tools: the dependency strings of `tools[i]` are at
 * `offsets[i]` to `offsets[i + 1]` of `targets`, which holds the index of the first tool with that
 * toolId, or -1 for unknown ids, self-dependencies and repeats of an earlier dependency.
 */
export interface DependencyTargets {
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
  /** True when every dependency names an earlier tool: edges then all point backwards, so there is no cycle. */
  readonly onlyEarlier: boolean;
}

/**
 * Reports repeated, self and unknown dependencies (with a "did you mean" for a close toolId).
 * Returns the tool each dependency names, for {@link checkCycles}.
 */
export function checkDependencies(tools: readonly ToolView[], toolIds: ToolIdIndex, drafts: DiagnosticDraft[]): DependencyTargets {
  const { firstIndexById, unique } = toolIds;
  const offsets = new Int32Array(tools.length + 1);
  for (let index = 0; index < tools.length; index++) offsets[index + 1] = offsets[index]! + tools[index]!.dependencies.length;
  const targets = new Int32Array(offsets[tools.length]!).fill(-1);
  let onlyEarlier = true;
  let knownIds: string[] | undefined;
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index]!;
    const ids = tool.dependencies;
    if (ids.length === 0) continue;
    const offset = offsets[index]!;
    // Plans mostly chain each tool to the one before: with unique toolIds, that one needs no lookup.
    const previousId = unique && index > 0 ? tools[index - 1]!.toolId : undefined;
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
      const target = id === previousId ? index - 1 : firstIndexById.get(id);
      if (target !== undefined) {
        targets[offset + position] = target;
        if (target >= tool.index) onlyEarlier = false;
      } else {
        const suggestion = closestMatch(id, (knownIds ??= toolIdsInOrder(tools, firstIndexById)));
        const hint = suggestion ? `; did you mean "${suggestion}"?` : '';
        const message = `${toolName(tool)} depends on "${id}", which is not the toolId of any tool in this plan${hint}`;
        drafts.push({ severity: 'error', code: DiagnosticCode.UNKNOWN_DEPENDENCY, message, pointer: dependencyPointer(tool, position) });
      }
    }
  }
  return { offsets, targets, onlyEarlier };
}

/** Pointer of the `position`-th dependency string of `tool` (built only when a diagnostic needs it). */
function dependencyPointer(tool: ToolView, position: number): string {
  return pointerFromPath(['tools', tool.index, 'dependencies', dependencyIndex(tool, position)]);
}

/**
 * Warns about tools whose skill is in the plan's disabledSkills. The skill is the `<name>` of
 * `skills/<name>/…` in the toolPath, or the skill its resolved script lies in (from `resolutions`,
 * when toolPaths were checked).
 */
export function checkDisabledSkills(
  tools: readonly ToolView[],
  disabledSkills: unknown,
  resolutions: ToolPathResolutions | undefined,
  drafts: DiagnosticDraft[],
): void {
  if (!Array.isArray(disabledSkills)) return;
  const disabledIndex = new Map<string, number>();
  disabledSkills.forEach((skill: unknown, index) => {
    if (typeof skill === 'string' && !disabledIndex.has(skill)) disabledIndex.set(skill, index);
  });
  for (const tool of tools) {
    if (tool.toolPath === undefined) continue;
    const names = [skillNameOfPath(tool.toolPath), resolutions ? resolvedSkill(resolutions, tool.toolPath) : null];
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
