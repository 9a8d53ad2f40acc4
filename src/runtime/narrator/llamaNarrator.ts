// The LLM narrator: a local model decides which scripts run, within a time budget, falling back to another narrator on any failure (docs/design-rules.md#the-narrator).
import { throwIfAborted } from '../common/errors.js';
import { Emitter, type Event } from '../common/event.js';
import type { Reflection } from '../executor/reflection.js';
import type { NarratorSkill } from '../skills/skillTypes.js';
import { GENERATION_BUDGET_MS, type GeneratedPlan, type Narrator, type PlanRequest, type ReflectionRequest } from './index.js';
import { failureReason, PREPARATION_ALLOWANCE_MS, withinAllowances, type Outcome } from './llamaBudget.js';
import { decideWithModel, generationTimings, type LlmGenerationTimings } from './llamaDecision.js';
import { LocalModel } from './llamaModel.js';
import { FixedPrompt, type PromptPreparation } from './llamaPrompt.js';
import { reflectWithModel } from './llamaReflection.js';
import type { ModelLoading } from './modelLoading.js';
import type { ModelFileExpectation } from './modelStore.js';
import type { WorkerCommand } from './modelWorkerClient.js';
import type { MemoryResponse } from './modelWorkerProtocol.js';
import { openModelEndpoint, RETELLING_SYSTEM_PROMPT, retellingUserPrompt, type ModelEndpoint, type RetellRequest } from './modelEndpoint.js';
import type { DecisionPromptBudget } from './narratorDecision.js';

/** Options of {@link LlamaNarrator}. */
export interface LlamaNarratorOptions {
  /** The GGUF file (see modelStore.ts for the cached default model). */
  readonly modelPath: string;
  /** Story root, for plan validation. */
  readonly root: string;
  /** Used whenever the model cannot give a valid plan in time (docs/design-rules.md#falling-back). Not disposed by this narrator. */
  readonly fallback: Narrator;
  /** Published size/SHA-256 of the model file, checked before loading (the GGUF header is always checked). */
  readonly expected?: ModelFileExpectation;
  /** How to start the worker. Default: `dist/modelWorker.cjs` beside the bundle, or modelWorker.ts through tsx from sources. */
  readonly workerCommand?: WorkerCommand;
  /** Per-generation budget (docs/design-rules.md#the-generation-budget). Default GENERATION_BUDGET_MS. */
  readonly budgetMs?: number;
  /** CPU threads, always; default from the cores and the model's size (defaultThreads in llamaModel.ts), fewer while other processes keep cores busy. */
  readonly threads?: number;
  /** Flash attention; default off (on a CPU it made each token 2-4x slower, measured). */
  readonly flashAttention?: boolean;
  /** The decision context's cells; default: sized to the fixed prompt and a turn (contextSizing.ts). */
  readonly contextSize?: number;
  /** How the worker holds the weights and the KV cache (modelLoading.ts). Default: NARRATORIA_MODEL_LOADING's words over the default. */
  readonly loading?: ModelLoading;
  /** Generated tokens per decision at most. Default: what the longest allowed answer needs (decisionMaxTokens). */
  readonly maxTokens?: number;
  /** Seed of the first generation; generation n uses seed + n. Default 1. */
  readonly seed?: number;
  /** Default 0: a decision is the model's most likely one. */
  readonly temperature?: number;
  readonly promptBudget?: Partial<DecisionPromptBudget>;
  /**
   * How long loading the model and putting its fixed prompt in the sequence may hold a turn before it falls back (the
   * work goes on). Default PREPARATION_ALLOWANCE_MS.
   */
  readonly preparationMs?: number;
  /**
   * Whether the model rewrites the rule-based reflection after a turn it planned. Default false: on a CPU it is
   * another 60-200 generated tokens (10-40 s) on the turn's path, for text the rules already give.
   */
  readonly modelReflections?: boolean;
  /** Where the evaluated fixed prompt is persisted (promptCache.ts); false: not persisted. Default promptCacheDirectory(). */
  readonly promptCache?: string | false;
  readonly onLog?: (message: string) => void;
}

/**
 * Generates plans with a local model. The model is verified (header, size and hash when known) before the
 * worker loads it; a load outlives a generation's budget so the next turn finds it ready. Every failure (no
 * model, invalid model, worker crash, timeout, output that is not a valid plan) becomes a fallback plan
 * with `fallbackReason` "<code>: <detail>" (codes: no model, invalid model, worker crashed, model error, timeout, invalid plan).
 */
