// Pan and zoom of the graph: a transform on one SVG group, driven by drag, wheel (ctrl/cmd+wheel zooms), buttons and keys; fit and scroll-into-view.
import type { ViewportState } from './uiState.js';

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 4;
/** Fitting never enlarges beyond the natural size: small graphs stay crisp and readable. */
const FIT_MAX_ZOOM = 1;
const FIT_MARGIN = 24;
/** A pointer that moves less than this between down and up is a click, not a drag. */
const DRAG_THRESHOLD = 4;

export class Viewport {
  private state: ViewportState = { x: 0, y: 0, zoom: 1 };
  private width = 0;
  private height = 0;
  private drag: { pointerId: number; startX: number; startY: number; originX: number; originY: number; moved: boolean } | undefined;
  /** Set when the last pointer gesture was a drag: the click that follows it selects nothing. */
  private suppressClick = false;
  /**
   * What the last fit showed, while the user has not moved the view since: a resize (the panel, the timeline
   * opening) fits it again, and a fit asked for while the host had no size (a hidden panel) is done then.
   */
  private fitted: Rect | undefined;

  constructor(
    private readonly host: HTMLElement,
    private readonly target: SVGGElement,
    private readonly onChange: () => void,
  ) {
    new ResizeObserver(() => this.measure()).observe(host);
    host.addEventListener('wheel', (event) => this.onWheel(event), { passive: false });
    host.addEventListener('pointerdown', (event) => this.onPointerDown(event));
    host.addEventListener('pointermove', (event) => this.onPointerMove(event));
    host.addEventListener('pointerup', (event) => this.onPointerUp(event));
    host.addEventListener('pointercancel', (event) => this.onPointerUp(event));
    // Capture phase: runs before the scene's click handler and swallows the click that ends a drag.
    host.addEventListener(
      'click',
      (event) => {
        if (!this.suppressClick) return;
        this.suppressClick = false;
        event.stopPropagation();
      },
      true,
    );
  }

  get current(): ViewportState {
    return this.state;
  }

  /** The host's size in CSS pixels. */
  get size(): { width: number; height: number } {
    return { width: this.width, height: this.height };
  }

  /** The part of the graph on screen, in graph coordinates. */
  visibleRect(): Rect {
    const { x, y, zoom } = this.state;
    return { x: -x / zoom, y: -y / zoom, width: this.width / zoom, height: this.height / zoom };
  }

  /** Moves the view; this ends "fitted" (a resize then keeps pan and zoom). */
  set(state: ViewportState): void {
    this.fitted = undefined;
    this.apply(state);
  }

  private apply(state: ViewportState): void {
    const zoom = clamp(state.zoom, MIN_ZOOM, MAX_ZOOM);
    this.state = { x: round(state.x), y: round(state.y), zoom: Math.round(zoom * 10_000) / 10_000 };
    this.target.setAttribute('transform', `translate(${this.state.x} ${this.state.y}) scale(${this.state.zoom})`);
    this.onChange();
  }

  /** Shows all of `bounds`, centred, at most at natural size. */
  fit(bounds: Rect): void {
    this.fitted = bounds;
    if (this.width <= 0 || this.height <= 0) return;
    const zoom = clamp(
      Math.min((this.width - 2 * FIT_MARGIN) / Math.max(1, bounds.width), (this.height - 2 * FIT_MARGIN) / Math.max(1, bounds.height), FIT_MAX_ZOOM),
      MIN_ZOOM,
      MAX_ZOOM,
    );
    this.apply({ zoom, x: this.width / 2 - (bounds.x + bounds.width / 2) * zoom, y: this.height / 2 - (bounds.y + bounds.height / 2) * zoom });
  }

  /** Zooms by `factor` keeping the graph point under (`screenX`, `screenY`) in place (the centre by default). */
  zoomBy(factor: number, screenX = this.width / 2, screenY = this.height / 2): void {
    const { x, y, zoom } = this.state;
    const next = clamp(zoom * factor, MIN_ZOOM, MAX_ZOOM);
    const scale = next / zoom;
    this.set({ zoom: next, x: screenX - (screenX - x) * scale, y: screenY - (screenY - y) * scale });
  }

  panBy(dx: number, dy: number): void {
    this.set({ ...this.state, x: this.state.x + dx, y: this.state.y + dy });
  }

  /** Centres the graph point (`x`, `y`) without changing the zoom. */
  centreOn(x: number, y: number): void {
    const { zoom } = this.state;
    this.set({ zoom, x: this.width / 2 - x * zoom, y: this.height / 2 - y * zoom });
  }

  /** Pans (never zooms) so that `rect` is on screen, when it is not already entirely. */
  reveal(rect: Rect, margin = 24): void {
    const { x, y, zoom } = this.state;
    const left = rect.x * zoom + x;
    const top = rect.y * zoom + y;
    const right = left + rect.width * zoom;
    const bottom = top + rect.height * zoom;
    if (left >= margin && top >= margin && right <= this.width - margin && bottom <= this.height - margin) return;
    this.centreOn(rect.x + rect.width / 2, rect.y + rect.height / 2);
  }

  private measure(): void {
    this.width = this.host.clientWidth;
    this.height = this.host.clientHeight;
    if (this.fitted && this.width > 0 && this.height > 0) this.fit(this.fitted);
    else this.onChange();
  }

  private onWheel(event: WheelEvent): void {
    event.preventDefault();
    const lines = event.deltaMode === WheelEvent.DOM_DELTA_LINE ? 16 : event.deltaMode === WheelEvent.DOM_DELTA_PAGE ? this.height : 1;
    if (event.ctrlKey || event.metaKey) {
      const bounds = this.host.getBoundingClientRect();
      this.zoomBy(Math.exp(-event.deltaY * lines * 0.0025), event.clientX - bounds.left, event.clientY - bounds.top);
      return;
    }
    // Shift turns a vertical wheel into horizontal panning (as in VS Code's editors).
    const dx = event.shiftKey && event.deltaX === 0 ? event.deltaY : event.deltaX;
    const dy = event.shiftKey && event.deltaX === 0 ? 0 : event.deltaY;
    this.panBy(-dx * lines, -dy * lines);
  }

  private onPointerDown(event: PointerEvent): void {
    this.suppressClick = false;
    if (event.button !== 0 || (event.target as Element).closest('.minimap, .graph-overlay-control')) return;
    this.drag = { pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, originX: this.state.x, originY: this.state.y, moved: false };
  }

  private onPointerMove(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag || drag.pointerId !== event.pointerId) return;
    const dx = event.clientX - drag.startX;
    const dy = event.clientY - drag.startY;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    if (!drag.moved) {
      drag.moved = true;
      this.host.setPointerCapture(event.pointerId);
      this.host.classList.add('panning');
    }
    this.set({ ...this.state, x: drag.originX + dx, y: drag.originY + dy });
  }

  private onPointerUp(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag || drag.pointerId !== event.pointerId) return;
    this.drag = undefined;
    this.host.classList.remove('panning');
    if (drag.moved) {
      this.suppressClick = true;
      if (this.host.hasPointerCapture(event.pointerId)) this.host.releasePointerCapture(event.pointerId);
    }
  }
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
