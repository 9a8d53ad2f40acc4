// What play reads of a loaded campaign: premise, setting, constraints, beats and their conditions, NPC profiles, endings, rules and lore chunks. Pure over the model.
import * as path from 'node:path';
import type { Campaign, CampaignBeat, CampaignNpc } from '../campaignModel.js';
import type { LoreChunk } from '../lore/loreTypes.js';
import { asRecord } from '../modelReading.js';
import { parseRules, type Ruleset } from './rules.js';
import { clip, firstHeading, listItems, nameKey, plainInline, plainParagraphs } from './storyText.js';

/** How a beat's priority ranks: critical first (FR-021 of spec 008: the highest priority triggers first). */
export const PRIORITY_RANK: Readonly<Record<CampaignBeat['priority'], number>> = { critical: 0, high: 1, medium: 2, low: 3, optional: 4 };

export interface BeatOutcome {
  readonly description: string;
  readonly triggersBeat?: string;
  readonly probability?: number;
}

export interface BeatLine {
  readonly speaker: string;
  readonly line: string;
  readonly context?: string;
}

/** A beat as play runs it: its conditions as written, its timeout, outcomes, lines and staging. */
export interface StoryBeat {
  readonly id: string;
  readonly index: number;
  readonly title: string;
  readonly description: string;
  readonly priority: CampaignBeat['priority'];
  /** The beat's `conditions` object as written ({} when none). */
  readonly conditions: Readonly<Record<string, unknown>>;
  readonly timeout?: { readonly scenes: number; readonly fallback?: string };
  readonly outcomes: readonly BeatOutcome[];
  readonly dialogue: readonly BeatLine[];
  readonly consequences: readonly string[];
  readonly location?: string;
  readonly mood?: string;
  readonly skippable: boolean;
}

/** An NPC as play voices it. */
export interface StoryNpc {
  /** The profile's folder name (what beats' npc_state keys name first). */
  readonly key: string;
  readonly name: string;
  readonly role: string;
  readonly traits: readonly string[];
  readonly style?: string;
  /** Speech-pattern phrases: catchphrases first, then examples. */
  readonly phrases: readonly string[];
  /** Other characters by name (as written) -> how this NPC sees them. */
  readonly relationships: Readonly<Record<string, string>>;
  readonly motivations: readonly string[];
  readonly firstAppearance?: string;
  /** The profile's `faction` (a Narratoria extension of the profile: it seeds the reputation skill). */
  readonly faction?: string;
  /** Words that name the NPC: the folder name, the full name, each part of it longer than two letters but "the", "brother"... */
  readonly aliases: readonly string[];
}

/** An ending of plot/endings/: its name (the file's stem), title, telling, the beats it names and when it is reached. */
export interface StoryEnding {
  readonly id: string;
  readonly file: string;
  readonly title: string;
  /** Its first paragraph: what the narration tells when it is reached. */
  readonly telling: string;
  /** The beat ids its text names: the ending is in reach once they are all done. */
  readonly beats: readonly string[];
  /** The "Reached when" paragraph without its label, when the file has one. */
  readonly reachedWhen?: string;
}

/** The campaign as play sees it. */
export interface StoryCampaign {
  readonly folder: string;
  readonly title: string;
  readonly premise: readonly string[];
  readonly setting: readonly string[];
  readonly constraints: readonly string[];
  readonly beats: readonly StoryBeat[];
  readonly npcs: readonly StoryNpc[];
  readonly endings: readonly StoryEnding[];
  readonly rules: Ruleset;
  readonly player: { readonly items: readonly string[]; readonly location?: string };
  readonly lore: readonly LoreChunk[];
}

/** Titles and honorifics that do not name a person on their own. */
const NOT_ALIASES = new Set(['the', 'brother', 'sister', 'father', 'mother', 'captain', 'keeper', 'lord', 'lady', 'sir', 'master', 'old', 'young', 'saint']);

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value.trim()];
  return Array.isArray(value) ? value.flatMap((item) => (typeof item === 'string' && item.trim() !== '' ? [item.trim()] : [])) : [];
}

/** Reads play's view of a loaded campaign and its chunked lore. */
export function storyCampaignOf(campaign: Campaign, lore: readonly LoreChunk[]): StoryCampaign {
  const text = (file: { path: string } | undefined): string => (file ? (campaign.documents.get(file.path)?.text ?? '') : '');
  const json = (file: { path: string } | undefined): Record<string, unknown> | undefined => {
    try {
      return asRecord(JSON.parse(text(file))) as Record<string, unknown> | undefined;
    } catch {
      return undefined;
    }
  };
  const beatsValue = json(campaign.beats?.file);
  const rawBeats = Array.isArray(beatsValue?.['beats']) ? (beatsValue['beats'] as unknown[]) : [];
  const beats = (campaign.beats?.beats ?? []).flatMap((beat) => {
    const raw = asRecord(rawBeats[beat.index]);
    return beat.id && raw ? [storyBeat(beat, raw)] : [];
  });
  const player = json(campaign.player);
  const constraints = listItems(text(campaign.world.constraints));
  return {
    folder: campaign.folder,
    title: campaign.manifest?.title ?? path.basename(campaign.folder),
    premise: plainParagraphs(text(campaign.premise)),
    setting: plainParagraphs(text(campaign.world.setting)),
    constraints: constraints.length > 0 ? constraints : plainParagraphs(text(campaign.world.constraints)),
    beats,
    npcs: campaign.npcs.flatMap((npc) => (npc.data && npc.name ? [storyNpc(npc, npc.data)] : [])),
    endings: campaign.endings.map((file) => storyEnding(file.path, text(file))),
    rules: parseRules(text(campaign.world.rules)),
    player: {
      items: stringsOf(player?.['starting_items']),
      ...(stringOf(player?.['starting_location']) ? { location: stringOf(player?.['starting_location'])! } : {}),
    },
    lore,
  };
}

