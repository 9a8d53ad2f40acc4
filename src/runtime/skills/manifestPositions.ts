// Where in a skill.json a problem is: the 1-based line and column of a JSON syntax error, or of the property a schema violation names. Pure; never throws for bad text.
import { parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { SourceRange } from '../validation/diagnostic.js';
import { computeLineStarts, parseJsonDocument, positionAt, syntaxMessageOf, type PointerTarget } from '../validation/jsonLocator.js';

/** The first syntax error of a JSON text, with an author-facing message and its range. */
export interface JsonSyntaxError {
  readonly message: string;
  readonly range: SourceRange;
}

/** The fields a problem carries for its range (see SkillProblem): 1-based, the end exclusive. */
export interface RangeFields {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/**
 * The first reason strict JSON (what JSON.parse accepts: no comments, no trailing commas) rejects `text`, with its
 * range. `parseMessage` is JSON.parse's own message, used when jsonc-parser finds nothing to say (its offset, if it
 * gives one, places the error). Undefined only when the text is strict JSON.
 */
export function jsonSyntaxError(text: string, parseMessage?: string): JsonSyntaxError | undefined {
  const errors: ParseError[] = [];
  try {
    parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch (error) {
    // Nested too deeply for the recursive parser: report it at the start.
    if (!(error instanceof RangeError)) throw error;
    return { message: 'nested too deeply to be parsed', range: rangeIn(text, 0, 0) };
  }
  const first = errors[0];
  if (first) return { message: syntaxMessageOf(printParseErrorCode(first.error)), range: rangeIn(text, first.offset, first.length) };
  if (parseMessage === undefined) return undefined;
  const offset = /at position (\d+)/.exec(parseMessage)?.[1];
  return { message: parseMessage, range: rangeIn(text, offset !== undefined ? Number(offset) : 0, 0) };
}

/**
 * The range of the value at `pointer` in a JSON text (of its key for `target` 'key'; of the parent object when the
 * property is missing). Meant for text that parses; for broken text it uses what jsonc-parser recovers, and is
 * undefined only when nothing is.
 */
export function rangeOfPointerIn(text: string, pointer: string, target: PointerTarget = 'value'): SourceRange | undefined {
  return parseJsonDocument(text).rangeOfPointer(pointer, target);
}

/** A range as the flat fields of a problem. */
export function rangeFields(range: SourceRange): RangeFields {
  return { line: range.start.line, column: range.start.column, endLine: range.end.line, endColumn: range.end.column };
}

/** The range covering `length` characters from the 0-based `offset` (clamped to the text). */
export function rangeIn(text: string, offset: number, length: number): SourceRange {
  const starts = computeLineStarts(text);
  const start = Math.max(0, Math.min(offset, text.length));
  const end = Math.min(text.length, start + Math.max(0, length));
  return { start: positionAt(starts, start), end: positionAt(starts, end) };
}
