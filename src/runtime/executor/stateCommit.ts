// The session state of a running plan: finished tools' patches committed in topological order (never in the order they finished), and the state a starting tool sees.
import type { ToolResult } from '../contractTypes/executionResult.js';
import { deepMerge, type JsonObject } from '../state/deepMerge.js';

/** What the commit needs of the schedule; it grows as re-planning appends tools. */
export interface CommitSchedule {
  /** Plan indices in topological order. */
  readonly topologicalIndices: readonly number[];
  /** A tool's position in that order. */
  position(index: number): number;
  /** Plan indices of a tool's distinct dependencies. */
  dependenciesOf(index: number): readonly number[];
  /** A finished tool's result and patches; undefined while it has not finished. */
  finishedAt(index: number): { readonly result: ToolResult | undefined; readonly patches: readonly JsonObject[] } | undefined;
}

export class StateCommit {
  /** The state every tool before the cursor has been merged into. */
  committedState: JsonObject;
  /** Position in the topological order of the first tool not committed yet. */
  private cursor = 0;
  /** Finished, successful tools with patches that the cursor has not reached yet. */
  private uncommittedWithPatches = 0;

  constructor(
    initialState: JsonObject,
    private readonly schedule: CommitSchedule,
  ) {
    this.committedState = initialState;
  }

  /** Counts a tool that just finished (call before `advance`). */
  finished(index: number, result: ToolResult, patches: readonly JsonObject[]): void {
    if (result.state === 'success' && patches.length > 0 && this.schedule.position(index) >= this.cursor) this.uncommittedWithPatches++;
  }

  /**
   * The state a tool sees: the committed state plus the patches of its finished ancestors that the cursor has not
   * reached yet, in topological order (so it always includes what its dependencies wrote, whatever the timing).
   */
  stateFor(index: number): JsonObject {
    let state = this.committedState;
    if (this.uncommittedWithPatches === 0) return state;
    const ancestors = new Set<number>();
    const queue = [index];
    const cursor = this.cursor;
    while (queue.length > 0) {
      for (const ancestor of this.schedule.dependenciesOf(queue.pop()!)) {
        // Ancestors the cursor has passed are already committed, and so are all of theirs.
        if (this.schedule.position(ancestor) < cursor || ancestors.has(ancestor)) continue;
        ancestors.add(ancestor);
        queue.push(ancestor);
      }
    }
    const order = this.schedule.topologicalIndices;
    for (let position = cursor; position < order.length; position++) {
      const candidate = order[position]!;
      if (!ancestors.has(candidate)) continue;
      const finished = this.schedule.finishedAt(candidate);
      if (finished?.result?.state !== 'success') continue;
      for (const patch of finished.patches) state = deepMerge(state, patch);
    }
    return state;
  }

  /** Commits the finished tools at the cursor, in topological order; `committed` hears of each that changed the state. */
  advance(committed: (index: number, before: JsonObject, after: JsonObject) => void): void {
    const order = this.schedule.topologicalIndices;
    while (this.cursor < order.length) {
      const index = order[this.cursor]!;
      const finished = this.schedule.finishedAt(index);
      if (!finished) return;
      this.cursor++;
      if (finished.result?.state !== 'success' || finished.patches.length === 0) continue;
      this.uncommittedWithPatches--;
      const before = this.committedState;
      let after = before;
      for (const patch of finished.patches) after = deepMerge(after, patch);
      this.committedState = after;
      committed(index, before, after);
    }
  }
}
