// How a tool row's live status reads in the inline plan graph: the graph view's state, duration and retries. Pure (no DOM).
import type { GraphNodeState } from '../../runtime/graph/graphTypes.js';
import type { ToolRunView } from '../../protocol/playPanelMessages.js';
import type { NodeRun } from '../graph/stateIcons.js';
import type { ToolRowModel } from './toolRow.js';

/** The graph state of each live status of the tool panel (the graph's words: success, timeout). */
export const GRAPH_STATE_OF_STATUS: Readonly<Record<ToolRunView['status'], GraphNodeState>> = {
  pending: 'pending',
  running: 'running',
  retrying: 'retrying',
  succeeded: 'success',
  failed: 'failed',
  skipped: 'skipped',
  cancelled: 'cancelled',
  timedOut: 'timeout',
};

/**
 * A row as the graph's node shows it; undefined for `recorded` (a saved turn's tool whose status was not kept),
 * which the graph draws without a state. While retrying, `attempt` is the try under way; once final, the retry
 * count and the duration go to the node's chip.
 */
export function graphRunOf(tool: Pick<ToolRowModel, 'status' | 'retries' | 'durationMs'>): NodeRun | undefined {
  if (tool.status === 'recorded') return undefined;
  const state = GRAPH_STATE_OF_STATUS[tool.status];
  if (state === 'retrying') return { state, attempt: tool.retries + 1, durationMs: tool.durationMs };
  return { state, durationMs: tool.durationMs, retryCount: tool.retries > 0 ? tool.retries : undefined };
}
