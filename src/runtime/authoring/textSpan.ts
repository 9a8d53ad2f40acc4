// Offsets in a text: spans, edits, and the conversions to and from 1-based positions. Pure: no I/O, no vscode.
import type { Node } from 'jsonc-parser';
import type { SourcePosition, SourceRange } from '../validation/diagnostic.js';
import { computeLineStarts, positionAt } from '../validation/jsonLocator.js';

/** `length` characters (UTF-16 code units) from the 0-based `offset`. */
export interface TextSpan {
  readonly offset: number;
  readonly length: number;
}

/** Replace the `length` characters at `offset` with `newText`. Edits of one change never overlap. */
export interface TextEdit {
  readonly offset: number;
  readonly length: number;
  readonly newText: string;
}

/** The span of a syntax node. */
export function spanOfNode(node: Node): TextSpan {
  return { offset: node.offset, length: node.length };
}

/** The offset just after the span. */
export function spanEnd(span: TextSpan): number {
  return span.offset + span.length;
}

/** True when `offset` lies in the span or right after its last character (where a cursor still "touches" it). */
export function spanTouches(span: TextSpan, offset: number): boolean {
  return offset >= span.offset && offset <= spanEnd(span);
}

/** The inside of a JSON string literal's span: without its quotes (empty when the literal is unterminated). */
export function stringContentSpan(span: TextSpan): TextSpan {
  return span.length >= 2 ? { offset: span.offset + 1, length: span.length - 2 } : { offset: span.offset + Math.min(1, span.length), length: 0 };
}

/** Applies edits (in any order, never overlapping) to a text. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((left, right) => right.offset - left.offset);
  let result = text;
  for (const edit of sorted) result = result.slice(0, edit.offset) + edit.newText + result.slice(edit.offset + edit.length);
  return result;
}

/** Line and column conversions of one text (1-based lines and columns, UTF-16 columns as in VS Code). */
export class LineIndex {
  private readonly starts: number[];

  constructor(private readonly text: string) {
    this.starts = computeLineStarts(text);
  }

  /** How many lines the text has. */
  get lineCount(): number {
    return this.starts.length;
  }

  /** 1-based position of a 0-based offset. */
  positionAt(offset: number): SourcePosition {
    return positionAt(this.starts, Math.max(0, Math.min(offset, this.text.length)));
  }

  /** 0-based offset of a 1-based position (clamped into the text). */
  offsetAt(position: SourcePosition): number {
    const line = Math.max(1, Math.min(position.line, this.starts.length));
    const start = this.starts[line - 1]!;
    const end = line < this.starts.length ? this.starts[line]! : this.text.length;
    return Math.max(start, Math.min(start + position.column - 1, end));
  }

  /** 1-based range of a span. */
  rangeOf(span: TextSpan): SourceRange {
    return { start: this.positionAt(span.offset), end: this.positionAt(spanEnd(span)) };
  }

  /** The span of a 1-based line, without its line break. */
  lineSpan(line: number): TextSpan {
    const index = Math.max(1, Math.min(line, this.starts.length)) - 1;
    const start = this.starts[index]!;
    let end = index + 1 < this.starts.length ? this.starts[index + 1]! : this.text.length;
    while (end > start && (this.text[end - 1] === '\n' || this.text[end - 1] === '\r')) end--;
    return { offset: start, length: end - start };
  }
}
