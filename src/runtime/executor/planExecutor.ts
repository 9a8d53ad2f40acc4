// The plan executor: validates a plan, schedules its DAG of tools under the plan's rules (scheduler.ts), and builds the ExecutionResult.
import * as path from 'node:path';
import { Emitter, type Event } from '../common/event.js';
import type { Disposable } from '../common/disposable.js';
import { topologicalSort } from '../dag/toolDependencies.js';
import type { ExecutionResult, RunWarning, ToolResult } from '../contractTypes/executionResult.js';
import { DEFAULT_PLAN_TIMEOUT_MS, normalizeTool, type NormalizedTool, type Plan } from '../contractTypes/plan.js';
import type { RunRecord, RunStore } from '../persistence/runStore.js';
import type { SkillDataScope } from '../skills/skillDataScope.js';
import type { SkillContextProvider } from '../skills/skillContext.js';
import { validatePlanValue } from '../validation/validatePlan.js';
import type {
  ExecutionHooks,
  PlanFinishedEvent,
  RetryScheduledEvent,
  StateChangedEvent,
  StderrEvent,
  ToolEventEmittedEvent,
  ToolFinishedEvent,
  ToolStartedEvent,
  WarningRaisedEvent,
} from './executionEvents.js';
import type { ToolRunner } from './toolRunner.js';
import { buildExecutionResult, invalidPlanResult } from './resultBuilder.js';
import { runRollbacks } from './rollback.js';
import type { RePlanner } from './rePlanning.js';
import { Scheduler } from './scheduler.js';

export type { ToolRecord } from './toolSchedule.js';
export { DEFAULT_MAX_EVENTS_PER_TOOL } from './executorLimits.js';

export interface ExecutePlanOptions {
  /** Story root: relative toolPaths resolve against it; skills live in `<root>/skills`. */
  readonly root: string;
  /** More directories whose scripts are trusted (e.g. the bundled skills). */
  readonly extraSkillRoots?: readonly string[] | undefined;
  /** Folders outside the skill directories whose scripts may run (setting `narratoria.allowedToolRoots`, CLI `--allow-tool-root`). */
  readonly allowedToolRoots?: readonly string[] | undefined;
  /** Relaxes the rule that every toolPath must be inside a skills directory. */
  readonly allowOutsideSkills?: boolean | undefined;
  /** Maximum tools running at once (default: available parallelism). */
  readonly concurrency?: number | undefined;
  /** Overrides every per-tool timeout. */
  readonly toolTimeoutMs?: number | undefined;
  /** Overrides the plan's timeoutMs (default 60 s). */
  readonly planTimeoutMs?: number | undefined;
  readonly maxEventsPerTool?: number | undefined;
  readonly maxLineBytes?: number | undefined;
  readonly killGraceMs?: number | undefined;
  readonly initialState?: Record<string, unknown> | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly hooks?: ExecutionHooks | undefined;
  /** Overrides the plan's rollbackOnFailure. */
  readonly rollbackOnFailure?: boolean | undefined;
  readonly runStore?: RunStore | undefined;
  /** The least time between two saves of the run record while the run goes on (default 250 ms; 0: after every tool). */
  readonly recordSaveIntervalMs?: number | undefined;
  /** A stored run of the same plan: its successful tools are not run again. */
  readonly resume?: RunRecord | undefined;
  readonly toolRunner?: ToolRunner | undefined;
  readonly skillContext?: SkillContextProvider | undefined;
  /** For in-process runners only: do not require toolPaths to exist. */
  readonly skipToolPathChecks?: boolean | undefined;
  readonly attemptNumber?: number | undefined;
  /** Where skills keep their data in this run (default: the story's default session, `.narratoria/sessions/default`). */
  readonly dataScope?: SkillDataScope | undefined;
  /** Extra variables for every script (on top of the minimal environment). */
  readonly extraEnv?: Readonly<Record<string, string>> | undefined;
  /**
   * The run's seed: each tool attempt gets NARRATORIA_SEED derived from it, its toolId and its attempt, so a run
   * with the same seed draws the same numbers. Default: a fresh one (kept in the run record). A NARRATORIA_SEED in
   * `extraEnv` wins.
   */
  readonly seed?: number | undefined;
  /** Re-planning (docs/plan-json-and-protocol.md#re-planning-for-more-context): asked for new steps when a tool's done event says needsMoreContext. */
  readonly rePlanner?: RePlanner | undefined;
  /** Most re-planning iterations per run (default and maximum 2). */
  readonly maxRePlanIterations?: number | undefined;
  /** Internal: how deep this run is nested inside sub-plans (0 for a top-level run). */
  readonly subPlanDepth?: number | undefined;
}

