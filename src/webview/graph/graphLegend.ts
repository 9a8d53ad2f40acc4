// The beat graph's legend under the canvas: edge styles, the cycle colour, unreachable marks, unknown beats, stripe colours, and during play each beat colour. Hidden for plans.
import { BEAT_GRAPH_LEGEND, BEAT_PLAY_LEGEND, type LegendSwatch } from '../../runtime/graph/graphWords.js';
import type { BeatPlayStatus } from '../../protocol/graphPanelMessages.js';
import { el, svg } from '../common/dom.js';
import { BEAT_PLAY_LOOK, beatPlayClass } from './beatPlayLook.js';

const SWATCH_WIDTH = 40;
const SWATCH_HEIGHT = 14;

/** Priority stripe colours from critical to optional (the slots of beatGraph.ts's PRIORITY_COLOURS). */
const PRIORITY_SLOTS = [5, 3, 0, 1, 7];

export class GraphLegend {
  readonly element: HTMLDetailsElement;
  private readonly playList: HTMLUListElement;

  constructor() {
    this.playList = el(
      'ul',
      { className: 'legend-list legend-play', attrs: { 'aria-label': 'Beats in the play session' } },
      ...BEAT_PLAY_LEGEND.map((entry) =>
        el('li', { className: 'legend-play-entry', data: { status: entry.status } }, playSwatch(entry.status), el('span', {}, entry.text)),
      ),
    );
    this.playList.hidden = true;
    this.element = el(
      'details',
      { className: 'graph-legend', attrs: { open: true } },
      el('summary', { className: 'legend-summary' }, 'Legend'),
      el(
        'ul',
        { className: 'legend-list' },
        ...BEAT_GRAPH_LEGEND.map((entry) => el('li', { className: 'legend-entry' }, swatch(entry.swatch), el('span', {}, entry.text))),
      ),
      this.playList,
    );
    this.element.hidden = true;
  }

  get shown(): boolean {
    return !this.element.hidden;
  }

  show(on: boolean): void {
    this.element.hidden = !on;
  }

  /** Shows the play session's colours (while the graph follows one). */
  showPlay(on: boolean): void {
    this.playList.hidden = !on;
  }
}

/** A small beat box in a status's look, with its icon. */
function playSwatch(status: BeatPlayStatus): SVGSVGElement {
  const drawing = svg('svg', {
    class: 'legend-swatch',
    width: SWATCH_WIDTH,
    height: SWATCH_HEIGHT + 2,
    viewBox: `0 0 ${SWATCH_WIDTH} ${SWATCH_HEIGHT + 2}`,
    'aria-hidden': 'true',
  });
  drawing.append(
    svg(
      'g',
      { class: `legend-node ${beatPlayClass(status)}` },
      svg('rect', { class: 'box', x: 1.5, y: 1.5, width: SWATCH_WIDTH - 3, height: SWATCH_HEIGHT - 1, rx: 3 }),
      svg(
        'text',
        { class: 'state-icon', x: SWATCH_WIDTH / 2, y: (SWATCH_HEIGHT + 2) / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central' },
        BEAT_PLAY_LOOK[status].glyph,
      ),
    ),
  );
  return drawing;
}

function swatch(kind: LegendSwatch): SVGSVGElement {
  const drawing = svg('svg', {
    class: 'legend-swatch',
    width: SWATCH_WIDTH,
    height: SWATCH_HEIGHT,
    viewBox: `0 0 ${SWATCH_WIDTH} ${SWATCH_HEIGHT}`,
    'aria-hidden': 'true',
  });
  const middle = SWATCH_HEIGHT / 2;
  switch (kind.kind) {
    case 'edge':
      drawing.append(svg('path', { class: kind.className, d: `M2,${middle} L${SWATCH_WIDTH - 4},${middle}` }));
      break;
    case 'badge':
      drawing.append(svg('rect', { class: `legend-badge ${kind.className}`, x: 1, y: 1, width: SWATCH_WIDTH - 2, height: SWATCH_HEIGHT - 2, rx: 3 }));
      break;
    case 'missing':
      drawing.append(svg('rect', { class: 'legend-missing', x: 1, y: 1, width: SWATCH_WIDTH - 2, height: SWATCH_HEIGHT - 2, rx: 3 }));
      break;
    case 'node':
      PRIORITY_SLOTS.forEach((slot, position) =>
        drawing.append(svg('rect', { class: `skill-${slot}`, x: 2 + position * 7.5, y: 1, width: 5, height: SWATCH_HEIGHT - 2, rx: 1.5 })),
      );
      break;
  }
  return drawing;
}
