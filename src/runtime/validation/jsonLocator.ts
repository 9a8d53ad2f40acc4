// Parses JSON text with offsets (jsonc-parser) and maps RFC 6901 JSON pointers and offsets to 1-based source ranges.
import { createScanner, findNodeAtOffset, getNodePath, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { SourcePosition, SourceRange } from './diagnostic.js';
import { deeperThan, lazyTree, MAX_NESTING_DEPTH, strictValue } from './strictJson.js';

export { MAX_NESTING_DEPTH } from './strictJson.js';

/** A parse error of the text, with its offset and the JSON pointer of the deepest value around it. */
export interface JsonSyntaxProblem {
  readonly message: string;
  readonly offset: number;
  readonly length: number;
  readonly pointer: string;
}

/** A place where the text departs from strict JSON but is still accepted (JSONC). */
export interface JsonExtension {
  readonly kind: 'lineComment' | 'blockComment' | 'trailingComma';
  readonly offset: number;
  readonly length: number;
}

/** Which part of a property a range should cover: its value, or its key (for unknown properties). */
export type PointerTarget = 'value' | 'key';

// jsonc-parser's SyntaxKind is an ambient const enum, which isolatedModules cannot read: mirror the values used.
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const COMMA = 5;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const LINE_BREAK = 14;
const TRIVIA = 15;
const END_OF_FILE = 17;

const syntaxMessages: Record<string, string> = {
  InvalidSymbol: 'unexpected character (strings and property names need double quotes; NaN, Infinity and undefined are not JSON)',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: "expected ':' after the property name",
  CommaExpected: "expected ',' between values",
  CloseBraceExpected: "expected '}' to close the object",
  CloseBracketExpected: "expected ']' to close the array",
  EndOfFileExpected: 'unexpected content after the end of the JSON value',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'unterminated block comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'incomplete number',
  InvalidUnicode: 'invalid \\u escape in string',
  InvalidEscapeCharacter: 'invalid escape sequence in string',
  InvalidCharacter: 'control character in string (escape it, e.g. \\n or \\t)',
};

/** An author-facing message for a jsonc-parser error name (printParseErrorCode), e.g. "expected ',' between values". */
export function syntaxMessageOf(name: string): string {
  return syntaxMessages[name] ?? name;
}

/** Offsets (0-based) of the start of every line; handles \n, \r\n and lone \r. */
export function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 13 /* \r */) {
      if (text.charCodeAt(index + 1) === 10) index++;
      starts.push(index + 1);
    } else if (code === 10 /* \n */) {
      starts.push(index + 1);
    }
  }
  return starts;
}

/** Converts a 0-based offset to a 1-based line and column, given {@link computeLineStarts}. */
export function positionAt(lineStarts: readonly number[], offset: number): SourcePosition {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lineStarts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - lineStarts[low]! + 1 };
}

