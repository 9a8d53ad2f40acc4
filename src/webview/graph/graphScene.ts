// Builds the SVG of one layout in a single pass into a DocumentFragment: level bands, edges, unknown-dependency boxes, nodes.
import { pathData } from '../../runtime/graph/graphSvg.js';
import type { PlanGraphEdge, PlanGraphLayout } from '../../runtime/graph/graphTypes.js';
import { GRAPH_WORDS, type GraphWords } from '../../runtime/graph/graphWords.js';
import { svg } from '../common/dom.js';
import { GraphIndex } from './graphIndex.js';
import { NodeView } from './nodeView.js';
import { plural } from '../../runtime/common/humanText.js';

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
  /** What the nodes are (tools, or beats); default the plan's words. */
  readonly words?: GraphWords | undefined;
}

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

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Scenes with more nodes than this draw only what is near the view (`updateView`); smaller ones draw everything once. */
export const VIRTUALIZE_FROM_NODES = 1_500;
/** Below this zoom a virtualized scene draws nodes as plain coloured boxes and edges as one path (text is unreadable). */
export const LOW_DETAIL_ZOOM = 0.35;
/** Drawn around the view on each side, as a fraction of the view's size: small pans add nothing. */
const MARGIN = 0.5;

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
  /** True when only the part near the view is in the DOM (big graphs). */
  readonly virtual: boolean;
  /** Called when a virtualized scene needs `updateView` again (a run state or mark changed in the low-detail form). */
  onInvalidate: (() => void) | undefined;
  private readonly idPrefix: string;
  private readonly interactive: boolean;
  /** What the nodes are, for labels and bands. */
  readonly words: GraphWords;
  private readonly virtualState: VirtualState | undefined;

  constructor(
    readonly layout: PlanGraphLayout,
    options: SceneOptions = {},
  ) {
    this.idPrefix = options.idPrefix ?? 'graph';
    this.interactive = options.interactive ?? true;
    this.words = options.words ?? GRAPH_WORDS.plan;
    this.markers = arrowMarkers(this.idPrefix);
    this.index = new GraphIndex(layout);
    this.virtual = layout.nodes.length > VIRTUALIZE_FROM_NODES;
    this.root = svg('g', { class: 'scene' });
    this.selectionRing = svg('rect', { class: 'selection-ring', rx: 9, visibility: 'hidden' });
    this.createViews();
    if (!this.virtual) {
      const fragment = document.createDocumentFragment();
      fragment.append(this.bands(), this.edgeLayer(), this.missingLayer(), this.nodeLayer());
      fragment.append(this.selectionRing);
      this.root.append(fragment);
      return;
    }
    const layers = {
      bands: svg('g', { class: 'bands' }),
      lod: svg('g', { class: 'low-detail', 'aria-hidden': 'true' }),
      edges: svg('g', { class: 'edges' }),
      nodes: svg('g', { class: 'nodes' }),
    };
    this.root.append(layers.bands, layers.lod, layers.edges, this.missingLayer(), layers.nodes, this.selectionRing);
    this.virtualState = new VirtualState(this, layers);
  }

  /** Edges that touch `id`. */
  edgesOf(id: string): EdgeView[] {
    return this.edges.filter((view) => view.edge.from === id || view.edge.to === id);
  }

  /**
   * A virtualized scene: draws what intersects `visible` (graph coordinates) plus a margin, drops what is far, and
   * below LOW_DETAIL_ZOOM draws the low-detail form. Nothing to do for a scene drawn whole.
   */
  updateView(visible: Box, zoom: number): void {
    this.virtualState?.update(visible, zoom);
  }

  /** Keeps `id`'s node in the DOM whatever the view (the selected node: aria-activedescendant points at it). */
  pin(id: string | undefined): void {
    this.virtualState?.pin(id);
  }

  /** The node under a graph point (for clicks and tooltips in the low-detail form). */
  nodeAt(x: number, y: number): NodeView | undefined {
    return this.virtualState?.nodeAt(x, y);
  }

  /** Whether the low-detail form is drawn now. */
  get lowDetail(): boolean {
    return this.virtualState?.lowDetail ?? false;
  }

  private createViews(): void {
    const inCycle = new Set(this.layout.cycles.flat());
    const changed = this.virtual ? () => this.virtualState?.markDirty() : undefined;
    this.layout.nodes.forEach((node, position) => {
      this.nodes.set(node.id, new NodeView(node, `${this.idPrefix}-node-${position}`, inCycle.has(node.id), this.interactive, changed, this.words.node));
    });
    for (const edge of this.layout.edges) {
      if (edge.points.length < 2) continue;
      this.edges.push(new EdgeView(edge, edge.kind === 'dependency' ? this.markers.normal : this.markers.error));
    }
  }

  private bands(): SVGGElement {
    const layer = svg('g', { class: 'bands' });
    for (const level of this.layout.levels) layer.append(...bandElements(level, this.layout.width, this.words.node));
    return layer;
  }

  private edgeLayer(): SVGGElement {
    const layer = svg('g', { class: 'edges' });
    for (const view of this.edges) layer.append(view.element);
    return layer;
  }

  private missingLayer(): SVGGElement {
    const layer = svg('g', { class: 'missing-boxes' });
    for (const box of this.layout.missing) {
      const group = svg(
        'g',
        { class: 'missing', 'data-missing-id': box.id, role: 'img', 'aria-label': this.words.unknown(box.id) },
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
    for (const view of this.nodes.values()) layer.append(view.group);
    return layer;
  }
}

type Level = PlanGraphLayout['levels'][number];

function bandElements(level: Level, layoutWidth: number, noun: string): SVGElement[] {
  const elements: SVGElement[] = [];
  if (level.level % 2 === 0) elements.push(svg('rect', { class: 'band', x: 0, y: level.y, width: Math.max(1, layoutWidth), height: level.height }));
  elements.push(svg('text', { class: 'band-label', x: 6, y: level.y + 14 }, `level ${level.level} · ${plural(level.count, noun)}`));
  return elements;
}

function intersects(a: Box, b: Box): boolean {
  return a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;
}

function contains(outer: Box, inner: Box): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
}

