// Re-planning during a run: a finished tool's request for more context, the iteration bound, and one round (ask, validate, append) as the plan grows.
import type { Plan, ToolInvocation } from '../contractTypes/plan.js';
import { validatePlanValue } from '../validation/validatePlan.js';
import type { ExecutePlanOptions } from './planExecutor.js';
import { buildRePlanContext, DEFAULT_MAX_RE_PLAN_ITERATIONS, mergeRePlannedSteps } from './rePlanning.js';
import type { ToolRunContext } from './toolExecution.js';
import type { ToolSchedule } from './toolSchedule.js';

/** The re-planning of one run (docs/plan-json-and-protocol.md#re-planning-for-more-context). */
export class RunRePlanning {
  /** Set when a finished tool asked for more context; new starts wait until it is handled. */
  private pending: { readonly toolId: string; readonly suggestion: string | undefined } | undefined;
  private busy = false;
  iterations = 0;
  /** The plan including re-planned steps. */
  currentPlan: Plan;

  constructor(
    plan: Plan,
    private readonly options: ExecutePlanOptions,
    /** The real path of each tool's script; a round adds those of the tools it appends. */
    private readonly resolvedPaths: Map<string, string>,
  ) {
    this.currentPlan = plan;
  }

  /** A request is waiting: new starts wait for it. */
  get waiting(): boolean {
    return this.pending !== undefined;
  }

  /** A round is under way. */
  get running(): boolean {
    return this.busy;
  }

  /** Takes a finished tool's request for more context, unless the run has no re-planner, one waits, or the bound is reached. */
  request(toolId: string, suggestion: string | undefined): void {
    if (!this.options.rePlanner || this.pending) return;
    if (this.iterations >= Math.min(this.options.maxRePlanIterations ?? DEFAULT_MAX_RE_PLAN_ITERATIONS, DEFAULT_MAX_RE_PLAN_ITERATIONS)) return;
    this.pending = { toolId, suggestion };
  }

  /**
   * Handles the waiting request: asks the re-planner for steps, validates them with the plan and hands them to
   * `append`; failures end the round with a warning. `resume` runs when the round is over, whatever happened.
   */
  async round(context: ToolRunContext, schedule: ToolSchedule, append: (tools: readonly ToolInvocation[]) => void, resume: () => void): Promise<void> {
    const request = this.pending!;
    this.busy = true;
    const iteration = ++this.iterations;
    try {
      const hook = context.hooks?.beforeRePlan;
      if (hook) await hook({ planId: context.planId, toolId: request.toolId, iteration, suggestion: request.suggestion });
      if (context.stopReason()) return;
      const rePlanContext = buildRePlanContext(
        this.currentPlan,
        schedule.records.map((record) => record.result),
        iteration,
        request.toolId,
        request.suggestion,
        context.abortSignal,
      );
      const steps = await this.options.rePlanner!(rePlanContext);
      if (context.stopReason() || steps.length === 0) return;
      const merged = mergeRePlannedSteps(new Set(schedule.toolIds()), steps, iteration);
      for (const warning of merged.warnings) context.warn(warning);
      if (merged.tools.length === 0) return;
      const candidate: Plan = { ...this.currentPlan, tools: [...this.currentPlan.tools, ...merged.tools] };
      const validation = await validatePlanValue(candidate, {
        root: context.root,
        ...(this.options.extraSkillRoots ? { extraSkillRoots: this.options.extraSkillRoots } : {}),
        ...(this.options.allowedToolRoots ? { allowedToolRoots: this.options.allowedToolRoots } : {}),
        ...(this.options.allowOutsideSkills ? { allowOutsideSkills: true } : {}),
        checkToolPaths: !this.options.skipToolPathChecks,
      });
      if (!validation.valid) {
        const first = validation.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
        context.warn({
          code: 'RE_PLAN_INVALID',
          message: `re-planned steps were rejected: ${first ? `${first.code} ${first.pointer} ${first.message}` : 'invalid plan'}`,
        });
        return;
      }
      for (const [toolId, realPath] of validation.resolvedToolPaths) this.resolvedPaths.set(toolId, realPath);
      this.currentPlan = candidate;
      append(merged.tools);
    } catch (error) {
      context.warn({
        code: 'RE_PLAN_FAILED',
        message: `the planner failed while re-planning (${error instanceof Error ? error.message : String(error)}); the run goes on with the current plan`,
      });
    } finally {
      this.pending = undefined;
      this.busy = false;
      resume();
    }
  }
}
