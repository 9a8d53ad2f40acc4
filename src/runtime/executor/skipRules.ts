// The skip rules of a run: what a finished tool does to its dependents, a condition checked just before a start, and the results of tools that never start.
import type { SkipReason, ToolResult } from '../contractTypes/executionResult.js';
import type { NormalizedTool } from '../contractTypes/plan.js';
import { evaluateCondition, parseCondition, type ConditionScope } from '../state/conditionExpression.js';
import type { ToolSchedule } from './toolSchedule.js';

/** Why a finished tool skips its dependents. */
export type DependentSkip = 'dependency_failed' | 'condition_false';

/**
 * What a finished tool does to its dependents: undefined releases them (it succeeded, or it failed and is not
 * required); otherwise they are skipped, for the reason returned.
 */
export function skipOfDependents(tool: NormalizedTool, result: ToolResult): DependentSkip | undefined {
  // A skipped tool takes its dependents with it, whatever its `required` flag says.
  if (result.state === 'skipped') return result.skipReason === 'condition_false' ? 'condition_false' : 'dependency_failed';
  if (result.state === 'success' || !tool.required) return undefined;
  return 'dependency_failed';
}

/** The result of a tool skipped because of `source`, a dependency that did not succeed or whose condition was false. */
export function skippedByDependency(tool: NormalizedTool, skill: string | null, reason: DependentSkip, source: string): ToolResult {
  const message =
    reason === 'condition_false' ? `skipped because the condition of "${source}" was false` : `skipped because required tool "${source}" did not succeed`;
  return {
    toolId: tool.toolId,
    toolPath: tool.toolPath,
    skill,
    state: 'skipped',
    skipReason: reason,
    retryCount: 0,
    ...(reason === 'dependency_failed'
      ? { error: { code: 'DEPENDENCY_FAILED', message, category: 'tool_failure' as const, details: { dependency: source } } }
      : {}),
  };
}

/** The result of a tool that never started because the run stopped (cancelled, timed out) or could not go on. */
export function skippedByStop(tool: NormalizedTool, skill: string | null, skipReason: SkipReason): ToolResult {
  return { toolId: tool.toolId, toolPath: tool.toolPath, skill, state: 'skipped', skipReason, retryCount: 0 };
}

/**
 * Checks a tool's condition just before it would start. Undefined: it starts. Otherwise the result it finishes with
 * instead: failed when the condition does not parse, skipped when it is false.
 */
export function conditionVerdict(tool: NormalizedTool, skill: string | null, scope: () => ConditionScope): ToolResult | undefined {
  if (tool.condition === undefined) return undefined;
  const parsed = parseCondition(tool.condition);
  const base = { toolId: tool.toolId, toolPath: tool.toolPath, skill, retryCount: 0 };
  if (!parsed.ok)
    return { ...base, state: 'failed', error: { code: 'CONDITION_INVALID', message: `invalid condition: ${parsed.message}`, category: 'invalid_plan' } };
  if (evaluateCondition(parsed.expression, scope())) return undefined;
  return { ...base, state: 'skipped', skipReason: 'condition_false' };
}

/**
 * For a tool appended by re-planning: how many of its dependencies have not finished, and the last finished one
 * that blocks it (a required one that did not succeed, or a skipped one), if any.
 */
export function waitOfAppended(schedule: ToolSchedule, index: number): { readonly remaining: number; readonly blocked: string | undefined } {
  let remaining = 0;
  let blocked: string | undefined;
  for (const dependency of schedule.dependenciesOf(index)) {
    const record = schedule.finishedAt(dependency);
    if (!record) remaining++;
    else if (record.result?.state !== 'success' && (schedule.tools[dependency]!.required || record.result?.state === 'skipped'))
      blocked = schedule.tools[dependency]!.toolId;
  }
  return { remaining, blocked };
}
