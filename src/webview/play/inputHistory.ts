// Walks the player's earlier inputs with ArrowUp/ArrowDown, shell style, keeping the unsent text aside; no DOM.

/** A cursor over the saved inputs; position `entries.length` is the text being typed. */
export class InputHistory {
  private position: number;
  private stash = '';

  constructor(private readonly entries: () => readonly string[]) {
    this.position = entries().length;
  }

  /** True while the shown text is an entry recalled from the history. */
  get browsing(): boolean {
    return this.position < this.entries().length;
  }

  /** The entry shown while browsing (undefined at the bottom). */
  get recalled(): string | undefined {
    return this.browsing ? this.entries()[this.position] : undefined;
  }

  /** The older entry to show instead of `current`, or undefined at the oldest one. */
  previous(current: string): string | undefined {
    const entries = this.entries();
    if (this.position > entries.length) this.position = entries.length;
    if (this.position === 0) return undefined;
    if (this.position === entries.length) this.stash = current;
    this.position -= 1;
    return entries[this.position];
  }

  /** The newer entry (or the stashed text at the bottom), or undefined when not browsing. */
  next(): string | undefined {
    const entries = this.entries();
    if (this.position >= entries.length) return undefined;
    this.position += 1;
    return this.position === entries.length ? this.stash : entries[this.position];
  }

  /** Back to the bottom, forgetting the stashed text (after sending). */
  reset(): void {
    this.position = this.entries().length;
    this.stash = '';
  }
}
