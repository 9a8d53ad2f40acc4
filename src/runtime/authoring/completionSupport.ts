// Where a completion happens in a (possibly broken) plan text: jsonc-parser location, the token or word an item replaces, commas, and the item type. Pure.
import { createScanner, findNodeAtLocation, getLocation, type JSONPath } from 'jsonc-parser';
import type { PlanDocument, PlanTool } from './planDocument.js';
import type { SkillCatalog } from '../skills/skillCatalog.js';
import { spanEnd, type TextSpan } from './textSpan.js';

/** One completion proposal; the VS Code adapter maps it 1:1 to a CompletionItem. */
export interface PlanCompletionItem {
  readonly label: string;
  readonly kind: 'script' | 'toolId' | 'property' | 'value' | 'snippet';
  /** One line, e.g. "Dice Roller · v1.0.0 · healthy". */
  readonly detail?: string;
  /** Markdown. */
  readonly documentation?: string;
  /** Plain text, or a VS Code snippet string when `isSnippet`. */
  readonly insertText: string;
  readonly isSnippet?: boolean;
  /** What the item replaces (a whole string literal with its quotes, or the word being typed); one line, contains the cursor. */
  readonly replaceSpan?: TextSpan;
  readonly sortText?: string;
  readonly filterText?: string;
  readonly preselect?: boolean;
}

/** Options of completePlan. */
export interface PlanCompletionOptions {
  /** The last well-formed model of the same file: toolIds and tools the broken current text has lost. */
  readonly lastWellFormed?: PlanDocument | undefined;
  /** Makes the requestId of a new plan (default: crypto.randomUUID). */
  readonly newRequestId?: (() => string) | undefined;
}

/** The token under the cursor: a property key, or a scalar value (string, number, true, false, null). */
export interface CursorToken {
  readonly kind: 'key' | 'value';
  readonly type: 'string' | 'number' | 'boolean' | 'null';
  /** The whole token (a string with its quotes). */
  readonly span: TextSpan;
  /** False for a string whose closing quote is missing. */
  readonly terminated: boolean;
}

/** Where the cursor is, for completion. */
export interface CompletionCursor {
  readonly text: string;
  readonly offset: number;
  /** jsonc-parser's path to the cursor: e.g. `['tools', 0, 'input', 'fo']`, `['tools', 1, 'dependencies', 2]`. */
  readonly path: JSONPath;
  /** True at a property-key position. */
  readonly atKey: boolean;
  readonly token: CursorToken | undefined;
  /** What an item replaces: the token (an unterminated string only up to the cursor), else the bare word being typed (maybe empty). */
  readonly replaceSpan: TextSpan;
}

/** Everything the completion providers share. */
export interface CompletionRequest {
  readonly document: PlanDocument;
  readonly lastWellFormed: PlanDocument | undefined;
  readonly catalog: SkillCatalog;
  readonly cursor: CompletionCursor;
  readonly newRequestId: () => string;
}

// jsonc-parser's SyntaxKind and ScanError are ambient const enums, which isolatedModules cannot read: mirror the values used.
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const END_OF_FILE = 17;
const UNEXPECTED_END_OF_COMMENT = 1;
const UNEXPECTED_END_OF_STRING = 2;

