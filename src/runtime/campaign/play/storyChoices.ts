// The campaign's own choices: a beat's player_choice ids offered as acts, "has ..." states as acts, endings in reach; and which ids a move took. Pure.
import { stemOf, wordsOf, ENGLISH_STOP_WORDS } from '../../narrator/selection/textTerms.js';
import { PRIORITY_RANK, type StoryCampaign, type StoryEnding } from './storyCampaign.js';
import type { CampaignState, OfferedChoice } from './storyState.js';
import { idAsAct, mentions } from './storyText.js';

/** At most this many beat choices a scene offers (endings in reach come on top). */
export const MAX_BEAT_CHOICES = 2;
/** At most this many choices a turn shows in all (the campaign's first, then the skills'). */
export const MAX_CHOICES = 5;
/** The id prefix of an ending's choice. */
export const ENDING_CHOICE = 'ending:';

function list(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Every player_choice id the beats name. */
export function choiceIds(story: Pick<StoryCampaign, 'beats'>): string[] {
  return [...new Set(story.beats.flatMap((beat) => [...list(beat.conditions['player_choice']), ...list(beat.conditions['player_choices'])]))];
}

/** "has the tower key" -> "Take the tower key": a possession the player can reach for. */
function possessionAct(text: string): string | undefined {
  const match = /^(?:has|have|holds?|carries|owns|possesses)\s+(.+)$/i.exec(text.trim());
  return match ? `Take ${match[1]!.replace(/[.!]+$/, '')}` : undefined;
}

/**
 * The choices that lead toward the next beats: for each beat that is possible now (its beat requirements met) and not
 * done, highest priority first, its player_choice ids not taken yet and a "has ..." player_state, as acts.
 */
export function beatChoices(story: Pick<StoryCampaign, 'beats' | 'npcs'>, campaign: CampaignState): OfferedChoice[] {
  const isName = (word: string) => story.npcs.some((npc) => npc.aliases.includes(word));
  const taken = new Set(campaign.choices);
  const offers: OfferedChoice[] = [];
  const beats = [...story.beats].sort((left, right) => PRIORITY_RANK[left.priority] - PRIORITY_RANK[right.priority] || left.index - right.index);
  for (const beat of beats) {
    const record = campaign.beats[beat.id];
    if (!record || (record.status !== 'waiting' && record.status !== 'holding') || record.availableSince === undefined) continue;
    for (const id of [...list(beat.conditions['player_choice']), ...list(beat.conditions['player_choices'])]) {
      if (!taken.has(id) && !offers.some((offer) => offer.id === id)) offers.push({ id, text: idAsAct(id, isName) });
    }
    const state = beat.conditions['player_state'];
    const act = typeof state === 'string' ? possessionAct(state) : undefined;
    if (act && !taken.has(`state:${beat.id}`) && !offers.some((offer) => offer.text === act)) offers.push({ id: `state:${beat.id}`, text: act });
  }
  return offers.slice(0, MAX_BEAT_CHOICES);
}

/** The choice that brings the story to an ending in reach. */
export function endingChoice(ending: StoryEnding): OfferedChoice {
  return { id: `${ENDING_CHOICE}${ending.id}`, text: `Bring the story to its end: ${ending.title}` };
}

/** The campaign's choices first (endings in reach, then beats), then the skills' (each text once), at most {@link MAX_CHOICES}. */
export function mergedChoices(campaign: readonly OfferedChoice[], skills: readonly string[]): string[] {
  const texts: string[] = [];
  for (const text of [...campaign.map((choice) => choice.text), ...skills]) {
    if (!texts.some((taken) => taken.toLowerCase() === text.toLowerCase())) texts.push(text);
  }
  return texts.slice(0, MAX_CHOICES);
}

/** The content stems of words, function words left out. */
function stems(text: string): Set<string> {
  return new Set(
    wordsOf(text)
      .filter((word) => !ENGLISH_STOP_WORDS.has(word))
      .map(stemOf),
  );
}

/**
 * The ids the player's move takes: the offered choice its words are (by text), and every player_choice id of the beats
 * whose words it holds ("I ask Tamsin to help" takes `asked_tamsin_for_help`).
 */
export function takenIds(input: string, offered: readonly OfferedChoice[], ids: readonly string[]): string[] {
  const said = input.trim().toLowerCase();
  const taken = offered.filter((choice) => choice.text.toLowerCase() === said).map((choice) => choice.id);
  const words = stems(input);
  for (const id of ids) {
    const needed = stems(id.replace(/[_-]+/g, ' '));
    if (needed.size > 0 && [...needed].every((stem) => words.has(stem)) && !taken.includes(id)) taken.push(id);
  }
  return taken;
}

/** The NPCs a text names (by folder name, full name or a part of it), in the campaign's order. */
export function npcsNamedIn(story: Pick<StoryCampaign, 'npcs'>, texts: readonly string[]): StoryCampaign['npcs'][number][] {
  return story.npcs.filter((npc) => texts.some((text) => npc.aliases.some((alias) => mentions(text, alias))));
}
