// How a tool row's live status reads in the inline plan graph: its state (the same words), duration and retries. Pure (no DOM).
import type { NodeRun } from '../common/stateIcons.js';
import type { ToolRowModel } from './toolRow.js';

/**
 * A row as the graph's node shows it; undefined for `recorded` (a saved turn's tool whose status was not kept),
 * which the graph draws without a state. While retrying, `attempt` is the try under way; once final, the retry
 * count and the duration go to the node's chip.
 */
export function graphRunOf(tool: Pick<ToolRowModel, 'status' | 'retries' | 'durationMs'>): NodeRun | undefined {
  if (tool.status === 'recorded') return undefined;
  const state = tool.status;
  if (state === 'retrying') return { state, attempt: tool.retries + 1, durationMs: tool.durationMs };
  return { state, durationMs: tool.durationMs, retryCount: tool.retries > 0 ? tool.retries : undefined };
}