/**
 * One execution of a plan. Subscribe to the `onDid…` events right after `startPlanRun` (nothing is
 * fired before the next tick); `result` settles once every tool is final.
 */
export class PlanRun implements Disposable {
  private readonly startedToolEmitter = new Emitter<ToolStartedEvent>();
  private readonly emittedEventEmitter = new Emitter<ToolEventEmittedEvent>();
  private readonly retryEmitter = new Emitter<RetryScheduledEvent>();
  private readonly finishedToolEmitter = new Emitter<ToolFinishedEvent>();
  private readonly stateEmitter = new Emitter<StateChangedEvent>();
  private readonly warningEmitter = new Emitter<WarningRaisedEvent>();
  private readonly stderrEmitter = new Emitter<StderrEvent>();
  private readonly finishedPlanEmitter = new Emitter<PlanFinishedEvent>();

  readonly onDidStartTool: Event<ToolStartedEvent> = this.startedToolEmitter.event;
  readonly onDidEmitEvent: Event<ToolEventEmittedEvent> = this.emittedEventEmitter.event;
  readonly onDidScheduleRetry: Event<RetryScheduledEvent> = this.retryEmitter.event;
  readonly onDidFinishTool: Event<ToolFinishedEvent> = this.finishedToolEmitter.event;
  readonly onDidChangeState: Event<StateChangedEvent> = this.stateEmitter.event;
  readonly onDidRaiseWarning: Event<WarningRaisedEvent> = this.warningEmitter.event;
  readonly onDidWriteStderr: Event<StderrEvent> = this.stderrEmitter.event;
  readonly onDidFinishPlan: Event<PlanFinishedEvent> = this.finishedPlanEmitter.event;

  readonly result: Promise<ExecutionResult>;
  private readonly abortController = new AbortController();
  private stopReason: 'cancelled' | 'plan_timeout' | undefined;
  private readonly warnings: RunWarning[] = [];

  constructor(
    readonly plan: Plan,
    private readonly options: ExecutePlanOptions,
  ) {
    this.result = this.execute();
  }

  get planId(): string {
    return this.plan.requestId;
  }

  /** Stops the run: running tools' process trees are killed, pending tools are skipped. */
  cancel(): void {
    this.stop('cancelled');
  }

  dispose(): void {
    this.cancel();
    for (const emitter of [
      this.startedToolEmitter,
      this.emittedEventEmitter,
      this.retryEmitter,
      this.finishedToolEmitter,
      this.stateEmitter,
      this.warningEmitter,
      this.stderrEmitter,
      this.finishedPlanEmitter,
    ])
      emitter.dispose();
  }

