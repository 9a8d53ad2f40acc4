// Turns the attempts of a turn into what the player sees: narration, choices, state, and the template fallback.
import type { ExecutionResult } from '../contractTypes/executionResult.js';
import { changedKeys } from '../state/deepMerge.js';
import { NARRATION_CHUNK } from './narrationStream.js';
import type { TurnAttempt, TurnResult, TurnUiEvent } from './turnTypes.js';
import { skillNameOfPath } from '../validation/toolPathPolicy.js';

/**
 * The fallback templates (docs/design-rules.md#fallback-narration). Unlike the seed's, they never quote the player's
 * words back (issue 39): the turn is told, and what failed is said apart from the story (the CLI and the play panel).
 */
export const FALLBACK_TEMPLATES = [
  'The narrator pauses; for now, nothing comes of what you tried.',
  'The moment hangs in the stillness, and nothing comes of it yet...',
  'The story continues, though the path is unclear...',
] as const;

/** Template narration after the last failed attempt, drawn by `random`. */
export function fallbackNarration(random: () => number, cancelled = false): string {
  if (cancelled) return 'The turn was cancelled.';
  return FALLBACK_TEMPLATES[Math.min(FALLBACK_TEMPLATES.length - 1, Math.floor(random() * FALLBACK_TEMPLATES.length))]!;
}

/** What to tell the narrator about a failed run (fed back with the next attempt). */
export function describeFailure(result: ExecutionResult): string {
  if (result.toolResults.length === 0) {
    return `the plan was rejected: ${
      result.warnings
        .map((warning) => warning.message)
        .slice(0, 5)
        .join('; ') || result.failureReason
    }`;
  }
  const failures = result.toolResults
    .filter((tool) => tool.state === 'failed' || tool.state === 'timeout')
    .map((tool) => `${tool.toolId} (${tool.skill ?? tool.toolPath}): ${tool.error?.message ?? tool.state}`);
  return `these tools failed: ${failures.join('; ')}; their skills are disabled now`;
}

/** Builds the TurnResult from the attempts (the last one succeeded unless `fallback`). */
export function summarizeTurn(
  input: string,
  before: Record<string, unknown>,
  attempts: readonly TurnAttempt[],
  started: Date,
  fallback: boolean,
  fallbackText?: string,
  cancelled = false,
): TurnResult {
  const last = attempts.at(-1);
  const disabledSkills = [...new Set([...(last?.disabledSkills ?? []), ...(last?.result.disabledSkills ?? [])])].sort();
  const base = { input, attempts, disabledSkills, fallback, cancelled, startedAt: started.toISOString(), durationMs: Date.now() - started.getTime() };
  if (fallback || !last) {
    return { ...base, narrative: fallbackText ?? '', choices: [], state: before, changedKeys: [], assets: [], uiEvents: [], narrator: 'pattern' };
  }
  const result = last.result;
  const uiEvents: TurnUiEvent[] = [];
  for (const tool of result.toolResults) {
    if (tool.state !== 'success') continue;
    // A streamed narration's pieces were for the live view: the turn keeps the whole narration only.
    for (const ui of tool.output?.uiEvents ?? []) if (ui.event !== NARRATION_CHUNK) uiEvents.push({ toolId: tool.toolId, ...ui });
  }
  const narrations = uiEvents.filter((ui) => ui.event === 'narration' && typeof ui.payload?.['text'] === 'string').map((ui) => ui.payload!['text'] as string);
  const narrative = [last.plan.narrative, ...narrations].filter((text): text is string => Boolean(text && text.trim())).join('\n\n');
  const choiceEvent = uiEvents.filter((ui) => ui.event === 'narrative_choice').at(-1);
  const choices = Array.isArray(choiceEvent?.payload?.['choices'])
    ? (choiceEvent!.payload!['choices'] as unknown[]).filter((choice): choice is string => typeof choice === 'string')
    : [];
  return {
    ...base,
    // (A run that succeeded without a word of narration: no storyteller, no plan narrative.)
    narrative: narrative || 'The story moves on.',
    choices,
    state: result.aggregatedState,
    changedKeys: changedKeys(before, result.aggregatedState),
    assets: result.aggregatedAssets,
    uiEvents,
    narrator: last.narrator,
  };
}

/** The skills of the turn's first attempt, in the order its plan first uses them. */
export function firstAttemptSkills(result: TurnResult): string[] {
  const plan = result.attempts[0]?.plan;
  if (!plan) return [];
  const skills: string[] = [];
  for (const tool of plan.tools) {
    const skill = skillNameOfPath(tool.toolPath);
    if (skill !== null && !skills.includes(skill)) skills.push(skill);
  }
  return skills;
}

/** success: the first attempt succeeded; replanned: a later one did; fallback: template narration. */
export function outcomeOf(result: TurnResult): 'success' | 'replanned' | 'fallback' {
  if (result.fallback || result.cancelled) return 'fallback';
  return result.attempts[0]?.outcome === 'success' ? 'success' : 'replanned';
}
