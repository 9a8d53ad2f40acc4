// The answer to a move after a campaign's ending: the story is over, nothing runs and nothing is recorded.
import type { TurnResult } from './turnTypes.js';

/** A turn that played nothing: the ending reached is told again, with how to start over. */
export function endedTurn(input: string, state: Record<string, unknown>, ending: { readonly id: string; readonly title: string }): TurnResult {
  const now = new Date().toISOString();
  return {
    input,
    narrative: `The story has ended: ${ending.title}. Start a new play-through to play it again.`,
    choices: [],
    attempts: [],
    disabledSkills: [],
    fallback: false,
    cancelled: false,
    state,
    changedKeys: [],
    assets: [],
    uiEvents: [],
    narrator: 'pattern',
    startedAt: now,
    durationMs: 0,
  };
}
