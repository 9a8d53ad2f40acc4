// Best-effort rollback (docs/plan-json-and-protocol.md#rollback): runs each completed tool's rollback invocation in reverse completion order.
import type { ToolError } from '../contractTypes/executionResult.js';
import { monotonicMs } from '../common/monotonicClock.js';
import type { NormalizedTool } from '../contractTypes/plan.js';
import { buildScriptEnvironment } from '../process/scriptEnvironment.js';
import { resolveToolPath } from '../validation/toolPathPolicy.js';
import type { ToolRecord } from './planExecutor.js';
import type { ToolRunContext } from './toolExecution.js';

const DEFAULT_ROLLBACK_TIMEOUT_MS = 30_000;

/** Rolls back succeeded tools that declare `rollback`; a failing rollback is recorded and the others still run. */
export async function runRollbacks(context: ToolRunContext, tools: readonly NormalizedTool[], records: ToolRecord[]): Promise<void> {
  const candidates = tools
    .map((tool, index) => ({ tool, index, record: records[index]! }))
    .filter(({ tool, record }) => tool.rollback && record.result?.state === 'success')
    .sort((left, right) => right.record.completion - left.record.completion);
  for (const { tool, record } of candidates) {
    const rollback = tool.rollback!;
    const started = monotonicMs();
    const fail = (error: ToolError) => {
      record.result = { ...record.result!, rollback: { ok: false, error, executionTimeMs: Math.round(monotonicMs() - started) } };
    };
    const resolution = await resolveToolPath(rollback.toolPath, {
      root: context.root,
      ...(context.options.extraSkillRoots ? { extraSkillRoots: context.options.extraSkillRoots } : {}),
      ...(context.options.allowedToolRoots ? { allowedToolRoots: context.options.allowedToolRoots } : {}),
      ...(context.options.allowOutsideSkills ? { allowOutsideSkills: true } : {}),
    });
    if (!resolution.ok) {
      fail({ code: resolution.code, message: resolution.message, category: 'process_error' });
      continue;
    }
    const outcome = await context.runner.run({
      tool: { ...tool, input: rollback.input ?? {}, maxRetries: 0 },
      scriptPath: resolution.realPath,
      skill: resolution.skill,
      attempt: 1,
      stdin: { requestId: context.planId, tool: `${tool.toolId}:rollback`, input: rollback.input ?? {}, dependencies: {}, state: context.committedState() },
      timeoutMs: rollback.timeoutMs ?? DEFAULT_ROLLBACK_TIMEOUT_MS,
      cwd: context.root,
      env: buildScriptEnvironment(
        { root: context.root, toolId: `${tool.toolId}:rollback`, requestId: context.planId },
        context.options.extraEnv ?? {},
        context.hostEnvironment,
      ),
      signal: new AbortController().signal,
      onEvent: () => undefined,
      onWarning: context.warn,
    });
    if (outcome.ok) {
      record.result = { ...record.result!, state: 'rolledBack', rollback: { ok: true, executionTimeMs: Math.round(outcome.durationMs) } };
    } else {
      fail(outcome.error ?? { code: 'ROLLBACK_FAILED', message: 'rollback failed', category: 'tool_failure' });
    }
  }
}
