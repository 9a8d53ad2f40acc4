// The arrowheads of a drawing: their ids (unique per drawing in one page) and the <defs> that draws them.
import { svg } from '../common/dom.js';

/** The ids of a drawing's arrowheads; `sceneDefinitions` creates them once per drawing. */
export interface ArrowMarkers {
  readonly normal: string;
  readonly error: string;
  readonly related: string;
}

/** Marker ids under `prefix` (a page with several drawings gives each its own, so no two elements share an id). */
export function arrowMarkers(prefix = 'graph'): ArrowMarkers {
  return { normal: `${prefix}-arrow`, error: `${prefix}-arrow-error`, related: `${prefix}-arrow-related` };
}

/** The marker ids of the graph panel's one drawing. */
export const ARROW_MARKERS: ArrowMarkers = arrowMarkers();

/** The `<defs>` of a drawing's SVG: arrowheads sized in user units, so thick critical edges keep small arrows. */
export function sceneDefinitions(markers: ArrowMarkers = ARROW_MARKERS): SVGDefsElement {
  const marker = (id: string, className: string) =>
    svg(
      'marker',
      { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 9, markerHeight: 9, markerUnits: 'userSpaceOnUse', orient: 'auto-start-reverse' },
      svg('path', { d: 'M0,0L10,5L0,10z', class: className }),
    );
  return svg('defs', {}, marker(markers.normal, 'arrow'), marker(markers.error, 'arrow-error'), marker(markers.related, 'arrow-related'));
}
