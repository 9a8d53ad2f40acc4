// The commit side of a run: finished tools' patches committed in topological order (the commit cursor) with their state events, and the run record saved.
import type { ExecutionResult, ToolResult } from '../contractTypes/executionResult.js';
import type { Plan } from '../contractTypes/plan.js';
import { RunRecordWriter, type RunRecord, type StoredTool } from '../persistence/runStore.js';
import { changedKeys, type JsonObject } from '../state/deepMerge.js';
import type { ExecutePlanOptions } from './planExecutor.js';
import { StateCommit } from './stateCommit.js';
import type { ToolRunContext } from './toolExecution.js';
import type { ToolSchedule } from './toolSchedule.js';

/**
 * The least time between two saves of a run record while the run goes on: tools that finish within it share one
 * write (the first save and the last, with the result, are never held back). Each save rewrites the whole record, so
 * at 50 ms a 200-tool run of fast scripts still saved ~8 times (~17 ms of its ~400, bench b2), and a 2,000-tool run
 * rewrote its growing record ~75 times. A quarter second is still live for `narratoria runs` and the Runs view; after
 * a crash, resume runs again the tools that finished since the last save, as it does the tools that were running.
 */
const RECORD_SAVE_INTERVAL_MS = 250;

/** What the commit needs of the run's context. */
type CommitContext = Pick<ToolRunContext, 'planId' | 'root' | 'runSeed' | 'warn' | 'emitters'>;

export class RunCommit {
  private readonly state: StateCommit;
  private readonly writer: RunRecordWriter | undefined;
  private readonly startedAt = new Date().toISOString();
  private readonly committed: (index: number, before: JsonObject, after: JsonObject) => void;

  constructor(
    private readonly schedule: ToolSchedule,
    private readonly options: ExecutePlanOptions,
    private readonly context: CommitContext,
  ) {
    this.state = new StateCommit({ ...(options.resume?.initialState ?? options.initialState ?? {}) }, schedule);
    this.writer = options.runStore ? new RunRecordWriter(options.runStore, options.recordSaveIntervalMs ?? RECORD_SAVE_INTERVAL_MS) : undefined;
    this.committed = (index, before, after) => {
      const emitter = this.context.emitters.state;
      if (emitter.hasListeners)
        emitter.fire({ planId: this.context.planId, toolId: this.schedule.tools[index]!.toolId, state: after, changedKeys: changedKeys(before, after) });
    };
  }

  /** The committed state: every tool before the commit cursor merged in topological order. */
  get committedState(): JsonObject {
    return this.state.committedState;
  }

  /** The state a tool sees (see StateCommit.stateFor). */
  stateFor(index: number): JsonObject {
    return this.state.stateFor(index);
  }

  /** Counts a tool that just finished (call before `advance`). */
  finished(index: number, result: ToolResult, patches: readonly JsonObject[]): void {
    this.state.finished(index, result, patches);
  }

  /** Commits patches in topological order (so the state never depends on timing), then saves the run record. */
  advance(plan: Plan): void {
    this.state.advance(this.committed);
    if (this.writer) void this.persist(plan);
  }

  /**
   * Schedules an atomic save of the run record (after every tool, and once at the end with the result). The record is
   * built when its write starts: a save still waiting for the one in flight writes the tools finished by then, and a
   * burst of finished tools builds one record, not one each (bench b2).
   */
  persist(plan: Plan, result?: ExecutionResult): Promise<void> | undefined {
    if (!this.writer) return undefined;
    this.writer.schedule(this.context.planId, () => this.record(plan, result));
    if (!result) return undefined;
    return this.writer.flush().catch((error: unknown) => {
      this.context.warn({
        code: 'RUN_RECORD_WRITE_FAILED',
        message: `could not save the run record: ${error instanceof Error ? error.message : String(error)}`,
      });
    });
  }

  /** The run record now: the finished tools in plan order, with their results and patches. */
  private record(plan: Plan, result: ExecutionResult | undefined): RunRecord {
    const tools: Record<string, StoredTool> = {};
    this.schedule.tools.forEach((tool, index) => {
      const record = this.schedule.finishedAt(index);
      if (record?.result) tools[tool.toolId] = { result: record.result, patches: record.patches };
    });
    const options = this.options;
    return {
      formatVersion: 1,
      planId: this.context.planId,
      plan,
      root: this.context.root,
      status: result ? result.status : 'running',
      pid: process.pid,
      startedAt: options.resume?.startedAt ?? this.startedAt,
      updatedAt: new Date().toISOString(),
      initialState: options.resume?.initialState ?? options.initialState ?? {},
      seed: this.context.runSeed,
      tools,
      result,
    };
  }
}
