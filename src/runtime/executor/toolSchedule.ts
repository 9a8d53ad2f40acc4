// The graph a run schedules: each tool's record, its distinct dependencies and dependents, and its place in the topological order; re-planning appends to it.
import type { ToolResult } from '../contractTypes/executionResult.js';
import { normalizeTool, type NormalizedTool, type ToolInvocation } from '../contractTypes/plan.js';
import type { JsonObject } from '../state/deepMerge.js';
import type { CommitSchedule } from './stateCommit.js';
import type { ToolOutput } from './toolRunner.js';

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

/** The tools of a run by plan index, with their records and edges; the commit reads it as its CommitSchedule. */
export class ToolSchedule implements CommitSchedule {
  readonly records: ToolRecord[];
  /** Plan indices in topological order. */
  readonly topologicalIndices: number[];
  /** Plan indices of each tool's dependents. */
  readonly dependents: number[][];
  /** Plan indices of each tool's (distinct) dependencies. */
  private readonly dependencyIndices: number[][];
  /** Position of each tool (by plan index) in the topological order. */
  private topologicalPosition: Int32Array;
  private readonly indexById = new Map<string, number>();

  /** `tools` is the run's own array: `append` pushes re-planned tools onto it. */
  constructor(
    readonly tools: NormalizedTool[],
    order: readonly string[],
  ) {
    const indexById = this.indexById;
    tools.forEach((tool, index) => indexById.set(tool.toolId, index));
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
  }

  /** The toolIds scheduled so far. */
  toolIds(): IterableIterator<string> {
    return this.indexById.keys();
  }

  position(index: number): number {
    return this.topologicalPosition[index]!;
  }

  dependenciesOf(index: number): readonly number[] {
    return this.dependencyIndices[index]!;
  }

  finishedAt(index: number): ToolRecord | undefined {
    const record = this.records[index]!;
    return record.status === Status.Finished ? record : undefined;
  }

  /** Not started, not finished. */
  isPending(index: number): boolean {
    return this.records[index]!.status === Status.Pending;
  }

  /** Pending with every dependency finished. */
  isReady(index: number): boolean {
    const record = this.records[index]!;
    return record.status === Status.Pending && record.remaining === 0;
  }

  markRunning(index: number): void {
    this.records[index]!.status = Status.Running;
  }

  /** Records a tool's end; `completion` is its rank among the tools finished so far. */
  markFinished(index: number, result: ToolResult, output: ToolOutput | undefined, patches: readonly JsonObject[], completion: number): void {
    const record = this.records[index]!;
    record.status = Status.Finished;
    record.result = result;
    record.output = output;
    record.patches = patches;
    record.completion = completion;
  }

  /** Counts one finished dependency off a pending tool; true when it was the last one it waited for. */
  countDown(index: number): boolean {
    const record = this.records[index]!;
    return record.status === Status.Pending && --record.remaining === 0;
  }

  /** The outputs a tool receives from its dependencies (null for one that did not succeed). */
  dependencyOutputs(index: number): Record<string, ToolOutput | null> {
    const outputs: Record<string, ToolOutput | null> = {};
    for (const dependency of this.dependencyIndices[index]!) {
      const record = this.records[dependency]!;
      outputs[this.tools[dependency]!.toolId] = record.result?.state === 'success' ? (record.output ?? null) : null;
    }
    return outputs;
  }

  /**
   * Appends a validated tool last in the topological order (its dependencies are all scheduled already) and returns its
   * plan index. Its record starts pending with nothing counted as remaining: the caller decides that.
   */
  append(invocation: ToolInvocation): number {
    const index = this.tools.length;
    if (index >= this.topologicalPosition.length) {
      const position = new Int32Array(Math.max(index + 1, this.topologicalPosition.length * 2));
      position.set(this.topologicalPosition);
      this.topologicalPosition = position;
    }
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
    return index;
  }
}
