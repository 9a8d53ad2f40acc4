// Builds the SVG of one layout in a single pass into a DocumentFragment: level bands, edges, unknown-dependency boxes, nodes.
import type { PlanGraphLayout } from '../../runtime/graph/graphTypes.js';
import { GRAPH_WORDS, type GraphWords } from '../../runtime/graph/graphWords.js';
import { svg } from '../common/dom.js';
import { EdgeView } from './edgeView.js';
import { GraphIndex } from './graphIndex.js';
import { NodeView } from './nodeView.js';
import { arrowMarkers, type ArrowMarkers } from './sceneMarkers.js';
import type { Box } from './spatialGrid.js';
import { bandElements, VirtualState } from './virtualScene.js';

export interface SceneOptions {
  /** Prefix of the scene's element ids and arrowheads; unique per drawing in one page (default `graph`). */
  readonly idPrefix?: string | undefined;
  /** Nodes are selectable buttons (the graph panel); false labels them as images (a read-only inline drawing). */
  readonly interactive?: boolean | undefined;
  /** What the nodes are (tools, or beats); default the plan's words. */
  readonly words?: GraphWords | undefined;
}

/** Scenes with more nodes than this draw only what is near the view (`updateView`); smaller ones draw everything once. */
export const VIRTUALIZE_FROM_NODES = 1_500;

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