/** A uniform grid over the layout: each item is listed in the cells its box covers (very long items in `wide`). */
class SpatialGrid<T> {
  private readonly cells = new Map<number, T[]>();
  private readonly wide: T[] = [];
  private readonly columns: number;

  constructor(
    private readonly cell: number,
    width: number,
    private readonly boxOf: (item: T) => Box,
    items: Iterable<T>,
  ) {
    this.columns = Math.max(1, Math.ceil(width / cell) + 1);
    for (const item of items) {
      const box = boxOf(item);
      const [left, top, right, bottom] = this.span(box);
      if ((right - left + 1) * (bottom - top + 1) > 64) {
        this.wide.push(item);
        continue;
      }
      for (let row = top; row <= bottom; row++) {
        for (let column = left; column <= right; column++) {
          const key = row * this.columns + column;
          const list = this.cells.get(key);
          if (list) list.push(item);
          else this.cells.set(key, [item]);
        }
      }
    }
  }

  private span(box: Box): [number, number, number, number] {
    const clampColumn = (value: number) => Math.min(this.columns - 1, Math.max(0, value));
    return [
      clampColumn(Math.floor(box.x / this.cell)),
      Math.max(0, Math.floor(box.y / this.cell)),
      clampColumn(Math.floor((box.x + box.width) / this.cell)),
      Math.max(0, Math.floor((box.y + box.height) / this.cell)),
    ];
  }

  /** Items whose box intersects `area`. */
  query(area: Box): Set<T> {
    const found = new Set<T>();
    const [left, top, right, bottom] = this.span(area);
    for (let row = top; row <= bottom; row++) {
      for (let column = left; column <= right; column++) {
        for (const item of this.cells.get(row * this.columns + column) ?? []) if (!found.has(item) && intersects(this.boxOf(item), area)) found.add(item);
      }
    }
    for (const item of this.wide) if (intersects(this.boxOf(item), area)) found.add(item);
    return found;
  }
}

/** What a virtualized scene has drawn and the indexes that find what to draw. */
class VirtualState {
  private readonly nodeGrid: SpatialGrid<NodeView>;
  private readonly edgeGrid: SpatialGrid<EdgeView>;
  private readonly drawnNodes = new Set<NodeView>();
  private readonly drawnEdges = new Set<EdgeView>();
  private readonly drawnBands = new Map<Level, SVGElement[]>();
  /** The area drawn around the view last time, and in which form. */
  private region: Box | undefined;
  private low = false;
  /** The low-detail form must be drawn again (run states, marks). */
  private dirty = false;
  private pinned: NodeView | undefined;

  constructor(
    private readonly scene: GraphScene,
    private readonly layers: { bands: SVGGElement; lod: SVGGElement; edges: SVGGElement; nodes: SVGGElement },
  ) {
    const { layout } = scene;
    // About 2,000 cells over the whole layout, each at least 300 units.
    const cell = Math.max(300, Math.sqrt((Math.max(1, layout.width) * Math.max(1, layout.height)) / 2_000));
    this.nodeGrid = new SpatialGrid(cell, layout.width, (view) => view.node, scene.nodes.values());
    this.edgeGrid = new SpatialGrid(cell, layout.width, (view) => view.bounds, scene.edges);
  }

  get lowDetail(): boolean {
    return this.low;
  }

  markDirty(): void {
    if (!this.low || this.dirty) return;
    this.dirty = true;
    this.scene.onInvalidate?.();
  }

