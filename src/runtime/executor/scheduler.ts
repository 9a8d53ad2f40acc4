// The event-driven DAG scheduler behind PlanRun: ready heap, concurrency, required/skip semantics, commit cursor, re-planning.
import { availableParallelism } from 'node:os';
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { MinHeap } from '../dag/toolDependencies.js';
import type { ExecutionResult, ToolError, ToolResult } from '../contractTypes/executionResult.js';
import { normalizeTool, type NormalizedTool, type Plan, type ToolInvocation } from '../contractTypes/plan.js';
import { changedKeys, type JsonObject } from '../state/deepMerge.js';
import { evaluateCondition, parseCondition } from '../state/conditionExpression.js';
import { RunRecordWriter, type StoredTool } from '../persistence/runStore.js';
import { DEFAULT_SESSION_ID, sessionScope } from '../skills/skillDataScope.js';
import { ManifestSkillContextProvider } from '../skills/skillContext.js';
import { validatePlanValue } from '../validation/validatePlan.js';
import { skillNameOfPath } from '../validation/toolPathPolicy.js';
import { snapshotHostEnvironment } from '../process/scriptEnvironment.js';
import { ProcessToolRunner } from './processToolRunner.js';
import { SubPlanRunner } from './subPlanRunner.js';
import { runToolWithRetries, type ToolRunContext } from './toolExecution.js';
import type { ToolOutput } from './toolRunner.js';
import { StateCommit } from './stateCommit.js';
import { buildRePlanContext, DEFAULT_MAX_RE_PLAN_ITERATIONS, mergeRePlannedSteps } from './rePlanning.js';
import { DEFAULT_MAX_EVENTS_PER_TOOL } from './executorLimits.js';
import type { ExecutePlanOptions, PlanRun } from './planExecutor.js';
import { randomSeed } from '../common/seed.js';

/** How the scheduler runs a sub-plan: the plan executor itself, passed in (a port, so neither module imports the other's code). */
export type SubPlanExecutor = (plan: Plan, options: ExecutePlanOptions) => Promise<ExecutionResult>;

export const enum Status {
  Pending,
  Running,
  Finished,
}

/** Mutable bookkeeping of one tool during a run. */
export interface ToolRecord {
  status: Status;
  remaining: number;
  result: ToolResult | undefined;
  output: ToolOutput | undefined;
  patches: readonly JsonObject[];
  completion: number;
}

/** The event-driven DAG scheduler: a ready min-heap (plan order), a concurrency limit, and a commit cursor for state. */
export class Scheduler {
  readonly records: ToolRecord[];
  readonly topologicalIndices: number[];
  readonly context: ToolRunContext;
  private readonly state: StateCommit;
  private readonly dependents: number[][];
  /** Plan indices of each tool's (distinct) dependencies. */
  private readonly dependencyIndices: number[][];
  /** Position of each tool (by plan index) in the topological order. */
  private topologicalPosition: Int32Array;
  private readonly skillNames = new Map<string, string | null>();
  private readonly indexById = new Map<string, number>();
  private readonly resolvedPaths: Map<string, string>;
  /** Set when a finished tool asked for more context; new starts wait until it is handled. */
  private pendingRePlan: { readonly toolId: string; readonly suggestion: string | undefined } | undefined;
  private rePlanning = false;
  rePlanIterations = 0;
  /** The plan including re-planned steps. */
  currentPlan: Plan;
  private readonly ready = new MinHeap();
  private readonly limit: number;
  private readonly parallel: boolean;
  private running = 0;
  private exclusiveRunning = false;
  private finished = 0;
  private completions = 0;
  private resolveDone!: () => void;
  private readonly writer: RunRecordWriter | undefined;
  private readonly startedAt = new Date().toISOString();

