// What quick fixes are made of: proposals of operations, and their text edits (removal of entries with their commas, property insertion in the document's style). Pure.
import type { Node } from 'jsonc-parser';
import type { SkillCatalog } from '../skills/skillCatalog.js';
import type { PlanDocument, PlanTool } from './planDocument.js';
import { spanEnd, type TextEdit, type TextSpan } from './textSpan.js';

/** The kinds of fix that a fix-all applies to every diagnostic of the file at once. */
export type FixAllGroup =
  | 'replaceUnknownDependencies'
  | 'removeUnknownDependencies'
  | 'removeSelfDependencies'
  | 'clampRetryPolicies'
  | 'renameUnknownInputProperties';

/** A fix before it becomes a code action: its operations are turned into edits alone or merged in a fix-all. */
export interface FixProposal {
  readonly title: string;
  readonly operations: readonly FixOperation[];
  readonly isPreferred?: boolean;
  readonly fixAllGroup?: FixAllGroup;
}

/** What every fix builder gets. */
export interface FixContext {
  readonly document: PlanDocument;
  readonly catalog: SkillCatalog;
  readonly newUuid: () => string;
}

/** The tool a pointer's segments start with (`/tools/<index>/…`). */
export function toolOfSegments(document: PlanDocument, segments: readonly string[]): PlanTool | undefined {
  if (segments[0] !== 'tools' || !/^(0|[1-9]\d*)$/.test(segments[1] ?? '')) return undefined;
  const index = Number(segments[1]);
  return document.tools.find((tool) => tool.index === index);
}

/** The members of one JSON array or object: element spans, or property spans from key to value. */
export interface MemberList {
  /** Identifies the list (its JSON pointer): removals from one list are merged. */
  readonly key: string;
  /** The whole array or object, brackets included. */
  readonly span: TextSpan;
  readonly members: readonly TextSpan[];
}

/** One change a quick fix makes; removals are kept abstract so that a fix-all can merge those of one list. */
export type FixOperation =
  | { readonly kind: 'replace'; readonly span: TextSpan; readonly newText: string }
  | { readonly kind: 'removeMember'; readonly list: MemberList; readonly index: number };

/**
 * The edits of a set of operations: removals from one list are merged (so neighbouring entries
 * lose their commas correctly), and an edit overlapping an earlier one is dropped.
 */
export function editsOfOperations(text: string, operations: readonly FixOperation[]): TextEdit[] {
  const edits: TextEdit[] = [];
  const removals = new Map<string, { list: MemberList; indices: Set<number> }>();
  for (const operation of operations) {
    if (operation.kind === 'replace') {
      edits.push({ offset: operation.span.offset, length: operation.span.length, newText: operation.newText });
      continue;
    }
    const entry = removals.get(operation.list.key) ?? { list: operation.list, indices: new Set<number>() };
    entry.indices.add(operation.index);
    removals.set(operation.list.key, entry);
  }
  for (const { list, indices } of removals.values()) edits.push(...removeMembersEdits(text, list, indices));
  return withoutOverlaps(edits);
}

/**
 * Removes members of a list with their separators, keeping the layout of the others: a run of
 * removed members followed by a kept one goes with everything up to that one; a run at the end goes
 * with the comma before it (and a trailing comma after it). Removing every member leaves `[]` or `{}`.
 */
export function removeMembersEdits(text: string, list: MemberList, indices: ReadonlySet<number>): TextEdit[] {
  const { members } = list;
  const removed = (index: number): boolean => indices.has(index);
  if (members.length > 0 && members.every((_, index) => removed(index))) {
    const inner = { offset: list.span.offset + 1, length: Math.max(0, list.span.length - 2) };
    return [{ ...inner, newText: '' }];
  }
  const edits: TextEdit[] = [];
  for (let first = 0; first < members.length; first++) {
    if (!removed(first)) continue;
    let last = first;
    while (last + 1 < members.length && removed(last + 1)) last++;
    if (last + 1 < members.length) {
      const start = members[first]!.offset;
      edits.push({ offset: start, length: members[last + 1]!.offset - start, newText: '' });
    } else {
      const start = spanEnd(members[first - 1]!);
      edits.push({ offset: start, length: endWithTrailingComma(text, spanEnd(members[last]!)) - start, newText: '' });
    }
    first = last;
  }
  return edits;
}