/** Encodes path segments as an RFC 6901 JSON pointer ('~' → '~0', '/' → '~1'); [] is '' (the root). */
export function pointerFromPath(segments: readonly (string | number)[]): string {
  return segments.map((segment) => '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** Decodes an RFC 6901 JSON pointer into its segments. Throws on a malformed pointer (a programming error). */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`Invalid JSON pointer ${JSON.stringify(pointer)}: must be empty or start with '/'`);
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => {
      if (/~(?![01])/.test(segment)) throw new Error(`Invalid JSON pointer ${JSON.stringify(pointer)}: '~' must be followed by 0 or 1`);
      return segment.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/** Reads the value at a JSON pointer inside an in-memory value; undefined when absent. */
export function valueAtPointer(value: unknown, pointer: string): unknown {
  let current = value;
  for (const segment of parsePointer(pointer)) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (current !== null && typeof current === 'object' && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

/** A parsed JSON text: its syntax tree, its value, its problems, and offset ↔ position mapping. */
export class JsonDocument {
  /** The value, or undefined when the text has syntax problems. */
  readonly value: unknown;
  private lineStarts: number[] | undefined;
  private tree: { readonly root: Node | undefined } | undefined;
  private readonly buildTree: (() => Node | undefined) | undefined;

  /**
   * `root` is the syntax tree, or a function building it on first use (strict JSON, whose value
   * `strictValue` JSON.parse gave: most texts never need the tree, only their value).
   */
  constructor(
    readonly text: string,
    root: Node | undefined | (() => Node | undefined),
    readonly syntaxProblems: readonly JsonSyntaxProblem[],
    readonly extensions: readonly JsonExtension[],
    strictValue?: { readonly value: unknown },
  ) {
    if (typeof root === 'function') {
      this.buildTree = root;
    } else {
      this.tree = { root };
    }
    const tree = this.tree?.root;
    this.value = strictValue ? strictValue.value : tree && syntaxProblems.length === 0 ? nodeValue(tree) : undefined;
  }

  /** The syntax tree (jsonc-parser), undefined when the text could not be parsed into one. */
  get root(): Node | undefined {
    this.tree ??= { root: this.buildTree?.() };
    return this.tree.root;
  }

  /** 1-based position of a 0-based offset. */
  positionAt(offset: number): SourcePosition {
    this.lineStarts ??= computeLineStarts(this.text);
    return positionAt(this.lineStarts, Math.max(0, Math.min(offset, this.text.length)));
  }

  /** Range covering `length` characters from `offset`. */
  rangeAt(offset: number, length: number): SourceRange {
    return { start: this.positionAt(offset), end: this.positionAt(offset + length) };
  }

  /** The syntax node at a JSON pointer, or undefined when the pointer leads nowhere. */
  nodeAtPointer(pointer: string): Node | undefined {
    const found = this.walk(parseSegments(pointer));
    return found.missing ? undefined : found.node;
  }

  /**
   * Range of the value at `pointer` (or of its property key when `target` is 'key'). When the pointer
   * leads nowhere (a missing property), the range is the opening brace/bracket of the deepest existing
   * ancestor, i.e. the parent object of a missing property. Undefined only when the text has no tree.
   */
  rangeOfPointer(pointer: string, target: PointerTarget = 'value'): SourceRange | undefined {
    const found = this.walk(parseSegments(pointer));
    if (!found.node) return undefined;
    const node = found.node;
    if (found.missing) {
      const length = node.type === 'object' || node.type === 'array' ? 1 : node.length;
      return this.rangeAt(node.offset, length);
    }
    if (target === 'key' && node.parent?.type === 'property') {
      const key = node.parent.children?.[0];
      if (key) return this.rangeAt(key.offset, key.length);
    }
    return this.rangeAt(node.offset, node.length);
  }

  private walk(segments: readonly string[]): { node: Node | undefined; missing: boolean } {
    let node: Node | undefined = this.root;
    if (!node) return { node, missing: true };
    for (const segment of segments) {
      const child = childNode(node, segment);
      if (!child) return { node, missing: true };
      node = child;
    }
    return { node, missing: false };
  }
}

/**
 * Never read. V8 drops the hidden class of a class's instances once none survives a garbage
 * collection, and the next instance rebuilds it field by field: a document kept alive spares that to
 * the first validation after each collection (the editor parses on every keystroke).
 */
const keptDocument = new JsonDocument('', undefined, [], []);
void keptDocument;

/**
 * Parses JSON text keeping offsets. Comments and trailing commas are accepted and listed in
 * `extensions`; a leading byte-order mark is ignored. Never throws for bad input.
 */
export function parseJsonDocument(text: string): JsonDocument {
  // A BOM becomes a space of the same length, so offsets stay those of the original text.
  const source = text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
  // Strict JSON (the usual case) has no comments, trailing commas or syntax problems: JSON.parse
  // gives its value many times faster than the tree, which is built only when a range is asked for.
  // Too deep a value falls through to the tolerant parse, which reports where.
  const strict = strictValue(source);
  if (strict !== undefined && !deeperThan(strict.value, MAX_NESTING_DEPTH)) return new JsonDocument(text, () => lazyTree(source), [], [], strict);
  const scan = scanExtensions(source);
  if (scan.tooDeepAt !== undefined) {
    const problem = { message: `nested deeper than ${MAX_NESTING_DEPTH} levels`, offset: scan.tooDeepAt, length: 1, pointer: '' };
    return new JsonDocument(text, undefined, [problem], scan.extensions);
  }
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(source, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return new JsonDocument(text, undefined, [{ message: 'nested too deeply to be parsed', offset: 0, length: 0, pointer: '' }], scan.extensions);
  }
  return new JsonDocument(text, root, syntaxProblems(errors, root), scan.extensions);
}

function syntaxProblems(errors: readonly ParseError[], root: Node | undefined): JsonSyntaxProblem[] {
  return errors.map((error) => {
    const name = printParseErrorCode(error.error);
    const pointerNode = root ? findNodeAtOffset(root, error.offset, true) : undefined;
    return {
      message: syntaxMessageOf(name),
      offset: error.offset,
      length: error.length,
      pointer: pointerNode ? pointerFromPath(getNodePath(pointerNode)) : '',
    };
  });
}

function scanExtensions(text: string): { extensions: JsonExtension[]; tooDeepAt: number | undefined } {
  const scanner = createScanner(text, false);
  const extensions: JsonExtension[] = [];
  let depth = 0;
  let pendingComma: number | undefined;
  for (let token: number = scanner.scan(); token !== END_OF_FILE; token = scanner.scan()) {
    const offset = scanner.getTokenOffset();
    if (token === LINE_COMMENT || token === BLOCK_COMMENT) {
      extensions.push({ kind: token === LINE_COMMENT ? 'lineComment' : 'blockComment', offset, length: scanner.getTokenLength() });
      continue;
    }
    if (token === LINE_BREAK || token === TRIVIA) continue;
    if ((token === CLOSE_BRACE || token === CLOSE_BRACKET) && pendingComma !== undefined) {
      extensions.push({ kind: 'trailingComma', offset: pendingComma, length: 1 });
    }
    pendingComma = token === COMMA ? offset : undefined;
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      if (++depth > MAX_NESTING_DEPTH) return { extensions, tooDeepAt: offset };
    } else if (token === CLOSE_BRACE || token === CLOSE_BRACKET) {
      depth--;
    }
  }
  return { extensions, tooDeepAt: undefined };
}

function parseSegments(pointer: string): string[] {
  try {
    return parsePointer(pointer);
  } catch {
    return [];
  }
}

function childNode(node: Node, segment: string): Node | undefined {
  if (node.type === 'array') {
    if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
    return node.children?.[Number(segment)];
  }
  if (node.type !== 'object') return undefined;
  let found: Node | undefined;
  // The last duplicate key wins, as in JSON.parse.
  for (const property of node.children ?? []) {
    if (property.children?.[0]?.value === segment) found = property.children[1];
  }
  return found;
}

/** Builds the value of a tree like JSON.parse does: own "__proto__" properties, last duplicate key wins. */
function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (!key || !value) continue;
        Object.defineProperty(result, String(key.value), { value: nodeValue(value), enumerable: true, writable: true, configurable: true });
      }
      return result;
    }
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value as unknown;
  }
}
