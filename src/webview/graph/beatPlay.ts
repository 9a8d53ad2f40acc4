// The beat graph during a play session: lays each beat's status (done, active, reachable, skipped) over the drawn scene, keeps it across re-layouts, and words it for the toolbar and screen readers.
import type { BeatPlayOverlay } from '../../protocol/graphPanelMessages.js';
import type { SvgPlay } from '../../runtime/graph/beatPlaySvg.js';
import type { GraphScene } from './graphScene.js';
import { BEAT_PLAY_LOOK, BEAT_PLAY_ORDER } from './beatPlayLook.js';

export class BeatPlay {
  private overlay: BeatPlayOverlay | undefined;

  constructor(private readonly announce: (text: string) => void) {}

  /** Whether a session's states are shown. */
  get shown(): boolean {
    return this.overlay !== undefined;
  }

  /** Applies a `beatStates` message; returns whether any node changed. */
  apply(scene: GraphScene | undefined, overlay: BeatPlayOverlay | undefined): boolean {
    const before = this.overlay;
    this.overlay = overlay;
    const changed = scene ? this.restore(scene) : false;
    if (overlay && overlay.label !== before?.label) this.announce(`${overlay.label}: ${this.countsText()}`);
    else if (!overlay && before) this.announce('The beat graph no longer follows a play session.');
    return changed;
  }

  /** Lays the session's states over a freshly drawn scene (beats it does not name lose theirs); returns whether any node changed. */
  restore(scene: GraphScene): boolean {
    const byId = new Map((this.overlay?.beats ?? []).map((beat) => [beat.id, beat]));
    let changed = false;
    for (const view of scene.nodes.values()) {
      const beat = byId.get(view.id);
      const previous = view.currentPlay;
      if (previous?.status === beat?.status && previous?.detail === beat?.detail) continue;
      view.setPlay(beat ? { status: beat.status, detail: beat.detail } : undefined);
      changed = true;
    }
    return changed;
  }

  /** What an export draws of the session (each beat's status and the session's words), or undefined when none is shown. */
  forExport(): SvgPlay | undefined {
    const overlay = this.overlay;
    if (!overlay) return undefined;
    return { label: overlay.label, statuses: new Map(overlay.beats.map((beat) => [beat.id, beat.status])) };
  }

  /** The toolbar's summary: the session's label, then "1 active", "2 done", "3 reachable", "0 skipped" (each with its class). */
  summary(): { text: string; className: string }[] {
    const overlay = this.overlay;
    if (!overlay) return [];
    return [
      { text: `${overlay.label}:`, className: 'run-label' },
      ...BEAT_PLAY_ORDER.map((status) => ({ text: `${this.count(status)} ${BEAT_PLAY_LOOK[status].label}`, className: `play-text-${status}` })),
    ];
  }

  private count(status: string): number {
    return (this.overlay?.beats ?? []).filter((beat) => beat.status === status).length;
  }

  private countsText(): string {
    return BEAT_PLAY_ORDER.map((status) => `${this.count(status)} ${BEAT_PLAY_LOOK[status].label}`).join(', ');
  }
}
