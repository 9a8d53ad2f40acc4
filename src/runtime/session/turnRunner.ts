// One player turn: the replan loop (docs/design-rules.md#the-replan-loop) around the narrator and the executor.
import { startPlanRun, type ExecutePlanOptions, type PlanRun } from '../executor/planExecutor.js';
import { invalidPlanResult } from '../executor/resultBuilder.js';
import type { ExecutionResult } from '../contractTypes/executionResult.js';
import type { Plan } from '../contractTypes/plan.js';
import type { GeneratedPlan, Narrator } from '../narrator/index.js';
import type { NarratorSkill } from '../skills/skillTypes.js';
import { skillNameOfPath } from '../validation/toolPathPolicy.js';
import { validatePlanValue } from '../validation/validatePlan.js';
import { describeFailure, fallbackNarration, summarizeTurn } from './turnOutcome.js';
import { disabledReasonsOf } from './disabledReasons.js';
import { DEFAULT_PLAN_TIMEOUT_MS } from '../contractTypes/plan.js';
import type { AttemptLogEntry, TurnAttempt, TurnResult } from './turnTypes.js';
import type { Reflection } from '../executor/reflection.js';
import { deriveSeed, randomSeed, seededRandom } from '../common/seed.js';
import type { StoryContext } from '../campaign/play/storyContext.js';

/** docs/design-rules.md#the-replan-loop: at most five generations per player input. */
export const MAX_PLAN_ATTEMPTS = 5;

/** The default bound of a whole turn (every generation and run of the replan loop): two default plan timeouts. */
export const DEFAULT_TURN_BUDGET_MS = 2 * DEFAULT_PLAN_TIMEOUT_MS;

/** What the turn needs from the skills framework (the SkillRegistry implements it). */
export interface SkillSource {
  /** Skills the narrator may use right now. */
  narratorSkills(): readonly NarratorSkill[];
  /** Skills disabled by the user or in permanent failure. */
  disabledSkills(): readonly string[];
  /** Feeds a run's tool results into skill health. */
  recordExecution(result: ExecutionResult): void;
}

