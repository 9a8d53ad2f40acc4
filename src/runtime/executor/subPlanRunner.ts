// ToolRunner for sub-plans (docs/plan-json-and-protocol.md#sub-plans): a tool with `subPlan` runs another plan file as a nested plan run.
import { deriveSeed } from '../common/seed.js';
import { monotonicMs } from '../common/monotonicClock.js';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ExecutionResult, ToolOutput } from '../contractTypes/executionResult.js';
import type { Plan } from '../contractTypes/plan.js';
import { diffPatch } from '../state/deepMerge.js';
import { validatePlanText } from '../validation/validatePlan.js';
import type { ExecutePlanOptions } from './planExecutor.js';
import type { ToolAttemptOutcome, ToolAttemptRequest, ToolRunner } from './toolRunner.js';

/** Deepest nesting of sub-plans (a plan that includes itself stops here). */
export const MAX_SUB_PLAN_DEPTH = 5;

/** How a run executes a sub-plan: the plan executor itself, passed in (a port, so neither module imports the other's code). */
export type SubPlanExecutor = (plan: Plan, options: ExecutePlanOptions) => Promise<ExecutionResult>;

/**
 * Runs `tool.subPlan` with the parent's options, starting from the parent's state snapshot. The sub-plan
 * succeeds as a whole or fails as a whole; its state changes come back as one state_patch event, its
 * assets and UI events are forwarded, and `done.output` summarises the nested run.
 */
export class SubPlanRunner implements ToolRunner {
  constructor(
    private readonly options: ExecutePlanOptions,
    private readonly execute: SubPlanExecutor,
  ) {}

  async run(request: ToolAttemptRequest): Promise<ToolAttemptOutcome> {
    const started = monotonicMs();
    const depth = (this.options.subPlanDepth ?? 0) + 1;
    const fail = (
      code: string,
      message: string,
      category: 'tool_failure' | 'invalid_plan' | 'cancelled' | 'timeout',
      retryable: boolean,
    ): ToolAttemptOutcome => ({
      ok: false,
      retryable,
      timedOut: category === 'timeout',
      cancelled: category === 'cancelled',
      exitCode: null,
      signal: null,
      stderrTail: '',
      durationMs: Math.round(monotonicMs() - started),
      error: { code, message, category, details: { subPlan: request.tool.subPlan } },
    });
    if (depth > MAX_SUB_PLAN_DEPTH)
      return fail('SUB_PLAN_TOO_DEEP', `sub-plans nest deeper than ${MAX_SUB_PLAN_DEPTH} levels (does a plan include itself?)`, 'invalid_plan', false);
    const file = path.resolve(this.options.root, request.tool.subPlan!);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      return fail('SUB_PLAN_NOT_FOUND', `cannot read sub-plan ${file}: ${(error as Error).message}`, 'invalid_plan', false);
    }
    const validation = await validatePlanText(text, {
      root: this.options.root,
      ...(this.options.extraSkillRoots ? { extraSkillRoots: this.options.extraSkillRoots } : {}),
      ...(this.options.allowedToolRoots ? { allowedToolRoots: this.options.allowedToolRoots } : {}),
      ...(this.options.allowOutsideSkills ? { allowOutsideSkills: true } : {}),
    });
    if (!validation.valid || !validation.plan) {
      const first = validation.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
      return fail(
        'SUB_PLAN_INVALID',
        `sub-plan ${request.tool.subPlan} is invalid: ${first ? `${first.code} ${first.message}` : 'see its diagnostics'}`,
        'invalid_plan',
        false,
      );
    }
    const before = request.stdin.state;
    const result = await this.execute(validation.plan, {
      ...this.options,
      // Its own seed, from its parent's, the calling tool and its attempt: its tools' seeds never repeat the parent's.
      ...(this.options.seed !== undefined ? { seed: deriveSeed(this.options.seed, 'sub-plan', request.tool.toolId, request.attempt) } : {}),
      subPlanDepth: depth,
      signal: request.signal,
      initialState: before,
      runStore: undefined,
      resume: undefined,
      hooks: undefined,
    });
    for (const warning of result.warnings)
      request.onWarning({ ...warning, message: `sub-plan ${request.tool.subPlan}: ${warning.message}`, toolId: request.tool.toolId });
    const patch = diffPatch(before, result.aggregatedState);
    if (Object.keys(patch).length > 0) await request.onEvent({ version: '0', type: 'state_patch', patch });
    for (const asset of result.aggregatedAssets) {
      const { toolId: _toolId, ...event } = asset;
      await request.onEvent({ version: '0', type: 'asset', ...event });
    }
    for (const tool of result.toolResults) {
      for (const ui of (tool.output as ToolOutput | undefined)?.uiEvents ?? []) await request.onEvent({ version: '0', type: 'ui_event', ...ui });
    }
    const summary = `sub-plan ${request.tool.subPlan}: ${result.toolResults.filter((tool) => tool.state === 'success').length}/${result.toolResults.length} tools succeeded (${result.status})`;
    const output = { planId: result.planId, status: result.status, tools: result.toolResults.map((tool) => ({ toolId: tool.toolId, state: tool.state })) };
    await request.onEvent({ version: '0', type: 'done', ok: result.success, summary, output });
    if (result.success) {
      return {
        ok: true,
        retryable: false,
        timedOut: false,
        cancelled: false,
        exitCode: 0,
        signal: null,
        stderrTail: '',
        durationMs: Math.round(monotonicMs() - started),
        done: { version: '0', type: 'done', ok: true, summary, output },
      };
    }
    if (result.status === 'cancelled') return fail('CANCELLED', 'the run was cancelled', 'cancelled', false);
    return fail(
      'SUB_PLAN_FAILED',
      `${summary}; failure reason: ${result.failureReason ?? 'unknown'}`,
      result.status === 'timeout' ? 'timeout' : 'tool_failure',
      true,
    );
  }
}
