// Buttons and ids of the Configure Skill form, built with the shared DOM builder (src/webview/common/dom.ts).
import { codicon, el, type Attributes } from '../common/dom.js';

/** A toolbar-style icon button with an accessible name and tooltip. */
export function iconButton(icon: string, label: string, attributes: Attributes = {}): HTMLButtonElement {
  return el('button', { attrs: { type: 'button', class: 'icon-button', title: label, 'aria-label': label, ...attributes } }, codicon(icon));
}

/** A text button: `primary` (Save) or `secondary`. */
export function textButton(label: string, kind: 'primary' | 'secondary', attributes: Attributes = {}): HTMLButtonElement {
  return el('button', { attrs: { type: 'button', class: `button ${kind}`, ...attributes } }, label);
}

/** Unique element ids for label/aria wiring (field keys may hold any character, so they are never used as ids). */
let nextId = 0;
export function uniqueId(prefix: string): string {
  nextId += 1;
  return `${prefix}-${nextId}`;
}