function storyBeat(beat: CampaignBeat, raw: Readonly<Record<string, unknown>>): StoryBeat {
  const timeout = asRecord(raw['timeout']);
  const scenes = timeout?.['scene_count'];
  const fallback = stringOf(timeout?.['fallback_beat']);
  const outcomes = Array.isArray(raw['outcomes']) ? raw['outcomes'] : [];
  const dialogue = Array.isArray(raw['dialogue']) ? raw['dialogue'] : [];
  return {
    id: beat.id!,
    index: beat.index,
    title: beat.title ?? beat.id!,
    description: beat.description ?? '',
    priority: beat.priority,
    conditions: asRecord(raw['conditions']) ?? {},
    ...(typeof scenes === 'number' && scenes >= 1 ? { timeout: { scenes: Math.floor(scenes), ...(fallback ? { fallback } : {}) } } : {}),
    outcomes: outcomes.flatMap((item) => {
      const outcome = asRecord(item);
      const description = stringOf(outcome?.['description']);
      if (!outcome || !description) return [];
      const probability = outcome['probability'];
      return [
        {
          description,
          ...(stringOf(outcome['triggers_beat']) ? { triggersBeat: stringOf(outcome['triggers_beat'])! } : {}),
          ...(typeof probability === 'number' && probability >= 0 ? { probability } : {}),
        },
      ];
    }),
    dialogue: dialogue.flatMap((item) => {
      const line = asRecord(item);
      const speaker = stringOf(line?.['speaker']);
      const said = stringOf(line?.['line']);
      return speaker && said ? [{ speaker, line: said, ...(stringOf(line?.['context']) ? { context: stringOf(line?.['context'])! } : {}) }] : [];
    }),
    consequences: stringsOf(raw['consequences']),
    ...(stringOf(raw['location']) ? { location: stringOf(raw['location'])! } : {}),
    ...(stringOf(raw['mood']) ? { mood: stringOf(raw['mood'])! } : {}),
    skippable: raw['skippable'] === true,
  };
}

function storyNpc(npc: CampaignNpc, data: Readonly<Record<string, unknown>>): StoryNpc {
  const name = npc.name!;
  const personality = data['personality'];
  const traits = typeof personality === 'string' ? [personality] : stringsOf(asRecord(personality)?.['traits']);
  const speech = asRecord(data['speech_patterns']);
  const relationships: Record<string, string> = {};
  for (const [other, how] of Object.entries(asRecord(data['relationships']) ?? {})) if (typeof how === 'string') relationships[other] = how;
  const parts = nameKey(name)
    .split(' ')
    .filter((part) => part.length > 2 && !NOT_ALIASES.has(part));
  const aliases = [...new Set([nameKey(npc.key), nameKey(name), ...parts])].filter((alias) => alias !== '');
  const style = stringOf(speech?.['style']);
  const firstAppearance = stringOf(asRecord(data['metadata'])?.['first_appearance']);
  const faction = stringOf(data['faction']);
  return {
    key: npc.key,
    name,
    role: npc.role ?? '',
    traits,
    ...(style ? { style } : {}),
    phrases: [...stringsOf(speech?.['catchphrases']), ...stringsOf(speech?.['examples'])],
    relationships,
    motivations: stringsOf(data['motivations']),
    ...(firstAppearance ? { firstAppearance } : {}),
    ...(faction ? { faction } : {}),
    aliases,
  };
}

/** An ending file: "# Ending: The drowned town" gives the title; `**Reached when** ...` the paragraph that says when. */
export function storyEnding(file: string, markdown: string): StoryEnding {
  const id = path.posix.basename(file).replace(/\.[^.]+$/, '');
  const title = (firstHeading(markdown) ?? id).replace(/^ending\s*[:\-]\s*/i, '');
  const paragraphs = plainParagraphs(markdown);
  const reached = paragraphs.find((paragraph) => /^reached when\b/i.test(paragraph));
  const telling = paragraphs.find((paragraph) => paragraph !== reached && !/^tone\b/i.test(paragraph)) ?? title;
  const beats = [...new Set(markdown.match(/\bbeat_\d{3,}\b/g) ?? [])];
  const reachedWhen = reached ? reached.replace(/^reached when\s*:?\s*/i, '').replace(/\s*\btone\s*:.*$/i, '') : undefined;
  return { id, file, title, telling, beats, ...(reachedWhen ? { reachedWhen: plainInline(reachedWhen) } : {}) };
}

/** The NPC a name means (its folder name, full name, or a part of its name), if any. */
export function npcNamed(story: Pick<StoryCampaign, 'npcs'>, name: string): StoryNpc | undefined {
  const key = nameKey(name);
  return story.npcs.find((npc) => npc.aliases.includes(key)) ?? story.npcs.find((npc) => key.split(' ').some((part) => npc.aliases.includes(part)));
}

/** A one-line summary of the setting, for prompts: its first sentence(s), at most `max` characters. */
export function settingLine(story: Pick<StoryCampaign, 'setting'>, max: number): string {
  return clip(story.setting[0] ?? '', max);
}