  constructor(
    private readonly planRun: PlanRun,
    private readonly options: ExecutePlanOptions,
    private readonly tools: NormalizedTool[],
    order: readonly string[],
    root: string,
    resolvedToolPaths: ReadonlyMap<string, string>,
    executeSubPlan: SubPlanExecutor,
  ) {
    const indexById = this.indexById;
    tools.forEach((tool, index) => indexById.set(tool.toolId, index));
    this.currentPlan = planRun.plan;
    this.resolvedPaths = new Map(resolvedToolPaths);
    this.topologicalIndices = order.map((id) => indexById.get(id)!);
    this.topologicalPosition = new Int32Array(tools.length);
    this.topologicalIndices.forEach((index, position) => (this.topologicalPosition[index] = position));
    this.dependents = tools.map(() => []);
    this.dependencyIndices = tools.map((tool) => {
      const indices: number[] = [];
      for (const dependency of tool.dependencies) {
        const dependencyIndex = indexById.get(dependency)!;
        if (!indices.includes(dependencyIndex)) indices.push(dependencyIndex);
      }
      return indices;
    });
    this.records = tools.map((_, index) => {
      const dependencies = this.dependencyIndices[index]!;
      for (const dependency of dependencies) this.dependents[dependency]!.push(index);
      return { status: Status.Pending, remaining: dependencies.length, result: undefined, output: undefined, patches: [], completion: -1 };
    });
    this.parallel = this.planRun.plan.parallel === true;
    this.limit = this.parallel ? Math.max(1, this.options.concurrency ?? availableParallelism()) : 1;
    this.state = new StateCommit(
      { ...(this.options.resume?.initialState ?? this.options.initialState ?? {}) },
      {
        topologicalIndices: this.topologicalIndices,
        position: (index) => this.topologicalPosition[index]!,
        dependenciesOf: (index) => this.dependencyIndices[index]!,
        finishedAt: (index) => {
          const record = this.records[index]!;
          return record.status === Status.Finished ? record : undefined;
        },
      },
    );
    this.writer = options.runStore ? new RunRecordWriter(options.runStore) : undefined;
    const internals = planRun.internals;
    this.context = {
      planId: planRun.planId,
      root,
      options,
      runner: options.toolRunner ?? new ProcessToolRunner({ maxLineBytes: options.maxLineBytes, killGraceMs: options.killGraceMs }),
      subPlanRunner: new SubPlanRunner({ ...options, root }, executeSubPlan),
      skillContext: options.skillContext ?? new ManifestSkillContextProvider(skillRoots(root, options.extraSkillRoots)),
      scriptPathOf: (tool) => this.resolvedPaths.get(tool.toolId) ?? path.resolve(root, tool.toolPath),
      skillOf: (tool) => {
        let skill = this.skillNames.get(tool.toolPath);
        if (skill === undefined) this.skillNames.set(tool.toolPath, (skill = skillNameOfPath(tool.toolPath)));
        return skill;
      },
      hooks: options.hooks,
      maxEvents: options.maxEventsPerTool ?? DEFAULT_MAX_EVENTS_PER_TOOL,
      ...internals,
      committedState: () => this.state.committedState,
      hostEnvironment: snapshotHostEnvironment(),
      runSeed: options.seed ?? options.resume?.seed ?? randomSeed(),
      createdDirectories: new Set<string>(),
      dataScope: options.dataScope ?? sessionScope(root, DEFAULT_SESSION_ID),
      knownSkillContexts: new Map(),
    };
  }

  run(): Promise<void> {
    const done = new Promise<void>((resolve) => (this.resolveDone = resolve));
    const resume = this.options.resume;
    if (resume && resume.planId === this.planRun.planId) {
      for (const index of this.topologicalIndices) {
        const stored = resume.tools[this.tools[index]!.toolId];
        if (stored?.result.state === 'success' && this.records[index]!.remaining === 0)
          this.complete(index, stored.result, stored.result.output, stored.patches, false);
      }
    }
    this.tools.forEach((_, index) => {
      const record = this.records[index]!;
      if (record.status === Status.Pending && record.remaining === 0) this.ready.push(index);
    });
    this.pump();
    return done;
  }

