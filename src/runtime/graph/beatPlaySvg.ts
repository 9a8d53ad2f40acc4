// A beat's place in a play session in the standalone SVG (Export on a beat graph that follows a session): its box's rule and a marker shape of its own, so the status is never told by colour alone.
import type { BeatPlayStatus } from '../campaign/view/beatPlayStates.js';

/** The beats of a play session the export shows, by id, and the session's words for the title. */
export interface SvgPlay {
  readonly label: string;
  readonly statuses: ReadonlyMap<string, BeatPlayStatus>;
}

/** The box of each status, as the view draws it (beatPlay.css), with the --graph-play-* colours. */
export const PLAY_RULES = `.play-done .box { stroke: var(--graph-play-done); stroke-width: 1.5; }
.play-active .box { stroke: var(--graph-play-active); stroke-width: 3; }
.play-reachable .box { stroke: var(--graph-play-reachable); stroke-width: 1.5; }
.play-skipped .box { fill: var(--graph-background); stroke: var(--graph-play-skipped); stroke-dasharray: 3 3; }
.play-skipped .title, .play-skipped .detail { opacity: 0.65; }
.play-tint { stroke: none; pointer-events: none; }
.play-done .play-tint { fill: var(--graph-play-done); fill-opacity: 0.14; }
.play-active .play-tint { fill: var(--graph-play-active); fill-opacity: 0.22; }
.play-mark { fill: none; stroke-width: 1.6; stroke-linecap: round; stroke-linejoin: round; }
.play-done .play-mark { stroke: var(--graph-play-done); }
.play-active .play-mark { stroke: var(--graph-play-active); }
.play-active .play-mark-dot { fill: var(--graph-play-active); stroke: none; }
.play-reachable .play-mark { stroke: var(--graph-play-reachable); }
.play-skipped .play-mark { stroke: var(--graph-play-skipped); }`;

/** A box's tint (done and active beats are filled a little with their colour), drawn over the box. */
export function playTint(status: BeatPlayStatus, box: { readonly x: number; readonly y: number; readonly width: number; readonly height: number }): string {
  if (status !== 'done' && status !== 'active') return '';
  return `<rect class="play-tint" x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" rx="6"/>`;
}

/**
 * The status's marker, centred on (cx, cy), about 10 px across: a check (done), a ringed dot (active), a ring
 * (reachable), a dashed ring with an arrow over it (skipped), as the view's codicons are.
 */
export function playMarker(status: BeatPlayStatus, cx: number, cy: number): string {
  const at = (dx: number, dy: number) => `${cx + dx},${cy + dy}`;
  switch (status) {
    case 'done':
      return `<path class="play-mark" d="M${at(-4, 0)} L${at(-1.5, 3)} L${at(4, -3.5)}"/>`;
    case 'active':
      return `<circle class="play-mark" cx="${cx}" cy="${cy}" r="5"/><circle class="play-mark-dot" cx="${cx}" cy="${cy}" r="2"/>`;
    case 'reachable':
      return `<circle class="play-mark" cx="${cx}" cy="${cy}" r="4.5"/>`;
    case 'skipped':
      return (
        `<circle class="play-mark" cx="${cx}" cy="${cy + 1.5}" r="3.5" stroke-dasharray="1.5 1.5"/>` +
        `<path class="play-mark" d="M${at(-5, -2)} Q${at(0, -7)} ${at(5, -2)} M${at(3, -4.5)} L${at(5, -2)} L${at(2.2, -1.2)}"/>`
      );
  }
}