  private stop(reason: 'cancelled' | 'plan_timeout'): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.abortController.abort();
  }

  private warn(warning: RunWarning): void {
    this.warnings.push(warning);
    if (this.warningEmitter.hasListeners) this.warningEmitter.fire({ planId: this.planId, warning });
  }

  private async execute(): Promise<ExecutionResult> {
    await Promise.resolve(); // let the caller subscribe first
    const options = this.options;
    const startedAt = new Date();
    const root = path.resolve(options.root);
    const validation = await validatePlanValue(this.plan, {
      root,
      ...(options.extraSkillRoots ? { extraSkillRoots: options.extraSkillRoots } : {}),
      ...(options.allowedToolRoots ? { allowedToolRoots: options.allowedToolRoots } : {}),
      ...(options.allowOutsideSkills ? { allowOutsideSkills: true } : {}),
      checkToolPaths: !options.skipToolPathChecks,
    });
    if (!validation.valid) {
      const result = invalidPlanResult(this.plan, validation.diagnostics, startedAt, options.attemptNumber);
      this.finishedPlanEmitter.fire({ result });
      return result;
    }
    // Mutable: re-planning appends tools while the run goes on.
    const tools: NormalizedTool[] = this.plan.tools.map(normalizeTool);
    const sorted = topologicalSort(tools);
    if (!sorted.ok) throw new Error('validated plan has a cycle'); // validation rejects cycles
    // Sub-plans come back in through this port: the scheduler does not import the executor.
    const scheduler = new Scheduler(this, options, tools, sorted.order, root, validation.resolvedToolPaths, executePlan);

    const onExternalAbort = () => this.stop('cancelled');
    if (options.signal?.aborted) this.stop('cancelled');
    options.signal?.addEventListener('abort', onExternalAbort, { once: true });
    const planTimeoutMs = options.planTimeoutMs ?? this.plan.timeoutMs ?? DEFAULT_PLAN_TIMEOUT_MS;
    const planTimer = setTimeout(() => this.stop('plan_timeout'), planTimeoutMs);
    try {
      await scheduler.run();
    } finally {
      clearTimeout(planTimer);
      options.signal?.removeEventListener('abort', onExternalAbort);
    }

    const failedRequired = tools.some((tool, index) => tool.required && isFailure(scheduler.records[index]!.result!.state));
    const status = this.stopReason === 'cancelled' ? 'cancelled' : this.stopReason === 'plan_timeout' ? 'timeout' : failedRequired ? 'failed' : 'succeeded';
    if (status === 'failed' || status === 'timeout') {
      if (options.rollbackOnFailure ?? this.plan.rollbackOnFailure ?? false) {
        await runRollbacks(scheduler.context, tools, scheduler.records);
      }
    }
    const built = buildExecutionResult({
      plan: this.plan,
      tools,
      records: scheduler.records,
      topologicalOrder: scheduler.topologicalIndices,
      status,
      state: scheduler.committedState,
      startedAt,
      warnings: this.warnings,
      attemptNumber: options.attemptNumber,
    });
    const result = !options.rePlanner
      ? built
      : scheduler.rePlanIterations === 0
        ? { ...built, rePlanIterations: 0 }
        : { ...built, rePlanIterations: scheduler.rePlanIterations, originalPlan: this.plan, finalPlan: scheduler.currentPlan };
    await scheduler.persist(result);
    this.finishedPlanEmitter.fire({ result });
    return result;
  }

  /** @internal used by the scheduler */
  get internals() {
    return {
      abortSignal: this.abortController.signal,
      stopReason: () => this.stopReason,
      planTimeoutMs: this.options.planTimeoutMs ?? this.plan.timeoutMs ?? DEFAULT_PLAN_TIMEOUT_MS,
      warn: (warning: RunWarning) => this.warn(warning),
      emitters: {
        startedTool: this.startedToolEmitter,
        emittedEvent: this.emittedEventEmitter,
        retry: this.retryEmitter,
        finishedTool: this.finishedToolEmitter,
        state: this.stateEmitter,
        stderr: this.stderrEmitter,
      },
    };
  }
}

/** Starts executing `plan`; see PlanRun for observing and cancelling. */
export function startPlanRun(plan: Plan, options: ExecutePlanOptions): PlanRun {
  return new PlanRun(plan, options);
}

/** Executes `plan` and resolves with its ExecutionResult (never rejects for tool failures). */
export function executePlan(plan: Plan, options: ExecutePlanOptions): Promise<ExecutionResult> {
  return startPlanRun(plan, options).result;
}

function isFailure(state: ToolResult['state']): boolean {
  return state === 'failed' || state === 'timeout' || state === 'cancelled' || state === 'rolledBack';
}
