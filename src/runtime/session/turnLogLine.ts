// The one log line of a played turn (how it ended, how long it took, each attempt's outcome), for the play panel's output channel.
import type { TurnAttempt, TurnResult } from './turnTypes.js';

/** The parts of a turn the log line reads. */
export type LoggedTurn = Pick<TurnResult, 'input' | 'cancelled' | 'fallback' | 'durationMs'> & {
  readonly attempts: readonly (Pick<TurnAttempt, 'attempt' | 'narrator' | 'outcome'> & { readonly result: Pick<TurnAttempt['result'], 'failedTools'> })[];
};

/** The log line of turn `index`; `warning` is true when the turn fell back to template narration (not cancelled). */
export function turnLogLine(index: number, result: LoggedTurn): { readonly text: string; readonly warning: boolean } {
  const attempts = result.attempts
    .map(
      (attempt) =>
        `#${attempt.attempt} ${attempt.narrator} ${attempt.outcome}${attempt.result.failedTools.length ? ` (failed: ${attempt.result.failedTools.join(', ')})` : ''}`,
    )
    .join('; ');
  const how = result.cancelled ? 'cancelled' : result.fallback ? 'fallback narration' : 'narrated';
  const text = `turn ${index} "${result.input}": ${how} in ${Math.round(result.durationMs)} ms — ${attempts || 'no attempt'}`;
  return { text, warning: result.fallback && !result.cancelled };
}
