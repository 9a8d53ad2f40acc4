// The Inspector's stderr as lines in time: chunks split at newlines (a chunk without a final newline is continued by the next), capped, with what was dropped counted.
import type { StderrChunk } from '../../protocol/inspectorMessages.js';

/** Lines kept (as the row cap does for stdout, later ones are counted and dropped). */
export const MAX_STDERR_LINES = 20_000;
/** Characters kept of one line; the rest is counted. */
export const MAX_STDERR_LINE_CHARACTERS = 10_000;

export interface StderrLine {
  /** The time of the chunk the line starts in. */
  readonly elapsedMs: number;
  readonly text: string;
  /** Characters not kept past MAX_STDERR_LINE_CHARACTERS. */
  readonly cutCharacters: number;
}

/** What `add` changed: lines from `first` on are new; `continued` when the line before them got more text. */
export interface StderrAddition {
  readonly first: number;
  readonly continued: boolean;
}

export class StderrLines {
  readonly lines: StderrLine[] = [];
  /** Lines dropped by the cap. */
  dropped = 0;
  /** The last line had no newline yet: the next chunk's text up to its first newline belongs to it. */
  private open = false;
  /** The open line was dropped by the cap, so its continuation is dropped too. */
  private openDropped = false;

  constructor(
    private readonly maxLines = MAX_STDERR_LINES,
    private readonly maxCharacters = MAX_STDERR_LINE_CHARACTERS,
  ) {}

  get length(): number {
    return this.lines.length;
  }

  add(chunks: readonly StderrChunk[]): StderrAddition {
    const first = this.lines.length;
    let continued = false;
    for (const chunk of chunks) {
      const pieces = chunk.text.split('\n');
      for (let index = 0; index < pieces.length; index++) {
        const terminated = index < pieces.length - 1;
        const piece = pieces[index]!;
        if (index === 0 && this.open) {
          if (!this.openDropped && this.extend(piece, terminated) && this.lines.length - 1 < first) continued = true;
        } else {
          // Nothing follows the chunk's last newline.
          if (!terminated && piece === '') break;
          this.start(chunk.elapsedMs, piece, terminated);
        }
        this.open = !terminated;
      }
    }
    return { first, continued };
  }

  clear(): void {
    this.lines.length = 0;
    this.dropped = 0;
    this.open = false;
    this.openDropped = false;
  }

  private start(elapsedMs: number, piece: string, terminated: boolean): void {
    this.openDropped = this.lines.length >= this.maxLines;
    if (this.openDropped) {
      this.dropped++;
      return;
    }
    this.lines.push(this.line(elapsedMs, piece, 0, terminated));
  }

  /** Appends to the open line; true when its text changed. */
  private extend(piece: string, terminated: boolean): boolean {
    const last = this.lines.length - 1;
    const line = this.lines[last];
    if (!line) return false;
    const grown = this.line(line.elapsedMs, line.text + piece, line.cutCharacters, terminated);
    if (grown.text === line.text && grown.cutCharacters === line.cutCharacters) return false;
    this.lines[last] = grown;
    return true;
  }

  private line(elapsedMs: number, raw: string, cutCharacters: number, terminated: boolean): StderrLine {
    // A finished line loses the carriage return of a CRLF ending.
    const text = terminated && raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.length <= this.maxCharacters) return { elapsedMs, text, cutCharacters };
    return { elapsedMs, text: text.slice(0, this.maxCharacters), cutCharacters: cutCharacters + text.length - this.maxCharacters };
  }
}
