// A run's per-tool states (from an ExecutionResult, a run record or live events) laid over a graph layout.
import type { ToolResult } from '../contractTypes/executionResult.js';
import type { GraphNodeState, PlanGraphLayout, PlanGraphNode } from './graphTypes.js';

/** What the graph shows of one tool's run. */
export interface ToolRunOverlay {
  readonly state: GraphNodeState;
  readonly durationMs?: number | undefined;
  readonly retryCount?: number | undefined;
}

/** toolId → its state in the run. */
export type RunOverlay = ReadonlyMap<string, ToolRunOverlay>;

/** The overlay of finished tool results: recorded state, duration and retry count. */
export function overlayOfResults(results: Iterable<ToolResult>): RunOverlay {
  const overlay = new Map<string, ToolRunOverlay>();
  for (const result of results) {
    overlay.set(result.toolId, {
      state: result.state,
      ...(result.executionTimeMs !== undefined ? { durationMs: result.executionTimeMs } : {}),
      ...(result.retryCount !== undefined ? { retryCount: result.retryCount } : {}),
    });
  }
  return overlay;
}

/** The layout with each node's run state; nodes the run has no entry for are `pending` when `pendingByDefault`. */
export function applyOverlay(layout: PlanGraphLayout, overlay: RunOverlay, pendingByDefault = false): PlanGraphLayout {
  const nodes = layout.nodes.map((node): PlanGraphNode => {
    const run = overlay.get(node.id);
    const { state: _state, durationMs: _duration, retryCount: _retries, ...plain } = node;
    if (!run) return pendingByDefault ? { ...plain, state: 'pending' } : plain;
    return {
      ...plain,
      state: run.state,
      ...(run.durationMs !== undefined ? { durationMs: run.durationMs } : {}),
      ...(run.retryCount !== undefined ? { retryCount: run.retryCount } : {}),
    };
  });
  return { ...layout, nodes };
}
