// Small DOM builders for the play panel: elements from tags, attributes and text nodes only, never from HTML strings.
import { append, codicon, el, type Child, type ElementOptions } from '../common/dom.js';

export { append, codicon, el, type Child, type ElementOptions };

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
  return codicon('loading', 'spin');
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

/** "850 ms", "1.2 s", "2 min 5 s". */
export function formatDuration(milliseconds: number): string {
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return '';
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(milliseconds < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(milliseconds / 60_000);
  return `${minutes} min ${Math.round((milliseconds % 60_000) / 1000)} s`;
}

/** "1 attempt", "3 attempts". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** True when a scrolling element shows its bottom (within a few pixels). */
export function isScrolledToBottom(element: Element, slack = 24): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight <= slack;
}
