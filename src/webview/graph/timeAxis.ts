// The timeline's time axis: round ticks (1, 2 or 5 × 10ⁿ ms, labels in ms, s or min), the axis row and the grid lines behind the rows.
import { el } from '../common/dom.js';
import { formatDuration } from '../../runtime/common/humanText.js';

export interface Tick {
  readonly at: number;
  /** Position along the axis, 0–100 (%). */
  readonly percent: number;
  readonly label: string;
}

/** The smallest round step (at least 1 ms) that gives at most `target` intervals over `durationMs`. */
export function tickStep(durationMs: number, target = 6): number {
  const raw = Math.max(1, Math.max(1, durationMs) / Math.max(1, target));
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const multiple of [1, 2, 5, 10]) {
    if (multiple * power >= raw) return multiple * power;
  }
  return 10 * power;
}

/** Ticks from 0 to `durationMs` (the end itself only when it falls on a step). */
export function timeTicks(durationMs: number, target = 6): Tick[] {
  const duration = Math.max(1, durationMs);
  const step = tickStep(duration, target);
  const ticks: Tick[] = [];
  for (let at = 0; at <= duration + 1e-9; at += step) ticks.push({ at, percent: (100 * at) / duration, label: at === 0 ? '0' : formatDuration(at) });
  return ticks;
}

/** Position of `at` along a run of `durationMs`, as a CSS percentage (clamped to the run). */
export function percentOf(at: number, durationMs: number): number {
  return Math.min(100, Math.max(0, (100 * at) / Math.max(1, durationMs)));
}

/** The sticky row of tick labels above the waterfall (an empty label cell, then the ticks). */
export function axisRow(durationMs: number): HTMLElement {
  const ticks = el('div', { className: 'timeline-track timeline-ticks' });
  for (const tick of timeTicks(durationMs, 5)) {
    // A label this close to the end would run out of the track, and ending it at its tick would overlap the
    // previous label in a narrow panel: the grid line alone marks it.
    if (tick.percent > 88) continue;
    const label = el('span', { className: 'tick' }, tick.label);
    label.style.left = `${tick.percent}%`;
    ticks.append(label);
  }
  return el('div', { className: 'timeline-row timeline-axis', attrs: { 'aria-hidden': 'true' } }, el('div', { className: 'timeline-label' }), ticks);
}

/** Dashed vertical lines at each tick, laid over the whole waterfall. */
export function gridLines(durationMs: number): HTMLElement {
  const grid = el('div', { className: 'timeline-grid', attrs: { 'aria-hidden': 'true' } });
  for (const tick of timeTicks(durationMs, 5)) {
    const line = el('div', { className: 'grid-line' });
    line.style.left = `${tick.percent}%`;
    grid.append(line);
  }
  return grid;
}
