// Why the replan loop disabled a skill: one plain line per skill from the tool result that counted against it ("cross timed out after 3.0 s").
import type { ExecutionResult, ToolResult } from '../contractTypes/executionResult.js';
import { countsAgainstSkill } from '../executor/resultBuilder.js';

/** The reason each skill of `result.disabledSkills` was disabled, from its first tool that failed. */
export function disabledReasonsOf(result: ExecutionResult): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const skill of result.disabledSkills) {
    const tool = result.toolResults.find((each) => each.skill === skill && countsAgainstSkill(each, result.status));
    reasons.set(skill, tool ? failureLine(tool) : 'a tool of this skill failed');
  }
  return reasons;
}

/** One line saying how a tool failed: "cross timed out after 3.0 s", "fare failed: SCRIPT_EXIT_NONZERO: exited with code 1". */
export function failureLine(tool: ToolResult): string {
  const seconds = tool.executionTimeMs !== undefined ? `${(tool.executionTimeMs / 1000).toFixed(1)} s` : undefined;
  const error = tool.error;
  if (error?.code === 'PLAN_TIMEOUT') {
    const planTimeoutMs = error.details?.['planTimeoutMs'];
    const after = typeof planTimeoutMs === 'number' ? `${(planTimeoutMs / 1000).toFixed(1)} s` : seconds;
    return `${tool.toolId} hung: still running when the plan timed out${after ? ` after ${after}` : ''}`;
  }
  if (tool.state === 'timeout' || error?.category === 'timeout') return `${tool.toolId} timed out${seconds ? ` after ${seconds}` : ''}`;
  if (tool.state === 'cancelled') return `${tool.toolId} was cancelled${error ? `: ${error.message}` : ''}`;
  if (error?.category === 'protocol_violation' || error?.category === 'invalid_json')
    return `${tool.toolId} broke the protocol: ${error.code}: ${error.message}`;
  return error ? `${tool.toolId} failed: ${error.code}: ${error.message}` : `${tool.toolId} failed`;
}