  /** Starts every tool that may start now; resolves the run when nothing is left. */
  private pump(): void {
    if (this.context.stopReason()) {
      if (this.running === 0 && !this.rePlanning) this.finishStopped();
      return;
    }
    if (this.pendingRePlan) {
      // Re-planning (docs/plan-json-and-protocol.md#re-planning-for-more-context): pause after the running level, then ask for new steps.
      if (this.running === 0 && !this.rePlanning) void this.rePlan();
      return;
    }
    while (this.ready.size > 0 && this.running < this.limit && !this.exclusiveRunning) {
      const index = this.ready.peek()!;
      // In a parallel plan a tool with async: false runs alone: it waits for the running tools to
      // finish (the tools after it in plan order wait too, so it cannot starve), and nothing else
      // starts until it ends.
      const exclusive = this.parallel && !this.tools[index]!.async;
      if (exclusive && this.running > 0 && this.records[index]!.status === Status.Pending) break;
      this.ready.pop();
      const record = this.records[index]!;
      if (record.status !== Status.Pending) continue;
      if (!this.passesCondition(index)) continue;
      record.status = Status.Running;
      this.running++;
      if (exclusive) this.exclusiveRunning = true;
      void runToolWithRetries(
        this.context,
        this.tools[index]!,
        () => this.dependencyOutputs(index),
        () => this.stateFor(index),
      ).then(
        (finished) => {
          this.running--;
          if (exclusive) this.exclusiveRunning = false;
          this.complete(index, finished.result, finished.output, finished.patches, true);
          this.pump();
        },
        (error: unknown) => {
          this.running--;
          if (exclusive) this.exclusiveRunning = false;
          const message = error instanceof Error ? error.message : String(error);
          const toolError: ToolError = { code: 'INTERNAL_ERROR', message: `internal error while running the tool: ${message}`, category: 'process_error' };
          this.complete(
            index,
            {
              toolId: this.tools[index]!.toolId,
              toolPath: this.tools[index]!.toolPath,
              skill: this.context.skillOf(this.tools[index]!),
              state: 'failed',
              error: toolError,
              retryCount: 0,
            },
            undefined,
            [],
            true,
          );
          this.pump();
        },
      );
    }
    if (this.finished === this.tools.length) this.resolveDone();
    else if (this.running === 0 && this.ready.size === 0) {
      // Unreachable for a validated DAG; never hang if it happens.
      this.finishStopped('dependency_failed');
    }
  }

  private dependencyOutputs(index: number): Record<string, ToolOutput | null> {
    const outputs: Record<string, ToolOutput | null> = {};
    for (const dependency of this.dependencyIndices[index]!) {
      const record = this.records[dependency]!;
      outputs[this.tools[dependency]!.toolId] = record.result?.state === 'success' ? (record.output ?? null) : null;
    }
    return outputs;
  }

  private complete(index: number, result: ToolResult, output: ToolOutput | undefined, patches: readonly JsonObject[], fire: boolean): void {
    const record = this.records[index]!;
    record.status = Status.Finished;
    record.result = result;
    record.output = output;
    record.patches = patches;
    record.completion = this.completions++;
    this.finished++;
    this.state.finished(index, result, patches);
    if (
      output?.needsMoreContext === true &&
      fire &&
      this.options.rePlanner &&
      !this.pendingRePlan &&
      this.rePlanIterations < Math.min(this.options.maxRePlanIterations ?? DEFAULT_MAX_RE_PLAN_ITERATIONS, DEFAULT_MAX_RE_PLAN_ITERATIONS)
    ) {
      this.pendingRePlan = { toolId: this.tools[index]!.toolId, suggestion: output.contextSuggestion };
    }
    const tool = this.tools[index]!;
    if (fire && this.context.emitters.finishedTool.hasListeners) this.context.emitters.finishedTool.fire({ planId: this.planRun.planId, result });
    if (this.context.stopReason() && result.state !== 'success') {
      // The run is stopping: dependents stay pending and finishStopped skips them with the stop reason.
    } else if (result.state === 'skipped') {
      // A skipped tool takes its dependents with it, whatever its `required` flag says.
      this.skipDependentsOf(index, result.skipReason === 'condition_false' ? 'condition_false' : 'dependency_failed');
    } else if (result.state === 'success' || !tool.required) {
      for (const dependent of this.dependents[index]!) {
        const next = this.records[dependent]!;
        if (next.status === Status.Pending && --next.remaining === 0) this.ready.push(dependent);
      }
    } else {
      this.skipDependentsOf(index, 'dependency_failed');
    }
    this.advanceCommitCursor();
    void this.persist();
  }

