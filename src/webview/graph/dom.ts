// DOM builders of the graph view: HTML and SVG elements from tags, attributes and text nodes only, never from markup strings.
import { append, type Child } from '../common/dom.js';

export { append, type Child };

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

export interface ElementOptions {
  readonly className?: string | undefined;
  readonly title?: string | undefined;
  /** Plain attributes; `undefined` values are left out. */
  readonly attrs?: Readonly<Record<string, string | number | undefined>> | undefined;
}

/** Creates `<tag>`; strings among the children become text nodes, so data never becomes markup. */
export function html<K extends keyof HTMLElementTagNameMap>(tag: K, options: ElementOptions = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className !== undefined) element.className = options.className;
  if (options.title !== undefined) element.title = options.title;
  setAttributes(element, options.attrs);
  append(element, ...children);
  return element;
}

/** Creates an SVG element with presentation attributes (numbers are written as they are). */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Readonly<Record<string, string | number | undefined>> = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NAMESPACE, tag);
  setAttributes(element, attrs);
  append(element, ...children);
  return element;
}

function setAttributes(element: Element, attrs: Readonly<Record<string, string | number | undefined>> | undefined): void {
  if (!attrs) return;
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined) element.setAttribute(name, String(value));
  }
}

/** A decorative codicon glyph (codicon.css is linked by the panel's HTML). */
export function codicon(name: string, extraClass = ''): HTMLSpanElement {
  return html('span', { className: `codicon codicon-${name}${extraClass ? ` ${extraClass}` : ''}`, attrs: { 'aria-hidden': 'true' } });
}

export interface IconButtonOptions {
  readonly icon: string;
  /** Accessible name and tooltip. */
  readonly label: string;
  /** Visible text beside the icon (icon-only when absent). */
  readonly text?: string | undefined;
  readonly className?: string | undefined;
  /** Makes it a toggle button (`aria-pressed`). */
  readonly toggle?: boolean | undefined;
  readonly onClick: () => void;
}

/** A real `<button type="button">` wired with addEventListener, never an inline handler. */
export function iconButton(options: IconButtonOptions): HTMLButtonElement {
  const element = html('button', {
    className: `graph-button${options.text ? ' with-text' : ''}${options.className ? ` ${options.className}` : ''}`,
    title: options.label,
    attrs: { type: 'button', 'aria-label': options.label, 'aria-pressed': options.toggle ? 'false' : undefined },
  });
  append(element, codicon(options.icon), options.text ? html('span', { className: 'button-text' }, options.text) : null);
  element.addEventListener('click', () => options.onClick());
  return element;
}

/** Sets a toggle button's pressed state. */
export function setPressed(button: HTMLButtonElement, pressed: boolean): void {
  button.setAttribute('aria-pressed', String(pressed));
  button.classList.toggle('pressed', pressed);
}

/** Formats an integer with thousands separators ("1,000"). */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/** "1 tool", "3 tools". */
export function plural(count: number, word: string): string {
  return `${formatCount(count)} ${word}${count === 1 ? '' : 's'}`;
}
