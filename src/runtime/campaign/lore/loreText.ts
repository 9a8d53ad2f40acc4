// The geometry of a lore file's text: paragraphs (runs of non-blank lines), sentence ends, Markdown headings, and offsets as lines and columns. Pure; counts no tokens.

/** A span of the file's text: offsets in UTF-16 code units, end exclusive. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** A Markdown heading line: where it starts and its text. */
export interface Heading {
  readonly offset: number;
  readonly text: string;
}

const BLANK = /^\s*$/;
const ATX_HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
/** Sentence ends: `.`, `!`, `?` or an ellipsis, with the closing quotes and brackets after them, before blank space. */
const SENTENCE_END = /[.!?\u2026]+["'\u2019\u201d)\]]*(?=\s)/g;

/** `span` without the blank space at either end (an empty span where it was all blank). */
export function trimmed(text: string, span: Span): Span {
  let start = span.start;
  let end = span.end;
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}

/** The lines of `text`: each line's span without its line break (a `\r` before `\n` stays out too). */
export function lineSpans(text: string): Span[] {
  const lines: Span[] = [];
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    lines.push({ start, end: end > start && text[end - 1] === '\r' ? end - 1 : end });
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}

/** The paragraphs of `text`: runs of lines that are not blank, trimmed. A blank line holds nothing but blank space (FR-022 splits on it). */
export function paragraphSpans(text: string, lines: readonly Span[] = lineSpans(text)): Span[] {
  const paragraphs: Span[] = [];
  let first: Span | undefined;
  let last: Span | undefined;
  for (const line of lines) {
    if (BLANK.test(text.slice(line.start, line.end))) {
      if (first && last) paragraphs.push(trimmed(text, { start: first.start, end: last.end }));
      first = last = undefined;
    } else {
      first ??= line;
      last = line;
    }
  }
  if (first && last) paragraphs.push(trimmed(text, { start: first.start, end: last.end }));
  return paragraphs;
}

/** The Markdown ATX headings of `text` (`# Title` to `###### Title`), in order. */
export function headingsOf(text: string, lines: readonly Span[] = lineSpans(text)): Heading[] {
  const headings: Heading[] = [];
  for (const line of lines) {
    if (!text.slice(line.start, Math.min(line.end, line.start + 4)).includes('#')) continue;
    const match = ATX_HEADING.exec(text.slice(line.start, line.end));
    if (match && match[1]!.trim() !== '') headings.push({ offset: line.start, text: match[1]!.trim() });
  }
  return headings;
}

/** The sentences of the span: cut after each sentence end and the blank space after it, each trimmed. Text after the last end is a sentence too. */
export function sentenceSpans(text: string, span: Span): Span[] {
  const sentences: Span[] = [];
  const slice = text.slice(span.start, span.end);
  let start = 0;
  SENTENCE_END.lastIndex = 0;
  for (let match = SENTENCE_END.exec(slice); match; match = SENTENCE_END.exec(slice)) {
    const end = match.index + match[0].length;
    const sentence = trimmed(text, { start: span.start + start, end: span.start + end });
    if (sentence.end > sentence.start) sentences.push(sentence);
    start = end;
  }
  const rest = trimmed(text, { start: span.start + start, end: span.end });
  if (rest.end > rest.start) sentences.push(rest);
  return sentences;
}

/** Turns offsets into 1-based lines and columns (columns in UTF-16 code units, as editors count them). */
export class LinePositions {
  private readonly starts: number[];

  constructor(lines: readonly Span[]) {
    this.starts = lines.map((line) => line.start);
  }

  /** The 1-based line and column of `offset`. */
  positionOf(offset: number): { readonly line: number; readonly column: number } {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - this.starts[low]! + 1 };
  }
}

/** The text of a span as it is counted and shown: line endings as `\n`. */
export function spanText(text: string, span: Span): string {
  const slice = text.slice(span.start, span.end);
  return slice.includes('\r') ? slice.replace(/\r\n?/g, '\n') : slice;
}
