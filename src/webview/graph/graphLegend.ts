// The beat graph's legend, a strip under the canvas: what each edge style, the cycle colour, the unreachable mark, an unknown beat's box and the stripe colours mean. Collapsible; hidden for plans.
import { BEAT_GRAPH_LEGEND, type LegendSwatch } from '../../runtime/graph/graphWords.js';
import { el, svg } from '../common/dom.js';

const SWATCH_WIDTH = 40;
const SWATCH_HEIGHT = 14;

/** Priority stripe colours from critical to optional (the slots of beatGraph.ts's PRIORITY_COLOURS). */
const PRIORITY_SLOTS = [5, 3, 0, 1, 7];

export class GraphLegend {
  readonly element: HTMLDetailsElement;

  constructor() {
    this.element = el(
      'details',
      { className: 'graph-legend', attrs: { open: true } },
      el('summary', { className: 'legend-summary' }, 'Legend'),
      el(
        'ul',
        { className: 'legend-list' },
        ...BEAT_GRAPH_LEGEND.map((entry) => el('li', { className: 'legend-entry' }, swatch(entry.swatch), el('span', {}, entry.text))),
      ),
    );
    this.element.hidden = true;
  }

  get shown(): boolean {
    return !this.element.hidden;
  }

  show(on: boolean): void {
    this.element.hidden = !on;
  }
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
