// DOM primitives shared by every webview: elements from tags, attributes and children as nodes or text nodes, never HTML strings. Browser only.

/** What an element can contain: nodes, text (always a text node), or nothing. */
export type Child = Node | string | null | undefined | false;

/** Appends children (strings as text nodes), skipping empty ones. */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Attributes by name (`class` sets the class list as `className` does). */
export type Attributes = Readonly<Record<string, string | number | boolean | undefined>>;

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

export interface ElementOptions {
  readonly className?: string | undefined;
  /** `data-testid` (a value of a panel's test-id table, e.g. PlayPanelTestId). */
  readonly testId?: string | undefined;
  readonly title?: string | undefined;
  /** Plain attributes: `undefined` and `false` leave one out, `true` sets it empty, numbers are written as they are. */
  readonly attrs?: Attributes | undefined;
  /** `data-*` attributes, keyed by their dataset name (`turnIndex` → `data-turn-index`). */
  readonly data?: Readonly<Record<string, string | number | undefined>> | undefined;
}

/** Creates `<tag>` with the given options and children. Strings become text nodes, so data can never become markup. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, options: ElementOptions = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className !== undefined) element.className = options.className;
  if (options.testId !== undefined) element.dataset['testid'] = options.testId;
  if (options.title !== undefined) element.title = options.title;
  setAttributes(element, options.attrs);
  for (const [name, value] of Object.entries(options.data ?? {})) {
    if (value !== undefined) element.dataset[name] = String(value);
  }
  append(element, ...children);
  return element;
}

/** Creates an SVG element with presentation attributes (numbers are written as they are). */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attributes = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NAMESPACE, tag);
  setAttributes(element, attrs);
  append(element, ...children);
  return element;
}

/** A codicon glyph (the panel's HTML links `codicon.css`), with extra classes such as `codicon-modifier-spin`; decorative, so hidden from screen readers. */
export function codicon(name: string, extraClass = ''): HTMLSpanElement {
  return el('span', { className: `codicon codicon-${name}${extraClass ? ` ${extraClass}` : ''}`, attrs: { 'aria-hidden': 'true' } });
}

function setAttributes(element: Element, attrs: Attributes | undefined): void {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
}
