// The Inspector's virtualized table of stdout rows with stderr lines interleaved by time: only the rows on screen (plus a small margin) are in the DOM; arrow keys move the selection.
import type { InspectorRow } from '../../protocol/inspectorMessages.js';
import { append } from '../common/dom.js';
import { elapsedText, MARK_LABELS, MARK_SYMBOLS } from './format.js';
import { stderrLineOf, type FilteredRows } from './rowFilter.js';
import type { StderrLine } from './stderrLines.js';
import { el } from '../common/dom.js';

/** Fixed row height in CSS pixels (inspector.css sets the same). */
export const ROW_HEIGHT = 22;
const OVERSCAN = 8;

export class RowTable {
  readonly element: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly pool: HTMLElement[] = [];
  private rows: readonly InspectorRow[] = [];
  private filtered: FilteredRows | undefined;
  /** The selected entry (a row index, or a stderr line as FilteredRows encodes it). */
  private selected: number | undefined;
  private frame = 0;

  /** `onSelect` hears of a selected stdout row (its index), `onSelectStderr` of a selected stderr line (its index). */
  constructor(
    private readonly onSelect: (rowIndex: number) => void,
    private readonly onSelectStderr: (lineIndex: number) => void = () => undefined,
  ) {
    this.element = element('div', 'row-table');
    this.element.setAttribute('role', 'grid');
    this.element.setAttribute('aria-label', 'stdout and stderr lines of the script');
    this.element.tabIndex = 0;
    const header = element('div', 'row header');
    header.setAttribute('role', 'row');
    for (const [name, label] of [
      ['line', 'Line'],
      ['time', 'Time'],
      ['type', 'Type'],
      ['summary', 'Summary'],
      ['mark', 'Verdict'],
    ] as const) {
      const cell = element('span', `cell ${name}`, label);
      cell.setAttribute('role', 'columnheader');
      header.append(cell);
    }
    this.viewport = element('div', 'row-viewport');
    this.viewport.setAttribute('role', 'rowgroup');
    this.spacer = element('div', 'row-spacer');
    this.viewport.append(this.spacer);
    append(this.element, header, this.viewport);
    this.viewport.addEventListener('scroll', () => this.schedule());
    this.element.addEventListener('keydown', (event) => this.onKey(event));
    this.viewport.addEventListener('click', (event) => {
      const target = (event.target as HTMLElement).closest<HTMLElement>('.row[data-entry]');
      if (!target) return;
      this.select(Number(target.dataset.entry), false);
      this.element.focus();
    });
    new ResizeObserver(() => this.schedule()).observe(this.viewport);
  }

  /** The rows and the filter over them (both kept by reference; call refresh after they change). */
  setData(rows: readonly InspectorRow[], filtered: FilteredRows): void {
    this.rows = rows;
    this.filtered = filtered;
  }

  get selectedEntry(): number | undefined {
    return this.selected;
  }

  /** The count changed (rows appended or a new filter): resize, keep following the end when it was in view. */
  refresh(): void {
    const count = this.filtered?.length ?? 0;
    const wasAtEnd = this.viewport.scrollTop + this.viewport.clientHeight >= this.spacer.offsetHeight - ROW_HEIGHT;
    this.spacer.style.height = `${count * ROW_HEIGHT}px`;
    this.element.setAttribute('aria-rowcount', String(count + 1));
    if (wasAtEnd && this.selected === undefined && count > 0) this.viewport.scrollTop = this.spacer.offsetHeight;
    // A filter that shrank the table: scroll back into it now (the browser's own clamp comes a frame later).
    const bottom = Math.max(0, count * ROW_HEIGHT - this.viewport.clientHeight);
    if (this.viewport.scrollTop > bottom) this.viewport.scrollTop = bottom;
    this.render();
  }

  /** Selects an entry (a row's index in all rows, or a stderr line's entry); `reveal` scrolls it into view. */
  select(entry: number, reveal = true): void {
    this.selected = entry;
    if (reveal) this.reveal();
    this.render();
    if (entry >= 0) this.onSelect(entry);
    else this.onSelectStderr(stderrLineOf(entry));
  }

  /** Draws the visible rows again after a stderr line got more text, and shows the selected one's new text. */
  redraw(): void {
    for (const row of this.pool) row.removeAttribute('data-entry');
    this.render();
    if (this.selected !== undefined && this.selected < 0) this.onSelectStderr(stderrLineOf(this.selected));
  }

  /** Clears the selection (a new run). */
  clearSelection(): void {
    this.selected = undefined;
    this.viewport.scrollTop = 0;
    this.element.removeAttribute('aria-activedescendant');
  }