  private skipDependentsOf(index: number, reason: 'dependency_failed' | 'condition_false'): void {
    const source = this.tools[index]!.toolId;
    const message =
      reason === 'condition_false' ? `skipped because the condition of "${source}" was false` : `skipped because required tool "${source}" did not succeed`;
    for (const dependent of this.dependents[index]!) {
      const record = this.records[dependent]!;
      if (record.status !== Status.Pending) continue;
      const tool = this.tools[dependent]!;
      this.complete(
        dependent,
        {
          toolId: tool.toolId,
          toolPath: tool.toolPath,
          skill: this.context.skillOf(tool),
          state: 'skipped',
          skipReason: reason,
          retryCount: 0,
          ...(reason === 'dependency_failed'
            ? { error: { code: 'DEPENDENCY_FAILED', message, category: 'tool_failure' as const, details: { dependency: source } } }
            : {}),
        },
        undefined,
        [],
        true,
      );
    }
  }

  /** Evaluates a tool's condition; false (or unparsable) means the tool is skipped or failed instead of started. */
  private passesCondition(index: number): boolean {
    const tool = this.tools[index]!;
    if (tool.condition === undefined) return true;
    const parsed = parseCondition(tool.condition);
    const base = { toolId: tool.toolId, toolPath: tool.toolPath, skill: this.context.skillOf(tool), retryCount: 0 };
    if (!parsed.ok) {
      this.complete(
        index,
        { ...base, state: 'failed', error: { code: 'CONDITION_INVALID', message: `invalid condition: ${parsed.message}`, category: 'invalid_plan' } },
        undefined,
        [],
        true,
      );
      return false;
    }
    if (evaluateCondition(parsed.expression, { state: this.stateFor(index), dependencies: this.dependencyOutputs(index) })) return true;
    this.complete(index, { ...base, state: 'skipped', skipReason: 'condition_false' }, undefined, [], true);
    return false;
  }

  /** Asks the re-planner for steps, validates and appends them, then resumes; failures end re-planning gracefully. */
  private async rePlan(): Promise<void> {
    const request = this.pendingRePlan!;
    this.rePlanning = true;
    const iteration = ++this.rePlanIterations;
    try {
      const hook = this.context.hooks?.beforeRePlan;
      if (hook) await hook({ planId: this.planRun.planId, toolId: request.toolId, iteration, suggestion: request.suggestion });
      if (this.context.stopReason()) return;
      const context = buildRePlanContext(
        this.currentPlan,
        this.records.map((record) => record.result),
        iteration,
        request.toolId,
        request.suggestion,
        this.context.abortSignal,
      );
      const steps = await this.options.rePlanner!(context);
      if (this.context.stopReason() || steps.length === 0) return;
      const merged = mergeRePlannedSteps(new Set(this.indexById.keys()), steps, iteration);
      for (const warning of merged.warnings) this.context.warn(warning);
      if (merged.tools.length === 0) return;
      const candidate: Plan = { ...this.currentPlan, tools: [...this.currentPlan.tools, ...merged.tools] };
      const validation = await validatePlanValue(candidate, {
        root: this.context.root,
        ...(this.options.extraSkillRoots ? { extraSkillRoots: this.options.extraSkillRoots } : {}),
        ...(this.options.allowedToolRoots ? { allowedToolRoots: this.options.allowedToolRoots } : {}),
        ...(this.options.allowOutsideSkills ? { allowOutsideSkills: true } : {}),
        checkToolPaths: !this.options.skipToolPathChecks,
      });
      if (!validation.valid) {
        const first = validation.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
        this.context.warn({
          code: 'RE_PLAN_INVALID',
          message: `re-planned steps were rejected: ${first ? `${first.code} ${first.pointer} ${first.message}` : 'invalid plan'}`,
        });
        return;
      }
      for (const [toolId, realPath] of validation.resolvedToolPaths) this.resolvedPaths.set(toolId, realPath);
      this.currentPlan = candidate;
      this.addTools(merged.tools);
    } catch (error) {
      this.context.warn({
        code: 'RE_PLAN_FAILED',
        message: `the planner failed while re-planning (${error instanceof Error ? error.message : String(error)}); the run goes on with the current plan`,
      });
    } finally {
      this.pendingRePlan = undefined;
      this.rePlanning = false;
      this.pump();
    }
  }

