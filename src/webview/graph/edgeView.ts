// One edge of a drawn graph: its classes and arrowhead, and a path element built on first use (dropped and rebuilt in virtualized scenes).
import { pathData } from '../../runtime/graph/graphSvg.js';
import type { PlanGraphEdge } from '../../runtime/graph/graphTypes.js';
import { svg } from '../common/dom.js';
import type { Box } from './spatialGrid.js';

/** One edge; its path element is built on first use and can be dropped and built again (virtualized scenes). */
export class EdgeView {
  private path: SVGPathElement | undefined;
  private readonly classes: Set<string>;
  private markerEnd: string;
  /** Bounding box of the route, in graph coordinates. */
  readonly bounds: Box;

  constructor(
    readonly edge: PlanGraphEdge,
    readonly marker: string,
  ) {
    // A beat graph's edge also carries its relation (edge-rel-requiresAny...: dashed, dotted; scene.css).
    this.classes = new Set(['edge', `edge-${edge.kind}`, ...(edge.relation ? [`edge-rel-${edge.relation}`] : []), ...(edge.critical ? ['critical'] : [])]);
    this.markerEnd = marker;
    let left = Infinity;
    let top = Infinity;
    let right = -Infinity;
    let bottom = -Infinity;
    for (const point of edge.points) {
      left = Math.min(left, point.x);
      top = Math.min(top, point.y);
      right = Math.max(right, point.x);
      bottom = Math.max(bottom, point.y);
    }
    this.bounds = { x: left, y: top, width: right - left, height: bottom - top };
  }

  get element(): SVGPathElement {
    return (this.path ??= svg('path', {
      class: [...this.classes].join(' '),
      d: pathData(this.edge.points),
      'marker-end': `url(#${this.markerEnd})`,
      'data-from': this.edge.from,
      'data-to': this.edge.to,
    }));
  }

  get drawn(): boolean {
    return this.path !== undefined;
  }

  release(): void {
    this.path?.remove();
    this.path = undefined;
  }

  setClass(name: string, on: boolean): void {
    if (on) this.classes.add(name);
    else this.classes.delete(name);
    this.path?.classList.toggle(name, on);
  }

  hasClass(name: string): boolean {
    return this.classes.has(name);
  }

  /** The arrowhead (a marker id). */
  setMarkerEnd(marker: string): void {
    this.markerEnd = marker;
    this.path?.setAttribute('marker-end', `url(#${marker})`);
  }
}
