// The interactive drawing area: mounts a scene in a pannable SVG, routes pointer and keyboard input, keeps selection, focus mode and hover tooltips.
import type { PlanGraphLayout } from '../../runtime/graph/graphTypes.js';
import { el, svg } from '../common/dom.js';
import { GraphHighlight } from './graphHighlight.js';
import { directionOfKey, firstNode, nextNode } from './graphNavigation.js';
import { GraphScene } from './graphScene.js';
import { sceneDefinitions } from './sceneMarkers.js';
import { fitTextToMetrics } from './nodeView.js';
import { Minimap, type MinimapColours } from './minimap.js';
import { CanvasMessage } from './graphNotices.js';
import type { NodeRun } from '../common/stateIcons.js';
import type { Tooltip } from './tooltip.js';
import { missingTooltip, nodeTooltip } from './tooltipContent.js';
import type { ViewportState } from './uiState.js';
import { Viewport } from './viewport.js';
import { GRAPH_WORDS, nodeCount, type GraphWords } from '../../runtime/graph/graphWords.js';

export interface CanvasEvents {
  /** A click on a node, or Enter on the selected one. */
  readonly reveal: (toolId: string) => void;
  /** The user moved the selection (click, arrows, clearing). */
  readonly selectionChanged: (toolId: string | undefined) => void;
  readonly viewChanged: (viewport: ViewportState) => void;
  readonly escape: () => void;
  readonly toggleFocus: () => void;
  readonly findRequested: () => void;
  readonly runOf: (toolId: string) => NodeRun | undefined;
  readonly minimapColours: () => MinimapColours;
}

/** How a new scene is placed: fitted, at a saved viewport, or where the previous one was. */
export type Placement = 'fit' | 'keep' | ViewportState;

const KEY_PAN = 80;
const ZOOM_STEP = 1.25;

export class GraphCanvas {
  readonly element: HTMLDivElement;
  readonly viewport: Viewport;
  readonly minimap: Minimap;
  readonly message = new CanvasMessage();
  private readonly world: SVGGElement;
  private current: { scene: GraphScene; highlight: GraphHighlight } | undefined;
  private readonly drawing: SVGSVGElement;
  private selectedId: string | undefined;
  private focusMode = false;
  private textFitted = false;
  private updateScheduled = false;
  private words: GraphWords = GRAPH_WORDS.plan;

  constructor(
    private readonly tooltip: Tooltip,
    private readonly events: CanvasEvents,
  ) {
    this.world = svg('g', { class: 'world' });
    const drawing = svg('svg', { class: 'graph-svg' }, sceneDefinitions(), this.world);
    this.drawing = drawing;
    this.minimap = new Minimap((x, y) => this.viewport.centreOn(x, y), events.minimapColours, events.runOf);
    this.element = el(
      'div',
      { className: 'graph-canvas', attrs: { tabindex: 0, role: 'group', 'aria-roledescription': 'plan graph' } },
      drawing,
      this.minimap.element,
      this.message.element,
    );
    this.viewport = new Viewport(this.element, this.world, () => {
      this.minimap.showVisible(this.viewport.visibleRect());
      this.scheduleSceneUpdate();
      events.viewChanged(this.viewport.current);
    });
    this.element.addEventListener('click', (event) => this.onClick(event));
    this.element.addEventListener('keydown', (event) => this.onKey(event));
    drawing.addEventListener('pointermove', (event) => this.onHover(event));
    this.element.addEventListener('pointerleave', () => this.tooltip.hide());
    this.element.addEventListener('pointerdown', () => this.tooltip.hide());
  }

  get scene(): GraphScene | undefined {
    return this.current?.scene;
  }

  get highlight(): GraphHighlight | undefined {
    return this.current?.highlight;
  }

  get selected(): string | undefined {
    return this.selectedId;
  }

