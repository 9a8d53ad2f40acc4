// Live run states over the drawn graph: changes only the nodes whose state moved, keeps them across re-layouts, and words the changes for screen readers.
import { STATE_LABELS } from '../../runtime/graph/graphPalette.js';
import type { GraphNodeState } from '../../runtime/graph/graphTypes.js';
import type { NodeStateView } from '../../protocol/graphPanelMessages.js';
import type { GraphScene } from './graphScene.js';
import { describeRun, type NodeRun } from '../common/stateIcons.js';

/** Announcements name at most this many tools, then "and n more". */
const ANNOUNCED_TOOLS = 3;

/** The order of the run summary in the header. */
const SUMMARY_ORDER: readonly GraphNodeState[] = ['running', 'retrying', 'success', 'failed', 'timeout', 'skipped', 'cancelled', 'rolledBack', 'pending'];

export class LiveRun {
  /** States from `runStates` since the last reset (they outlive a re-layout while the user edits). */
  private readonly live = new Map<string, NodeRun>();
  private label: string | undefined;

  constructor(private readonly announce: (text: string) => void) {}

  /** Applies one `runStates` message; returns whether any node changed. */
  apply(scene: GraphScene | undefined, states: readonly NodeStateView[], reset: boolean, runLabel: string | undefined): boolean {
    let changed = false;
    if (reset) {
      this.live.clear();
      if (scene) {
        for (const view of scene.nodes.values()) {
          if (view.currentRun) {
            view.setRun(undefined);
            changed = true;
          }
        }
      }
    }
    if (runLabel !== undefined) this.label = runLabel;
    const spoken: string[] = [];
    for (const update of states) {
      const run: NodeRun = { state: update.state, durationMs: update.durationMs, retryCount: update.retryCount, attempt: update.attempt };
      const view = scene?.nodes.get(update.id);
      const previous = view?.currentRun ?? this.live.get(update.id);
      this.live.set(update.id, run);
      if (view && !sameRun(previous, run)) {
        view.setRun(run);
        changed = true;
      }
      if (previous?.state !== run.state && run.state !== 'pending') spoken.push(`${update.id}: ${describeRun(run)}`);
    }
    if (spoken.length > 0) {
      const named = spoken.slice(0, ANNOUNCED_TOOLS).join('. ');
      this.announce(spoken.length > ANNOUNCED_TOOLS ? `${named}. And ${spoken.length - ANNOUNCED_TOOLS} more tools changed.` : named);
    } else if (reset && this.label) {
      this.announce(`Run started: ${this.label}`);
    }
    return changed;
  }

  /** Lays the live states over a freshly drawn scene (its layout may carry recorded states of its own). */
  restore(scene: GraphScene): void {
    for (const [id, run] of this.live) scene.nodes.get(id)?.setRun(run);
  }

  /** Header summary: the run's label, then "2 running", "5 succeeded", … in a fixed order, with the state's class for its colour. */
  summary(scene: GraphScene | undefined): { text: string; className: string }[] {
    if (!scene) return [];
    const counts = new Map<GraphNodeState, number>();
    for (const view of scene.nodes.values()) {
      const state = view.currentRun?.state;
      if (state) counts.set(state, (counts.get(state) ?? 0) + 1);
    }
    if (counts.size === 0) return [];
    const label = this.label ? [{ text: `${this.label}:`, className: 'run-label' }] : [];
    return [
      ...label,
      ...SUMMARY_ORDER.filter((state) => counts.has(state)).map((state) => ({
        text: `${counts.get(state)} ${STATE_LABELS[state]}`,
        className: `state-text-${state}`,
      })),
    ];
  }
}

function sameRun(a: NodeRun | undefined, b: NodeRun): boolean {
  return a !== undefined && a.state === b.state && a.durationMs === b.durationMs && a.retryCount === b.retryCount && a.attempt === b.attempt;
}
