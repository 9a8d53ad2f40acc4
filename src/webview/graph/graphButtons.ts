// Buttons of the graph view's toolbars, built with the shared DOM builder (src/webview/common/dom.ts).
import { append, codicon, el } from '../common/dom.js';

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
  const element = el('button', {
    className: `graph-button${options.text ? ' with-text' : ''}${options.className ? ` ${options.className}` : ''}`,
    title: options.label,
    attrs: { type: 'button', 'aria-label': options.label, 'aria-pressed': options.toggle ? 'false' : undefined },
  });
  append(element, codicon(options.icon), options.text ? el('span', { className: 'button-text' }, options.text) : null);
  element.addEventListener('click', () => options.onClick());
  return element;
}

/** Sets a toggle button's pressed state. */
export function setPressed(button: HTMLButtonElement, pressed: boolean): void {
  button.setAttribute('aria-pressed', String(pressed));
  button.classList.toggle('pressed', pressed);
}
