// Which inspector rows pass the filters (type, verdict mark, text search): the visible row indexes, extended as rows arrive.
import type { InspectorRow } from '../../protocol/inspectorMessages.js';

export interface RowFilterSettings {
  /** An event type (or `invalid`, `ignored`, `blank`), or `all`. */
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

/** The indexes (into all rows) of the rows that pass, in order; grows in place as rows are appended. */
export class FilteredRows {
  private indexes = new Int32Array(1024);
  length = 0;
  private needle = '';

  constructor(private filter: RowFilterSettings = NO_FILTER) {}

  get settings(): RowFilterSettings {
    return this.filter;
  }

  /** Recomputes over every row with new settings. */
  refilter(rows: readonly InspectorRow[], filter: RowFilterSettings): void {
    this.filter = filter;
    this.needle = filter.text.trim().toLowerCase();
    this.length = 0;
    this.append(rows, 0);
  }

  /** Adds the rows from `start` on that pass. */
  append(rows: readonly InspectorRow[], start: number): void {
    for (let index = start; index < rows.length; index++) {
      if (!rowPasses(rows[index]!, this.filter, this.needle)) continue;
      if (this.length === this.indexes.length) {
        const grown = new Int32Array(this.indexes.length * 2);
        grown.set(this.indexes);
        this.indexes = grown;
      }
      this.indexes[this.length++] = index;
    }
  }

  /** The row index at a visible position. */
  at(position: number): number {
    return this.indexes[position]!;
  }

  /** The visible position of a row index, or -1 when it is filtered out (binary search). */
  positionOf(rowIndex: number): number {
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const value = this.indexes[middle]!;
      if (value === rowIndex) return middle;
      if (value < rowIndex) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  clear(): void {
    this.length = 0;
  }
}