export class LlamaNarrator implements Narrator {
  readonly kind = 'llm' as const;
  private readonly model: LocalModel;
  private readonly prompt: FixedPrompt;
  private readonly generatedEmitter = new Emitter<LlmGenerationTimings>();
  private generations = 0;
  private endpoint: Promise<ModelEndpoint> | undefined;
  /** Fires when the fixed prompt has been put in the sequence (evaluated, loaded from the cache file, or found in memory). */
  readonly onDidPreparePrompt: Event<PromptPreparation>;

  /** Fires after each successful LLM generation. */
  readonly onDidGeneratePlan: Event<LlmGenerationTimings> = this.generatedEmitter.event;

  constructor(private readonly options: LlamaNarratorOptions) {
    const log = (message: string): void => this.log(message);
    this.model = new LocalModel(options, log);
    this.prompt = new FixedPrompt(this.model, options, log);
    this.onDidPreparePrompt = this.prompt.onDidPrepare;
  }

  /**
   * Verifies and loads the model ahead of the first generation and, given the skills, evaluates the fixed prompt
   * (or loads it from the cache) while the author reads. Resolves with a failure reason, or undefined when ready.
   */
  async prepare(skills?: readonly NarratorSkill[]): Promise<string | undefined> {
    const outcome = await this.model.ensureLoaded();
    if (outcome && !outcome.ok) return outcome.reason;
    if (skills) await this.prompt.ensure(this.prompt.textFor(skills));
    // Skill scripts may ask for retellings: their fixed prompt too, while the author reads (a turn sent meanwhile waits
    // for it, ~50 tokens). Only speed depends on it.
    if (skills && this.endpoint) {
      await this.model.client
        .prefix({ systemPrompt: RETELLING_SYSTEM_PROMPT, sequence: 'retelling' })
        .catch((error: unknown) => this.log(`retelling prompt not prepared: ${failureReason(error)}`));
    }
    return undefined;
  }

  async generatePlan(request: PlanRequest): Promise<GeneratedPlan> {
    const started = performance.now();
    throwIfAborted(request.signal);
    const systemPrompt = this.prompt.textFor(request.catalog ?? request.skills, request.story);
    const work = {
      ready: () => this.ready(systemPrompt),
      decide: (budget: AbortSignal) => this.decide(request, systemPrompt, budget, started),
    };
    const allowances = { preparationMs: this.options.preparationMs ?? PREPARATION_ALLOWANCE_MS, budgetMs: this.options.budgetMs ?? GENERATION_BUDGET_MS };
    const outcome = await withinAllowances(work, allowances, started, request.signal);
    throwIfAborted(request.signal);
    if (outcome.ok) return { plan: outcome.plan, narrator: 'llm', generationMs: performance.now() - started };
    this.log(`falling back: ${outcome.reason}`);
    const fallback = await this.options.fallback.generatePlan(request);
    return { ...fallback, fallbackReason: outcome.reason, generationMs: performance.now() - started };
  }