  /** Replaces the drawing with `layout` (one DOM insertion) and places it; `words` say what its nodes are. */
  show(layout: PlanGraphLayout, placement: Placement, words: GraphWords = GRAPH_WORDS.plan): GraphScene {
    this.words = words;
    this.element.setAttribute('aria-roledescription', words.graph);
    if (!this.textFitted && this.element.isConnected) {
      this.textFitted = true;
      fitTextToMetrics(this.drawing, this.element);
    }
    const scene = new GraphScene(layout, { words });
    scene.onInvalidate = () => this.scheduleSceneUpdate();
    const highlight = new GraphHighlight(scene, this.element);
    this.world.replaceChildren(scene.root);
    this.current = { scene, highlight };
    this.element.setAttribute(
      'aria-label',
      `${capitalized(words.graph)}: ${nodeCount(words, layout.nodes.length)}. Arrow keys move between ${words.node}s, ` +
        `Enter opens the selected ${words.node} in the editor, F shows only what it depends on and what depends on it.`,
    );
    this.minimap.setLayout(layout);
    this.message.hide();
    if (placement === 'fit') this.fit();
    else if (placement !== 'keep') this.viewport.set(placement);
    else this.viewport.set(this.viewport.current);
    const selected = this.selectedId !== undefined && scene.nodes.has(this.selectedId) ? this.selectedId : undefined;
    this.selectedId = undefined;
    this.select(selected, false);
    // A big (virtualized) scene draws the part in view now, so the first paint shows it.
    this.updateScene();
    return scene;
  }

  /** A virtualized scene follows the view once per frame, however many pan and zoom steps came in it. */
  private scheduleSceneUpdate(): void {
    if (this.updateScheduled || !this.current?.scene.virtual) return;
    this.updateScheduled = true;
    requestAnimationFrame(() => {
      this.updateScheduled = false;
      this.updateScene();
    });
  }

  private updateScene(): void {
    this.current?.scene.updateView(this.viewport.visibleRect(), this.viewport.current.zoom);
  }

  /** Removes the drawing (an error or a wait is shown instead). */
  clear(): void {
    this.world.replaceChildren();
    this.current = undefined;
    this.minimap.setLayout(undefined);
    this.element.removeAttribute('aria-activedescendant');
  }

  /** Selects a tool (undefined clears); `reveal` pans it on screen when it is not, never changing the zoom. */
  select(toolId: string | undefined, reveal: boolean): void {
    const view = toolId === undefined ? undefined : this.current?.scene.nodes.get(toolId);
    // Before the first graph, the id is kept for it (show() drops it if the graph has no such tool).
    this.selectedId = this.current ? view?.id : toolId;
    this.current?.scene.pin(view?.id);
    this.current?.highlight.select(view?.id);
    if (view) this.element.setAttribute('aria-activedescendant', view.elementId);
    else this.element.removeAttribute('aria-activedescendant');
    if (this.focusMode) this.applyFocus(false);
    if (view && reveal) this.viewport.reveal(view.node);
  }

  setFocusMode(on: boolean): void {
    this.focusMode = on;
    this.applyFocus(on);
  }

  /** Fits the whole graph, or the focused tools in focus mode. */
  fit(): void {
    const current = this.current;
    if (!current) return;
    const { focusSet } = current.highlight;
    const whole = { x: 0, y: 0, width: current.scene.layout.width, height: current.scene.layout.height };
    const bounds = (focusSet && current.scene.index.bounds(focusSet)) || whole;
    this.viewport.fit(bounds);
  }

  /** The tools a keyboard user can reach (those focus mode leaves visible). */
  private visible(): ReadonlySet<string> | undefined {
    return this.current?.highlight.focusSet;
  }

  private applyFocus(fitToFocus: boolean): void {
    const current = this.current;
    if (!current) return;
    const set = this.focusMode && this.selectedId !== undefined ? current.scene.index.lineage(this.selectedId) : undefined;
    current.highlight.setFocus(set);
    if (fitToFocus && set) {
      const bounds = current.scene.index.bounds(set);
      const visible = this.viewport.visibleRect();
      const inside =
        bounds &&
        bounds.x >= visible.x &&
        bounds.y >= visible.y &&
        bounds.x + bounds.width <= visible.x + visible.width &&
        bounds.y + bounds.height <= visible.y + visible.height;
      if (bounds && !inside) this.viewport.fit(bounds);
    }
  }

