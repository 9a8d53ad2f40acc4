// A campaign JSON file's text read tolerantly for editing: its syntax tree, its value even while the author is mid-edit, and string literals at JSON pointers. Pure.
import { getNodeValue } from 'jsonc-parser';
import { LineIndex, stringContentSpan, type TextSpan } from '../../authoring/textSpan.js';
import type { SourceRange } from '../../validation/diagnostic.js';
import { parseJsonDocument, type JsonDocument } from '../../validation/jsonLocator.js';
import type { CampaignDocument } from '../campaignModel.js';

/** A campaign file's JSON, parsed once per text. */
export interface CampaignJson {
  readonly file: string;
  readonly text: string;
  readonly json: JsonDocument;
  /** The value; while the text has syntax errors, what the tolerant parser makes of it. */
  readonly value: unknown;
  readonly lines: LineIndex;
}

/** A JSON string literal found at a pointer: its text with and without the quotes. */
export interface StringLiteral {
  /** The string's value. */
  readonly value: string;
  /** The literal, quotes included. */
  readonly literal: TextSpan;
  /** Its content, between the quotes. */
  readonly content: TextSpan;
}

const parsed = new WeakMap<CampaignDocument, CampaignJson>();

/** The JSON of a campaign document (cached per document). */
export function campaignJsonOf(document: CampaignDocument): CampaignJson {
  let found = parsed.get(document);
  if (!found) {
    found = campaignJson(document.file, document.text);
    parsed.set(document, found);
  }
  return found;
}

/** Parses a campaign file's text, tolerating the syntax errors of a file being written. */
export function campaignJson(file: string, text: string): CampaignJson {
  const json = parseJsonDocument(text);
  const value = json.value !== undefined || json.syntaxProblems.length === 0 ? json.value : json.root ? (getNodeValue(json.root) as unknown) : undefined;
  return { file, text, json, value, lines: new LineIndex(text) };
}

/** The string literal at `pointer` (its property key when `target` is 'key'); undefined when it is no string. */
export function stringAt(json: CampaignJson, pointer: string, target: 'value' | 'key' = 'value'): StringLiteral | undefined {
  let node = json.json.nodeAtPointer(pointer);
  if (node && target === 'key') node = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
  if (!node || node.type !== 'string' || typeof node.value !== 'string') return undefined;
  const literal = { offset: node.offset, length: node.length };
  return { value: node.value, literal, content: stringContentSpan(literal) };
}

/** The 1-based range of a span of the file. */
export function rangeIn(json: CampaignJson, span: TextSpan): SourceRange {
  return json.lines.rangeOf(span);
}

/** The span of the whole value at `pointer` (an object, a beat), or undefined. */
export function valueSpanAt(json: CampaignJson, pointer: string): TextSpan | undefined {
  const node = json.json.nodeAtPointer(pointer);
  return node ? { offset: node.offset, length: node.length } : undefined;
}
