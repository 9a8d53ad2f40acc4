// JSON-ish rendering of values for the JSON trees (play state, Inspector events): coloured primitives and one-line previews of objects and arrays.
import { el } from './dom.js';

const maxStringPreview = 120;
const maxPreviewEntries = 4;

/** Objects and arrays open in the tree; everything else is shown inline. */
export function isExpandable(value: unknown): value is object {
  return typeof value === 'object' && value !== null && (Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0);
}

/** A coloured inline value (`"text"`, 42, true, null, or a collapsed preview); strings over `stringLimit` characters are cut, whole in the tooltip. */
export function renderValue(value: unknown, stringLimit = maxStringPreview): HTMLElement {
  if (value === null) return el('span', { className: 'value value-null' }, 'null');
  switch (typeof value) {
    case 'string': {
      const shown = value.length > stringLimit ? `${value.slice(0, stringLimit)}…` : value;
      return el('span', { className: 'value value-string', title: value.length > stringLimit ? value : undefined }, JSON.stringify(shown));
    }
    case 'number':
    case 'bigint':
      return el('span', { className: 'value value-number' }, String(value));
    case 'boolean':
      return el('span', { className: 'value value-boolean' }, String(value));
    case 'object':
      return el('span', { className: 'value value-preview' }, previewOf(value, false));
    default:
      return el('span', { className: 'value value-null' }, String(value));
  }
}

/**
 * One line for an object or array: `{formula: "1d20", total: 17, …}` or `Array(3) [4, 2, 6]` when collapsed,
 * just `{…}` / `Array(3)` when expanded (the children say the rest).
 */
export function previewOf(value: unknown, expanded: boolean): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (expanded) return `Array(${value.length})`;
    const items = value.slice(0, maxPreviewEntries).map(shortValue);
    return `Array(${value.length}) [${items.join(', ')}${value.length > maxPreviewEntries ? ', …' : ''}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    if (expanded) return '{…}';
    const shown = entries.slice(0, maxPreviewEntries).map(([key, item]) => `${key}: ${shortValue(item)}`);
    return `{${shown.join(', ')}${entries.length > maxPreviewEntries ? ', …' : ''}}`;
  }
  return shortValue(value);
}

function shortValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 24 ? `${value.slice(0, 24)}…` : value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `Array(${value.length})`;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length === 0 ? '{}' : '{…}';
  return String(value);
}
