// The reasons the local narrator falls back for its time ("<code>: <detail>"), and what the play panel says of a fallback; pure (the webview uses it).

/** The decision ran out of its budget, counted from when the model was ready (docs/design-rules.md#the-generation-budget). */
export function budgetTimeoutReason(budgetMs: number, readyMs: number): string {
  return `timeout: no valid plan within ${budgetMs} ms (the model was ready after ${Math.round(readyMs)} ms)`;
}

/** Getting ready (the model loading, its fixed prompt evaluated) ran over its allowance; the work goes on. */
export function preparationTimeoutReason(preparationMs: number): string {
  return `timeout: the model was not ready within ${preparationMs} ms (it goes on loading: the next turn finds it ready)`;
}

const PREPARATION_TIMEOUT = /^timeout: the model was not ready within /;

/** Said in the play panel when the budget ran out. */
export const TOO_SLOW_TEXT = 'the local model was too slow on this turn; the pattern narrator answered';
/** Said in the play panel when the model was still loading. */
export const NOT_READY_TEXT = 'the local model was not ready yet; the pattern narrator answered';

/**
 * What the play panel says of a fallback, in the author's words, for the reasons of time: the budget ran out (any
 * other "timeout:" reason: the generation stopped by the budget), or the model was not ready. Undefined otherwise
 * (the reason itself says it: no model, invalid model, worker crashed, model error, invalid plan).
 */
export function fallbackSummary(reason: string): string | undefined {
  if (PREPARATION_TIMEOUT.test(reason)) return NOT_READY_TEXT;
  if (reason.startsWith('timeout:')) return TOO_SLOW_TEXT;
  return undefined;
}
