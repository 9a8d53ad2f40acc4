// The LLM narrator: a local GGUF model in a worker process decides which scripts run (a short answer under a grammar of the available scripts), the plan is composed from that decision, within a time budget, falling back to another narrator on any failure (docs/design-rules.md#the-narrator). Never imports node-llama-cpp.
import { stat } from 'node:fs/promises';
import * as os from 'node:os';
import { bundledOrSourceFile } from '../common/bundledFile.js';
import { CancellationError, errorMessage, throwIfAborted } from '../common/errors.js';
import { Emitter, type Event } from '../common/event.js';
import type { Plan } from '../contractTypes/plan.js';
import { validatePlanValue } from '../validation/validatePlan.js';
import { GENERATION_BUDGET_MS, type GeneratedPlan, type Narrator, type PlanRequest, type ReflectionRequest } from './index.js';
import type { Reflection } from '../executor/reflection.js';
import { verifyModelFile, type ModelFileExpectation } from './modelStore.js';
import { ModelWorkerClient, ModelWorkerError, type WorkerCommand } from './modelWorkerClient.js';
import {
  buildDecisionGbnf,
  buildDecisionSystemPrompt,
  buildDecisionUserPrompt,
  decidedScripts,
  decisionCandidates,
  decisionMaxTokens,
  DEFAULT_DECISION_BUDGET,
  planFromDecision,
  type DecisionPromptBudget,
} from './narratorDecision.js';
import { openModelEndpoint, RETELLING_SYSTEM_PROMPT, retellingUserPrompt, type ModelEndpoint, type RetellRequest } from './modelEndpoint.js';
import { promptCacheDirectory, promptCacheFile, sweepPromptCache, touchPromptCache } from './promptCache.js';
import type { NarratorSkill } from '../skills/skillTypes.js';

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
  /** CPU threads; default {@link defaultThreads} from the cores and the model's size. */
  readonly threads?: number;
  /** Flash attention; default off (on a CPU it made each token 2-4x slower, measured). */
  readonly flashAttention?: boolean;
  readonly contextSize?: number;
  /** Generated tokens per decision at most. Default: what the longest allowed answer needs (decisionMaxTokens). */
  readonly maxTokens?: number;
  /** Seed of the first generation; generation n uses seed + n. Default 1. */
  readonly seed?: number;
  /** Default 0: a decision is the model's most likely one. */
  readonly temperature?: number;
  readonly promptBudget?: Partial<DecisionPromptBudget>;
  /** How long loading the model and putting its fixed prompt in the sequence may hold a turn before it falls back (the work goes on). Default PREPARATION_ALLOWANCE_MS. */
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
  readonly seed: number;
}

/** How the fixed prompt came to be evaluated in the sequence (for logs and benchmarks). */
export interface PromptPreparation {
  readonly tokens: number;
  readonly source: 'memory' | 'file' | 'evaluated';
  readonly ms: number;
  readonly cacheFile?: string;
  readonly savedBytes?: number;
}

type Outcome = { readonly ok: true; readonly plan: Plan } | { readonly ok: false; readonly reason: string };
type FileSignature = string;

/**
 * Generates plans with a local model. The model is verified (header, size and hash when known) before the
 * worker loads it; a load outlives a generation's budget so the next turn finds it ready. Every failure —
 * no model, invalid model, worker crash, timeout, output that is not a valid plan — becomes a fallback plan
 * with `fallbackReason` "<code>: <detail>" (codes: no model, invalid model, worker crashed, model error, timeout, invalid plan).
 */
export class LlamaNarrator implements Narrator {
  readonly kind = 'llm' as const;
  private readonly client: ModelWorkerClient;
  private readonly generatedEmitter = new Emitter<LlmGenerationTimings>();
  /** The load in progress, shared by concurrent callers. */
  private loading: Promise<Outcome | undefined> | undefined;
  /** startCount of the worker process that holds the model. */
  private loadedInWorker: number | undefined;
  private verified: { readonly signature: FileSignature; readonly failure: string | undefined } | undefined;
  private readonly crashedFiles = new Set<FileSignature>();
  private generations = 0;
  /** The llama.cpp release the worker reported (part of the prompt cache key). */
  private runtime = 'unknown';
  /** The fixed prompt the worker's sequence holds, per worker start. */
  private prefixed: { readonly startCount: number; readonly systemPrompt: string } | undefined;
  private preparing: Promise<PromptPreparation | undefined> | undefined;
  private readonly preparedEmitter = new Emitter<PromptPreparation>();
  private endpoint: Promise<ModelEndpoint> | undefined;
  /** Fires when the fixed prompt has been put in the sequence (evaluated, loaded from the cache file, or found in memory). */
  readonly onDidPreparePrompt: Event<PromptPreparation> = this.preparedEmitter.event;

