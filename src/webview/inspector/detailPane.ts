// The Inspector's detail pane: the selected row's raw line, its problem, the parsed event as JSON, and the state after a patch.
import type { InspectorRow } from '../../protocol/inspectorMessages.js';
import { append } from '../common/dom.js';
import { elapsedText, errorOffset, MARK_LABELS } from './format.js';

export class DetailPane {
  readonly element: HTMLElement;

  constructor() {
    this.element = document.createElement('section');
    this.element.className = 'detail-pane';
    this.element.setAttribute('aria-label', 'selected line');
    this.element.setAttribute('aria-live', 'polite');
    this.show(undefined);
  }

  show(row: InspectorRow | undefined): void {
    if (!row) {
      this.element.replaceChildren(paragraph('empty', 'Select a line to see its raw text, its problem and the parsed event.'));
      return;
    }
    const parts: Node[] = [
      heading(`Line ${row.lineNumber} · ${elapsedText(row.elapsedMs)} · ${row.type} · ${MARK_LABELS[row.mark]}`),
    ];
    if (row.problem) parts.push(paragraph(`problem mark-${row.mark}`, row.problem));
    parts.push(subheading('Raw line'), rawLine(row));
    if (row.event) parts.push(subheading('Parsed event'), block('json', JSON.stringify(row.event, null, 2)));
    if (row.state) {
      parts.push(subheading(`State after this patch · changed: ${row.state.changed.join(', ') || 'nothing'}`), block('json', JSON.stringify(row.state.after, null, 2)));
    }
    this.element.replaceChildren(...parts);
  }
}

function heading(text: string): HTMLElement {
  const element = document.createElement('h2');
  element.textContent = text;
  return element;
}

function subheading(text: string): HTMLElement {
  const element = document.createElement('h3');
  element.textContent = text;
  return element;
}

function paragraph(className: string, text: string): HTMLElement {
  const element = document.createElement('p');
  element.className = className;
  element.textContent = text;
  return element;
}

/** The raw text, with the character where JSON parsing stopped marked (a space past the end for a cut-off line). */
function rawLine(row: InspectorRow): HTMLElement {
  if (row.text === undefined) return block('raw', `(${row.byteLength ?? 0} bytes, not kept: over the line limit)`);
  const offset = errorOffset(row);
  if (offset === undefined) return block('raw', row.text);
  const pre = block('raw', row.text.slice(0, offset));
  const mark = document.createElement('mark');
  mark.className = 'error-at';
  mark.title = `JSON parsing stopped here (column ${offset + 1})`;
  mark.textContent = row.text.slice(offset, offset + 1) || ' ';
  append(pre, mark, row.text.slice(offset + 1));
  return pre;
}

function block(className: string, text: string): HTMLElement {
  const pre = document.createElement('pre');
  pre.className = className;
  pre.tabIndex = 0;
  append(pre, text);
  return pre;
}