  /** Appends validated tools (in topological order) to the running schedule. */
  private addTools(invocations: readonly ToolInvocation[]): void {
    const position = new Int32Array(this.tools.length + invocations.length);
    position.set(this.topologicalPosition);
    this.topologicalPosition = position;
    for (const invocation of invocations) {
      const index = this.tools.length;
      const tool = normalizeTool(invocation, index);
      this.tools.push(tool);
      this.indexById.set(tool.toolId, index);
      const dependencies = [...new Set(tool.dependencies.map((dependency) => this.indexById.get(dependency)!))];
      this.dependencyIndices.push(dependencies);
      this.dependents.push([]);
      for (const dependency of dependencies) this.dependents[dependency]!.push(index);
      this.records.push({ status: Status.Pending, remaining: 0, result: undefined, output: undefined, patches: [], completion: -1 });
      this.topologicalPosition[index] = this.topologicalIndices.length;
      this.topologicalIndices.push(index);
      let remaining = 0;
      let blocked: string | undefined;
      for (const dependency of dependencies) {
        const record = this.records[dependency]!;
        if (record.status !== Status.Finished) remaining++;
        else if (record.result?.state !== 'success' && (this.tools[dependency]!.required || record.result?.state === 'skipped'))
          blocked = this.tools[dependency]!.toolId;
      }
      this.records[index]!.remaining = remaining;
      if (blocked !== undefined) {
        this.complete(
          index,
          {
            toolId: tool.toolId,
            toolPath: tool.toolPath,
            skill: this.context.skillOf(tool),
            state: 'skipped',
            skipReason: 'dependency_failed',
            retryCount: 0,
            error: {
              code: 'DEPENDENCY_FAILED',
              message: `skipped because required tool "${blocked}" did not succeed`,
              category: 'tool_failure',
              details: { dependency: blocked },
            },
          },
          undefined,
          [],
          true,
        );
      } else if (remaining === 0) {
        this.ready.push(index);
      }
    }
  }

  /** The committed state: every tool before the commit cursor merged in topological order. */
  get committedState(): JsonObject {
    return this.state.committedState;
  }

  /** The state a tool sees (see StateCommit.stateFor). */
  stateFor(index: number): JsonObject {
    return this.state.stateFor(index);
  }

  /** Commits patches in topological order, so the state never depends on timing. */
  private advanceCommitCursor(): void {
    this.state.advance((index, before, after) => {
      const emitter = this.context.emitters.state;
      if (emitter.hasListeners)
        emitter.fire({ planId: this.planRun.planId, toolId: this.tools[index]!.toolId, state: after, changedKeys: changedKeys(before, after) });
    });
  }

  private finishStopped(reason?: 'dependency_failed'): void {
    const stopReason = this.context.stopReason();
    const skipReason = reason ?? (stopReason === 'plan_timeout' ? 'plan_timeout' : 'cancelled');
    this.tools.forEach((tool, index) => {
      if (this.records[index]!.status !== Status.Pending) return;
      this.complete(
        index,
        {
          toolId: tool.toolId,
          toolPath: tool.toolPath,
          skill: this.context.skillOf(tool),
          state: 'skipped',
          skipReason,
          retryCount: 0,
        },
        undefined,
        [],
        true,
      );
    });
    this.resolveDone();
  }

  /** Schedules an atomic save of the run record (after every tool, and once at the end with the result). */
  persist(result?: ExecutionResult): Promise<void> | undefined {
    if (!this.writer) return undefined;
    const tools: Record<string, StoredTool> = {};
    this.tools.forEach((tool, index) => {
      const record = this.records[index]!;
      if (record.status === Status.Finished && record.result) tools[tool.toolId] = { result: record.result, patches: record.patches };
    });
    const options = this.options;
    this.writer.schedule({
      formatVersion: 1,
      planId: this.planRun.planId,
      plan: this.currentPlan,
      root: this.context.root,
      status: result ? result.status : 'running',
      pid: process.pid,
      startedAt: options.resume?.startedAt ?? this.startedAt,
      updatedAt: new Date().toISOString(),
      initialState: options.resume?.initialState ?? options.initialState ?? {},
      seed: this.context.runSeed,
      tools,
      result,
    });
    if (!result) return undefined;
    return this.writer.flush().catch((error: unknown) => {
      this.context.warn({
        code: 'RUN_RECORD_WRITE_FAILED',
        message: `could not save the run record: ${error instanceof Error ? error.message : String(error)}`,
      });
    });
  }
}

function skillRoots(root: string, extra: readonly string[] | undefined): string[] {
  const roots = [path.join(root, 'skills'), ...(extra ?? [])];
  return roots.map((directory) => {
    try {
      return realpathSync(directory);
    } catch {
      return path.resolve(directory);
    }
  });
}
