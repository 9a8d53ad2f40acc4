// The event-driven DAG scheduler behind PlanRun: starts each tool when it may, records it when it finishes, and leaves readiness, skips, commit and re-planning to their files.
import { availableParallelism } from 'node:os';
import type { ExecutionResult, ToolError, ToolResult } from '../contractTypes/executionResult.js';
import type { NormalizedTool, Plan, ToolInvocation } from '../contractTypes/plan.js';
import type { JsonObject } from '../state/deepMerge.js';
import type { ExecutePlanOptions, PlanRun } from './planExecutor.js';
import { ReadyQueue } from './readyQueue.js';
import { RunCommit } from './runCommit.js';
import { RunRePlanning } from './runRePlanning.js';
import { conditionVerdict, skipOfDependents, skippedByDependency, skippedByStop, waitOfAppended, type DependentSkip } from './skipRules.js';
import type { SubPlanExecutor } from './subPlanRunner.js';
import { runToolWithRetries, type ToolRunContext } from './toolExecution.js';
import { createToolRunContext } from './toolRunContext.js';
import type { ToolOutput } from './toolRunner.js';
import { ToolSchedule, type ToolRecord } from './toolSchedule.js';

/**
 * The scheduler of one run. Readiness and concurrency are the ReadyQueue's (a min-heap in plan order under a limit);
 * what a finished tool does to its dependents is in skipRules; the state's commit cursor and the run record are the
 * RunCommit's; re-planning rounds are RunRePlanning's.
 */
export class Scheduler {
  readonly records: ToolRecord[];
  readonly topologicalIndices: number[];
  readonly context: ToolRunContext;
  private readonly schedule: ToolSchedule;
  private readonly queue: ReadyQueue;
  private readonly commit: RunCommit;
  private readonly rePlanning: RunRePlanning;
  private finished = 0;
  private completions = 0;
  private resolveDone!: () => void;

  constructor(
    planRun: PlanRun,
    private readonly options: ExecutePlanOptions,
    private readonly tools: NormalizedTool[],
    order: readonly string[],
    root: string,
    resolvedToolPaths: ReadonlyMap<string, string>,
    executeSubPlan: SubPlanExecutor,
  ) {
    const schedule = (this.schedule = new ToolSchedule(tools, order));
    this.records = schedule.records;
    this.topologicalIndices = schedule.topologicalIndices;
    const parallel = planRun.plan.parallel === true;
    this.queue = new ReadyQueue(schedule, parallel, parallel ? Math.max(1, options.concurrency ?? availableParallelism()) : 1);
    const resolvedPaths = new Map(resolvedToolPaths);
    this.rePlanning = new RunRePlanning(planRun.plan, options, resolvedPaths);
    this.context = createToolRunContext({ planRun, options, root, resolvedPaths, executeSubPlan, committedState: () => this.commit.committedState });
    this.commit = new RunCommit(schedule, options, this.context);
  }

  /** How many re-planning rounds ran. */
  get rePlanIterations(): number {
    return this.rePlanning.iterations;
  }

  /** The plan including re-planned steps. */
  get currentPlan(): Plan {
    return this.rePlanning.currentPlan;
  }

  /** The committed state: every tool before the commit cursor merged in topological order. */
  get committedState(): JsonObject {
    return this.commit.committedState;
  }

  /** The state a tool sees (see StateCommit.stateFor). */
  stateFor(index: number): JsonObject {
    return this.commit.stateFor(index);
  }

  /** Schedules an atomic save of the run record (after every tool, and once at the end with the result). */
  persist(result?: ExecutionResult): Promise<void> | undefined {
    return this.commit.persist(this.rePlanning.currentPlan, result);
  }

  /** Runs the plan (resumed tools count as finished); resolves when every tool has finished or been skipped. */
  run(): Promise<void> {
    const done = new Promise<void>((resolve) => (this.resolveDone = resolve));
    const resume = this.options.resume;
    if (resume && resume.planId === this.context.planId) {
      for (const index of this.topologicalIndices) {
        const stored = resume.tools[this.tools[index]!.toolId];
        if (stored?.result.state === 'success' && this.records[index]!.remaining === 0)
          this.complete(index, stored.result, stored.result.output, stored.patches, false);
      }
    }
    this.tools.forEach((_, index) => {
      if (this.schedule.isReady(index)) this.queue.push(index);
    });
    this.pump();
    return done;
  }