  /** Fires after each successful LLM generation. */
  readonly onDidGeneratePlan: Event<LlmGenerationTimings> = this.generatedEmitter.event;

  constructor(private readonly options: LlamaNarratorOptions) {
    const onLog = options.onLog;
    this.client = new ModelWorkerClient({ command: options.workerCommand ?? defaultWorkerCommand(), ...(onLog ? { onLog } : {}) });
  }

  /**
   * Verifies and loads the model ahead of the first generation and, given the skills, evaluates the fixed prompt
   * (or loads it from the cache) while the author reads. Resolves with a failure reason, or undefined when ready.
   */
  async prepare(skills?: readonly NarratorSkill[]): Promise<string | undefined> {
    const outcome = await this.ensureLoaded();
    if (outcome && !outcome.ok) return outcome.reason;
    if (skills) await this.ensurePrompt(this.systemPromptFor(skills));
    // Skill scripts may ask for retellings: their fixed prompt too, while the author reads (a turn sent meanwhile waits
    // for it, ~50 tokens). Only speed depends on it.
    if (skills && this.endpoint) await this.client.prefix({ systemPrompt: RETELLING_SYSTEM_PROMPT, sequence: 'retelling' }).catch((error: unknown) => this.log(`retelling prompt not prepared: ${failureReason(error)}`));
    return undefined;
  }

  async generatePlan(request: PlanRequest): Promise<GeneratedPlan> {
    const started = performance.now();
    throwIfAborted(request.signal);
    const outcome = await this.generateWithinBudget(request, started);
    throwIfAborted(request.signal);
    if (outcome.ok) return { plan: outcome.plan, narrator: 'llm', generationMs: performance.now() - started };
    this.log(`falling back: ${outcome.reason}`);
    const fallback = await this.options.fallback.generatePlan(request);
    return { ...fallback, fallbackReason: outcome.reason, generationMs: performance.now() - started };
  }

