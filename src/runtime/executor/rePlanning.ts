// Bounded re-planning (docs/plan-json-and-protocol.md#re-planning-for-more-context): the context a tool's `needsMoreContext` request produces, and merging the new steps.
import { topologicalSort } from '../dag/toolDependencies.js';
import type { RunWarning, ToolResult } from '../contractTypes/executionResult.js';
import type { Plan, ToolInvocation } from '../contractTypes/plan.js';

/** Default and hard bound of re-planning iterations per run (docs/plan-json-and-protocol.md#re-planning-for-more-context: at most twice). */
export const DEFAULT_MAX_RE_PLAN_ITERATIONS = 2;

/** What the planner is told when a tool asks for more context. */
export interface RePlanContext {
  /** The plan as it stands (original tools plus earlier re-planned ones). */
  readonly plan: Plan;
  /** 1 for the first re-planning of this run. */
  readonly iteration: number;
  /** The tool whose done event asked for more context. */
  readonly requestedBy: string;
  readonly suggestion: string | undefined;
  readonly completed: readonly { readonly toolId: string; readonly summary?: string; readonly result?: Record<string, unknown> }[];
  readonly failed: readonly { readonly toolId: string; readonly message?: string }[];
  /** The same information as text, ready for a narrator (docs/plan-json-and-protocol.md#re-planning-for-more-context). */
  readonly prompt: string;
  readonly signal: AbortSignal;
}

/** Asks a planner for the steps to add; an empty list ends re-planning. A rejection ends it gracefully. */
export type RePlanner = (context: RePlanContext) => Promise<readonly ToolInvocation[]>;

/** Builds the context of a re-planning request from the finished tools. */
export function buildRePlanContext(
  plan: Plan,
  results: readonly (ToolResult | undefined)[],
  iteration: number,
  requestedBy: string,
  suggestion: string | undefined,
  signal: AbortSignal,
): RePlanContext {
  const completed: { toolId: string; summary?: string; result?: Record<string, unknown> }[] = [];
  const failed: { toolId: string; message?: string }[] = [];
  for (const result of results) {
    if (!result) continue;
    if (result.state === 'success') {
      const entry: { toolId: string; summary?: string; result?: Record<string, unknown> } = { toolId: result.toolId };
      if (result.output?.summary) entry.summary = result.output.summary;
      if (result.output?.result) entry.result = result.output.result;
      completed.push(entry);
    } else if (result.state === 'failed' || result.state === 'timeout') {
      failed.push(result.error ? { toolId: result.toolId, message: result.error.message } : { toolId: result.toolId });
    }
  }
  const lines = [
    `Original plan: ${plan.narrative ?? plan.tools.map((tool) => tool.toolId).join(', ')}`,
    `Steps completed: ${completed.map((entry) => entry.toolId).join(', ') || 'none'}`,
    `Steps failed: ${failed.map((entry) => entry.toolId).join(', ') || 'none'}`,
    'Completed results:',
    ...completed.map((entry) => `- ${entry.toolId}: ${entry.summary ?? (entry.result ? JSON.stringify(entry.result).slice(0, 200) : 'done')}`),
    `Context suggestion from ${requestedBy}: ${suggestion ?? '(none)'}`,
  ];
  return { plan, iteration, requestedBy, suggestion, completed, failed, prompt: lines.join('\n'), signal };
}

/**
 * Gives new steps `_rp<iteration>_` ids, remaps their dependencies (to the new ids, or to existing tools),
 * drops dependencies on unknown ids and rejects steps that would form a cycle. Returns the steps to add.
 */
export function mergeRePlannedSteps(
  existingIds: ReadonlySet<string>,
  steps: readonly ToolInvocation[],
  iteration: number,
): { readonly tools: ToolInvocation[]; readonly warnings: RunWarning[] } {
  const warnings: RunWarning[] = [];
  const prefix = `_rp${iteration}_`;
  const renamed = new Map<string, string>();
  for (const step of steps) {
    if (renamed.has(step.toolId)) {
      warnings.push({ code: 'RE_PLAN_DUPLICATE_STEP', message: `re-planning returned step "${step.toolId}" twice; the second was dropped` });
      continue;
    }
    renamed.set(step.toolId, `${prefix}${step.toolId}`);
  }
  const tools: ToolInvocation[] = [];
  const kept = new Set<string>();
  for (const step of steps) {
    const id = renamed.get(step.toolId)!;
    if (kept.has(id)) continue;
    kept.add(id);
    const dependencies: string[] = [];
    for (const dependency of step.dependencies ?? []) {
      const target = renamed.get(dependency) ?? (existingIds.has(dependency) ? dependency : undefined);
      if (target === undefined) {
        warnings.push({
          code: 'RE_PLAN_UNKNOWN_DEPENDENCY',
          message: `re-planned step "${step.toolId}" depends on unknown "${dependency}"; the dependency was dropped`,
          toolId: id,
        });
      } else if (target !== id && !dependencies.includes(target)) {
        dependencies.push(target);
      }
    }
    tools.push({ ...step, toolId: id, dependencies });
  }
  // Only new steps can form a cycle (existing tools never depend on them).
  const sorted = topologicalSort(
    tools.map((tool) => ({ toolId: tool.toolId, dependencies: (tool.dependencies ?? []).filter((dependency) => kept.has(dependency)) })),
  );
  if (!sorted.ok) {
    warnings.push({ code: 'RE_PLAN_CYCLE', message: `re-planned steps form a cycle (${sorted.cycle.join(' -> ')}); none were added` });
    return { tools: [], warnings };
  }
  const byId = new Map(tools.map((tool) => [tool.toolId, tool] as const));
  return { tools: sorted.order.map((id) => byId.get(id)!), warnings };
}

/**
 * A narrator request's text without the report {@link buildRePlanContext} appends to it (the original plan, the steps
 * completed and failed, their results), which names tools and would match skills by their jargon: the player's
 * words and the context the tool asked for are kept. Kept beside the report so the two change together.
 */
export function withoutRePlanReport(input: string): string {
  const kept: string[] = [];
  for (const line of input.split('\n')) {
    const suggestion = /^Context suggestion from [^:]*:\s*(.*)$/.exec(line);
    if (suggestion) {
      if (suggestion[1] && suggestion[1] !== '(none)') kept.push(suggestion[1]);
      continue;
    }
    if (/^(?:Original plan|Steps completed|Steps failed|Completed results):/.test(line) || /^- [A-Za-z0-9_.:-]+: /.test(line)) continue;
    kept.push(line);
  }
  return kept.join('\n').trim() || input.trim();
}
