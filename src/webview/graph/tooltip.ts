// A themed DOM tooltip (never a native title) placed beside the pointer and kept inside the window; content is built from nodes only.
import { append, type Child, el } from '../common/dom.js';

/** Pointer gap and window margin. */
const OFFSET = 14;
const MARGIN = 6;
/** Hover delay, so sweeping across the graph does not flash tooltips. */
const SHOW_DELAY_MS = 250;

export class Tooltip {
  readonly element: HTMLDivElement;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private key: string | undefined;

  constructor() {
    this.element = el('div', { className: 'graph-tooltip', attrs: { role: 'tooltip', id: 'graph-tooltip' } });
    this.element.hidden = true;
  }

  /**
   * Shows `content()` for `key` near (clientX, clientY) after a short delay; the same key only moves it.
   * `content` is called lazily, so hovering quickly over many nodes builds nothing.
   */
  showSoon(key: string, clientX: number, clientY: number, content: () => Child[]): void {
    if (this.key === key && !this.element.hidden) {
      this.place(clientX, clientY);
      return;
    }
    this.cancel();
    this.key = key;
    this.timer = setTimeout(() => this.show(key, clientX, clientY, content()), SHOW_DELAY_MS);
  }

  /** Shows at once. */
  show(key: string, clientX: number, clientY: number, content: Child[]): void {
    this.cancel();
    this.key = key;
    this.element.replaceChildren();
    append(this.element, ...content);
    this.element.hidden = false;
    this.place(clientX, clientY);
  }

  hide(): void {
    this.cancel();
    this.key = undefined;
    this.element.hidden = true;
  }

  /** Whether the tooltip is up (or about to be) for `key`. */
  isFor(key: string): boolean {
    return this.key === key;
  }

  private cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Right of and below the pointer; flipped to the other side when it would leave the window, then clamped. */
  private place(clientX: number, clientY: number): void {
    const { width, height } = this.element.getBoundingClientRect();
    const maxX = window.innerWidth - width - MARGIN;
    const maxY = window.innerHeight - height - MARGIN;
    let left = clientX + OFFSET;
    let top = clientY + OFFSET;
    if (left > maxX) left = clientX - OFFSET - width;
    if (top > maxY) top = clientY - OFFSET - height;
    this.element.style.left = `${Math.round(Math.max(MARGIN, Math.min(left, maxX)))}px`;
    this.element.style.top = `${Math.round(Math.max(MARGIN, Math.min(top, maxY)))}px`;
  }
}

/** A tooltip line: a muted label and its value. */
export function tooltipRow(label: string, value: Child): HTMLDivElement {
  return el('div', { className: 'tooltip-row' }, el('span', { className: 'tooltip-label' }, label), value);
}
