// Reads plot/beats.json from its text (an editor's unsaved text too): the beats with their links, each beat's range, and why a text does not parse. Pure.
import type { SourceRange } from '../../validation/diagnostic.js';
import { readJsonFile } from '../campaignDocuments.js';
import type { CampaignBeat, CampaignBeats, CampaignDocument } from '../campaignModel.js';
import { asRecord, readBeats } from '../modelReading.js';

/** Where a campaign keeps its beats. */
export const BEATS_FILE = 'plot/beats.json';

/** A beats text as read: the beats (undefined while the text does not parse) and the ranges of their parts. */
export interface BeatsText {
  readonly beats: CampaignBeats | undefined;
  /** Each beat's `conditions` object as written (by position in the array), for views that show it. */
  readonly conditions: readonly (Readonly<Record<string, unknown>> | undefined)[];
  readonly document: CampaignDocument;
  /** Why the text does not parse ("line 4, column 7: ..."); undefined when it does. */
  readonly syntaxError: string | undefined;
}

/** Reads a beats.json text; never throws. A text that parses but breaks the schema still gives what it has. */
export function readBeatsText(text: string, file = BEATS_FILE): BeatsText {
  const read = readJsonFile(file, text, undefined);
  const syntax = read.drafts.find((draft) => draft.code === 'JSON_SYNTAX');
  if (read.value === undefined) {
    const where = syntax?.range ? `line ${syntax.range.start.line}, column ${syntax.range.start.column}: ` : '';
    return { beats: undefined, conditions: [], document: read.document, syntaxError: `${where}${syntax?.message ?? 'the text is not JSON'}` };
  }
  const beats = readBeats({ path: file, size: text.length, role: 'beats', generatedName: false }, read.value);
  const list = asRecord(read.value)?.['beats'];
  const conditions = Array.isArray(list) ? list.map((item) => asRecord(asRecord(item)?.['conditions'])) : [];
  return { beats, conditions, document: read.document, syntaxError: undefined };
}

/** The range of a whole beat object in its file. */
export function beatRange(document: CampaignDocument, beat: CampaignBeat): SourceRange | undefined {
  return document.rangeOf(beat.at.pointer);
}

/** The range of a beat's id value (where a click on its node lands), else of the beat. */
export function beatIdRange(document: CampaignDocument, beat: CampaignBeat): SourceRange | undefined {
  return beat.id !== undefined ? (document.rangeOf(beat.idAt.pointer) ?? beatRange(document, beat)) : beatRange(document, beat);
}

/** The first beat with `id`. */
export function beatWithId(beats: CampaignBeats | undefined, id: string): CampaignBeat | undefined {
  return beats?.beats.find((beat) => beat.id === id);
}

/** The beat whose object holds the 1-based `line` and `column`, if any. */
export function beatAt(beats: CampaignBeats | undefined, document: CampaignDocument, line: number, column: number): CampaignBeat | undefined {
  return beats?.beats.find((beat) => {
    const range = beatRange(document, beat);
    if (!range) return false;
    const after = line > range.start.line || (line === range.start.line && column >= range.start.column);
    const before = line < range.end.line || (line === range.end.line && column <= range.end.column);
    return after && before;
  });
}