  pin(id: string | undefined): void {
    const view = id === undefined ? undefined : this.scene.nodes.get(id);
    const previous = this.pinned;
    this.pinned = view;
    if (previous && previous !== view && (this.low || !this.drawnNodes.has(previous))) previous.release();
    if (view && !view.group.isConnected) this.layers.nodes.append(view.group);
  }

  nodeAt(x: number, y: number): NodeView | undefined {
    for (const view of this.nodeGrid.query({ x, y, width: 0, height: 0 })) return view;
    return undefined;
  }

  update(visible: Box, zoom: number): void {
    if (visible.width <= 0 || visible.height <= 0) return;
    const low = zoom < LOW_DETAIL_ZOOM;
    if (this.region && low === this.low && !this.dirty && contains(this.region, visible)) return;
    const region = {
      x: visible.x - visible.width * MARGIN,
      y: visible.y - visible.height * MARGIN,
      width: visible.width * (1 + 2 * MARGIN),
      height: visible.height * (1 + 2 * MARGIN),
    };
    this.region = region;
    this.low = low;
    this.dirty = false;
    this.drawBands(region);
    const nodes = this.nodeGrid.query(region);
    const edges = this.edgeGrid.query(region);
    if (low) {
      this.drawDetailed(new Set(), new Set());
      this.drawLowDetail(nodes, edges);
    } else {
      this.layers.lod.replaceChildren();
      this.drawDetailed(nodes, edges);
    }
  }

  private drawBands(region: Box): void {
    const { layout } = this.scene;
    const wanted = new Set(layout.levels.filter((level) => level.y <= region.y + region.height && region.y <= level.y + level.height));
    for (const [level, elements] of this.drawnBands) {
      if (wanted.has(level)) continue;
      for (const element of elements) element.remove();
      this.drawnBands.delete(level);
    }
    const fragment = document.createDocumentFragment();
    for (const level of wanted) {
      if (this.drawnBands.has(level)) continue;
      const elements = bandElements(level, layout.width, this.scene.words.node);
      this.drawnBands.set(level, elements);
      fragment.append(...elements);
    }
    this.layers.bands.append(fragment);
  }

  private drawDetailed(nodes: Set<NodeView>, edges: Set<EdgeView>): void {
    for (const view of this.drawnNodes) {
      if (nodes.has(view)) continue;
      this.drawnNodes.delete(view);
      if (view !== this.pinned) view.release();
    }
    for (const view of this.drawnEdges) {
      if (edges.has(view)) continue;
      this.drawnEdges.delete(view);
      view.release();
    }
    const edgeFragment = document.createDocumentFragment();
    for (const view of edges) {
      if (this.drawnEdges.has(view)) continue;
      this.drawnEdges.add(view);
      edgeFragment.append(view.element);
    }
    this.layers.edges.append(edgeFragment);
    const nodeFragment = document.createDocumentFragment();
    for (const view of nodes) {
      if (this.drawnNodes.has(view)) continue;
      this.drawnNodes.add(view);
      if (!view.group.isConnected) nodeFragment.append(view.group);
    }
    this.layers.nodes.append(nodeFragment);
  }

  /** Nodes as boxes filled in their state or skill colour, one path per colour; edges as one path (two with the critical ones). */
  private drawLowDetail(nodes: Set<NodeView>, edges: Set<EdgeView>): void {
    const boxes = new Map<string, string[]>();
    const add = (key: string, part: string) => {
      const list = boxes.get(key);
      if (list) list.push(part);
      else boxes.set(key, [part]);
    };
    for (const view of nodes) {
      const { x, y, width, height } = view.node;
      const box = `M${x} ${y}h${width}v${height}h${-width}z`;
      const run = view.currentRun;
      const match = view.hasClass('search-match') ? ' search-match' : '';
      const focus = view.hasClass('in-focus') ? ' in-focus' : '';
      add(`lod-node ${run ? `lod-state-${run.state}` : `skill-${view.node.colour}`}${match}${focus}`, box);
    }
    const paths: SVGElement[] = [];
    const normal: string[] = [];
    const critical: string[] = [];
    const focused: string[] = [];
    for (const view of edges) {
      const data = pathData(view.edge.points);
      (view.hasClass('critical') ? critical : normal).push(data);
      if (view.hasClass('in-focus')) focused.push(data);
    }
    if (normal.length > 0) paths.push(svg('path', { class: 'lod-edges', d: normal.join('') }));
    if (critical.length > 0) paths.push(svg('path', { class: 'lod-edges critical', d: critical.join('') }));
    if (focused.length > 0) paths.push(svg('path', { class: 'lod-edges in-focus', d: focused.join('') }));
    for (const [key, parts] of boxes) paths.push(svg('path', { class: key, d: parts.join('') }));
    this.layers.lod.replaceChildren(...paths);
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
