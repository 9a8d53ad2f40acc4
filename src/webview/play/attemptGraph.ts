// An attempt's plan drawn inline under its tool rows with the graph view's own scene, and its Graph toggle; nodes follow the rows' live statuses in place. Read-only: no pan, zoom or selection.
import type { PlanGraphLayout } from '../../runtime/graph/graphTypes.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { INLINE_GRAPH_MAX_TOOLS } from '../../protocol/playPanelMessages.js';
import { codicon, el, svg } from '../common/dom.js';
import { GraphScene } from '../graph/graphScene.js';
import { sceneDefinitions } from '../graph/sceneMarkers.js';
import { fitTextToMetrics } from '../graph/nodeView.js';
import { graphRunOf } from './toolGraphState.js';
import type { ToolRowModel } from './toolRow.js';
import { plural } from '../../runtime/common/humanText.js';

/** Room around the layout so that borders and arrowheads at its edge are not clipped. */
const MARGIN = 6;
/**
 * The drawing shrinks with the panel down to this scale, then scrolls sideways: below it the 11 px detail line
 * (about 8 px here) would be too small to read. It never grows above its natural size.
 */
const MIN_SCALE = 0.75;

/** Gives every drawing its own element ids and arrowheads (a page may hold several). */
let drawings = 0;

export class AttemptGraph {
  /** The themed, scrolling frame (`graph-root` carries the graph's `--graph-*` colours). */
  readonly element: HTMLElement;
  private readonly drawing: SVGSVGElement;
  private readonly scene: GraphScene;
  private fitted = false;

  constructor(layout: PlanGraphLayout, attempt: number) {
    drawings += 1;
    this.scene = new GraphScene(layout, { idPrefix: `attempt-graph-${drawings}`, interactive: false });
    const width = Math.max(1, Math.ceil(layout.width)) + 2 * MARGIN;
    const height = Math.max(1, Math.ceil(layout.height)) + 2 * MARGIN;
    this.drawing = svg(
      'svg',
      {
        class: 'graph-svg inline-graph-svg',
        viewBox: `${-MARGIN} ${-MARGIN} ${width} ${height}`,
        role: 'none',
      },
      sceneDefinitions(this.scene.markers),
      this.scene.root,
    );
    // CSSOM properties, not a style attribute (the page's CSP has no 'unsafe-inline').
    this.drawing.style.maxWidth = `${width}px`;
    this.drawing.style.minWidth = `${Math.ceil(width * MIN_SCALE)}px`;
    // Focusable, so that a keyboard can scroll a drawing wider or taller than the panel.
    this.element = el(
      'div',
      {
        className: 'graph-root inline-graph',
        testId: PlayPanelTestId.toolGraph,
        data: { attempt },
        attrs: { role: 'group', tabindex: '0', 'aria-label': `Plan graph of attempt ${attempt}: ${plural(layout.nodes.length, 'tool')}` },
      },
      this.drawing,
    );
  }

  /** Shows every row's status (after the rows were replaced). */
  sync(tools: readonly ToolRowModel[]): void {
    for (const tool of tools) this.update(tool);
  }

  /** Shows one row's status on its node; tools the plan did not have (added by re-planning) are not drawn. */
  update(tool: ToolRowModel): void {
    this.scene.nodes.get(tool.toolId)?.setRun(graphRunOf(tool));
  }

  /**
   * Call when the drawing may have appeared on screen: the first time it is laid out, measures the editor font and
   * shrinks node text if its characters are wider than the layout assumed (a hidden drawing cannot be measured).
   */
  shown(): void {
    if (this.fitted || this.drawing.getClientRects().length === 0) return;
    this.fitted = true;
    fitTextToMetrics(this.drawing, this.element);
  }
}

/** What an attempt's Graph toggle offers: its drawing, a note that the plan is too big, or nothing (no toggle). */
export type GraphOffer = 'graph' | 'tooBig' | undefined;

/**
 * An attempt's Graph toggle and the area under its tool rows. The drawing is built the first time it is shown and
 * kept across redraws of the rows, so live updates only change node states.
 */
export class AttemptGraphSlot {
  /** Whether the author asked to see the graph. */
  open = false;
  private layout: PlanGraphLayout | undefined;
  private view: AttemptGraph | undefined;

  constructor(private readonly attempt: number) {}

  /** The plan's layout (undefined: unknown or too big); a new layout drops the old drawing. */
  setLayout(layout: PlanGraphLayout | undefined): void {
    if (layout === this.layout) return;
    this.layout = layout;
    this.view = undefined;
  }

  get hasLayout(): boolean {
    return this.layout !== undefined;
  }

  offer(toolCount: number): GraphOffer {
    if (this.layout !== undefined && this.layout.nodes.length > 0) return 'graph';
    return toolCount > INLINE_GRAPH_MAX_TOOLS ? 'tooBig' : undefined;
  }

  /** The area under the rows (hidden unless open), or null when there is nothing to offer. */
  renderArea(tools: readonly ToolRowModel[]): HTMLElement | null {
    const offer = this.offer(tools.length);
    if (offer === undefined) return null;
    const area = el('div', { className: 'attempt-graph', attrs: { id: this.areaId } });
    area.hidden = !this.open;
    if (this.open) this.fill(area, tools);
    return area;
  }

  /** The toggle for `area`; `onChange` runs after each press with the new state. */
  renderToggle(area: HTMLElement, tools: () => readonly ToolRowModel[], onChange: (open: boolean) => void): HTMLButtonElement {
    const tooBig = this.offer(tools().length) === 'tooBig';
    const name = `Plan graph of attempt ${this.attempt}${tooBig ? ' (too big to draw inline)' : ''}`;
    const toggle = el(
      'button',
      {
        className: 'graph-toggle',
        testId: PlayPanelTestId.graphToggle,
        title: tooBig ? `${name}: the plan has more than ${INLINE_GRAPH_MAX_TOOLS} tools` : `${name}: its tools' states as they run`,
        data: { attempt: this.attempt },
        attrs: { type: 'button', 'aria-label': name, 'aria-pressed': String(this.open), 'aria-controls': this.areaId },
      },
      codicon('type-hierarchy-sub'),
      el('span', { className: 'graph-toggle-label' }, 'Graph'),
    );
    toggle.addEventListener('click', () => {
      this.open = !this.open;
      toggle.setAttribute('aria-pressed', String(this.open));
      area.hidden = !this.open;
      if (this.open) this.fill(area, tools());
      onChange(this.open);
      if (this.open) this.shown();
    });
    return toggle;
  }

  /** Shows a row's new status on its node (also while hidden, so the drawing is current when shown). */
  update(tool: ToolRowModel): void {
    this.view?.update(tool);
  }

  /** Call after the area may have appeared on screen (fits the node text to the editor font once). */
  shown(): void {
    if (this.open) this.view?.shown();
  }

  private get areaId(): string {
    return `attempt-graph-area-${this.attempt}`;
  }

  private fill(area: HTMLElement, tools: readonly ToolRowModel[]): void {
    if (this.layout !== undefined && this.layout.nodes.length > 0) {
      this.view ??= new AttemptGraph(this.layout, this.attempt);
      this.view.sync(tools);
      if (this.view.element.parentElement !== area) area.replaceChildren(this.view.element);
      return;
    }
    area.replaceChildren(
      el(
        'p',
        { className: 'section-note inline-graph-note' },
        `This plan has ${tools.length} tools: too big to draw inline (the limit is ${INLINE_GRAPH_MAX_TOOLS}).`,
      ),
    );
  }
}
