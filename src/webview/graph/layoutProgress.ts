// While a big plan is laid out off the UI thread: a progress line and a cheap overview, one bar per level sized by its tool count.
import { append, el } from '../common/dom.js';
import { plural, formatCount } from '../../runtime/common/humanText.js';

/** Levels drawn at most; deeper plans show the rest as one summary line. */
const MAX_LEVEL_BARS = 200;

export class LayoutProgress {
  readonly element: HTMLDivElement;

  constructor() {
    this.element = el('div', { className: 'layout-progress', attrs: { role: 'status', 'aria-live': 'polite' } });
    this.element.hidden = true;
  }

  /** Shows the overview in place of the graph (`overview`), or only the progress line over the current graph. */
  show(title: string, nodeCount: number, levels: readonly number[], overview: boolean): void {
    const widest = Math.max(1, ...levels);
    // Bars as thick as the room allows, so a shallow plan's overview still reads as a shape.
    const barHeight = `${Math.max(3, Math.min(14, Math.floor(320 / Math.max(1, Math.min(levels.length, MAX_LEVEL_BARS)))))}px`;
    const bars = overview
      ? el(
          'div',
          { className: 'level-overview', attrs: { 'aria-hidden': 'true' } },
          ...levels.slice(0, MAX_LEVEL_BARS).map((count) => {
            const bar = el('div', { className: 'level-bar' });
            bar.style.width = `${Math.max(0.5, (100 * count) / widest)}%`;
            bar.style.height = barHeight;
            return bar;
          }),
          levels.length > MAX_LEVEL_BARS ? el('div', { className: 'level-more' }, `… ${formatCount(levels.length - MAX_LEVEL_BARS)} more levels`) : null,
        )
      : null;
    this.element.className = `layout-progress${overview ? ' with-overview' : ' inline'}`;
    this.element.replaceChildren();
    append(
      this.element,
      el(
        'div',
        { className: 'layout-progress-line' },
        el('span', { className: 'codicon codicon-loading codicon-modifier-spin', attrs: { 'aria-hidden': 'true' } }),
        el('span', {}, `Laying out ${title}: ${plural(nodeCount, 'tool')} in ${plural(levels.length, 'level')}…`),
      ),
      el('div', { className: 'progress-track', attrs: { 'aria-hidden': 'true' } }, el('div', { className: 'progress-runner' })),
      bars,
    );
    this.element.hidden = false;
  }

  hide(): void {
    this.element.hidden = true;
    this.element.replaceChildren();
  }
}