  private reveal(): void {
    if (this.selected === undefined) return;
    const position = this.filtered?.positionOf(this.selected) ?? -1;
    if (position < 0) return;
    const top = position * ROW_HEIGHT;
    if (top < this.viewport.scrollTop) this.viewport.scrollTop = top;
    else if (top + ROW_HEIGHT > this.viewport.scrollTop + this.viewport.clientHeight) this.viewport.scrollTop = top + ROW_HEIGHT - this.viewport.clientHeight;
  }

  private onKey(event: KeyboardEvent): void {
    const filtered = this.filtered;
    if (!filtered || filtered.length === 0) return;
    const page = Math.max(1, Math.floor(this.viewport.clientHeight / ROW_HEIGHT) - 1);
    const current = this.selected === undefined ? -1 : filtered.positionOf(this.selected);
    const steps: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      PageDown: current + page,
      PageUp: current - page,
      Home: 0,
      End: filtered.length - 1,
    };
    const next = steps[event.key];
    if (next === undefined) return;
    event.preventDefault();
    this.select(filtered.at(Math.min(filtered.length - 1, Math.max(0, next))));
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Draws the rows in view, reusing the pooled elements. */
  private render(): void {
    const filtered = this.filtered;
    const count = filtered?.length ?? 0;
    const first = Math.max(0, Math.floor(this.viewport.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(count, Math.ceil((this.viewport.scrollTop + this.viewport.clientHeight) / ROW_HEIGHT) + OVERSCAN);
    const needed = Math.max(0, last - first);
    while (this.pool.length < needed) {
      const row = element('div', 'row');
      row.setAttribute('role', 'row');
      this.spacer.append(row);
      this.pool.push(row);
    }
    let active: string | undefined;
    this.pool.forEach((row, slot) => {
      const position = first + slot;
      if (slot >= needed || !filtered) {
        row.hidden = true;
        row.removeAttribute('data-entry');
        return;
      }
      const entry = filtered.at(position);
      row.hidden = false;
      row.style.transform = `translateY(${position * ROW_HEIGHT}px)`;
      row.setAttribute('aria-rowindex', String(position + 2));
      const selected = entry === this.selected;
      row.classList.toggle('selected', selected);
      row.setAttribute('aria-selected', String(selected));
      if (selected) active = row.id = 'inspector-selected-row';
      else if (row.id) row.removeAttribute('id');
      if (row.dataset.entry === String(entry)) return;
      row.dataset.entry = String(entry);
      if (entry >= 0) fillRow(row, this.rows[entry]!);
      else fillStderr(row, filtered.stderr.lines[stderrLineOf(entry)]!, stderrLineOf(entry));
    });
    if (active) this.element.setAttribute('aria-activedescendant', active);
    else this.element.removeAttribute('aria-activedescendant');
  }
}

function fillRow(row: HTMLElement, data: InspectorRow): void {
  row.className = `row mark-${data.mark}${row.classList.contains('selected') ? ' selected' : ''}`;
  row.dataset.index = String(data.index);
  row.removeAttribute('data-stderr-line');
  const mark = cell('mark', MARK_SYMBOLS[data.mark]);
  mark.setAttribute('aria-label', MARK_LABELS[data.mark]);
  mark.title = data.problem ?? MARK_LABELS[data.mark];
  row.replaceChildren(
    cell('line', String(data.lineNumber)),
    cell('time', elapsedText(data.elapsedMs)),
    cell('type', data.type === 'invalid' ? data.status : data.type),
    cell('summary', data.summary),
    mark,
  );
  row.setAttribute('aria-label', `line ${data.lineNumber}, ${data.type}, ${MARK_LABELS[data.mark]}: ${data.summary}`);
}

/** A stderr line in its own lane: no stdout line number and no verdict, a `stderr` type. */
function fillStderr(row: HTMLElement, line: StderrLine, lineIndex: number): void {
  row.className = `row stderr${row.classList.contains('selected') ? ' selected' : ''}`;
  row.dataset.stderrLine = String(lineIndex);
  row.removeAttribute('data-index');
  const mark = cell('mark', '');
  mark.setAttribute('aria-label', 'no verdict');
  row.replaceChildren(cell('line', ''), cell('time', elapsedText(line.elapsedMs)), cell('type', 'stderr'), cell('summary', line.text), mark);
  row.setAttribute('aria-label', `stderr ${elapsedText(line.elapsedMs)}: ${line.text}`);
}

function cell(name: string, text: string): HTMLElement {
  const span = element('span', `cell ${name}`, text);
  span.setAttribute('role', 'gridcell');
  return span;
}

/** An element with a class and, when given, its text. */
function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  return el(tag, { className }, text);
}