export interface TurnOptions {
  readonly narrator: Narrator;
  readonly skills: SkillSource;
  /** Session state before the turn. */
  readonly state: Record<string, unknown>;
  /** Executor settings (root, timeouts, concurrency, skill context…); initialState, signal and attemptNumber are set per attempt. */
  readonly execution: ExecutePlanOptions;
  readonly maxAttempts?: number | undefined;
  /** Lets tools that need more context get new steps from the same narrator (docs/plan-json-and-protocol.md#re-planning-for-more-context). Default true. */
  readonly rePlanning?: boolean | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Every attempt as a JSON-line-ready record (docs/design-rules.md#the-attempt-log). */
  readonly onAttemptLogged?: ((entry: AttemptLogEntry) => void) | undefined;
  /** Each plan run as it starts, for live views. */
  readonly onPlanRunStarted?: ((run: PlanRun, attempt: number, generated: GeneratedPlan) => void) | undefined;
  /** Picks the fallback template (default: drawn from the turn's seed). */
  readonly random?: (() => number) | undefined;
  /**
   * The turn's seed: each attempt's plan run derives its seed from it (and each tool its NARRATORIA_SEED), and the
   * fallback template is picked by it, so the same seed plays the same turn. Default: a fresh one.
   */
  readonly seed?: number | undefined;
  /**
   * Bounds the whole replan loop, in milliseconds (default {@link DEFAULT_TURN_BUDGET_MS}): each attempt's plan
   * timeout is cut to what is left, and no attempt starts once it is spent; the template fallback then tells the turn.
   */
  readonly turnBudgetMs?: number | undefined;
  /** The campaign's context of the scene (a campaign session): every plan request carries it. */
  readonly story?: StoryContext | undefined;
}

/** Plays one input to a narration. Never throws for skill, narrator or plan failures. */
export async function runTurn(input: string, options: TurnOptions): Promise<TurnResult> {
  const started = new Date();
  const maxAttempts = Math.min(options.maxAttempts ?? MAX_PLAN_ATTEMPTS, MAX_PLAN_ATTEMPTS);
  const turnSeed = options.seed ?? randomSeed();
  const attempts: TurnAttempt[] = [];
  const loopDisabled = new Set<string>();
  /** Why the loop disabled each skill ("cross timed out after 3.0 s"). */
  const disabledReasons = new Map<string, string>();
  let parentPlanId: string | null = null;
  let feedback: string | undefined;
  const budgetMs = options.turnBudgetMs ?? DEFAULT_TURN_BUDGET_MS;
  const deadline = performance.now() + budgetMs;
  let budgetSpent = false;

  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (options.signal?.aborted) break;
    if (deadline - performance.now() <= 0) {
      budgetSpent = true;
      break;
    }
    const userDisabled = options.skills.disabledSkills();
    const disabled = [...new Set([...userDisabled, ...loopDisabled])].sort();
    const all = options.skills.narratorSkills();
    const skills = all.filter((skill) => !disabled.includes(skill.name));
    // The LLM narrator's fixed prompt describes the same skills on every attempt of the turn: a skill disabled by
    // the replan loop stays in it (the decision's grammar leaves it out), so the evaluated prompt is reused.
    const catalog = loopDisabled.size === 0 ? skills : all.filter((skill) => !userDisabled.includes(skill.name));
    const generationStarted = performance.now();
    let generated: GeneratedPlan;
    try {
      generated = await options.narrator.generatePlan({
        input,
        skills,
        catalog,
        disabledSkills: disabled,
        attempt,
        parentPlanId,
        ...(feedback !== undefined ? { feedback } : {}),
        state: options.state,
        ...(options.story ? { story: options.story } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      // A narrator that throws is a failed attempt, fed back like an invalid plan.
      feedback = `the narrator failed: ${error instanceof Error ? error.message : String(error)}`;
      log(options, {
        attempt,
        planId: null,
        parentPlanId,
        narrator: options.narrator.kind === 'llm' ? 'llm' : 'pattern',
        skills: [],
        outcome: 'invalid',
        failedTools: [],
        retryCounts: {},
        disabledSkills: disabled,
        durationMs: performance.now() - generationStarted,
        feedback,
      });
      continue;
    }
    const plan = generated.plan;
    const usesDisabled = plan.tools
      .map((tool) => skillNameOfPath(tool.toolPath))
      .filter((skill): skill is string => skill !== null && disabled.includes(skill));
    let result: ExecutionResult;
    if (usesDisabled.length > 0) {
      const validation = await validatePlanValue(plan, { root: options.execution.root, checkToolPaths: false });
      result = invalidPlanResult(
        plan,
        [
          ...validation.diagnostics,
          {
            severity: 'error',
            code: 'PLAN_USES_DISABLED_SKILL',
            message: `the plan uses disabled skill(s): ${[...new Set(usesDisabled)].join(', ')}`,
            pointer: '/tools',
          },
        ],
        new Date(),
        attempt,
      );
    } else {
      // The plan's own timeout, cut to what is left of the turn's budget.
      const left = Math.max(1, Math.floor(deadline - performance.now()));
      const planTimeoutMs = Math.min(options.execution.planTimeoutMs ?? plan.timeoutMs ?? DEFAULT_PLAN_TIMEOUT_MS, left);
      const run = startPlanRun(plan, {
        ...options.execution,
        planTimeoutMs,
        initialState: options.state,
        attemptNumber: attempt,
        seed: deriveSeed(turnSeed, 'attempt', attempt),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.rePlanning === false ? {} : { rePlanner: rePlannerFor(options, input, skills, disabled, attempt) }),
      });
      options.onPlanRunStarted?.(run, attempt, generated);
      result = await run.result;
      options.skills.recordExecution(result);
    }
    const outcome = result.success
      ? 'success'
      : result.status === 'cancelled'
        ? 'cancelled'
        : result.toolResults.length === 0 && !result.success
          ? 'invalid'
          : 'failed';
    attempts.push({
      attempt,
      narrator: generated.narrator,
      ...(generated.fallbackReason ? { fallbackReason: generated.fallbackReason } : {}),
      generationMs: Math.round(generated.generationMs),
      plan,
      result,
      outcome,
      disabledSkills: disabled,
    });
    log(options, {
      attempt,
      planId: plan.requestId,
      parentPlanId,
      narrator: generated.narrator,
      ...(generated.fallbackReason ? { fallbackReason: generated.fallbackReason } : {}),
      skills: [...new Set(plan.tools.map((tool) => skillNameOfPath(tool.toolPath) ?? tool.toolPath))],
      outcome,
      failedTools: [...result.failedTools],
      retryCounts: Object.fromEntries(result.toolResults.map((tool) => [tool.toolId, tool.retryCount ?? 0])),
      disabledSkills: disabled,
      durationMs: performance.now() - generationStarted,
      ...(feedback !== undefined ? { feedback } : {}),
    });
    if (result.success) return withReflection(withReasons(summarizeTurn(input, options.state, attempts, started, false), disabledReasons), options, input);
    if (!result.canReplan) break;
    for (const skill of result.disabledSkills) loopDisabled.add(skill);
    for (const [skill, reason] of disabledReasonsOf(result)) if (!disabledReasons.has(skill)) disabledReasons.set(skill, reason);
    parentPlanId = plan.requestId;
    feedback = describeFailure(result);
  }
  const cancelled = options.signal?.aborted === true || attempts.at(-1)?.outcome === 'cancelled';
  const summary = summarizeTurn(
    input,
    options.state,
    attempts,
    started,
    true,
    fallbackNarration(options.random ?? seededRandom(deriveSeed(turnSeed, 'fallback')), cancelled),
    cancelled,
  );
  const fallback = withReasons(budgetSpent && !cancelled ? { ...summary, budgetSpentMs: budgetMs } : summary, disabledReasons);
  return cancelled ? fallback : withReflection(fallback, options, input);
}

/** The turn with the reasons its skills were disabled, when the loop disabled any. */
function withReasons(turn: TurnResult, reasons: ReadonlyMap<string, string>): TurnResult {
  return reasons.size === 0 ? turn : { ...turn, disabledReasons: Object.fromEntries(reasons) };
}

/** Attaches the last attempt's reflection; the narrator rewrites it when the model wrote that attempt's plan. */
async function withReflection(turn: TurnResult, options: TurnOptions, input: string): Promise<TurnResult> {
  const last = turn.attempts.at(-1);
  const rules = last?.result.reflection as Reflection | undefined;
  if (!last || !rules) return turn;
  const written =
    last.narrator === 'llm' && options.narrator.reflect
      ? await options.narrator.reflect({ input, reflection: rules, ...(options.signal ? { signal: options.signal } : {}) }).catch(() => undefined)
      : undefined;
  return { ...turn, reflection: written ?? rules };
}

/** Re-planning (docs/plan-json-and-protocol.md#re-planning-for-more-context) through the turn's narrator: the context becomes the narrator's input. */
function rePlannerFor(options: TurnOptions, input: string, skills: readonly NarratorSkill[], disabled: readonly string[], attempt: number) {
  return async (context: { prompt: string; plan: Plan; signal: AbortSignal }) => {
    const generated = await options.narrator.generatePlan({
      input: `${input}\n\n${context.prompt}`,
      skills,
      disabledSkills: disabled,
      attempt,
      parentPlanId: context.plan.requestId,
      state: options.state,
      ...(options.story ? { story: options.story } : {}),
      signal: context.signal,
    });
    return generated.plan.tools;
  };
}

function log(options: TurnOptions, entry: Omit<AttemptLogEntry, 'timestamp'>): void {
  options.onAttemptLogged?.({ timestamp: new Date().toISOString(), ...entry, durationMs: Math.round(entry.durationMs) });
}
