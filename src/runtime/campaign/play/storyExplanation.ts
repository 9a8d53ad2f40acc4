// A turn's story as lines of text (`play --explain`, transcripts): the scene, beats triggered and skipped with their reasons, judgements, lore retrieved with its sources. Pure.
import type { StoryTurn } from './storyContext.js';

/** The story lines of a turn: always the beats and the ending; with `explain`, also the judgements, the lore and the NPCs. */
export function storyLines(story: StoryTurn, explain: boolean): string[] {
  const lines: string[] = [];
  for (const beat of story.triggered)
    lines.push(
      `beat ${beat.id} "${beat.title}" triggered in scene ${story.scene}${explain ? `: ${beat.reason}` : ''}${beat.outcome ? ` (outcome: ${beat.outcome})` : ''}`,
    );
  for (const beat of story.skipped) lines.push(`beat ${beat.id} skipped: ${beat.reason}`);
  if (story.ending) lines.push(`ending "${story.ending.title}" reached${explain ? `: ${story.ending.reason}` : ''}`);
  if (!explain) return lines;
  lines.unshift(
    `scene ${story.scene}${story.active.length > 0 ? `, active ${story.active.join(', ')}` : ''}${story.holding.length > 0 ? `, holding ${story.holding.join(', ')}` : ''}`,
  );
  if (story.choices.length > 0) lines.push(`choices taken: ${story.choices.join(', ')}`);
  for (const judgement of story.judgements) lines.push(`judged ${judgement.beat} ${judgement.kind}: ${judgement.reason}`);
  for (const fact of story.lore) lines.push(`lore ${fact.id} (${fact.score.toFixed(2)})`);
  if (story.npcs.length > 0) lines.push(`present: ${story.npcs.join(', ')}`);
  if (story.endingsInReach.length > 0) lines.push(`endings in reach: ${story.endingsInReach.join(', ')}`);
  return lines;
}
