// Rename a beat id or an NPC across a campaign: the text edits (and the NPC folder's new name), or why the new name is refused. Pure.
import type { TextSpan } from '../../authoring/textSpan.js';
import { contractSchemas } from '../../contracts/schemas.js';
import type { SourceRange } from '../../validation/diagnostic.js';
import type { Campaign, CampaignNpc } from '../campaignModel.js';
import { characterKey } from '../folderLayout.js';
import { npcNames } from '../referenceChecks.js';
import { stringAt } from './campaignJson.js';
import { campaignSymbols, firstBeatOf, npcOf, occurrenceAt, occurrencesOf, type CampaignSymbols, type SymbolOccurrence } from './campaignSymbols.js';

/** A beat id, as contracts/campaign/beats.schema.json says (`#/$defs/beatId`). */
export const BEAT_ID_PATTERN = new RegExp(contractSchemas['campaign/beats.schema.json'].$defs.beatId.pattern);

/** The longest NPC name the profile contract allows. */
const MAX_NAME_LENGTH = contractSchemas['campaign/npc-profile.schema.json'].properties.name.maxLength;

/** Replace a span of a campaign file. */
export interface CampaignTextEdit {
  readonly file: string;
  readonly span: TextSpan;
  readonly range: SourceRange;
  readonly newText: string;
}

/** A campaign folder or file moved (campaign-relative paths). */
export interface CampaignFileRename {
  readonly from: string;
  readonly to: string;
}

export type CampaignRename =
  | { readonly ok: true; readonly edits: readonly CampaignTextEdit[]; readonly renames: readonly CampaignFileRename[] }
  | { readonly ok: false; readonly reason: string };

export type CampaignPrepareRename =
  | { readonly ok: true; readonly span: TextSpan; readonly range: SourceRange; readonly placeholder: string }
  | { readonly ok: false; readonly reason: string };

/** Whether the symbol at `offset` can be renamed: the text a rename replaces and the name to start from (an NPC's profile name). */
export function prepareRenameAt(campaign: Campaign, file: string, offset: number): CampaignPrepareRename {
  const symbols = campaignSymbols(campaign);
  const occurrence = occurrenceAt(symbols, file, offset);
  if (!occurrence) return { ok: false, reason: 'Only a beat id or an NPC name can be renamed here.' };
  const refused = unknownSymbol(symbols, occurrence);
  if (refused) return { ok: false, reason: refused };
  const placeholder = occurrence.kind === 'npc' ? (npcOf(symbols, occurrence.key!)?.name ?? occurrence.written) : occurrence.written;
  return { ok: true, span: occurrence.span, range: occurrence.range, placeholder };
}

/** The edits renaming the beat id or NPC at `offset` of `file` to `newName`, or why the name is refused. */
export function renameAt(campaign: Campaign, file: string, offset: number, newName: string): CampaignRename {
  const symbols = campaignSymbols(campaign);
  const occurrence = occurrenceAt(symbols, file, offset);
  if (!occurrence) return { ok: false, reason: 'Only a beat id or an NPC name can be renamed here.' };
  const refused = unknownSymbol(symbols, occurrence);
  if (refused) return { ok: false, reason: refused };
  return occurrence.kind === 'beat' ? renameBeat(symbols, occurrence, newName.trim()) : renameNpc(symbols, npcOf(symbols, occurrence.key!)!, newName);
}

function unknownSymbol(symbols: CampaignSymbols, occurrence: SymbolOccurrence): string | undefined {
  if (occurrence.kind === 'beat') {
    return firstBeatOf(symbols, occurrence.written) ? undefined : `No beat has the id "${occurrence.written}": there is nothing to rename.`;
  }
  const npc = occurrence.key === undefined ? undefined : npcOf(symbols, occurrence.key);
  if (!npc) return `"${occurrence.written}" names no NPC with a profile in characters/npcs/: there is nothing to rename.`;
  if (npc.name === undefined) return `The profile of ${npc.key} (${npc.profile!.path}) has no "name" yet: write one, then rename it.`;
  return undefined;
}

function renameBeat(symbols: CampaignSymbols, occurrence: SymbolOccurrence, newId: string): CampaignRename {
  const oldId = occurrence.written;
  if (newId === oldId) return { ok: true, edits: [], renames: [] };
  if (!BEAT_ID_PATTERN.test(newId)) return { ok: false, reason: `"${newId}" is not a beat id: write beat_ and at least three digits, e.g. beat_007.` };
  const taken = firstBeatOf(symbols, newId);
  if (taken) return { ok: false, reason: `${newId} is already the id of beat ${taken.index + 1} ("${taken.title ?? ''}"); choose another id.` };
  const first = firstBeatOf(symbols, oldId)!;
  // A second beat with a taken id: renaming it fixes the duplicate; the links keep naming the first beat.
  const duplicate = occurrence.definition && occurrence.beatIndex !== first.index;
  const renamed = duplicate
    ? [occurrence]
    : occurrencesOf(symbols, 'beat', oldId).filter((candidate) => !candidate.definition || candidate.beatIndex === first.index);
  return { ok: true, edits: renamed.map((candidate) => ({ file: candidate.file, span: candidate.span, range: candidate.range, newText: newId })), renames: [] };
}

