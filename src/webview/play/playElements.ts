// The play panel's own elements (buttons, the spinner) and DOM chores, built with the shared DOM builder (src/webview/common/dom.ts).
import { append, codicon, el, type Child } from '../common/dom.js';

/** Removes every child of `node`. */
export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** Replaces the children of `node`. */
export function replaceChildren(node: Element, ...children: Child[]): void {
  clear(node);
  append(node, ...children);
}

/** The spinning codicon used for work in progress. */
export function spinner(): HTMLSpanElement {
  return codicon('loading', 'codicon-modifier-spin');
}

export type ButtonVariant = 'primary' | 'secondary' | 'icon' | 'link';

export interface ButtonOptions {
  /** Visible label; for icon buttons it is the accessible name and the tooltip. */
  readonly label: string;
  readonly icon?: string | undefined;
  readonly variant?: ButtonVariant | undefined;
  readonly title?: string | undefined;
  readonly testId?: string | undefined;
  readonly className?: string | undefined;
  readonly onClick: (event: MouseEvent) => void;
}

/** A real `<button type="button">` (keyboard usable) wired with addEventListener, never an inline handler. */
export function button(options: ButtonOptions): HTMLButtonElement {
  const variant = options.variant ?? 'secondary';
  const classes = ['button', `button-${variant}`];
  if (options.className !== undefined) classes.push(options.className);
  const element = el('button', {
    className: classes.join(' '),
    testId: options.testId,
    title: options.title ?? (variant === 'icon' ? options.label : undefined),
    attrs: { type: 'button', 'aria-label': variant === 'icon' ? options.label : undefined },
  });
  if (options.icon !== undefined) element.appendChild(codicon(options.icon));
  if (variant !== 'icon') element.appendChild(el('span', { className: 'button-label' }, options.label));
  element.addEventListener('click', options.onClick);
  return element;
}

/** True when a scrolling element shows its bottom (within a few pixels). */
export function isScrolledToBottom(element: Element, slack = 24): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight <= slack;
}
