// The Narrator port: turns a player's words into a Plan JSON. Strategies: patternNarrator.ts, llamaNarrator.ts, autoNarrator.ts.
import type { Plan } from '../contractTypes/plan.js';
import type { NarratorSkill } from '../skills/skillTypes.js';
import type { Reflection } from '../executor/reflection.js';
import type { StoryContext } from '../campaign/play/storyContext.js';

/** Which strategy produced a plan. */
export type NarratorKind = 'llm' | 'pattern';

/** The inputs of one plan generation (docs/design-rules.md#the-replan-loop). */
export interface PlanRequest {
  /** The player's words (or a chosen narrative_choice). */
  readonly input: string;
  /** Skills the narrator may use (enabled, not permanently failed), with their scripts and prompts. */
  readonly skills: readonly NarratorSkill[];
  /**
   * The skills the narrator's fixed prompt describes: `skills` plus those disabled for this attempt only (by the
   * replan loop), so a replan reuses the evaluated prompt. Default: `skills`.
   */
  readonly catalog?: readonly NarratorSkill[];
  /** Skills the plan must not use (also written into plan.disabledSkills). */
  readonly disabledSkills: readonly string[];
  /** 1 for the first generation of a turn, up to 5 (metadata.generationAttempt). */
  readonly attempt: number;
  /** requestId of the previous attempt's plan, or null (metadata.parentPlanId). */
  readonly parentPlanId: string | null;
  /** Why the previous attempt failed (validation errors, failed tools), fed back to the model. */
  readonly feedback?: string;
  /** Session state snapshot, for context. */
  readonly state?: Record<string, unknown>;
  /** The campaign's context of this scene, when the story is a campaign (docs/campaigns.md#what-the-narrators-get). */
  readonly story?: StoryContext;
  readonly signal?: AbortSignal;
}

/** A plan and how it was made. */
export interface GeneratedPlan {
  readonly plan: Plan;
  readonly narrator: NarratorKind;
  /** Set when an LLM narrator fell back to the pattern narrator: why (timeout, model error, no model…). */
  readonly fallbackReason?: string;
  /** Wall time of the generation. */
  readonly generationMs: number;
}

/** What a narrator needs to write a post-run reflection (docs/plan-json-and-protocol.md#reflection): the player's words and the rule findings. */
export interface ReflectionRequest {
  readonly input: string;
  readonly reflection: Reflection;
  readonly signal?: AbortSignal;
}

export interface Narrator {
  /** 'auto' picks the LLM when a verified model is present, otherwise the pattern narrator. */
  readonly kind: NarratorKind | 'auto';
  generatePlan(request: PlanRequest): Promise<GeneratedPlan>;
  /** Optional: a model-written reflection (summary and suggestions); undefined when it cannot write one in time. */
  reflect?(request: ReflectionRequest): Promise<Reflection | undefined>;
  /** Releases the model process, if any. */
  dispose(): Promise<void>;
}

/** docs/design-rules.md#the-generation-budget: the budget for one plan generation. */
export const GENERATION_BUDGET_MS = 5_000;
