// Maps a span of a decoded JSON string value to its range in the text, stepping over escape sequences of the raw literal.
import type { SourceRange } from './diagnostic.js';
import type { JsonDocument } from './jsonLocator.js';

/** A span of a decoded string, in UTF-16 code units from its start. */
export interface StringSpan {
  readonly start: number;
  readonly length: number;
}

/**
 * Range in the text of `span` of the string value at `pointer`. Each escape sequence of the raw
 * literal (`\n`, `\"`, `\u00e9`…) stands for one code unit of the value, so it is covered whole.
 * An empty span covers the next character, or the closing quote when the span is at the end of the
 * value. Undefined when the pointer does not lead to a string in the text.
 */
export function rangeInStringLiteral(document: JsonDocument, pointer: string, span: StringSpan): SourceRange | undefined {
  const node = document.nodeAtPointer(pointer);
  if (!node || node.type !== 'string' || node.length < 2) return undefined;
  const text = document.text;
  const contentEnd = node.offset + node.length - 1;
  const literalEnd = node.offset + node.length;
  const endIndex = span.start + Math.max(span.length, 1);
  let raw = node.offset + 1;
  let start: number | undefined;
  let end: number | undefined;
  for (let decoded = 0; raw < contentEnd; decoded++) {
    if (decoded === span.start) start = raw;
    if (decoded === endIndex) {
      end = raw;
      break;
    }
    raw += text.charCodeAt(raw) !== 92 /* \ */ ? 1 : text.charCodeAt(raw + 1) === 117 /* u */ ? 6 : 2;
  }
  raw = Math.min(raw, contentEnd);
  if (start === undefined) {
    // The span starts at (or past) the end of the value: the closing quote.
    return document.rangeAt(contentEnd, literalEnd - contentEnd);
  }
  return document.rangeAt(start, (end ?? raw) - start);
}
