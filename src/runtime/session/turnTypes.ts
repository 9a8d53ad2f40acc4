// Types of a played turn, mirroring contracts/turn-result.schema.json, and of the attempt log lines. Pure data.
import type { AssetReference, ExecutionResult } from '../contractTypes/executionResult.js';
import type { Plan } from '../contractTypes/plan.js';
import type { NarratorKind } from '../narrator/index.js';
import type { Reflection } from '../executor/reflection.js';
import type { StoryTurn } from '../campaign/play/storyContext.js';

/** One plan generation and its run (or its rejection). */
export interface TurnAttempt {
  readonly attempt: number;
  readonly narrator: NarratorKind;
  /** Why an LLM narrator fell back to the pattern narrator for this attempt. */
  readonly fallbackReason?: string;
  readonly generationMs: number;
  readonly plan: Plan;
  readonly result: ExecutionResult;
  readonly outcome: 'success' | 'failed' | 'invalid' | 'cancelled';
  /** Skills disabled while this attempt was generated. */
  readonly disabledSkills: readonly string[];
}

/** A UI event of the turn, with the tool that sent it. */
export interface TurnUiEvent {
  readonly toolId: string;
  readonly event: string;
  readonly payload?: Record<string, unknown>;
}

/** Mirrors contracts/turn-result.schema.json: what the player gets back for one input. */
export interface TurnResult {
  readonly input: string;
  /** The text shown to the player. */
  readonly narrative: string;
  /** narrative_choice options; choosing one plays it as the next input. */
  readonly choices: readonly string[];
  readonly attempts: readonly TurnAttempt[];
  /** Skills disabled by the end of the turn. */
  readonly disabledSkills: readonly string[];
  /** Why the replan loop disabled each of its skills ("cross timed out after 3.0 s"). */
  readonly disabledReasons?: Readonly<Record<string, string>>;
  /** True when template narration was used because every attempt failed. */
  readonly fallback: boolean;
  /** Set when the turn's budget (in milliseconds) ran out before an attempt succeeded. */
  readonly budgetSpentMs?: number;
  readonly cancelled: boolean;
  /** Session state after the turn. */
  readonly state: Record<string, unknown>;
  /** Top-level keys of the state that the turn changed. */
  readonly changedKeys: readonly string[];
  readonly assets: readonly AssetReference[];
  readonly uiEvents: readonly TurnUiEvent[];
  /** Narrator of the attempt that produced the narration (pattern for template fallback). */
  readonly narrator: NarratorKind;
  /** Post-run reflection on the last attempt: written by the model when it produced the plan, else the rules'. */
  readonly reflection?: Reflection;
  /** What the turn did to a campaign's story: its scene, beats, lore, NPCs, ending (docs/campaigns.md#playing-a-campaign). */
  readonly story?: StoryTurn;
  readonly startedAt: string;
  readonly durationMs: number;
}

/** One JSON line of the plan-attempt log (docs/design-rules.md#the-attempt-log). */
export interface AttemptLogEntry {
  readonly timestamp: string;
  readonly attempt: number;
  readonly planId: string | null;
  readonly parentPlanId: string | null;
  readonly narrator: NarratorKind;
  readonly fallbackReason?: string;
  /** Skills the plan chose. */
  readonly skills: readonly string[];
  readonly outcome: 'success' | 'failed' | 'invalid' | 'cancelled';
  readonly failedTools: readonly string[];
  readonly retryCounts: Readonly<Record<string, number>>;
  readonly disabledSkills: readonly string[];
  readonly durationMs: number;
  /** What was fed back to the narrator from the previous attempt. */
  readonly feedback?: string;
}
