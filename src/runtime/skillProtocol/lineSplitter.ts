// Splits a byte stream into NDJSON lines as chunks arrive, bounding memory with a maximum line length.
import { StringDecoder } from 'node:string_decoder';

export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

export interface LineSink {
  /**
   * A complete line (without the trailing \n or \r\n). `partial` is true for a last line with no newline;
   * `mayHaveReplacements` is false when no decoded text of the line can contain U+FFFD (a cheap per-chunk check).
   */
  onLine(line: string, lineNumber: number, partial: boolean, mayHaveReplacements: boolean): void;
  /** A line longer than the limit; its content was discarded. */
  onOversizedLine(lineNumber: number, byteLength: number): void;
}

/**
 * Incremental UTF-8 line splitter. Invalid UTF-8 becomes U+FFFD (never throws). A line over
 * `maxLineBytes` is dropped as soon as it crosses the limit (only its length is kept), so one giant
 * line cannot exhaust memory.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private pendingBytes = 0;
  private discarding = false;
  private discardedBytes = 0;
  private lineNumber = 0;
  /** True while the current line includes text from a chunk that contained U+FFFD. */
  private suspicious = false;

  constructor(
    private readonly sink: LineSink,
    private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {}

  /** Feeds a chunk of stdout. */
  push(chunk: Buffer): void {
    const text = this.decoder.write(chunk);
    if (text.length === 0) return;
    const chunkSuspicious = text.includes('\uFFFD');
    if (chunkSuspicious) this.suspicious = true;
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      if (newline === -1) {
        this.accumulate(text, start, text.length);
        return;
      }
      this.accumulate(text, start, newline);
      this.emitLine(false);
      this.suspicious = chunkSuspicious;
      start = newline + 1;
    }
  }

  /** Flushes the last line when the stream ends. */
  end(): void {
    const rest = this.decoder.end();
    if (rest.includes('\uFFFD')) this.suspicious = true;
    if (rest.length > 0) this.accumulate(rest, 0, rest.length);
    if (this.pending.length > 0 || this.discarding) this.emitLine(true);
  }

  private accumulate(text: string, from: number, to: number): void {
    if (from === to) return;
    const piece = from === 0 && to === text.length ? text : text.slice(from, to);
    // A UTF-16 unit is at most 3 UTF-8 bytes, so exact byte counting is only needed near the limit.
    const bytes = piece.length * 3 <= this.maxLineBytes - this.pendingBytes ? piece.length * 3 : Buffer.byteLength(piece);
    if (this.discarding) {
      this.discardedBytes += Buffer.byteLength(piece);
      return;
    }
    if (this.pendingBytes + bytes > this.maxLineBytes) {
      const exact = Buffer.byteLength(this.pending) + Buffer.byteLength(piece);
      if (exact > this.maxLineBytes) {
        this.discarding = true;
        this.discardedBytes = exact;
        this.pending = '';
        this.pendingBytes = 0;
        return;
      }
      this.pending += piece;
      this.pendingBytes = exact;
      return;
    }
    this.pending += piece;
    this.pendingBytes += bytes;
  }

  private emitLine(partial: boolean): void {
    this.lineNumber++;
    if (this.discarding) {
      this.discarding = false;
      const size = this.discardedBytes;
      this.discardedBytes = 0;
      this.sink.onOversizedLine(this.lineNumber, size);
      return;
    }
    let line = this.pending;
    this.pending = '';
    this.pendingBytes = 0;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    this.sink.onLine(line, this.lineNumber, partial, this.suspicious);
  }
}
