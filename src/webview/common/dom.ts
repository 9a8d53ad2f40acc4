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

export interface ElementOptions {
  readonly className?: string | undefined;
  /** `data-testid` (a value of a panel's test-id table, e.g. PlayPanelTestId). */
  readonly testId?: string | undefined;
  readonly title?: string | undefined;
  /** Plain attributes; `undefined` values are left out. */
  readonly attrs?: Readonly<Record<string, string | undefined>> | undefined;
  /** `data-*` attributes, keyed by their dataset name (`turnIndex` → `data-turn-index`). */
  readonly data?: Readonly<Record<string, string | number | undefined>> | undefined;
}

/** Creates `<tag>` with the given options and children. Strings become text nodes, so data can never become markup. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, options: ElementOptions = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className !== undefined) element.className = options.className;
  if (options.testId !== undefined) element.dataset['testid'] = options.testId;
  if (options.title !== undefined) element.title = options.title;
  for (const [name, value] of Object.entries(options.attrs ?? {})) {
    if (value !== undefined) element.setAttribute(name, value);
  }
  for (const [name, value] of Object.entries(options.data ?? {})) {
    if (value !== undefined) element.dataset[name] = String(value);
  }
  append(element, ...children);
  return element;
}

/** A codicon glyph (the panel's HTML links `codicon.css`); decorative, so hidden from screen readers. */
export function codicon(name: string, ...modifiers: string[]): HTMLSpanElement {
  const classes = ['codicon', `codicon-${name}`, ...modifiers.map((modifier) => `codicon-modifier-${modifier}`)];
  return el('span', { className: classes.join(' '), attrs: { 'aria-hidden': 'true' } });
}
