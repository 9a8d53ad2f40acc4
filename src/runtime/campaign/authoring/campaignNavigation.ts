// Go to definition and find references for beat ids and NPC names across a campaign's files. Pure: queries over the campaign's symbols.
import type { TextSpan } from '../../authoring/textSpan.js';
import type { SourceRange } from '../../validation/diagnostic.js';
import { campaignSymbols, firstBeatOf, npcOf, occurrenceAt, occurrencesOf, type CampaignSymbols, type SymbolOccurrence } from './campaignSymbols.js';
import { rangeIn, valueSpanAt } from './campaignJson.js';
import type { Campaign } from '../campaignModel.js';

/** A place in a campaign file a query leads to. */
export interface CampaignTarget {
  /** Campaign-relative file. */
  readonly file: string;
  /** What to select: a beat's id, an NPC's name (between the quotes). */
  readonly range: SourceRange;
  /** The whole definition (the beat object, the profile), for peek views; defaults to `range`. */
  readonly fullRange?: SourceRange;
}

/** The definition the symbol under the cursor leads to, and the literal the cursor is on. */
export interface CampaignDefinition {
  readonly origin: TextSpan;
  readonly targets: readonly CampaignTarget[];
}

/** The definition of the beat id or NPC name at `offset` of `file`: a beat's `id` (the first beat with it), an NPC profile's `name`. */
export function definitionAt(campaign: Campaign, file: string, offset: number): CampaignDefinition | undefined {
  const symbols = campaignSymbols(campaign);
  const occurrence = occurrenceAt(symbols, file, offset);
  if (!occurrence || occurrence.key === undefined) return undefined;
  const target = definitionOf(symbols, occurrence);
  return target ? { origin: occurrence.literal, targets: [target] } : undefined;
}

/** Where a symbol is defined. */
export function definitionOf(symbols: CampaignSymbols, occurrence: SymbolOccurrence): CampaignTarget | undefined {
  if (occurrence.key === undefined) return undefined;
  if (occurrence.kind === 'beat') {
    const beat = firstBeatOf(symbols, occurrence.key);
    const id = beat && symbols.occurrences.find((candidate) => candidate.context === 'beatId' && candidate.beatIndex === beat.index);
    if (!beat || !id) return undefined;
    const json = symbols.json(id.file)!;
    const whole = valueSpanAt(json, beat.at.pointer);
    return { file: id.file, range: id.range, ...(whole ? { fullRange: rangeIn(json, whole) } : {}) };
  }
  const npc = npcOf(symbols, occurrence.key);
  if (!npc?.profile) return undefined;
  const name = symbols.occurrences.find((candidate) => candidate.context === 'npcName' && candidate.key === npc.key);
  const json = symbols.json(npc.profile.path);
  const whole = json ? valueSpanAt(json, '') : undefined;
  const fullRange = json && whole ? rangeIn(json, whole) : undefined;
  if (name) return { file: name.file, range: name.range, ...(fullRange ? { fullRange } : {}) };
  // A profile without a name (or that does not parse): its start.
  return { file: npc.profile.path, range: { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } } };
}

/** Every place naming the symbol at `offset` of `file` (its definitions when `includeDeclaration`), by file then position. */
export function referencesAt(campaign: Campaign, file: string, offset: number, options: { readonly includeDeclaration: boolean }): CampaignTarget[] {
  const symbols = campaignSymbols(campaign);
  const occurrence = occurrenceAt(symbols, file, offset);
  if (!occurrence || occurrence.key === undefined) return [];
  return occurrencesOf(symbols, occurrence.kind, occurrence.key)
    .filter((candidate) => options.includeDeclaration || !candidate.definition)
    .sort(byPlace)
    .map((candidate) => ({ file: candidate.file, range: candidate.range }));
}

/** Orders occurrences by file, then offset. */
export function byPlace(left: SymbolOccurrence, right: SymbolOccurrence): number {
  if (left.file !== right.file) return left.file < right.file ? -1 : 1;
  return left.span.offset - right.span.offset;
}
