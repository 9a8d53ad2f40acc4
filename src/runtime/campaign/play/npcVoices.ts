// NPC profiles in play (docs/campaigns.md#npcs-in-play): how each NPC present speaks (name, phrase, attitude, trait, relationship), and a session's start seeds. Pure.
import { asRecord } from '../modelReading.js';
import { deriveSeed } from '../../common/seed.js';
import type { NpcVoice } from './storyContext.js';
import { npcNamed, type StoryCampaign, type StoryNpc } from './storyCampaign.js';
import { npcEntryOf } from './storyState.js';
import { mentions, nameKey } from './storyText.js';

/** npc-perception's attitude for a score (its bands), for an NPC it has not been asked about yet. */
export function attitudeOf(perception: number): string {
  if (perception >= 60) return 'devoted';
  if (perception >= 30) return 'friendly';
  if (perception >= 10) return 'cordial';
  if (perception >= -9) return 'neutral';
  if (perception >= -29) return 'wary';
  if (perception >= -59) return 'unfriendly';
  return 'hostile';
}

const WARM = /\b(?:ally|friend|friendly|mentor|guide|protector|helper|companion|trusts?|loves?|fond|admires?|grateful|loyal|kind)\b/gi;
const COLD = /\b(?:antagonist|villain|rival|enemy|foe|distrusts?|hates?|resents?|suspicious|despises?|fears?|hostile|contempt|wary)\b/gi;

/**
 * How an NPC sees the player at the session's start: its relationship to the player (`relationships.player`) and its
 * role's words, warm (ally, mentor, trusts) or cold (antagonist, rival, distrusts), 10 points each, within -30..30.
 */
export function perceptionSeed(npc: StoryNpc): { readonly delta: number; readonly reason: string } {
  const toPlayer = Object.entries(npc.relationships).find(([other]) => ['player', 'you', 'the player'].includes(nameKey(other)))?.[1] ?? '';
  const text = `${npc.role} ${toPlayer}`;
  const warm = text.match(WARM)?.length ?? 0;
  const cold = text.match(COLD)?.length ?? 0;
  const delta = Math.max(-30, Math.min(30, 10 * (warm - cold)));
  const words = [...(text.match(WARM) ?? []), ...(text.match(COLD) ?? [])].map((word) => word.toLowerCase());
  const source = toPlayer ? `its role and its relationship to the player` : 'its role';
  return { delta, reason: words.length > 0 ? `the campaign's profile: ${source} (${[...new Set(words)].join(', ')})` : `the campaign's profile: ${source}` };
}

/** The factions the profiles name, each with the NPCs of it. */
export function factionsOf(story: Pick<StoryCampaign, 'npcs'>): { readonly faction: string; readonly npcs: readonly string[] }[] {
  const byFaction = new Map<string, string[]>();
  for (const npc of story.npcs) {
    if (!npc.faction) continue;
    const list = byFaction.get(npc.faction) ?? [];
    list.push(npc.name);
    byFaction.set(npc.faction, list);
  }
  return [...byFaction].map(([faction, npcs]) => ({ faction, npcs }));
}

/** The NPC's attitude now: npc-perception's entry under `npcs`, else its seed. */
export function currentAttitude(npc: StoryNpc, state: Readonly<Record<string, unknown>>): string {
  const attitude = asRecord(npcEntryOf(state, npc.aliases)?.value)?.['attitude'];
  return typeof attitude === 'string' && attitude !== '' ? attitude : attitudeOf(perceptionSeed(npc).delta);
}

/**
 * How each NPC present speaks this scene: a phrase of its speech patterns (drawn by the scene's seed, not one the last
 * narrations said), its attitude, a trait, and how it sees another character the scene names, if it has a word for them.
 */
export function npcVoices(
  story: Pick<StoryCampaign, 'npcs'>,
  present: readonly StoryNpc[],
  state: Readonly<Record<string, unknown>>,
  sceneTexts: readonly string[],
  recent: readonly string[],
  seed: number,
): NpcVoice[] {
  // One relationship a scene: the first NPC who has a word for someone the scene names says it.
  let told = false;
  return present.flatMap((npc) => {
    if (npc.phrases.length === 0) return [];
    const start = deriveSeed(seed, 'voice', npc.key) % npc.phrases.length;
    const phrases = npc.phrases.map((_, offset) => npc.phrases[(start + offset) % npc.phrases.length]!);
    const phrase = phrases.find((each) => !recent.some((said) => said.includes(each))) ?? phrases[0]!;
    const traits = npc.traits.length > 0 ? npc.traits : [];
    const trait = traits.length > 0 ? traits[deriveSeed(seed, 'trait', npc.key) % traits.length] : undefined;
    const about = told
      ? undefined
      : Object.entries(npc.relationships).find(([other]) => {
          const person = npcNamed(story, other);
          return person !== undefined && person.key !== npc.key && sceneTexts.some((text) => person.aliases.some((alias) => mentions(text, alias)));
        });
    const aboutName = about ? (npcNamed(story, about[0])?.name ?? about[0]) : undefined;
    if (about) told = true;
    return [
      {
        name: npc.name,
        phrase,
        attitude: currentAttitude(npc, state),
        ...(trait ? { trait } : {}),
        ...(about && aboutName ? { about: { name: aboutName, relationship: about[1] } } : {}),
      },
    ];
  });
}
