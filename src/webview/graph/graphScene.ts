// Builds the SVG of one layout in a single pass into a DocumentFragment: level bands, edges, unknown-dependency boxes, nodes.
import { pathData } from '../../runtime/graph/graphSvg.js';
import type { PlanGraphEdge, PlanGraphLayout } from '../../runtime/graph/graphTypes.js';
import { plural, svg } from './dom.js';
import { GraphIndex } from './graphIndex.js';
import { NodeView } from './nodeView.js';

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

export interface SceneOptions {
  /** Prefix of the scene's element ids and arrowheads; unique per drawing in one page (default `graph`). */
  readonly idPrefix?: string | undefined;
  /** Nodes are selectable buttons (the graph panel); false labels them as images (a read-only inline drawing). */
  readonly interactive?: boolean | undefined;
}

export interface EdgeView {
  readonly edge: PlanGraphEdge;
  readonly element: SVGPathElement;
  readonly marker: string;
}

/** A drawn layout and handles to change it in place. */
export class GraphScene {
  readonly root: SVGGElement;
  readonly index: GraphIndex;
  readonly nodes = new Map<string, NodeView>();
  readonly edges: EdgeView[] = [];
  /** Unknown dependency boxes by the missing toolId. */
  readonly missing = new Map<string, SVGGElement>();
  /** One ring moved to the selected node (cheaper than a ring per node). */
  readonly selectionRing: SVGRectElement;
  /** The arrowheads this scene's edges point to (`sceneDefinitions(scene.markers)` draws them). */
  readonly markers: ArrowMarkers;
  private readonly idPrefix: string;
  private readonly interactive: boolean;

  constructor(
    readonly layout: PlanGraphLayout,
    options: SceneOptions = {},
  ) {
    this.idPrefix = options.idPrefix ?? 'graph';
    this.interactive = options.interactive ?? true;
    this.markers = arrowMarkers(this.idPrefix);
    this.index = new GraphIndex(layout);
    this.root = svg('g', { class: 'scene' });
    const fragment = document.createDocumentFragment();
    fragment.append(this.bands(), this.edgeLayer(), this.missingLayer(), this.nodeLayer());
    this.selectionRing = svg('rect', { class: 'selection-ring', rx: 9, visibility: 'hidden' });
    fragment.append(this.selectionRing);
    this.root.append(fragment);
  }

  /** Edges that touch `id`. */
  edgesOf(id: string): EdgeView[] {
    return this.edges.filter((view) => view.edge.from === id || view.edge.to === id);
  }

  private bands(): SVGGElement {
    const layer = svg('g', { class: 'bands' });
    const width = Math.max(1, this.layout.width);
    for (const level of this.layout.levels) {
      if (level.level % 2 === 0) layer.append(svg('rect', { class: 'band', x: 0, y: level.y, width, height: level.height }));
      layer.append(svg('text', { class: 'band-label', x: 6, y: level.y + 14 }, `level ${level.level} · ${plural(level.count, 'tool')}`));
    }
    return layer;
  }

  private edgeLayer(): SVGGElement {
    const layer = svg('g', { class: 'edges' });
    for (const edge of this.layout.edges) {
      if (edge.points.length < 2) continue;
      const marker = edge.kind === 'dependency' ? this.markers.normal : this.markers.error;
      const classes = ['edge', `edge-${edge.kind}`, edge.critical ? 'critical' : ''].filter(Boolean).join(' ');
      const element = svg('path', { class: classes, d: pathData(edge.points), 'marker-end': `url(#${marker})`, 'data-from': edge.from, 'data-to': edge.to });
      layer.append(element);
      this.edges.push({ edge, element, marker });
    }
    return layer;
  }

  private missingLayer(): SVGGElement {
    const layer = svg('g', { class: 'missing-boxes' });
    for (const box of this.layout.missing) {
      const group = svg(
        'g',
        { class: 'missing', 'data-missing-id': box.id, role: 'img', 'aria-label': `Unknown dependency ${box.id}: no tool has this toolId` },
        svg('rect', { x: box.x, y: box.y, width: box.width, height: box.height, rx: 4 }),
        svg('text', { x: box.x + box.width / 2, y: box.y + box.height / 2 + 4, 'text-anchor': 'middle' }, `? ${box.id}`),
      );
      layer.append(group);
      this.missing.set(box.id, group);
    }
    return layer;
  }

  private nodeLayer(): SVGGElement {
    const layer = svg('g', { class: 'nodes' });
    const inCycle = new Set(this.layout.cycles.flat());
    this.layout.nodes.forEach((node, position) => {
      const view = new NodeView(node, `${this.idPrefix}-node-${position}`, inCycle.has(node.id), this.interactive);
      layer.append(view.group);
      this.nodes.set(node.id, view);
    });
    return layer;
  }
}

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
