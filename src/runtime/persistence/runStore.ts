// Persists execution state after every tool (atomic writes) so runs can be listed, resumed and cancelled (docs/plan-json-and-protocol.md#run-records-and-resume).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../common/atomicWrite.js';
import { monotonicMs } from '../common/monotonicClock.js';
import type { ExecutionResult, RunStatus, ToolResult } from '../contractTypes/executionResult.js';
import type { Plan } from '../contractTypes/plan.js';
import { readExecutionResult, readToolResult } from '../contractTypes/resultReading.js';
import { RunRecordText } from './runRecordText.js';

/** What is stored for one finished tool: its result and the raw patches needed to rebuild state on resume. */
export interface StoredTool {
  readonly result: ToolResult;
  readonly patches: readonly Record<string, unknown>[];
}

/** The persisted record of one run (file format version 1). */
export interface RunRecord {
  readonly formatVersion: 1;
  readonly planId: string;
  readonly plan: Plan;
  readonly root: string;
  readonly status: 'running' | RunStatus;
  /** Process running the plan while status is 'running' (used to cancel it from elsewhere). */
  readonly pid: number;
  readonly startedAt: string;
  readonly updatedAt: string;
  readonly initialState: Record<string, unknown>;
  /** The run's seed (its tools' NARRATORIA_SEED derive from it): a resumed run keeps it. Absent in records before it was kept. */
  readonly seed?: number | undefined;
  readonly tools: Readonly<Record<string, StoredTool>>;
  readonly result?: ExecutionResult | undefined;
}

export interface RunSummary {
  readonly planId: string;
  readonly status: RunRecord['status'];
  readonly startedAt: string;
  readonly updatedAt: string;
  readonly toolsFinished: number;
  readonly toolsTotal: number;
  readonly pid: number;
  /** False when the record says running but its process is gone (the run was interrupted). */
  readonly alive: boolean;
}

export interface RunStore {
  save(record: RunRecord): Promise<void>;
  load(planId: string): Promise<RunRecord | undefined>;
  list(): Promise<RunSummary[]>;
}

const idPattern = /^[A-Za-z0-9-]+$/;

/**
 * A loaded record with its results read tolerantly (contractTypes/resultReading.ts: state `completed`, errors
 * without a category, older field names), so `runs show` and resume see one vocabulary. A record this project
 * wrote comes back as the same object.
 */
function withResultsRead(record: RunRecord): RunRecord {
  if (record === null || typeof record !== 'object') return record;
  let tools = record.tools;
  if (tools !== null && typeof tools === 'object') {
    for (const [toolId, stored] of Object.entries(tools)) {
      const read = stored !== null && typeof stored === 'object' ? readToolResult(stored.result) : undefined;
      if (read && read !== stored.result) tools = { ...tools, [toolId]: { ...stored, result: read } };
    }
  }
  // A foreign result may lack startedAt/finishedAt; the views read them as optional.
  const result = record.result === undefined ? undefined : ((readExecutionResult(record.result) as ExecutionResult | undefined) ?? record.result);
  return tools === record.tools && result === record.result ? record : { ...record, tools, result };
}

/** Where a story's runs are recorded (`narratoria run`, play sessions, playtests): `<root>/.narratoria/runs`. */
export function runsDirectory(root: string): string {
  return path.join(root, '.narratoria', 'runs');
}

/** Stores each run as `<directory>/<planId>.json`. */
export class FileRunStore implements RunStore {
  /** The record's bytes as JSON.stringify(record, null, 2) gives them, without serialising again what an earlier save wrote. */
  private readonly recordText = new RunRecordText();

  constructor(readonly directory: string) {}

  async save(record: RunRecord): Promise<void> {
    await writeFileAtomic(this.recordFile(record.planId), this.recordText.chunks(record));
  }

  async load(planId: string): Promise<RunRecord | undefined> {
    try {
      return withResultsRead(JSON.parse(await fs.readFile(this.recordFile(planId), 'utf8')) as RunRecord);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async list(): Promise<RunSummary[]> {
    let entries: string[];
    try {
      entries = await fs.readdir(this.directory);
    } catch {
      return [];
    }
    const summaries: RunSummary[] = [];
    for (const entry of entries.filter((name) => name.endsWith('.json')).sort()) {
      try {
        const record = JSON.parse(await fs.readFile(path.join(this.directory, entry), 'utf8')) as RunRecord;
        summaries.push({
          planId: record.planId,
          status: record.status,
          startedAt: record.startedAt,
          updatedAt: record.updatedAt,
          toolsFinished: Object.keys(record.tools).length,
          toolsTotal: record.plan.tools.length,
          pid: record.pid,
          alive: record.status === 'running' && processAlive(record.pid),
        });
      } catch {
        // A foreign or damaged file: not a run record.
      }
    }
    return summaries.sort((left, right) => right.startedAt.localeCompare(left.startedAt));
  }

  /** Where the run of `planId` is recorded. */
  recordFile(planId: string): string {
    if (!idPattern.test(planId)) throw new Error(`Invalid run id: ${planId}`);
    return path.join(this.directory, `${planId}.json`);
  }
}

/** True when a process with this pid exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Serialises saves and coalesces bursts: at most one write in flight; per run, the latest record always wins. With
 * `minimumIntervalMs`, a save starts at least that long after the one before it, unless `flush` is waiting for it.
 */
export class RunRecordWriter {
  /** Per run, the record to write next, or how to build it when its write starts (a burst builds only the one it writes). */
  private readonly pending = new Map<string, RunRecord | (() => RunRecord)>();
  private writing: Promise<void> | undefined;
  private lastError: unknown;
  /** Ends the wait before the next save (flush). */
  private wake: (() => void) | undefined;
  private flushing = 0;

  constructor(
    private readonly store: RunStore,
    private readonly minimumIntervalMs = 0,
  ) {}

  /** Schedules a save of `record`, or of what `build` returns when the save starts (`planId` names its run). */
  schedule(record: RunRecord): void;
  schedule(planId: string, build: () => RunRecord): void;
  schedule(recordOrPlanId: RunRecord | string, build?: () => RunRecord): void {
    if (typeof recordOrPlanId === 'string') this.pending.set(recordOrPlanId, build!);
    else this.pending.set(recordOrPlanId.planId, recordOrPlanId);
    if (!this.writing) this.writing = this.loop();
  }

  /** Writes every scheduled save now and waits for them; rethrows the last write error, if any. */
  async flush(): Promise<void> {
    this.flushing++;
    try {
      this.wake?.();
      while (this.writing) await this.writing;
    } finally {
      this.flushing--;
    }
    if (this.lastError) throw this.lastError;
  }

  private async loop(): Promise<void> {
    let lastStart = Number.NEGATIVE_INFINITY;
    while (this.pending.size > 0) {
      const wait = lastStart + this.minimumIntervalMs - monotonicMs();
      if (wait > 0 && this.flushing === 0) await this.pause(wait);
      lastStart = monotonicMs();
      const [planId, next] = this.pending.entries().next().value as [string, RunRecord | (() => RunRecord)];
      this.pending.delete(planId);
      try {
        await this.store.save(typeof next === 'function' ? next() : next);
      } catch (error) {
        this.lastError = error;
      }
    }
    this.writing = undefined;
  }

  private pause(milliseconds: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, milliseconds);
      this.wake = done;
    });
  }
}
