// How a beat's place in a play session looks on the beat graph: its codicon (a shape, so the status is never told by colour alone), its class and its words.
import type { BeatPlayStatus } from '../../protocol/graphPanelMessages.js';

/** The codicon of each status, with its code point in the bundled codicon font (test/webview checks them against dist/webview/codicon.css). */
export const BEAT_PLAY_LOOK: Readonly<Record<BeatPlayStatus, { readonly icon: string; readonly glyph: string; readonly label: string }>> = {
  done: { icon: 'pass', glyph: '\ueba4', label: 'done' },
  active: { icon: 'target', glyph: '\uebf8', label: 'active' },
  reachable: { icon: 'circle-large-outline', glyph: '\uebb5', label: 'reachable' },
  skipped: { icon: 'debug-step-over', glyph: '\uead6', label: 'skipped' },
};

/** The statuses in the order the legend and the toolbar's summary list them. */
export const BEAT_PLAY_ORDER: readonly BeatPlayStatus[] = ['active', 'done', 'reachable', 'skipped'];

/** A node's class for a status. */
export function beatPlayClass(status: BeatPlayStatus): string {
  return `play-${status}`;
}
