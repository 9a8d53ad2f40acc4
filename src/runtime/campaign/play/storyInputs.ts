// The campaign's part of a plan's inputs: the storyteller's `campaign` (beats, voices, lore, ending), the rules' dice and bands, a beat's mood and place, NPC names. Pure.
import type { StoryContext } from './storyContext.js';
import { sentencesOf } from './storyText.js';

/** What composePlan knows of a tool when it adds it. */
export interface ToolSlot {
  /** The tool's role: the narration, a roll, context, choices or a picture. */
  readonly role: 'narrator' | 'chance' | 'context' | 'options' | 'visual';
  /** Whether the script's inputSchema has this property. */
  readonly accepts: (field: string) => boolean;
  /** The fields filled from the player's words (the others were defaults or guesses). */
  readonly sources: Readonly<Record<string, string>>;
  /** The player's words. */
  readonly words: string;
}

/** At most this many lore facts reach the storyteller. */
const STORYTELLER_FACTS = 2;

/** A lore chunk as the storyteller gets it: its first sentences (at most ~300 characters) and its source. */
function factOf(fact: StoryContext['lore'][number]): { id: string; source: string; text: string } {
  const sentences = sentencesOf(
    fact.text
      .replace(/^#+\s.*$/gm, '')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  let text = '';
  for (const sentence of sentences) {
    if (text !== '' && text.length + sentence.length > 300) break;
    text = text === '' ? sentence : `${text} ${sentence}`;
  }
  return { id: fact.id, source: `${fact.file}#${fact.chunkIndex}`, text: text || fact.text.slice(0, 300) };
}

/** The storyteller's `campaign` input: what this scene must tell (beats, an ending), who speaks and how, and facts it may use. */
export function storytellerCampaign(story: StoryContext): Record<string, unknown> {
  return {
    title: story.title,
    scene: story.scene,
    beats: story.triggered.map((beat) => ({
      id: beat.id,
      title: beat.title,
      description: beat.description,
      ...(beat.mood ? { mood: beat.mood } : {}),
      ...(beat.location ? { location: beat.location } : {}),
      ...(beat.dialogue.length > 0 ? { dialogue: beat.dialogue } : {}),
      ...(beat.outcome ? { outcome: beat.outcome } : {}),
    })),
    npcs: story.npcs,
    facts: story.lore.slice(0, STORYTELLER_FACTS).map(factOf),
    ...(story.ending ? { ending: story.ending } : {}),
  };
}

/** The full name of an NPC the words name by a part of it ("tamsin" -> "Tamsin Reed"), else the value as it is. */
function fullName(value: unknown, story: StoryContext): unknown {
  if (typeof value !== 'string') return value;
  const key = value
    .toLowerCase()
    .replace(/^the\s+/, '')
    .trim();
  return story.npcNames.find((entry) => entry.alias === key)?.name ?? value;
}

/**
 * A tool's input with the campaign's part: the narration gets `campaign` (and the beat's mood when the words gave
 * none); a roll with no formula in the words gets the rules' formula and bands; choices get the beat's place and
 * mood; a person named by part of an NPC's name gets the NPC's full name. Fields a schema does not take are left out.
 */
export function withStoryInputs(input: Record<string, unknown>, slot: ToolSlot, story: StoryContext | undefined): Record<string, unknown> {
  if (!story) return input;
  const next: Record<string, unknown> = { ...input };
  for (const field of ['npc', 'name', 'character', 'target']) if (field in next && slot.accepts(field)) next[field] = fullName(next[field], story);
  // An NPC is a person, never a place; a list of characters gets every NPC the words name.
  for (const field of ['location', 'place', 'destination'])
    if (typeof next[field] === 'string' && fullName(next[field], story) !== next[field]) delete next[field];
  const named = npcsIn(slot.words, story);
  if (named.length > 0 && slot.accepts('characters') && next['characters'] === undefined) next['characters'] = named;
  switch (slot.role) {
    case 'narrator':
      if (slot.accepts('campaign')) next['campaign'] = storytellerCampaign(story);
      if (story.mood && slot.accepts('mood') && next['mood'] === undefined) next['mood'] = story.mood.toLowerCase();
      break;
    case 'chance':
      if (slot.accepts('formula') && slot.sources['formula'] === undefined) {
        next['formula'] = story.rules.formula;
        if (slot.accepts('bands')) {
          next['bands'] = story.rules.bands;
          // The bands say what the total means; a difficulty stays only when the words set one ("DC 15").
          if (!/\bdc\s*\d/i.test(slot.words)) delete next['dc'];
        }
      }
      break;
    case 'options':
      if (story.location && slot.accepts('situation') && next['situation'] === undefined) next['situation'] = story.location;
      if (story.mood && slot.accepts('tone') && next['tone'] === undefined) next['tone'] = story.mood.toLowerCase();
      break;
    default:
      break;
  }
  return next;
}

/** The NPCs the words name, by their full names, in the order named. */
function npcsIn(words: string, story: StoryContext): string[] {
  const lower = ` ${words.toLowerCase().replace(/[^a-z0-9]+/g, ' ')} `;
  const found = story.npcNames
    .map((entry) => ({ name: entry.name, at: lower.indexOf(` ${entry.alias} `) }))
    .filter((entry) => entry.at >= 0)
    .sort((left, right) => left.at - right.at)
    .map((entry) => entry.name);
  return [...new Set(found)];
}

/** The player's words with each NPC name capitalised as a name ("ask tamsin" -> "ask Tamsin"), so the input fillers read them as people. */
export function wordsWithNames(words: string, story: StoryContext | undefined): string {
  if (!story || story.npcNames.length === 0) return words;
  const single = new Set(story.npcNames.map((entry) => entry.alias).filter((alias) => !alias.includes(' ')));
  return words.replace(/\b[a-z][a-z'-]*\b/g, (word) => (single.has(word) ? word.charAt(0).toUpperCase() + word.slice(1) : word));
}
