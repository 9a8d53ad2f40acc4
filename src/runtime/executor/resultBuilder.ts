// Assembles the ExecutionResult (contracts/execution-result.schema.json) from the final per-tool records.
import type { AssetReference, ErrorCategory, ExecutionResult, RunStatus, RunWarning, ToolResult } from '../contractTypes/executionResult.js';
import type { NormalizedTool, Plan } from '../contractTypes/plan.js';
import type { JsonObject } from '../state/deepMerge.js';
import type { Diagnostic } from '../validation/diagnostic.js';
import type { ToolRecord } from './planExecutor.js';
import { reflectOnRun } from './reflection.js';

export interface ResultInputs {
  readonly plan: Plan;
  readonly tools: readonly NormalizedTool[];
  readonly records: readonly ToolRecord[];
  readonly topologicalOrder: readonly number[];
  readonly status: RunStatus;
  readonly state: JsonObject;
  readonly startedAt: Date;
  readonly warnings: readonly RunWarning[];
  readonly attemptNumber?: number | undefined;
}

/** Builds the result of a run that executed. Tool results are listed in plan order. */
export function buildExecutionResult(inputs: ResultInputs): ExecutionResult {
  const toolResults = inputs.records.map((record) => record.result!);
  const failed = toolResults.filter((result) => countsAgainstSkill(result, inputs.status));
  // Every failure counts against its skill, a tool still running when the plan timed out included (FR-024: a hung
  // skill is disabled in the next attempt, so a turn pays for a hang once).
  const disabledSkills = [...new Set(failed.map((result) => result.skill).filter((skill): skill is string => typeof skill === 'string'))];
  const assets: AssetReference[] = [];
  for (const index of inputs.topologicalOrder) {
    const result = toolResults[index]!;
    if (result.state === 'success' && result.output) assets.push(...result.output.assets);
  }
  const success = inputs.status === 'succeeded';
  const finishedAt = new Date();
  return {
    planId: inputs.plan.requestId,
    success,
    status: inputs.status,
    ...(inputs.plan.narrative !== undefined ? { narrative: inputs.plan.narrative } : {}),
    canReplan: !success && inputs.status !== 'cancelled',
    ...(success ? {} : { failureReason: failureReason(inputs, toolResults) }),
    failedTools: failed.map((result) => result.toolId),
    disabledSkills,
    toolResults,
    aggregatedState: inputs.state,
    aggregatedAssets: assets,
    executionTimeMs: Math.max(0, finishedAt.getTime() - inputs.startedAt.getTime()),
    attemptNumber: inputs.attemptNumber ?? inputs.plan.metadata?.generationAttempt ?? 1,
    ...(inputs.plan.metadata ? { generationMetadata: { ...inputs.plan.metadata } } : {}),
    startedAt: inputs.startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    warnings: inputs.warnings,
    reflection: reflectOnRun(toolResults, inputs.warnings, Math.max(0, finishedAt.getTime() - inputs.startedAt.getTime())) as unknown as Record<
      string,
      unknown
    >,
  };
}

/** Whether a tool's result counts against its skill: it failed, timed out, hung past the plan timeout, or was cancelled by the run's own stop (not the user's). */
export function countsAgainstSkill(tool: ToolResult, status: RunStatus): boolean {
  return tool.state === 'failed' || tool.state === 'timeout' || (tool.state === 'cancelled' && status !== 'cancelled');
}

function failureReason(inputs: ResultInputs, results: readonly ToolResult[]): ErrorCategory {
  if (inputs.status === 'cancelled') return 'cancelled';
  if (inputs.status === 'timeout') return 'timeout';
  for (const index of inputs.topologicalOrder) {
    const tool = inputs.tools[index]!;
    const result = results[index]!;
    if (tool.required && result.error && result.state !== 'skipped') return result.error.category;
  }
  return 'tool_failure';
}

/** The result of a plan rejected before anything ran. */
export function invalidPlanResult(plan: Plan, diagnostics: readonly Diagnostic[], startedAt: Date, attemptNumber?: number): ExecutionResult {
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  const cycle = errors.some((diagnostic) => diagnostic.code === 'DEPENDENCY_CYCLE' || diagnostic.code === 'SELF_DEPENDENCY');
  const finishedAt = new Date();
  const planId = typeof plan?.requestId === 'string' && /^[0-9a-f-]{36}$/i.test(plan.requestId) ? plan.requestId : '00000000-0000-4000-8000-000000000000';
  return {
    planId,
    success: false,
    status: 'failed',
    canReplan: true,
    failureReason: cycle ? 'circular_dependency' : 'invalid_plan',
    failedTools: [],
    disabledSkills: [],
    toolResults: [],
    aggregatedState: {},
    aggregatedAssets: [],
    executionTimeMs: Math.max(0, finishedAt.getTime() - startedAt.getTime()),
    attemptNumber: attemptNumber ?? 1,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    warnings: errors.map((diagnostic) => ({
      code: diagnostic.code,
      message: diagnostic.pointer ? `${diagnostic.pointer}: ${diagnostic.message}` : diagnostic.message,
    })),
  };
}
