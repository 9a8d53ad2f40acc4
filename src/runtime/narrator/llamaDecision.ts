// The local model's decision: which scripts run, written under a grammar of the allowed ones (narratorDecision.ts), then the plan composed from it and validated.
import type { PlanRequest } from './index.js';
import type { ModelWorkerClient } from './modelWorkerClient.js';
import type { GeneratedResponse } from './modelWorkerProtocol.js';
import {
  buildDecisionGbnf,
  buildDecisionUserPrompt,
  decidedScripts,
  decisionCandidates,
  decisionMaxTokens,
  DEFAULT_DECISION_BUDGET,
  planFromDecision,
  type DecisionPromptBudget,
} from './narratorDecision.js';
import { validatePlanValue } from '../validation/validatePlan.js';
import type { Plan } from '../contractTypes/plan.js';

/** Timings of one successful LLM generation (for logs and benchmarks). */
export interface LlmGenerationTimings {
  /** From the generatePlan call to the validated plan. */
  readonly totalMs: number;
  /** Pure token generation in the worker (the per-turn prompt's evaluation included). */
  readonly generationMs: number;
  /** Grammar construction in the worker (cached per grammar). */
  readonly grammarMs: number;
  /** Tokens generated. */
  readonly tokens: number;
  /** Prompt tokens evaluated for this turn (the fixed part was already in the sequence). */
  readonly promptTokens?: number;
  /** CPU threads the generation began with (fewer than configured while other processes keep cores busy). */
  readonly threads?: number;
  readonly seed: number;
}

/** How one decision is generated. */
export interface DecisionSettings {
  /** The fixed prompt, already in the sequence when all went well (llamaPrompt.ts). */
  readonly systemPrompt: string;
  readonly seed: number;
  /** Story root, for plan validation. */
  readonly root: string;
  readonly promptBudget?: Partial<DecisionPromptBudget> | undefined;
  /** Generated tokens at most. Default: what the longest allowed answer needs (decisionMaxTokens). */
  readonly maxTokens?: number | undefined;
  /** Default 0: a decision is the model's most likely one. */
  readonly temperature?: number | undefined;
}

/** A decision: the scripts chosen and their valid plan, or why there is none. */
export type Decision =
  | { readonly ok: true; readonly plan: Plan; readonly chosen: readonly string[]; readonly generated: GeneratedResponse }
  | { readonly ok: false; readonly reason: string };

/** Asks the model which scripts run, under the grammar of the request's allowed scripts, and composes and validates their plan. Rejects on a worker failure. */
export async function decideWithModel(client: ModelWorkerClient, request: PlanRequest, settings: DecisionSettings, signal: AbortSignal): Promise<Decision> {
  const budget = { ...DEFAULT_DECISION_BUDGET, ...settings.promptBudget };
  const candidates = decisionCandidates(request);
  const generated = await client.generate(
    {
      systemPrompt: settings.systemPrompt,
      prompt: buildDecisionUserPrompt(request, candidates, budget),
      grammarText: buildDecisionGbnf(request),
      maxTokens: settings.maxTokens ?? decisionMaxTokens(request),
      seed: settings.seed,
      temperature: settings.temperature ?? 0,
    },
    signal,
  );
  const chosen = decidedScripts(generated.value, request);
  const promptTokens = generated.promptTokens !== undefined ? { promptTokens: generated.promptTokens } : {};
  const plan = planFromDecision(request, chosen, { candidates, chosen, ...promptTokens, generatedTokens: generated.tokens });
  const validation = await validatePlanValue(plan, { root: settings.root, checkToolPaths: false });
  if (!validation.valid) {
    const errors = validation.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').slice(0, 3);
    return { ok: false, reason: `invalid plan: ${errors.map((diagnostic) => `${diagnostic.code} ${diagnostic.message}`).join('; ')}` };
  }
  return { ok: true, plan, chosen, generated };
}

/** The timings of a generation whose turn began at `started` (performance.now()). */
export function generationTimings(generated: GeneratedResponse, started: number, seed: number): LlmGenerationTimings {
  return {
    totalMs: performance.now() - started,
    generationMs: generated.generationMs,
    grammarMs: generated.grammarMs,
    tokens: generated.tokens,
    ...(generated.promptTokens !== undefined ? { promptTokens: generated.promptTokens } : {}),
    ...(generated.threads !== undefined ? { threads: generated.threads } : {}),
    seed,
  };
}