const WORD_CHARACTER = /[^\s{}[\],:"]/;

/** Reads the cursor's context from the text (never throws, whatever the text). */
export function completionCursor(text: string, offset: number): CompletionCursor {
  const location = getLocation(text, offset);
  const token = tokenAt(text, offset, location.previousNode);
  let replaceSpan: TextSpan;
  if (token) {
    replaceSpan = token.terminated ? token.span : { offset: token.span.offset, length: offset - token.span.offset };
  } else {
    let start = offset;
    while (start > 0 && WORD_CHARACTER.test(text[start - 1]!)) start--;
    let end = offset;
    while (end < text.length && WORD_CHARACTER.test(text[end]!)) end++;
    replaceSpan = { offset: start, length: end - start };
  }
  return { text, offset, path: location.path, atKey: location.isAtPropertyKey, token, replaceSpan };
}

function tokenAt(text: string, offset: number, node: ReturnType<typeof getLocation>['previousNode']): CursorToken | undefined {
  if (!node || offset < node.offset || offset > node.offset + node.length) return undefined;
  const kind = node.type === 'property' ? 'key' : 'value';
  const type = node.type === 'property' ? 'string' : node.type;
  if (type !== 'string' && type !== 'number' && type !== 'boolean' && type !== 'null') return undefined;
  let terminated = true;
  if (type === 'string') {
    const scanner = createScanner(text, true);
    scanner.setPosition(node.offset);
    scanner.scan();
    terminated = scanner.getTokenError() !== UNEXPECTED_END_OF_STRING;
  }
  return { kind, type, span: { offset: node.offset, length: node.length }, terminated };
}

/** The first character after `from` that is not whitespace (or a comment), or undefined at the end. */
export function nextSignificantCharacter(text: string, from: number): string | undefined {
  const scanner = createScanner(text, true);
  scanner.setPosition(from);
  const token = scanner.scan();
  return token === END_OF_FILE ? undefined : text[scanner.getTokenOffset()];
}

/** The last character before `before` that is not whitespace, or undefined at the start. */
export function previousSignificantCharacter(text: string, before: number): string | undefined {
  let index = before - 1;
  while (index >= 0 && /\s/.test(text[index]!)) index--;
  return index >= 0 ? text[index] : undefined;
}

/** "," when what follows the replaced text starts another value or property (the inserted one then needs a separator). */
export function trailingComma(cursor: CompletionCursor): string {
  const next = nextSignificantCharacter(cursor.text, spanEnd(cursor.replaceSpan));
  return next !== undefined && /["{[\-0-9tfn]/.test(next) ? ',' : '';
}

/** ", " when the previous value or property ends right before the replaced text without a comma (for keys and array items). */
export function leadingComma(cursor: CompletionCursor): string {
  const previous = previousSignificantCharacter(cursor.text, cursor.replaceSpan.offset);
  return previous !== undefined && /["}\]0-9el]/.test(previous) ? ', ' : '';
}

/** True when a colon follows the key token (the key already has a value: insert the key alone). */
export function keyHasColon(cursor: CompletionCursor): boolean {
  return cursor.token?.kind === 'key' && cursor.token.terminated && nextSignificantCharacter(cursor.text, spanEnd(cursor.token.span)) === ':';
}

/** Fields of an item; undefined ones are left out. */
export interface ItemFields {
  readonly label: string;
  readonly kind: PlanCompletionItem['kind'];
  readonly insertText: string;
  readonly isSnippet?: boolean | undefined;
  readonly detail?: string | undefined;
  readonly documentation?: string | undefined;
  readonly sortText?: string | undefined;
  /** The plain word the typed text is matched against (quoted when the replaced text starts with a quote, as the typed text then does). */
  readonly filterWord?: string | undefined;
  readonly preselect?: boolean | undefined;
  /** Defaults to the cursor's replaceSpan. */
  readonly replaceSpan?: TextSpan | undefined;
}

/** Builds an item that replaces the cursor's token or word. */
export function completionItem(cursor: CompletionCursor, fields: ItemFields): PlanCompletionItem {
  const replaceSpan = fields.replaceSpan ?? cursor.replaceSpan;
  const word = fields.filterWord ?? fields.label;
  const quoted = cursor.text[replaceSpan.offset] === '"' && replaceSpan.length > 0;
  const item: { -readonly [K in keyof PlanCompletionItem]: PlanCompletionItem[K] } = {
    label: fields.label,
    kind: fields.kind,
    insertText: fields.insertText,
    replaceSpan,
    filterText: quoted ? JSON.stringify(word) : word,
  };
  if (fields.isSnippet) item.isSnippet = true;
  if (fields.detail !== undefined) item.detail = fields.detail;
  if (fields.documentation !== undefined) item.documentation = fields.documentation;
  if (fields.sortText !== undefined) item.sortText = fields.sortText;
  if (fields.preselect) item.preselect = true;
  return item;
}

/** A sort key: a tier then a zero-padded position. */
export function sortKey(tier: number, position: number): string {
  return `${tier}_${String(position).padStart(4, '0')}`;
}

/** The tool object at `index` of the tools array: the current model's, else the last well-formed one's. */
export function toolAtIndex(request: CompletionRequest, index: number): PlanTool | undefined {
  return request.document.tools.find((tool) => tool.index === index) ?? request.lastWellFormed?.tools.find((tool) => tool.index === index);
}

/** A field of the tool at `index`, from the current model or, when it lacks it, the last well-formed one. */
export function toolField<T>(request: CompletionRequest, index: number, pick: (tool: PlanTool) => T | undefined): T | undefined {
  const current = request.document.tools.find((tool) => tool.index === index);
  const found = current ? pick(current) : undefined;
  if (found !== undefined) return found;
  const previous = request.lastWellFormed?.tools.find((tool) => tool.index === index);
  return previous ? pick(previous) : undefined;
}

/** True when the offset lies inside a comment (no completion there). */
export function isInComment(text: string, offset: number): boolean {
  const scanner = createScanner(text, false);
  for (let token = scanner.scan(); token !== END_OF_FILE; token = scanner.scan()) {
    const start = scanner.getTokenOffset();
    if (start >= offset) return false;
    if (token !== LINE_COMMENT && token !== BLOCK_COMMENT) continue;
    const end = start + scanner.getTokenLength();
    const closed = token === BLOCK_COMMENT && scanner.getTokenError() !== UNEXPECTED_END_OF_COMMENT;
    if (offset < end || (offset === end && !closed)) return true;
  }
  return false;
}

/** The property names of the object at `path` in the current parse, leaving out the key at `exceptOffset` (the one being typed). */
export function keysAt(document: PlanDocument, path: JSONPath, exceptOffset?: number): string[] {
  const node = document.tree ? findNodeAtLocation(document.tree, path) : undefined;
  if (node?.type !== 'object') return [];
  return (node.children ?? []).flatMap((property) => {
    const key = property.children?.[0];
    return key && key.offset !== exceptOffset ? [String(key.value)] : [];
  });
}
