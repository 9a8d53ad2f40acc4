// DOM primitives shared by every webview: children as nodes or text nodes, never HTML strings. Browser only.

/** What an element can contain: nodes, text (always a text node), or nothing. */
export type Child = Node | string | null | undefined | false;

/** Appends children (strings as text nodes), skipping empty ones. */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}