  /**
   * The LLM reflection (docs/plan-json-and-protocol.md#reflection): turns the rule-based findings into a short summary and at most three
   * suggestions, grammar-constrained and within the generation budget. Undefined on any failure.
   */
  async reflect(request: ReflectionRequest): Promise<Reflection | undefined> {
    if (!this.options.modelReflections) return undefined;
    const budgetMs = this.options.budgetMs ?? GENERATION_BUDGET_MS;
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(), budgetMs);
    const stop = (): void => budget.abort();
    request.signal?.addEventListener('abort', stop, { once: true });
    try {
      if (await this.ensureLoaded()) return undefined;
      const findings = request.reflection.findings.slice(0, 8).map((finding) => `- ${finding.kind}: ${finding.message}`).join('\n') || '- everything succeeded';
      const generated = await this.client.generate(
        {
          systemPrompt: 'You review how an interactive-story turn was executed and advise the story author in plain words.',
          prompt: `Player input: ${request.input.slice(0, 300)}\nRun: ${request.reflection.summary}\nFindings:\n${findings}\nWrite a one-sentence summary and up to three short suggestions.`,
          grammarSchema: REFLECTION_SCHEMA,
          maxTokens: 200,
          seed: (this.options.seed ?? 1) + this.generations++,
          temperature: this.options.temperature ?? 0.3,
        },
        budget.signal,
      );
      const value = generated.value as { summary?: unknown; suggestions?: unknown };
      if (typeof value.summary !== 'string' || !Array.isArray(value.suggestions)) return undefined;
      const suggestions = value.suggestions.filter((entry): entry is string => typeof entry === 'string' && entry.trim().length > 0);
      return { source: 'llm', summary: value.summary.trim() || request.reflection.summary, findings: request.reflection.findings, suggestions };
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
  async retell(request: RetellRequest, onChunk: (text: string) => void, signal: AbortSignal): Promise<{ readonly text: string; readonly tokens: number; readonly promptTokens?: number }> {
    const loaded = await this.ensureLoaded();
    if (loaded && !loaded.ok) throw new Error(loaded.reason);
    throwIfAborted(signal);
    const generated = await this.client.generate(
      { systemPrompt: RETELLING_SYSTEM_PROMPT, prompt: retellingUserPrompt(request), maxTokens: request.maxTokens, seed: request.seed, temperature: request.temperature, sequence: 'retelling' },
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

  async dispose(): Promise<void> {
    this.generatedEmitter.dispose();
    this.preparedEmitter.dispose();
    const endpoint = this.endpoint;
    this.endpoint = undefined;
    await endpoint?.then((opened) => opened.dispose(), () => undefined);
    await this.client.dispose();
  }

  /**
   * Two allowances: getting ready (the model loaded, the fixed prompt in the sequence) within `preparationMs`, then
   * the decision within the budget (docs/design-rules.md#the-generation-budget). A preparation that runs over goes on in the background: the turn falls
   * back, and the next one finds the model ready.
   */
  private async generateWithinBudget(request: PlanRequest, started: number): Promise<Outcome> {
    const preparationMs = this.options.preparationMs ?? PREPARATION_ALLOWANCE_MS;
    const systemPrompt = this.systemPromptFor(request.catalog ?? request.skills);
    // Never rejects (a verification that throws is a failure like any other), even after the race is decided.
    const ready = this.ready(systemPrompt).catch((error: unknown): Outcome => ({ ok: false, reason: failureReason(error) }));
    let preparationTimer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<'aborted'>((resolve) => {
      onAbort = () => resolve('aborted');
      request.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const late = new Promise<'late'>((resolve) => {
      preparationTimer = setTimeout(() => resolve('late'), preparationMs);
    });
    const prepared = await Promise.race([ready, late, stopped]).finally(() => {
      clearTimeout(preparationTimer);
      if (onAbort) request.signal?.removeEventListener('abort', onAbort);
    });
    if (prepared === 'aborted') return { ok: false, reason: 'cancelled' };
    const readyMs = performance.now() - started;
    if (prepared === 'late') return { ok: false, reason: `timeout: the model was not ready within ${preparationMs} ms (it goes on loading: the next turn finds it ready)` };
    if (prepared) return prepared;

    const budgetMs = this.options.budgetMs ?? GENERATION_BUDGET_MS;
    const budget = new AbortController();
    const stop = (): void => budget.abort();
    const timer = setTimeout(stop, budgetMs);
    request.signal?.addEventListener('abort', stop, { once: true });
    const timedOut = new Promise<Outcome>((resolve) =>
      budget.signal.addEventListener('abort', () => resolve({ ok: false, reason: `timeout: no valid plan within ${budgetMs} ms (the model was ready after ${Math.round(readyMs)} ms)` }), { once: true }),
    );
    try {
      return await Promise.race([this.generateWithModel(request, systemPrompt, budget.signal, started), timedOut]);
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', stop);
      budget.abort();
    }
  }

  /** The model loaded and the fixed prompt in its sequence; a failure to load is an Outcome, a failure to prepare the prompt only costs speed. */
  private async ready(systemPrompt: string): Promise<Outcome | undefined> {
    const loaded = await this.ensureLoaded();
    if (loaded) return loaded;
    await this.ensurePrompt(systemPrompt);
    return undefined;
  }

  /** Whether a fixed prompt is being evaluated or saved now. */
  get preparingPrompt(): boolean {
    return this.preparing !== undefined;
  }

  /** Resolves when no fixed prompt is being evaluated or saved (at most `timeoutMs`): a process about to exit lets the next one find it. */
  async settle(timeoutMs: number): Promise<void> {
    const pending = this.preparing;
    if (!pending) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([pending.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  /** Never rejects: every failure is an Outcome (the budget race may have settled already). */
  private async generateWithModel(request: PlanRequest, systemPrompt: string, signal: AbortSignal, started: number): Promise<Outcome> {
    try {
      const budget = { ...DEFAULT_DECISION_BUDGET, ...this.options.promptBudget };
      const loaded = await this.ensureLoaded();
      if (loaded) return loaded;
      const candidates = decisionCandidates(request);
      const seed = (this.options.seed ?? 1) + this.generations++;
      const generated = await this.client.generate(
        {
          systemPrompt,
          prompt: buildDecisionUserPrompt(request, candidates, budget),
          grammarText: buildDecisionGbnf(request),
          maxTokens: this.options.maxTokens ?? decisionMaxTokens(request),
          seed,
          temperature: this.options.temperature ?? 0,
        },
        signal,
      );
      const chosen = decidedScripts(generated.value, request);
      const plan = planFromDecision(request, chosen, { candidates, chosen, ...(generated.promptTokens !== undefined ? { promptTokens: generated.promptTokens } : {}), generatedTokens: generated.tokens });
      const validation = await validatePlanValue(plan, { root: this.options.root, checkToolPaths: false });
      if (!validation.valid) {
        const errors = validation.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').slice(0, 3);
        return { ok: false, reason: `invalid plan: ${errors.map((diagnostic) => `${diagnostic.code} ${diagnostic.message}`).join('; ')}` };
      }
      const timings = {
        totalMs: performance.now() - started,
        generationMs: generated.generationMs,
        grammarMs: generated.grammarMs,
        tokens: generated.tokens,
        ...(generated.promptTokens !== undefined ? { promptTokens: generated.promptTokens } : {}),
        seed,
      };
      this.log(`decision [${chosen.join(', ')}] in ${timings.totalMs.toFixed(0)} ms (generation ${timings.generationMs.toFixed(0)} ms, ${timings.promptTokens ?? '?'} prompt and ${timings.tokens} generated tokens, seed ${seed})`);
      this.generatedEmitter.fire(timings);
      return { ok: true, plan };
    } catch (error) {
      return { ok: false, reason: failureReason(error) };
    }
  }

  /** The fixed prompt of a skill set: the same text every turn, so its evaluation is reused. */
  private systemPromptFor(skills: readonly NarratorSkill[]): string {
    return buildDecisionSystemPrompt(skills, { ...DEFAULT_DECISION_BUDGET, ...this.options.promptBudget });
  }

  /**
   * Puts the fixed prompt in the worker's sequence once per worker and prompt: from memory, from the persisted
   * cache, or evaluated (then persisted). A failure here only costs speed: the generation evaluates the prompt itself.
   */
  private async ensurePrompt(systemPrompt: string): Promise<PromptPreparation | undefined> {
    if (!this.preparing && this.prefixed?.startCount === this.client.startCount && this.prefixed.systemPrompt === systemPrompt && this.client.running) return undefined;
    const previous = this.preparing;
    if (previous) await previous;
    if (this.prefixed?.startCount === this.client.startCount && this.prefixed.systemPrompt === systemPrompt && this.client.running) return undefined;
    const preparing = this.preparePrompt(systemPrompt);
    this.preparing = preparing;
    try {
      return await preparing;
    } finally {
      if (this.preparing === preparing) this.preparing = undefined;
    }
  }

  private async preparePrompt(systemPrompt: string): Promise<PromptPreparation | undefined> {
    // While another prompt is being put in the sequence, the one it held is no longer there.
    this.prefixed = undefined;
    const directory = this.options.promptCache === false ? undefined : this.options.promptCache ?? promptCacheDirectory();
    let cacheFile: string | undefined;
    if (directory !== undefined) {
      try {
        const file = await stat(this.options.modelPath);
        cacheFile = promptCacheFile(
          { modelPath: this.options.modelPath, modelSize: file.size, modelMtimeMs: file.mtimeMs, contextSize: this.options.contextSize ?? DEFAULT_CONTEXT_SIZE, flashAttention: this.options.flashAttention ?? false, runtime: this.runtime, systemPrompt },
          directory,
        );
      } catch {
        cacheFile = undefined;
      }
    }
    const startCount = this.client.startCount;
    try {
      const prefixed = await this.client.prefix({ systemPrompt, ...(cacheFile ? { cacheFile } : {}) });
      this.prefixed = { startCount, systemPrompt };
      if (cacheFile && prefixed.source === 'file') touchPromptCache(cacheFile);
      if (cacheFile && directory) sweepPromptCache(directory, cacheFile);
      const preparation: PromptPreparation = { tokens: prefixed.tokens, source: prefixed.source, ms: prefixed.ms, ...(cacheFile ? { cacheFile } : {}), ...(prefixed.savedBytes !== undefined ? { savedBytes: prefixed.savedBytes } : {}) };
      this.log(`fixed prompt of ${prefixed.tokens} tokens ${prefixed.source === 'file' ? 'loaded from the prompt cache' : prefixed.source === 'memory' ? 'already evaluated' : 'evaluated'} in ${prefixed.ms.toFixed(0)} ms`);
      this.preparedEmitter.fire(preparation);
      return preparation;
    } catch (error) {
      this.log(`the fixed prompt was not prepared (${failureReason(error)}): the generation evaluates it`);
      return undefined;
    }
  }

  /** Verifies the file and loads it in the worker once per worker process; undefined when ready, else a failure. */
  private ensureLoaded(): Promise<Outcome | undefined> {
    if (this.loadedInWorker === this.client.startCount && this.client.running) return Promise.resolve(undefined);
    this.loading ??= this.verifyAndLoad().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async verifyAndLoad(): Promise<Outcome | undefined> {
    const { modelPath } = this.options;
    let signature: FileSignature;
    try {
      const file = await stat(modelPath);
      signature = `${file.size}:${file.mtimeMs}`;
    } catch {
      return { ok: false, reason: `no model: ${modelPath} does not exist` };
    }
    if (this.crashedFiles.has(signature)) return { ok: false, reason: `invalid model: ${modelPath} crashed the model worker while loading` };
    if (this.verified?.signature !== signature) {
      const verification = await verifyModelFile(modelPath, this.options.expected ?? {});
      this.verified = { signature, failure: verification.ok ? undefined : `invalid model: ${verification.message}` };
    }
    if (this.verified.failure) return { ok: false, reason: this.verified.failure };
    try {
      const file = await stat(modelPath);
      const loaded = await this.client.load({
        modelPath,
        contextSize: this.options.contextSize ?? DEFAULT_CONTEXT_SIZE,
        threads: this.options.threads ?? defaultThreads(file.size),
        flashAttention: this.options.flashAttention ?? false,
      });
      this.loadedInWorker = this.client.startCount;
      this.runtime = loaded.runtime ?? 'unknown';
      this.log(`model loaded in ${loaded.loadMs.toFixed(0)} ms (binding ${loaded.bindingMs.toFixed(0)} ms, context ${loaded.contextSize})`);
      return undefined;
    } catch (error) {
      if (error instanceof ModelWorkerError && error.code === 'exited') this.crashedFiles.add(signature);
      return { ok: false, reason: failureReason(error) };
    }
  }

  private log(message: string): void {
    this.options.onLog?.(`llm narrator: ${message}`);
  }
}

function failureReason(error: unknown): string {
  if (error instanceof CancellationError) return 'timeout: generation cancelled by the budget';
  if (!(error instanceof ModelWorkerError)) return `model error: ${errorMessage(error)}`;
  switch (error.code) {
    case 'exited':
      return `worker crashed: ${error.message}`;
    case 'aborted':
      return `timeout: ${error.message}`;
    case 'bad_output':
      return `invalid plan: the output does not match the grammar (${error.message})`;
    default:
      return `model error: ${error.message}`;
  }
}

/** The grammar of a model-written reflection: bounded so greedy decoding always ends. */
const REFLECTION_SCHEMA = {
  type: 'object',
  properties: {
    summary: { type: 'string', maxLength: 240 },
    suggestions: { type: 'array', items: { type: 'string', maxLength: 160 }, maxItems: 3 },
  },
  required: ['summary', 'suggestions'],
} as const;

/**
 * How long getting ready may hold a turn: a Phi-3.5-mini load (2-7 s) and its persisted prompt (~1 s) fit; a first
 * evaluation of the prompt (about a minute on a 2-core CPU) does not, and goes on in the background.
 */
export const PREPARATION_ALLOWANCE_MS = 20_000;

/** The context: the fixed prompt (~1,300 tokens with the sample skills' guides), a turn's text and the decision. */
const DEFAULT_CONTEXT_SIZE = 2048;
/** Below this size a model is a test fixture: one thread (more only contend; auto threads took 15 s for a tiny model). */
const SMALL_MODEL_BYTES = 256 * 1024 * 1024;

/**
 * Threads from the cores and the model's size: a real model is bound by memory bandwidth and uses every core up to
 * four (on this 2-core machine, 2 threads with flash attention off decoded 3-4x faster than 1 thread with it on); a
 * tiny one, one thread.
 */
export function defaultThreads(modelBytes: number, cores: number = os.availableParallelism()): number {
  if (modelBytes < SMALL_MODEL_BYTES) return 1;
  return Math.max(1, Math.min(4, cores));
}

/** The bundled worker beside a CommonJS bundle, or the TypeScript source through tsx when running from sources. */
export function defaultWorkerCommand(): WorkerCommand {
  const script = modelWorkerScript();
  return script.endsWith('.cjs') ? { command: process.execPath, args: [script] } : { command: process.execPath, args: ['--import', 'tsx', script] };
}

/** The model worker's script: dist/modelWorker.cjs beside the bundle, or modelWorker.ts when run from sources. */
export function modelWorkerScript(): string {
  return bundledOrSourceFile('modelWorker.cjs', './modelWorker.ts', import.meta.url);
}