/** How a name is written: in full, or as the first or last word of the full name; `other` is a name of its own (a folder name). */
type NameForm = 'full' | 'first' | 'last' | 'other';

/** A name's forms: the full name and, for a name of several words, its first and last. */
interface NameForms {
  readonly full: string;
  readonly first: string | undefined;
  readonly last: string | undefined;
}

function renameNpc(symbols: CampaignSymbols, npc: CampaignNpc, typed: string): CampaignRename {
  const newName = typed.trim();
  const oldName = npc.name!;
  if (newName === oldName) return { ok: true, edits: [], renames: [] };
  if (characterKey(newName) === '') return { ok: false, reason: `"${typed}" is not a name: write at least a letter or a digit.` };
  if (newName.length > MAX_NAME_LENGTH) return { ok: false, reason: `A name has at most ${MAX_NAME_LENGTH} characters.` };
  if (/[\u0000-\u001f\u007f]/.test(newName)) return { ok: false, reason: 'A name cannot hold a line break or another control character.' };
  const oldForms = keyForms(oldName);
  const newForms = typedForms(newName);
  const formOf = (written: string): NameForm => {
    const key = characterKey(written);
    if (key === oldForms.full) return 'full';
    if (key === oldForms.first) return 'first';
    if (key === oldForms.last) return 'last';
    return 'other';
  };
  const restyle = (written: string, form: Exclude<NameForm, 'other'>): string => {
    const replacement = newForms[form] ?? newForms.full;
    return written === characterKey(written) ? characterKey(replacement) : replacement;
  };

  const edits: CampaignTextEdit[] = [];
  const written = new Set([characterKey(newName)]);
  for (const occurrence of occurrencesOf(symbols, 'npc', npc.key)) {
    const form = occurrence.definition ? 'full' : formOf(occurrence.written);
    if (form === 'other') continue;
    const text = occurrence.definition ? newName : restyle(occurrence.written, form);
    written.add(characterKey(text));
    if (text !== occurrence.written) edits.push(edit(occurrence, text));
  }

  // A folder named after the character (characters/npcs/tamsin/ for "Tamsin Reed") follows the name.
  const renames: CampaignFileRename[] = [];
  const folderForm = npc.profile!.path.split('/').length === 4 ? formOf(npc.key) : 'other';
  const newKey = folderForm === 'other' ? npc.key : restyle(npc.key, folderForm);
  written.add(characterKey(newKey));
  for (const other of symbols.npcs) {
    if (other.key === npc.key || !other.profile) continue;
    const clash = npcNames(other).find((name) => written.has(name));
    if (clash) {
      const who = other.name ?? other.key;
      return { ok: false, reason: `"${clash}" already names ${who} (${other.profile.path}); choose a name no other NPC answers to.` };
    }
  }
  if (newKey !== npc.key) {
    const to = `characters/npcs/${newKey}`;
    if (symbols.campaign.files.some((file) => file.path.toLowerCase().startsWith(`${to.toLowerCase()}/`))) {
      return { ok: false, reason: `${to}/ already exists: the NPC's folder cannot take that name.` };
    }
    renames.push({ from: npc.folder, to });
    edits.push(...pathEdits(symbols, npc.folder, to));
  }
  return { ok: true, edits, renames };
}

/** The key forms of a name, as npcNames() matches them. */
function keyForms(name: string): NameForms {
  const full = characterKey(name);
  const words = full.split('_').filter((word) => word.length > 2);
  return words.length > 1 ? { full, first: words[0], last: words.at(-1) } : { full, first: undefined, last: undefined };
}

/** The forms of a name as typed (the case kept). */
function typedForms(name: string): NameForms {
  const words = name.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 2);
  return words.length > 1 ? { full: name, first: words[0], last: words.at(-1) } : { full: name, first: undefined, last: undefined };
}

function edit(occurrence: SymbolOccurrence, text: string): CampaignTextEdit {
  return { file: occurrence.file, span: occurrence.span, range: occurrence.range, newText: jsonContent(text) };
}

/** Paths written from the campaign's root (portrait, voice, music, background) that lead into a moved folder. */
function pathEdits(symbols: CampaignSymbols, from: string, to: string): CampaignTextEdit[] {
  const links = [...symbols.npcs.flatMap((npc) => npc.paths), ...symbols.beats.flatMap((beat) => beat.paths)];
  const edits: CampaignTextEdit[] = [];
  for (const link of links) {
    if (link.kind === 'secrets' || !link.target.startsWith(`${from}/`) || link.written.replace(/\\/g, '/') !== link.target) continue;
    const json = symbols.json(link.at.file);
    const literal = json && stringAt(json, link.at.pointer);
    if (!json || !literal) continue;
    const newText = jsonContent(`${to}${link.target.slice(from.length)}`);
    edits.push({ file: link.at.file, span: literal.content, range: json.lines.rangeOf(literal.content), newText });
  }
  return edits;
}

/** Text as it goes between a JSON string's quotes. */
function jsonContent(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
