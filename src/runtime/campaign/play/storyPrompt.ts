// The campaign in the local model's prompt: its constant part (title, setting, constraints) in the fixed prompt, the scene in a line of the turn's text. Pure text.
import type { StoryContext } from './storyContext.js';

/** The fixed prompt's share for the campaign, in characters (taken from the skills' guides). */
export const STORY_FIXED_CHARS = 700;
/** The turn text's share for the scene, in characters (~80 tokens). */
export const STORY_TURN_CHARS = 320;

function fit(parts: readonly string[], max: number, separator: string): string {
  let text = '';
  for (const part of parts) {
    const next = text === '' ? part : `${text}${separator}${part}`;
    if (next.length > max) break;
    text = next;
  }
  return text;
}

/** The campaign's constant part: the same every turn, so the model evaluates it once with the rest of the fixed prompt. */
export function storyFixedText(story: Pick<StoryContext, 'title' | 'setting' | 'constraints'>, max = STORY_FIXED_CHARS): string {
  const head = `Campaign: ${story.title}. ${story.setting}`.slice(0, Math.floor(max / 2));
  const rules = story.constraints.map((line) => `- ${line}`);
  return fit([head, 'Never break these constraints:', ...rules], max, '\n');
}

/** The scene in one line: its number, the beat to tell, who is present and how they feel, what comes next, the lore at hand. */
export function storyTurnText(story: StoryContext, max = STORY_TURN_CHARS): string {
  const parts = [`Scene ${story.scene}`];
  if (story.ending) parts.push(`ending now: ${story.ending.title}`);
  if (story.triggered.length > 0) parts.push(`beat now: ${story.triggered.map((beat) => beat.title).join(', ')}`);
  if (story.npcs.length > 0) parts.push(`present: ${story.npcs.map((npc) => `${npc.name} (${npc.attitude})`).join(', ')}`);
  if (story.next.length > 0) parts.push(`next: ${story.next.map((beat) => beat.title).join(', ')}`);
  if (story.lore.length > 0) parts.push(`lore: ${story.lore.map((fact) => fact.id.replace(/^lore\//, '')).join(', ')}`);
  return fit(parts, max, '; ');
}