  private nodeIdAt(target: EventTarget | null): string | undefined {
    return (target as Element | null)?.closest?.<SVGGElement>('.node')?.dataset['toolId'];
  }

  /** The node under the pointer in a big scene's low-detail form (its boxes are one path, not elements per node). */
  private lowDetailNodeAt(event: MouseEvent): string | undefined {
    const scene = this.current?.scene;
    if (!scene?.lowDetail) return undefined;
    const bounds = this.element.getBoundingClientRect();
    const { x, y, zoom } = this.viewport.current;
    const id = scene.nodeAt((event.clientX - bounds.left - x) / zoom, (event.clientY - bounds.top - y) / zoom)?.id;
    if (id !== undefined && this.focusMode && this.current?.highlight.focusSet && !this.current.highlight.focusSet.has(id)) return undefined;
    return id;
  }

  private onClick(event: MouseEvent): void {
    if ((event.target as Element).closest('.minimap')) return;
    const id = this.nodeIdAt(event.target) ?? this.lowDetailNodeAt(event);
    this.element.focus({ preventScroll: true });
    if (id === undefined) {
      if (this.selectedId !== undefined && !this.focusMode) {
        this.select(undefined, false);
        this.events.selectionChanged(undefined);
      }
      return;
    }
    this.select(id, false);
    this.events.selectionChanged(id);
    this.events.reveal(id);
  }

  private onKey(event: KeyboardEvent): void {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const current = this.current;
    const direction = directionOfKey(event.key);
    if (direction && event.shiftKey) {
      const dx = direction === 'left' ? KEY_PAN : direction === 'right' ? -KEY_PAN : 0;
      const dy = direction === 'up' ? KEY_PAN : direction === 'down' ? -KEY_PAN : 0;
      this.viewport.panBy(dx, dy);
    } else if (direction && current) {
      const from = this.selectedId === undefined ? undefined : current.scene.index.byId.get(this.selectedId);
      const next = from ? nextNode(current.scene.index, from, direction, this.visible()) : firstNode(current.scene.index, this.visible());
      if (next && next.id !== this.selectedId) {
        this.select(next.id, true);
        this.events.selectionChanged(next.id);
      }
    } else if ((event.key === 'Enter' || event.key === ' ') && this.selectedId !== undefined) {
      this.events.reveal(this.selectedId);
    } else if (event.key === 'Escape') {
      this.tooltip.hide();
      this.events.escape();
    } else if (event.key === '+' || event.key === '=') {
      this.viewport.zoomBy(ZOOM_STEP);
    } else if (event.key === '-' || event.key === '_') {
      this.viewport.zoomBy(1 / ZOOM_STEP);
    } else if (event.key === '0') {
      this.fit();
    } else if (event.key === 'f' || event.key === 'F') {
      this.events.toggleFocus();
    } else if (event.key === '/') {
      this.events.findRequested();
    } else {
      return;
    }
    event.preventDefault();
  }

  private onHover(event: PointerEvent): void {
    if (event.buttons !== 0) return;
    const target = event.target as Element;
    const node = target.closest<SVGGElement>('.node');
    const missing = node ? undefined : target.closest<SVGGElement>('.missing');
    const current = this.current;
    const nodeId = node?.dataset['toolId'] ?? (missing ? undefined : this.lowDetailNodeAt(event));
    if (nodeId !== undefined && current) {
      const id = nodeId;
      const view = current.scene.nodes.get(id);
      if (view)
        this.tooltip.showSoon(`node:${id}`, event.clientX, event.clientY, () =>
          nodeTooltip(view.node, view.currentRun, current.highlight.isCritical(id), this.words),
        );
    } else if (missing?.dataset['missingId'] !== undefined) {
      const id = missing.dataset['missingId'];
      this.tooltip.showSoon(`missing:${id}`, event.clientX, event.clientY, () => missingTooltip(id, this.words));
    } else {
      this.tooltip.hide();
    }
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
