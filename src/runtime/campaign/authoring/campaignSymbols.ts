// Where a campaign's JSON files name its beats and NPCs: every beat id and NPC name, definition or reference, with its literal's span and range. Pure.
import type { TextSpan } from '../../authoring/textSpan.js';
import type { SourceRange } from '../../validation/diagnostic.js';
import { pointerFromPath } from '../../validation/jsonLocator.js';
import type { BeatLink, Campaign, CampaignBeat, CampaignNpc } from '../campaignModel.js';
import { characterKey, NON_NPC_SPEAKERS } from '../folderLayout.js';
import { asRecord, readBeats } from '../modelReading.js';
import { npcNamed } from '../referenceChecks.js';
import { campaignJsonOf, rangeIn, stringAt, type CampaignJson } from './campaignJson.js';

/** Where a beat id or an NPC name stands. */
export type SymbolContext =
  | 'beatId'
  | 'requires_beat'
  | 'requires_any_beat'
  | 'triggers_beat'
  | 'fallback_beat'
  | 'npcName'
  | 'npc_state'
  | 'speaker'
  | 'relationships'
  | 'starting_relationships';

/** One beat id or NPC name in a campaign file. */
export interface SymbolOccurrence {
  readonly kind: 'beat' | 'npc';
  readonly context: SymbolContext;
  /** A beat's `id` or an NPC profile's `name`: where the symbol is defined. */
  readonly definition: boolean;
  /** The string's value, as written. */
  readonly written: string;
  /** A beat: its id. An NPC: the key of the NPC it names; undefined when no NPC with a profile answers to it. */
  readonly key: string | undefined;
  /** Campaign-relative file. */
  readonly file: string;
  readonly pointer: string;
  /** The string literal, quotes included. */
  readonly literal: TextSpan;
  /** Between the quotes: what a rename replaces. */
  readonly span: TextSpan;
  /** `span` as a 1-based range. */
  readonly range: SourceRange;
  /** In plot/beats.json: the index of the beat it is in. */
  readonly beatIndex?: number;
}

/** The beats and NPCs of a campaign as the editor sees them: read from the files' current text, tolerantly. */
export interface CampaignSymbols {
  readonly campaign: Campaign;
  /** The beats of plot/beats.json (read even while the file has a syntax error). */
  readonly beats: readonly CampaignBeat[];
  /** The NPCs, each with the `name` its profile says now. */
  readonly npcs: readonly CampaignNpc[];
  readonly occurrences: readonly SymbolOccurrence[];
  /** The parsed JSON of a campaign file (undefined for a file that is not JSON or was not read). */
  json(file: string): CampaignJson | undefined;
}

const LINK_CONTEXTS: Readonly<Record<BeatLink['kind'], SymbolContext>> = {
  requires: 'requires_beat',
  requiresAny: 'requires_any_beat',
  triggers: 'triggers_beat',
  fallback: 'fallback_beat',
};

/** The player template's lists of choices, each of which may have starting_relationships. */
export const PLAYER_OPTION_LISTS = ['allowed_races', 'allowed_classes', 'allowed_backgrounds'] as const;

const indexes = new WeakMap<Campaign, CampaignSymbols>();

/** Every beat id and NPC name of the campaign's JSON files (cached per loaded campaign). */
export function campaignSymbols(campaign: Campaign): CampaignSymbols {
  let found = indexes.get(campaign);
  if (!found) {
    found = buildSymbols(campaign);
    indexes.set(campaign, found);
  }
  return found;
}