/**
 * The edit inserting `"name": <value>` as the first property of an object, in the style of the
 * object's first property (its line break and indentation, or its spacing, and its colon).
 */
export function insertFirstPropertyEdit(text: string, object: Node, name: string, valueText: string): TextEdit {
  const first = object.children?.[0];
  const key = first?.children?.[0];
  if (!first || !key) {
    const inner = text.slice(object.offset + 1, object.offset + object.length - 1);
    const property = `${JSON.stringify(name)}: ${valueText}`;
    const offset = object.offset + 1;
    if (inner.trim() !== '') return { offset, length: 0, newText: ` ${property}` };
    const newText = inner.includes('\n')
      ? `${lineBreakOf(text)}${indentUnitOf(text)}${property}${lineBreakOf(text)}${closingIndent(text, object)}`
      : ` ${property} `;
    return { offset, length: inner.length, newText };
  }
  const value = first.children?.[1];
  const colonText = value ? text.slice(spanEnd(key), value.offset) : '';
  const colon = /^[ \t]*:[ \t]*$/.test(colonText) ? colonText : ': ';
  let start = key.offset;
  while (start > object.offset + 1 && /\s/.test(text[start - 1]!)) start--;
  const before = text.slice(start, key.offset);
  const newline = before.lastIndexOf('\n');
  const separator = newline < 0 ? before : `${before[newline - 1] === '\r' ? '\r\n' : '\n'}${before.slice(newline + 1)}`;
  return { offset: key.offset, length: 0, newText: `${JSON.stringify(name)}${colon}${valueText},${separator}` };
}

/** The indentation unit of a text: the first indented line's leading whitespace when it is a tab, else the smallest space indent (2 by default). */
export function indentUnitOf(text: string): string {
  let smallest: number | undefined;
  for (const match of text.matchAll(/\n([ \t]+)\S/g)) {
    const indent = match[1]!;
    if (indent.startsWith('\t')) return '\t';
    if (smallest === undefined || indent.length < smallest) smallest = indent.length;
  }
  return ' '.repeat(smallest ?? 2);
}

/** The line break a text uses (`\n` unless its first one is `\r\n`). */
export function lineBreakOf(text: string): string {
  const newline = text.indexOf('\n');
  return newline > 0 && text[newline - 1] === '\r' ? '\r\n' : '\n';
}

/** The indentation of the line holding a node's closing bracket. */
function closingIndent(text: string, node: Node): string {
  const close = node.offset + node.length - 1;
  const lineStart = text.lastIndexOf('\n', close - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, close))![0];
}

/** After `end`, past blanks, a comma that only a closing bracket follows: the end moves past it. */
function endWithTrailingComma(text: string, end: number): number {
  const match = /^\s*,(?=\s*[\]}])/.exec(text.slice(end));
  return match ? end + match[0].length : end;
}

/** The edits in document order, leaving out any that overlaps one kept before it. */
function withoutOverlaps(edits: readonly TextEdit[]): TextEdit[] {
  const sorted = [...edits].sort((left, right) => left.offset - right.offset || left.length - right.length);
  const kept: TextEdit[] = [];
  let reached = -1;
  for (const edit of sorted) {
    const end = edit.offset + edit.length;
    const last = kept[kept.length - 1];
    // An edit may start where the previous one ends, but not inside it, nor at an insertion point already used.
    const overlaps = last !== undefined && (edit.offset < reached || (edit.offset === last.offset && last.length === 0));
    if (overlaps) continue;
    kept.push(edit);
    reached = Math.max(reached, end);
  }
  return kept;
}