  /** Starts every tool that may start now; resolves the run when nothing is left. */
  private pump(): void {
    if (this.context.stopReason()) {
      if (this.queue.runningCount === 0 && !this.rePlanning.running) this.finishStopped();
      return;
    }
    if (this.rePlanning.waiting) {
      // Re-planning (docs/plan-json-and-protocol.md#re-planning-for-more-context): pause after the running level, then ask for new steps.
      if (this.queue.runningCount === 0 && !this.rePlanning.running) {
        void this.rePlanning.round(
          this.context,
          this.schedule,
          (tools) => this.addTools(tools),
          () => this.pump(),
        );
      }
      return;
    }
    for (let index = this.queue.take(); index !== undefined; index = this.queue.take()) {
      if (this.passesCondition(index)) this.start(index);
    }
    if (this.finished === this.tools.length) this.resolveDone();
    else if (this.queue.idle) {
      // Unreachable for a validated DAG; never hang if it happens.
      this.finishStopped('dependency_failed');
    }
  }

  private start(index: number): void {
    const tool = this.tools[index]!;
    this.schedule.markRunning(index);
    const exclusive = this.queue.started(index);
    void runToolWithRetries(
      this.context,
      tool,
      () => this.schedule.dependencyOutputs(index),
      () => this.stateFor(index),
    ).then(
      (finished) => {
        this.queue.ended(exclusive);
        this.complete(index, finished.result, finished.output, finished.patches, true);
        this.pump();
      },
      (error: unknown) => {
        this.queue.ended(exclusive);
        const message = error instanceof Error ? error.message : String(error);
        const toolError: ToolError = { code: 'INTERNAL_ERROR', message: `internal error while running the tool: ${message}`, category: 'process_error' };
        this.complete(
          index,
          { toolId: tool.toolId, toolPath: tool.toolPath, skill: this.context.skillOf(tool), state: 'failed', error: toolError, retryCount: 0 },
          undefined,
          [],
          true,
        );
        this.pump();
      },
    );
  }

  /** Records a finished (or skipped) tool, releases or skips its dependents, commits what it can and saves the run record. */
  private complete(index: number, result: ToolResult, output: ToolOutput | undefined, patches: readonly JsonObject[], fire: boolean): void {
    this.schedule.markFinished(index, result, output, patches, this.completions++);
    this.finished++;
    this.commit.finished(index, result, patches);
    const tool = this.tools[index]!;
    if (fire && output?.needsMoreContext === true) this.rePlanning.request(tool.toolId, output.contextSuggestion);
    if (fire && this.context.emitters.finishedTool.hasListeners) this.context.emitters.finishedTool.fire({ planId: this.context.planId, result });
    if (this.context.stopReason() && result.state !== 'success') {
      // The run is stopping: dependents stay pending and finishStopped skips them with the stop reason.
    } else {
      const skip = skipOfDependents(tool, result);
      if (skip) this.skipDependentsOf(index, skip);
      else this.queue.release(index);
    }
    this.commit.advance(this.rePlanning.currentPlan);
  }

  private skipDependentsOf(index: number, reason: DependentSkip): void {
    const source = this.tools[index]!.toolId;
    for (const dependent of this.schedule.dependents[index]!) {
      if (!this.schedule.isPending(dependent)) continue;
      const tool = this.tools[dependent]!;
      this.complete(dependent, skippedByDependency(tool, this.context.skillOf(tool), reason, source), undefined, [], true);
    }
  }

  /** Evaluates a tool's condition; false (or unparsable) means the tool is skipped or failed instead of started. */
  private passesCondition(index: number): boolean {
    const tool = this.tools[index]!;
    if (tool.condition === undefined) return true;
    const verdict = conditionVerdict(tool, this.context.skillOf(tool), () => ({
      state: this.stateFor(index),
      dependencies: this.schedule.dependencyOutputs(index),
    }));
    if (!verdict) return true;
    this.complete(index, verdict, undefined, [], true);
    return false;
  }

  /** Appends validated re-planned tools (in topological order) to the running schedule. */
  private addTools(invocations: readonly ToolInvocation[]): void {
    for (const invocation of invocations) {
      const index = this.schedule.append(invocation);
      const { remaining, blocked } = waitOfAppended(this.schedule, index);
      this.records[index]!.remaining = remaining;
      if (blocked !== undefined) {
        const tool = this.tools[index]!;
        this.complete(index, skippedByDependency(tool, this.context.skillOf(tool), 'dependency_failed', blocked), undefined, [], true);
      } else if (remaining === 0) {
        this.queue.push(index);
      }
    }
  }

  private finishStopped(reason?: 'dependency_failed'): void {
    const stopReason = this.context.stopReason();
    const skipReason = reason ?? (stopReason === 'plan_timeout' ? 'plan_timeout' : 'cancelled');
    this.tools.forEach((tool, index) => {
      if (!this.schedule.isPending(index)) return;
      this.complete(index, skippedByStop(tool, this.context.skillOf(tool), skipReason), undefined, [], true);
    });
    this.resolveDone();
  }
}