function buildSymbols(campaign: Campaign): CampaignSymbols {
  const json = (file: string): CampaignJson | undefined => {
    const document = file.endsWith('.json') ? campaign.documents.get(file) : undefined;
    return document ? campaignJsonOf(document) : undefined;
  };
  const occurrences: SymbolOccurrence[] = [];
  const npcs = campaign.npcs.map((npc): CampaignNpc => {
    const profile = npc.profile ? json(npc.profile.path) : undefined;
    const name = asRecord(profile?.value)?.['name'];
    return typeof name === 'string' && name !== npc.name ? { ...npc, name } : npc;
  });
  const add = (
    source: CampaignJson,
    pointer: string,
    target: 'value' | 'key',
    base: Omit<SymbolOccurrence, 'written' | 'file' | 'pointer' | 'literal' | 'span' | 'range' | 'key'>,
    key?: string,
  ) => {
    const literal = stringAt(source, pointer, target);
    if (!literal) return;
    const resolved = base.kind === 'beat' ? literal.value : (key ?? npcNamed(npcs, literal.value)?.key);
    occurrences.push({
      ...base,
      written: literal.value,
      key: resolved,
      file: source.file,
      pointer,
      literal: literal.literal,
      span: literal.content,
      range: rangeIn(source, literal.content),
    });
  };

  const beatsFile = campaign.beats?.file;
  const beatsJson = beatsFile ? json(beatsFile.path) : undefined;
  const beats = beatsFile && beatsJson ? readBeats(beatsFile, beatsJson.value).beats : [];
  for (const beat of beats) {
    const inBeat = { beatIndex: beat.index };
    if (beat.id !== undefined) add(beatsJson!, beat.idAt.pointer, 'value', { kind: 'beat', context: 'beatId', definition: true, ...inBeat });
    for (const link of beat.links) add(beatsJson!, link.at.pointer, 'value', { kind: 'beat', context: LINK_CONTEXTS[link.kind], definition: false, ...inBeat });
    for (const mention of beat.npcMentions) {
      if (mention.kind === 'dialogue' && NON_NPC_SPEAKERS.has(characterKey(mention.name))) continue;
      const context = mention.kind === 'npcState' ? 'npc_state' : 'speaker';
      add(beatsJson!, mention.at.pointer, mention.at.target ?? 'value', { kind: 'npc', context, definition: false, ...inBeat });
    }
  }

  for (const npc of npcs) {
    const profile = npc.profile ? json(npc.profile.path) : undefined;
    if (!profile) continue;
    add(profile, '/name', 'value', { kind: 'npc', context: 'npcName', definition: true }, npc.key);
    for (const name of Object.keys(asRecord(asRecord(profile.value)?.['relationships']) ?? {})) {
      add(profile, pointerFromPath(['relationships', name]), 'key', { kind: 'npc', context: 'relationships', definition: false });
    }
  }

  const player = campaign.player ? json(campaign.player.path) : undefined;
  const template = asRecord(player?.value);
  for (const list of PLAYER_OPTION_LISTS) {
    const options = template?.[list];
    if (!player || !Array.isArray(options)) continue;
    options.forEach((option, position) => {
      for (const name of Object.keys(asRecord(asRecord(option)?.['starting_relationships']) ?? {})) {
        const pointer = pointerFromPath([list, position, 'starting_relationships', name]);
        add(player, pointer, 'key', { kind: 'npc', context: 'starting_relationships', definition: false });
      }
    });
  }
  return { campaign, beats, npcs, occurrences, json };
}

/** The occurrence whose literal holds `offset` (a cursor just after the closing quote still touches it). */
export function occurrenceAt(symbols: CampaignSymbols, file: string, offset: number): SymbolOccurrence | undefined {
  return symbols.occurrences.find(
    (occurrence) => occurrence.file === file && offset >= occurrence.literal.offset && offset <= occurrence.literal.offset + occurrence.literal.length,
  );
}

/** The first beat of each id: what a link to that id means. */
export function firstBeatOf(symbols: CampaignSymbols, id: string): CampaignBeat | undefined {
  return symbols.beats.find((beat) => beat.id === id);
}

/** The NPC of a key. */
export function npcOf(symbols: CampaignSymbols, key: string): CampaignNpc | undefined {
  return symbols.npcs.find((npc) => npc.key === key);
}

/** Every occurrence of the same symbol: a beat's id, or an NPC's key. */
export function occurrencesOf(symbols: CampaignSymbols, kind: SymbolOccurrence['kind'], key: string): SymbolOccurrence[] {
  return symbols.occurrences.filter((occurrence) => occurrence.kind === kind && occurrence.key === key);
}
