// The search box's state: the query, its matches (toolId or skill, a beat's id or title, case-insensitive) and which match Enter jumped to last.
import type { PlanGraphNode } from '../../runtime/graph/graphTypes.js';
import type { GraphIndex } from './graphIndex.js';

export class GraphSearch {
  private queryText = '';
  private found: PlanGraphNode[] = [];
  /** Index in `found` of the match Enter jumped to last (-1: none yet). */
  private cursor = -1;

  get query(): string {
    return this.queryText;
  }

  get active(): boolean {
    return this.queryText.trim() !== '';
  }

  get matches(): readonly PlanGraphNode[] {
    return this.found;
  }

  /** Runs `query` over `index` (undefined: no graph yet); the jump position restarts. */
  run(index: GraphIndex | undefined, query: string): ReadonlySet<string> {
    const changed = query !== this.queryText;
    this.queryText = query;
    this.found = index ? index.search(query) : [];
    if (changed) this.cursor = -1;
    else this.cursor = Math.min(this.cursor, this.found.length - 1);
    return new Set(this.found.map((node) => node.id));
  }

  /** The next (or previous) match after the last jump; undefined when nothing matches. */
  step(backward: boolean, selected: string | undefined): PlanGraphNode | undefined {
    if (this.found.length === 0) return undefined;
    if (this.cursor === -1 && selected !== undefined) {
      const at = this.found.findIndex((node) => node.id === selected);
      if (at >= 0) this.cursor = at;
    }
    const count = this.found.length;
    this.cursor = this.cursor === -1 ? (backward ? count - 1 : 0) : (this.cursor + (backward ? -1 : 1) + count) % count;
    return this.found[this.cursor];
  }

  /** "3 matches", "2 of 3", "No matches", or "" when not searching. */
  countText(): string {
    if (!this.active) return '';
    if (this.found.length === 0) return 'No matches';
    if (this.cursor >= 0) return `${this.cursor + 1} of ${this.found.length}`;
    return this.found.length === 1 ? '1 match' : `${this.found.length} matches`;
  }
}
