// Restart Frame in a live debug run: which earlier tools keep their results, as the run record a new run resumes from.
import type { Plan } from '../contractTypes/plan.js';
import type { ToolResult } from '../contractTypes/executionResult.js';
import type { RunRecord } from '../persistence/runStore.js';
import type { DebugHistory, DebugPoint } from './debugHistory.js';

/** What a restarted run needs of the run it replaces. */
export interface RestartedRun {
  readonly plan: Plan;
  readonly root: string;
  readonly initialState: Record<string, unknown>;
}

/**
 * The record a run restarted at `start` resumes from: every tool that succeeded before `start` in the history (other
 * than the restarted tool itself) keeps its result and its state patches; the restarted tool and the ones after it run again.
 */
export function restartRecord(
  history: DebugHistory,
  finished: ReadonlyMap<string, ToolResult>,
  start: DebugPoint,
  run: RestartedRun,
  now: Date = new Date(),
): RunRecord {
  const kept: Record<string, { result: ToolResult; patches: Record<string, unknown>[] }> = {};
  for (let index = 0; index < start.index; index++) {
    const point = history.at(index);
    const result = point ? finished.get(point.toolId) : undefined;
    if (!point || point.kind !== 'finish' || !point.ok || point.toolId === start.toolId || result?.state !== 'success') continue;
    kept[point.toolId] = { result, patches: (result.events ?? []).flatMap((event) => (event.type === 'state_patch' ? [event.patch] : [])) };
  }
  const at = now.toISOString();
  return {
    formatVersion: 1,
    planId: run.plan.requestId,
    plan: run.plan,
    root: run.root,
    status: 'running',
    pid: process.pid,
    startedAt: at,
    updatedAt: at,
    initialState: run.initialState,
    tools: kept,
  };
}
