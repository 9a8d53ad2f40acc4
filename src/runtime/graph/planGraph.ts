// Builds the plan graph model (tools, dependency edges, unknown dependencies, cycles) from plan JSON, leniently: a half-typed plan still draws.
import { isPlainObject } from '../state/deepMerge.js';
import { findCycles } from './graphCycles.js';
import type { GraphDependency, GraphTool, NodeBadge, PlanGraphModel, ScriptNames, UnknownDependency } from './graphTypes.js';
import { formatDuration } from '../common/humanText.js';

/**
 * The graph of a parsed plan document (any JSON value). Entries of `tools` that are not objects with a string
 * `toolId` are left out (validation reports them); so are later tools that reuse a toolId. With `scriptNames`, a
 * tool whose toolPath names a script by an alias shows that script's canonical file name.
 */
export function buildPlanGraph(plan: unknown, scriptNames?: ScriptNames): PlanGraphModel {
  const entries = isPlainObject(plan) && Array.isArray(plan['tools']) ? (plan['tools'] as unknown[]) : [];
  const tools: GraphTool[] = [];
  const dependencyLists: string[][] = [];
  const seen = new Set<string>();
  const duplicateIds = new Set<string>();
  entries.forEach((entry, index) => {
    if (!isPlainObject(entry) || typeof entry['toolId'] !== 'string') return;
    const id = entry['toolId'];
    if (seen.has(id)) {
      duplicateIds.add(id);
      return;
    }
    seen.add(id);
    tools.push(graphTool(entry, id, index, scriptNames));
    const dependencies = Array.isArray(entry['dependencies']) ? entry['dependencies'].filter((value): value is string => typeof value === 'string') : [];
    dependencyLists.push([...new Set(dependencies)]);
  });
  const cycleSearch = findCycles(tools.map((tool, position) => ({ toolId: tool.id, dependencies: dependencyLists[position]! })));
  const dependencies: GraphDependency[] = [];
  const unknownDependencies: UnknownDependency[] = [];
  tools.forEach((tool, position) => {
    for (const dependency of dependencyLists[position]!) {
      if (!seen.has(dependency)) unknownDependencies.push({ missing: dependency, to: tool.id });
      else dependencies.push({ from: dependency, to: tool.id, cycle: cycleSearch.inCycle(dependency, tool.id) });
    }
  });
  return { tools, dependencies, unknownDependencies, cycles: cycleSearch.cycles, duplicateIds: [...duplicateIds] };
}

/** `skills/<skill>/…` of a toolPath, or null. */
export function skillOfToolPath(toolPath: string): string | null {
  return /(?:^|[\\/])skills[\\/]([^\\/]+)[\\/]/.exec(toolPath)?.[1] ?? null;
}

function graphTool(entry: Record<string, unknown>, id: string, index: number, scriptNames: ScriptNames | undefined): GraphTool {
  const toolPath = typeof entry['toolPath'] === 'string' ? entry['toolPath'] : '';
  const named = toolPath !== '' ? scriptNames?.(toolPath) : undefined;
  const input = isPlainObject(entry['input']) ? entry['input'] : undefined;
  const description = typeof entry['description'] === 'string' ? entry['description'] : undefined;
  return {
    id,
    toolPath,
    skill: skillOfToolPath(toolPath),
    script: (named?.toolPath ?? toolPath).split(/[\\/]/).pop() || '(no toolPath)',
    ...(named ? { namedAs: named.written } : {}),
    index,
    badges: badgesOf(entry),
    ...(input ? { input } : {}),
    ...(description !== undefined ? { description } : {}),
  };
}

/** The badges of a tool, in a fixed order. */
export function badgesOf(entry: Record<string, unknown>): NodeBadge[] {
  const badges: NodeBadge[] = [];
  if (entry['required'] === false) badges.push({ kind: 'optional', label: 'optional' });
  if (entry['async'] === true) badges.push({ kind: 'async', label: 'async' });
  if (isPlainObject(entry['retryPolicy'])) {
    const maxRetries = entry['retryPolicy']['maxRetries'];
    const count = typeof maxRetries === 'number' ? maxRetries : 3;
    if (count > 0) badges.push({ kind: 'retries', label: `retry ×${count}` });
  }
  if (typeof entry['timeoutMs'] === 'number') badges.push({ kind: 'timeout', label: `timeout ${formatDuration(entry['timeoutMs'])}` });
  if (typeof entry['condition'] === 'string') badges.push({ kind: 'condition', label: 'condition' });
  if (typeof entry['subPlan'] === 'string') badges.push({ kind: 'subPlan', label: 'sub-plan' });
  if (isPlainObject(entry['rollback'])) badges.push({ kind: 'rollback', label: 'rollback' });
  return badges;
}

/** How many tools sit at each level (the overview drawn while a big plan is laid out); cycle edges are ignored. */
export function levelCounts(model: PlanGraphModel): number[] {
  const parents = new Map<string, string[]>(model.tools.map((tool) => [tool.id, []]));
  for (const edge of model.dependencies) if (!edge.cycle) parents.get(edge.to)!.push(edge.from);
  const level = new Map<string, number>();
  const levelOf = (id: string): number => {
    const known = level.get(id);
    if (known !== undefined) return known;
    // Iterative: deep chains must not overflow the stack.
    const stack = [id];
    while (stack.length > 0) {
      const current = stack[stack.length - 1]!;
      const pending = parents.get(current)!.filter((parent) => !level.has(parent));
      if (pending.length > 0) {
        stack.push(...pending);
        continue;
      }
      stack.pop();
      level.set(current, Math.max(-1, ...parents.get(current)!.map((parent) => level.get(parent)!)) + 1);
    }
    return level.get(id)!;
  };
  const counts: number[] = [];
  for (const tool of model.tools) {
    const value = levelOf(tool.id);
    counts[value] = (counts[value] ?? 0) + 1;
  }
  return Array.from(counts, (count) => count ?? 0);
}
