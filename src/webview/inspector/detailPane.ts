// The Inspector's detail pane: the selected line's raw text (JSON error marked), its problem, an asset or ui_event preview, the event and patched state as JSON trees; or a stderr line.
import type { InspectorRowView } from '../../protocol/inspectorMessages.js';
import { append, el } from '../common/dom.js';
import { JsonTree, MemoryExpansion } from '../common/jsonTree.js';
import { isExpandable } from '../common/valuePreview.js';
import { eventPreview } from './eventPreview.js';
import { elapsedText, errorOffset, MARK_LABELS } from './format.js';
import type { StderrLine } from './stderrLines.js';

export class DetailPane {
  readonly element: HTMLElement;
  /** Announces the selected line (the trees and text below it are read on demand). */
  private readonly heading: HTMLElement;
  private readonly body: HTMLElement;
  /** Paths opened in the event and state trees stay open from one selected line to the next. */
  private readonly eventExpansion = new MemoryExpansion();
  private readonly stateExpansion = new MemoryExpansion();

  constructor() {
    this.heading = el('h2', { attrs: { 'aria-live': 'polite' } });
    this.body = el('div', { className: 'detail-body' });
    this.element = el('section', { className: 'detail-pane', attrs: { 'aria-label': 'selected line' } }, this.heading, this.body);
    this.show(undefined);
  }

  show(row: InspectorRowView | undefined): void {
    if (!row) {
      this.heading.textContent = '';
      this.heading.hidden = true;
      this.body.replaceChildren(paragraph('empty', 'Select a line to see its raw text, its problem and the parsed event.'));
      return;
    }
    this.heading.hidden = false;
    this.heading.textContent = `Line ${row.lineNumber} · ${elapsedText(row.elapsedMs)} · ${row.type === 'invalid' ? row.status : row.type} · ${MARK_LABELS[row.mark]}`;
    const parts: Node[] = [];
    if (row.problem) parts.push(paragraph(`problem mark-${row.mark}`, row.problem));
    const preview = eventPreview(row);
    if (preview) parts.push(subheading('Preview'), el('div', { className: 'event-preview' }, preview));
    parts.push(subheading('Raw line'), rawLine(row));
    if (row.event) parts.push(subheading('Parsed event'), this.eventTree(row.event));
    if (row.state) {
      const changed = row.state.changed;
      parts.push(subheading(`State after this patch · changed: ${changed.join(', ') || 'nothing'}`), this.stateTree(row.state.after, changed));
    }
    this.body.replaceChildren(...parts);
  }

  showStderr(line: StderrLine, lineIndex: number): void {
    this.heading.hidden = false;
    this.heading.textContent = `stderr line ${lineIndex + 1} · ${elapsedText(line.elapsedMs)}`;
    const parts: Node[] = [block('raw stderr-text', line.text || ' ')];
    if (line.cutCharacters > 0) parts.push(paragraph('note', `${line.cutCharacters.toLocaleString('en')} more characters of this line were not kept.`));
    this.body.replaceChildren(...parts);
  }

  /** The event as a tree; its objects (patch, payload, metadata…) open on selection. */
  private eventTree(event: object): HTMLElement {
    const record = event as Record<string, unknown>;
    this.eventExpansion.setExpanded(
      Object.keys(record).filter((key) => isExpandable(record[key])),
      true,
    );
    const tree = new JsonTree({ label: 'parsed event', expansion: this.eventExpansion, emptyText: 'The event has no fields.', wrapStrings: true });
    tree.setValue(event);
    tree.element.classList.add('event-tree');
    return tree.element;
  }

  private stateTree(state: object, changed: readonly string[]): HTMLElement {
    const tree = new JsonTree({ label: 'state after this patch', expansion: this.stateExpansion, emptyText: 'The state is empty.', wrapStrings: true });
    tree.setValue(state, changed);
    tree.element.classList.add('state-tree');
    return tree.element;
  }
}

function subheading(text: string): HTMLElement {
  return el('h3', {}, text);
}

function paragraph(className: string, text: string): HTMLElement {
  return el('p', { className }, text);
}

/** The raw text, with the character where JSON parsing stopped marked (a space past the end for a cut-off line). */
function rawLine(row: InspectorRowView): HTMLElement {
  if (row.text === undefined) return block('raw', `(${row.byteLength ?? 0} bytes, not kept: over the line limit)`);
  const offset = errorOffset(row);
  if (offset === undefined) return block('raw', row.text);
  const pre = block('raw', row.text.slice(0, offset));
  const mark = el('mark', { className: 'error-at', title: `JSON parsing stopped here (column ${offset + 1})` }, row.text.slice(offset, offset + 1) || ' ');
  append(pre, mark, row.text.slice(offset + 1));
  return pre;
}

function block(className: string, text: string): HTMLElement {
  const pre = el('pre', { className }, text);
  pre.tabIndex = 0;
  return pre;
}
