// Finds a played turn's problems: an invalid first plan, tool failures by category, replans, template fallbacks, a turn over its time budget. Expected failures are data: no throws.
import type { ErrorCategory, ToolResult } from '../contractTypes/executionResult.js';
import type { TurnResult } from '../session/turnTypes.js';
import type { KnownScript } from '../coverage/skillUsage.js';
import type { ExploreProblem, ToolFailureCategory } from './exploreTypes.js';

/** A tool failure's category, or undefined for a tool that did not fail on its own (skipped, cancelled). */
export function failureCategory(tool: Pick<ToolResult, 'state' | 'error'>): ToolFailureCategory | undefined {
  if (tool.state === 'timeout') return 'timeout';
  if (tool.state !== 'failed') return undefined;
  const category: ErrorCategory | undefined = tool.error?.category;
  switch (category) {
    case 'timeout':
      return 'timeout';
    case 'invalid_json':
    case 'protocol_violation':
      return 'protocol_error';
    case 'process_error':
      return 'non_zero_exit';
    case 'tool_failure':
      return 'done_not_ok';
    default:
      return undefined;
  }
}

/** Every problem of one turn (none for a cancelled turn). Exceptions are not seen here: the session driver catches them. */
export function detectProblems(
  turn: number,
  result: TurnResult,
  turnBudgetMs: number,
  scriptOf: (toolPath: string | undefined, skill?: string | null) => KnownScript | undefined,
): ExploreProblem[] {
  if (result.cancelled) return [];
  const problems: ExploreProblem[] = [];
  const first = result.attempts[0];
  if (first?.outcome === 'invalid') {
    const reasons = first.result.warnings
      .map((warning) => warning.message)
      .slice(0, 3)
      .join('; ');
    problems.push({ kind: 'invalid_first_plan', turn, message: `the first plan was invalid${reasons ? `: ${reasons}` : ''}` });
  }
  for (const attempt of result.attempts) {
    for (const tool of attempt.result.toolResults) {
      const category = failureCategory(tool);
      if (!category) continue;
      const script = scriptOf(tool.toolPath, tool.skill);
      problems.push({
        kind: 'tool_failure',
        turn,
        category,
        message: `attempt ${attempt.attempt}: ${script?.id ?? tool.toolPath ?? tool.toolId} failed (${category.replace(/_/g, ' ')}): ${tool.error?.message ?? tool.state}`,
        ...(script ? { skill: script.skill, script: script.id } : tool.skill ? { skill: tool.skill } : {}),
        toolId: tool.toolId,
      });
    }
  }
  if (result.attempts.length > 1) {
    problems.push({
      kind: 'replan',
      turn,
      message: `the turn took ${result.attempts.length} attempts: ${result.attempts.map((attempt) => attempt.outcome).join(', ')}`,
    });
  }
  if (result.fallback) {
    problems.push({ kind: 'template_fallback', turn, message: `every attempt failed (${result.attempts.length}): the turn fell back to template narration` });
  }
  if (result.durationMs > turnBudgetMs) {
    problems.push({ kind: 'over_time_budget', turn, message: `the turn took longer than its budget of ${turnBudgetMs} ms`, durationMs: result.durationMs });
  }
  return problems;
}
