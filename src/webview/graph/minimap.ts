// The overview of a big graph in a corner: nodes as small boxes on a canvas, the visible part as a rectangle; click or drag pans there.
import type { PlanGraphLayout } from '../../runtime/graph/graphTypes.js';
import { el } from '../common/dom.js';
import type { NodeRun } from '../common/stateIcons.js';
import type { Rect } from './viewport.js';

/** Graphs with more nodes than this get a minimap. */
export const MINIMAP_FROM_NODES = 40;
const MAX_WIDTH = 220;
const MAX_HEIGHT = 180;

export interface MinimapColours {
  readonly background: string;
  readonly border: string;
  readonly skill: (slot: number) => string;
  readonly state: (run: NodeRun) => string;
}

export class Minimap {
  readonly element: HTMLDivElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly window: HTMLDivElement;
  private layout: PlanGraphLayout | undefined;
  private scale = 1;
  private drawScheduled = false;
  private dragging: number | undefined;

  constructor(
    /** Centres the view on a graph point. */
    private readonly onPan: (x: number, y: number) => void,
    private readonly colours: () => MinimapColours,
    private readonly runOf: (id: string) => NodeRun | undefined,
  ) {
    this.canvas = el('canvas', { attrs: { 'aria-hidden': 'true' } });
    this.window = el('div', { className: 'minimap-window' });
    this.element = el('div', { className: 'minimap', title: 'Overview: click or drag to move the view' }, this.canvas, this.window);
    this.element.hidden = true;
    this.element.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      this.dragging = event.pointerId;
      this.element.setPointerCapture(event.pointerId);
      this.panTo(event);
    });
    this.element.addEventListener('pointermove', (event) => {
      if (this.dragging === event.pointerId) this.panTo(event);
    });
    const stop = (event: PointerEvent) => {
      if (this.dragging !== event.pointerId) return;
      this.dragging = undefined;
      this.element.releasePointerCapture(event.pointerId);
    };
    this.element.addEventListener('pointerup', stop);
    this.element.addEventListener('pointercancel', stop);
  }

  /** Shows the minimap for a big layout (hides it for a small one or none). */
  setLayout(layout: PlanGraphLayout | undefined): void {
    this.layout = layout && layout.nodes.length > MINIMAP_FROM_NODES ? layout : undefined;
    this.element.hidden = this.layout === undefined;
    if (!this.layout) return;
    this.scale = Math.min(MAX_WIDTH / Math.max(1, this.layout.width), MAX_HEIGHT / Math.max(1, this.layout.height));
    const width = Math.max(24, Math.round(this.layout.width * this.scale));
    const height = Math.max(24, Math.round(this.layout.height * this.scale));
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.invalidate();
  }

  /** Redraws on the next frame (after run states or a theme change); many calls make one draw. */
  invalidate(): void {
    if (!this.layout || this.drawScheduled) return;
    this.drawScheduled = true;
    requestAnimationFrame(() => {
      this.drawScheduled = false;
      this.draw();
    });
  }

  /** Moves the rectangle that marks the visible part of the graph. */
  showVisible(rect: Rect): void {
    if (!this.layout) return;
    const left = Math.max(0, rect.x * this.scale);
    const top = Math.max(0, rect.y * this.scale);
    const right = Math.min(this.layout.width * this.scale, (rect.x + rect.width) * this.scale);
    const bottom = Math.min(this.layout.height * this.scale, (rect.y + rect.height) * this.scale);
    this.window.style.transform = `translate(${left}px, ${top}px)`;
    this.window.style.width = `${Math.max(0, right - left)}px`;
    this.window.style.height = `${Math.max(0, bottom - top)}px`;
  }

  private draw(): void {
    const layout = this.layout;
    const context = this.canvas.getContext('2d');
    if (!layout || !context) return;
    const colours = this.colours();
    const ratio = this.canvas.width / Math.max(1, layout.width * this.scale);
    context.setTransform(ratio * this.scale, 0, 0, ratio * this.scale, 0, 0);
    context.fillStyle = colours.background;
    context.fillRect(0, 0, layout.width, layout.height);
    for (const node of layout.nodes) {
      const run = this.runOf(node.id);
      context.fillStyle = run ? colours.state(run) : colours.skill(node.colour);
      context.fillRect(node.x, node.y, node.width, node.height);
    }
    context.strokeStyle = colours.border;
    context.lineWidth = 1 / this.scale;
    context.strokeRect(0, 0, layout.width, layout.height);
  }

  private panTo(event: PointerEvent): void {
    const bounds = this.canvas.getBoundingClientRect();
    this.onPan((event.clientX - bounds.left) / this.scale, (event.clientY - bounds.top) / this.scale);
  }
}
