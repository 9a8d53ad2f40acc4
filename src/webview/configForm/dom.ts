// DOM builders for the Configure Skill form: elements from createElement, attributes and text nodes only, never from HTML strings.
import { append, type Child } from '../common/dom.js';

export { append, type Child };

/** Attributes by name; `undefined` and `false` leave the attribute out, `true` sets it empty. */
export type Attributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** Creates `<tag>` with `attributes` (`class` sets className) and children. Strings become text nodes, so data never becomes markup. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name === 'class') element.className = String(value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, ...children);
  return element;
}

/** A codicon (decorative: hidden from assistive technology). */
export function icon(name: string, className = ''): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name}${className ? ` ${className}` : ''}`, 'aria-hidden': 'true' });
}

/** A toolbar-style icon button with an accessible name and tooltip. */
export function iconButton(codicon: string, label: string, attributes: Attributes = {}): HTMLButtonElement {
  return h('button', { type: 'button', class: 'icon-button', title: label, 'aria-label': label, ...attributes }, icon(codicon));
}

/** A text button: `primary` (Save) or `secondary`. */
export function textButton(label: string, kind: 'primary' | 'secondary', attributes: Attributes = {}): HTMLButtonElement {
  return h('button', { type: 'button', class: `button ${kind}`, ...attributes }, label);
}

/** Unique element ids for label/aria wiring (field keys may hold any character, so they are never used as ids). */
let nextId = 0;
export function uniqueId(prefix: string): string {
  nextId += 1;
  return `${prefix}-${nextId}`;
}
