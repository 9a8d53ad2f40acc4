// Draws a big scene in parts: what is near the view, dropping what is far, and below LOW_DETAIL_ZOOM a low-detail form of boxes and paths.
import { pathData } from '../../runtime/graph/graphSvg.js';
import type { PlanGraphLayout } from '../../runtime/graph/graphTypes.js';
import { plural } from '../../runtime/common/humanText.js';
import { svg } from '../common/dom.js';
import type { EdgeView } from './edgeView.js';
import type { NodeView } from './nodeView.js';
import { contains, SpatialGrid, type Box } from './spatialGrid.js';

/** Below this zoom a virtualized scene draws nodes as plain coloured boxes and edges as one path (text is unreadable). */
export const LOW_DETAIL_ZOOM = 0.35;
/** Drawn around the view on each side, as a fraction of the view's size: small pans add nothing. */
const MARGIN = 0.5;

/** What a virtualized scene draws from (a GraphScene): its layout, its views, and whom to tell when it must be drawn again. */
export interface SceneViews {
  readonly layout: PlanGraphLayout;
  readonly nodes: ReadonlyMap<string, NodeView>;
  readonly edges: readonly EdgeView[];
  readonly onInvalidate: (() => void) | undefined;
  /** What the nodes are ("tool", "beat"), for the bands' labels. */
  readonly words: { readonly node: string };
}

type Level = PlanGraphLayout['levels'][number];

/** The band (every other level) and the label of one level. */
export function bandElements(level: Level, layoutWidth: number, noun = 'tool'): SVGElement[] {
  const elements: SVGElement[] = [];
  if (level.level % 2 === 0) elements.push(svg('rect', { class: 'band', x: 0, y: level.y, width: Math.max(1, layoutWidth), height: level.height }));
  elements.push(svg('text', { class: 'band-label', x: 6, y: level.y + 14 }, `level ${level.level} · ${plural(level.count, noun)}`));
  return elements;
}

/** What a virtualized scene has drawn and the indexes that find what to draw. */
export class VirtualState {
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
    private readonly scene: SceneViews,
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