  /**
   * The LLM reflection (docs/plan-json-and-protocol.md#reflection), within the generation budget, when
   * `modelReflections` asks for it. Undefined on any failure.
   */
  async reflect(request: ReflectionRequest): Promise<Reflection | undefined> {
    if (!this.options.modelReflections) return undefined;
    const budgetMs = this.options.budgetMs ?? GENERATION_BUDGET_MS;
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(), budgetMs);
    const stop = (): void => budget.abort();
    request.signal?.addEventListener('abort', stop, { once: true });
    try {
      if (await this.model.ensureLoaded()) return undefined;
      return await reflectWithModel(this.model.client, request, this.nextSeed(), this.options.temperature ?? 0.3, budget.signal);
    } catch (error) {
      this.log(`no reflection: ${failureReason(error)}`);
      return undefined;
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', stop);
    }
  }

  /**
   * Retells a text in free words on the retelling context (never the decision's, whose evaluated prompt stays), the
   * text streaming to `onChunk` as it is written. Waits for a model load in progress; rejects on any failure.
   */
  async retell(
    request: RetellRequest,
    onChunk: (text: string) => void,
    signal: AbortSignal,
  ): Promise<{ readonly text: string; readonly tokens: number; readonly promptTokens?: number }> {
    const loaded = await this.model.ensureLoaded();
    if (loaded && !loaded.ok) throw new Error(loaded.reason);
    throwIfAborted(signal);
    const generated = await this.model.client.generate(
      {
        systemPrompt: RETELLING_SYSTEM_PROMPT,
        prompt: retellingUserPrompt(request),
        maxTokens: request.maxTokens,
        seed: request.seed,
        temperature: request.temperature,
        sequence: 'retelling',
      },
      signal,
      onChunk,
    );
    return { text: generated.text, tokens: generated.tokens, ...(generated.promptTokens !== undefined ? { promptTokens: generated.promptTokens } : {}) };
  }

  /**
   * Opens (once) the endpoint through which skill scripts use this narrator's model (NARRATORIA_MODEL_ENDPOINT): the
   * storyteller's local retelling streams from the model already loaded, instead of loading its own.
   */
  async openEndpoint(): Promise<string> {
    this.endpoint ??= openModelEndpoint((request, onChunk, signal) => this.retell(request, onChunk, signal));
    return (await this.endpoint).address;
  }

  /** The model worker's memory now and at its peak, and what llama.cpp allocated; undefined when no worker runs. */
  memory(): Promise<MemoryResponse | undefined> {
    return this.model.client.memory();
  }

  /** How the worker holds the model (the option, or NARRATORIA_MODEL_LOADING's words over the default). */
  get loading(): ModelLoading {
    return this.model.loading;
  }

  /** How many worker processes were started (1 + restarts after a crash or a kill). */
  get workerStarts(): number {
    return this.model.client.startCount;
  }

  /** Whether a fixed prompt is being evaluated or saved now. */
  get preparingPrompt(): boolean {
    return this.prompt.pending;
  }

  /** Resolves when no fixed prompt is being evaluated or saved (at most `timeoutMs`): a process about to exit lets the next one find it. */
  settle(timeoutMs: number): Promise<void> {
    return this.prompt.settle(timeoutMs);
  }

  async dispose(): Promise<void> {
    this.generatedEmitter.dispose();
    this.prompt.dispose();
    const endpoint = this.endpoint;
    this.endpoint = undefined;
    await endpoint?.then(
      (opened) => opened.dispose(),
      () => undefined,
    );
    await this.model.dispose();
  }

  /**
   * The model loaded, the fixed prompt in its sequence, and the worker free (a cancelled decision may still be in
   * its last decode step). A failure to load is an Outcome; a failure to prepare the prompt only costs speed.
   */
  private async ready(systemPrompt: string): Promise<Outcome | undefined> {
    const loaded = await this.model.ensureLoaded();
    if (loaded) return loaded;
    await this.prompt.ensure(systemPrompt);
    await this.model.client.whenIdle();
    return undefined;
  }

  /** Never rejects: every failure is an Outcome (the budget race may have settled already). */
  private async decide(request: PlanRequest, systemPrompt: string, signal: AbortSignal, started: number): Promise<Outcome> {
    try {
      const loaded = await this.model.ensureLoaded();
      if (loaded) return loaded;
      const seed = this.nextSeed();
      const { root, promptBudget, maxTokens, temperature } = this.options;
      const decision = await decideWithModel(this.model.client, request, { systemPrompt, seed, root, promptBudget, maxTokens, temperature }, signal);
      if (!decision.ok) return decision;
      const timings = generationTimings(decision.generated, started, seed);
      const tokens = `${timings.promptTokens ?? '?'} prompt and ${timings.tokens} generated tokens${timings.threads ? `, ${timings.threads} threads` : ''}`;
      this.log(
        `decision [${decision.chosen.join(', ')}] in ${timings.totalMs.toFixed(0)} ms (generation ${timings.generationMs.toFixed(0)} ms, ${tokens}, seed ${seed})`,
      );
      this.generatedEmitter.fire(timings);
      return { ok: true, plan: decision.plan };
    } catch (error) {
      return { ok: false, reason: failureReason(error) };
    }
  }

  /** The seed of the next generation: `seed` + n. */
  private nextSeed(): number {
    return (this.options.seed ?? 1) + this.generations++;
  }

  private log(message: string): void {
    this.options.onLog?.(`llm narrator: ${message}`);
  }
}
