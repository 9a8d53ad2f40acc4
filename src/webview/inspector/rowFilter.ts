// Which lines pass the filters (type, verdict mark, text search): stdout rows and stderr lines merged by time into the table's visible order, extended as they arrive.
import type { InspectorRow } from '../../protocol/inspectorMessages.js';
import { StderrLines, type StderrLine } from './stderrLines.js';

export interface RowFilterSettings {
  /** An event type (or `invalid`, `ignored`, `blank`, `stderr`), or `all`. */
  readonly type: string;
  /** A verdict mark (`ok`, `error`, `warning`, `blank`), `problems` (error or warning), or `all`. */
  readonly mark: string;
  readonly text: string;
}

export const NO_FILTER: RowFilterSettings = { type: 'all', mark: 'all', text: '' };

export function rowPasses(row: InspectorRow, filter: RowFilterSettings, needle = filter.text.trim().toLowerCase()): boolean {
  if (filter.type !== 'all' && row.type !== filter.type) return false;
  if (filter.mark === 'problems' ? row.mark !== 'error' && row.mark !== 'warning' : filter.mark !== 'all' && row.mark !== filter.mark) return false;
  if (needle === '') return true;
  return row.summary.toLowerCase().includes(needle) || (row.text ?? '').toLowerCase().includes(needle) || (row.problem ?? '').toLowerCase().includes(needle);
}

/** A stderr line passes when the type is `all` or `stderr` and the verdict filter is off (it has no verdict). */
export function stderrPasses(line: StderrLine, filter: RowFilterSettings, needle = filter.text.trim().toLowerCase()): boolean {
  if (filter.type !== 'all' && filter.type !== 'stderr') return false;
  if (filter.mark !== 'all') return false;
  return needle === '' || line.text.toLowerCase().includes(needle);
}

/** A table entry: a stdout row's index (≥ 0), or a stderr line's index `line` as `-(line + 1)`. */
export function stderrEntry(line: number): number {
  return -line - 1;
}

/** The stderr line index of an entry below 0. */
export function stderrLineOf(entry: number): number {
  return -entry - 1;
}

/**
 * The entries that pass, in table order: each stream keeps its own order, and a stderr line sits after the stdout rows
 * of its time or earlier (stdout first at equal times). Grows in place as rows and lines are appended.
 */
export class FilteredRows {
  private entries = new Int32Array(1024);
  length = 0;
  private needle = '';
  private rows: readonly InspectorRow[] = [];

  constructor(
    private filter: RowFilterSettings = NO_FILTER,
    readonly stderr: StderrLines = new StderrLines(),
  ) {}

  get settings(): RowFilterSettings {
    return this.filter;
  }

  /** Recomputes over every row and stderr line with new settings. */
  refilter(rows: readonly InspectorRow[], filter: RowFilterSettings): void {
    this.filter = filter;
    this.needle = filter.text.trim().toLowerCase();
    this.rows = rows;
    this.length = 0;
    const lines = this.stderr.lines;
    this.reserve(rows.length + lines.length);
    let row = 0;
    let line = 0;
    while (row < rows.length || line < lines.length) {
      if (line >= lines.length || (row < rows.length && rows[row]!.elapsedMs <= lines[line]!.elapsedMs)) {
        if (rowPasses(rows[row]!, filter, this.needle)) this.entries[this.length++] = row;
        row++;
      } else {
        if (stderrPasses(lines[line]!, filter, this.needle)) this.entries[this.length++] = stderrEntry(line);
        line++;
      }
    }
  }

  /** Adds the rows from `start` on that pass. */
  append(rows: readonly InspectorRow[], start: number): void {
    this.rows = rows;
    const added: number[] = [];
    for (let index = start; index < rows.length; index++) {
      if (rowPasses(rows[index]!, this.filter, this.needle)) added.push(index);
    }
    this.mergeTail(added);
  }

  /** Adds the stderr lines StderrLines.add reported; a continued line may now pass the text filter or not. */
  appendStderr(first: number, continued: boolean): void {
    if (continued && this.needle !== '') {
      this.refilter(this.rows, this.filter);
      return;
    }
    const lines = this.stderr.lines;
    const added: number[] = [];
    for (let index = first; index < lines.length; index++) {
      if (stderrPasses(lines[index]!, this.filter, this.needle)) added.push(stderrEntry(index));
    }
    this.mergeTail(added);
  }

  /** The entry at a visible position. */
  at(position: number): number {
    return this.entries[position]!;
  }

  /** The visible position of an entry, or -1 when it is filtered out. */
  positionOf(entry: number): number {
    return this.entries.subarray(0, this.length).indexOf(entry);
  }

  clear(): void {
    this.length = 0;
  }

  private timeOf(entry: number): number {
    return entry >= 0 ? this.rows[entry]!.elapsedMs : this.stderr.lines[stderrLineOf(entry)]!.elapsedMs;
  }

  /** True when `entry` belongs before `other`: never within one stream; across streams by time, stdout first at equal times. */
  private before(entry: number, other: number): boolean {
    if (entry >= 0 === other >= 0) return false;
    const time = this.timeOf(entry);
    const otherTime = this.timeOf(other);
    return entry >= 0 ? time <= otherTime : time < otherTime;
  }

  /**
   * Merges entries of one stream (in order) into the end: only the trailing entries of the other stream with a later
   * time move, so a batch costs its size plus that tail (the lines of the last moments), not the whole table.
   */
  private mergeTail(added: readonly number[]): void {
    if (added.length === 0) return;
    let position = this.length;
    while (position > 0 && this.before(added[0]!, this.entries[position - 1]!)) position--;
    const tail = this.entries.slice(position, this.length);
    this.reserve(this.length + added.length);
    let write = position;
    let fromTail = 0;
    let fromAdded = 0;
    while (fromTail < tail.length || fromAdded < added.length) {
      if (fromAdded < added.length && (fromTail >= tail.length || this.before(added[fromAdded]!, tail[fromTail]!))) this.entries[write++] = added[fromAdded++]!;
      else this.entries[write++] = tail[fromTail++]!;
    }
    this.length += added.length;
  }

  private reserve(capacity: number): void {
    if (capacity <= this.entries.length) return;
    let size = this.entries.length;
    while (size < capacity) size *= 2;
    const grown = new Int32Array(size);
    grown.set(this.entries.subarray(0, this.length));
    this.entries = grown;
  }
}
