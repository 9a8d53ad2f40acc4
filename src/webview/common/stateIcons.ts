// How a tool's run state looks and reads in every panel: its codicon (a shape, so state is never told by colour alone), whether it spins, and the words said for it.
import { STATE_LABELS } from '../../runtime/graph/graphPalette.js';
import { runChipLabel } from '../../runtime/graph/nodeMetrics.js';
import type { GraphNodeState } from '../../runtime/graph/graphTypes.js';
import { formatDuration } from '../../runtime/common/humanText.js';

/** A tool's run as the view shows it. */
export interface NodeRun {
  readonly state: GraphNodeState;
  readonly durationMs?: number | undefined;
  readonly retryCount?: number | undefined;
  /** The attempt being retried (state `retrying`). */
  readonly attempt?: number | undefined;
}

/**
 * The codicon of each state, with its code point in the bundled codicon font (test/webview checks these against
 * dist/webview/codicon.css, so an icon font update cannot silently change a glyph).
 */
export const STATE_ICONS: Readonly<Record<GraphNodeState, { readonly name: string; readonly glyph: string; readonly spins?: true }>> = {
  pending: { name: 'circle-large-outline', glyph: '\uebb5' },
  running: { name: 'loading', glyph: '\ueb19', spins: true },
  retrying: { name: 'sync', glyph: '\uea77', spins: true },
  success: { name: 'pass', glyph: '\ueba4' },
  failed: { name: 'error', glyph: '\uea87' },
  timeout: { name: 'watch', glyph: '\ueb7c' },
  skipped: { name: 'debug-step-over', glyph: '\uead6' },
  cancelled: { name: 'circle-slash', glyph: '\ueabd' },
  rolledBack: { name: 'discard', glyph: '\ueae2' },
};

/** "Timed out": the state's words as a label starts. */
export function stateLabel(state: GraphNodeState): string {
  const words = STATE_LABELS[state];
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** States after which a tool does not change any more in this run. */
export const FINAL_STATES: ReadonlySet<GraphNodeState> = new Set(['success', 'failed', 'timeout', 'skipped', 'cancelled', 'rolledBack']);

/** "succeeded in 1.2 s", "retrying (attempt 2)", "failed after 2 retries". */
export function describeRun(run: NodeRun): string {
  const words: string[] = [STATE_LABELS[run.state]];
  if (run.state === 'retrying' && run.attempt !== undefined) words.push(`(attempt ${run.attempt})`);
  if (run.durationMs !== undefined && FINAL_STATES.has(run.state)) words.push(`in ${formatDuration(run.durationMs)}`);
  if (run.retryCount) words.push(`after ${run.retryCount} ${run.retryCount === 1 ? 'retry' : 'retries'}`);
  return words.join(' ');
}

/** The chip at the end of a node's badge row: "1.2 s ↻2"; while retrying, the retries so far. */
export function chipText(run: NodeRun | undefined): string {
  if (!run) return '';
  const retries = run.retryCount ?? (run.state === 'retrying' && run.attempt !== undefined ? run.attempt - 1 : undefined);
  return runChipLabel(run.durationMs, retries);
}
