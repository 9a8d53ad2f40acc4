// Why a plan's tools were chosen: the pattern narrator's `metadata.selection` (matched words, score, cues), read back for `play --explain` and the play panel.
import type { Plan } from '../model/plan.js';

/** Why a tool is in the plan: written to `metadata.selection` by the pattern narrator. */
export interface SelectionExplanation {
  readonly toolId: string;
  readonly skill: string;
  readonly script: string;
  /** The skill's BM25F score against the words (the narrator has none: it is always called). */
  readonly score?: number;
  /** The words that matched, best first. */
  readonly terms?: readonly string[];
  /** The phrase cues that asked for this kind of skill (chance, past, opinion…). */
  readonly cues?: readonly string[];
  readonly reason: string;
}

/** The plan's explanation, when its narrator wrote one (the LLM narrator does not). */
export function selectionOf(plan: Plan): readonly SelectionExplanation[] | undefined {
  const selection = plan.metadata?.['selection'];
  if (!Array.isArray(selection)) return undefined;
  return selection.filter((entry): entry is SelectionExplanation => typeof entry === 'object' && entry !== null && typeof (entry as SelectionExplanation).toolId === 'string' && typeof (entry as SelectionExplanation).reason === 'string');
}

/** One line per tool: `roll ← dice-roller/roll: matched "pick", "lock", "chance" (score 4.2; cues: chance)`. */
export function explanationLines(plan: Plan): string[] {
  const selection = selectionOf(plan);
  if (!selection) return [plan.tools.length > 0 ? 'no explanation: this plan was not written by the pattern narrator' : 'a narrative-only plan: no skill matched'];
  if (selection.length === 0) return ['a narrative-only plan: no skill matched and no storyteller is available'];
  return selection.map((entry) => {
    const words = entry.terms && entry.terms.length > 0 ? `matched ${entry.terms.map((term) => `"${term}"`).join(', ')}` : entry.reason;
    const details = [entry.score !== undefined ? `score ${entry.score}` : undefined, entry.cues && entry.cues.length > 0 ? `cues: ${entry.cues.join(', ')}` : undefined].filter(Boolean).join('; ');
    return `${entry.toolId} ← ${entry.skill}/${entry.script}: ${words}${details ? ` (${details})` : ''}`;
  });
}
