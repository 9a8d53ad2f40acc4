// The LLM narrator: plans with a local GGUF model in a worker process under a grammar of the available scripts, within a time budget, falling back to another narrator on any failure (FR-001..FR-010). Never imports node-llama-cpp.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CancellationError, errorMessage, throwIfAborted } from '../common/errors.js';
import { Emitter, type Event } from '../common/event.js';
import type { Plan } from '../model/plan.js';
import { validatePlanValue } from '../validation/validatePlan.js';
import { GENERATION_BUDGET_MS, type GeneratedPlan, type Narrator, type PlanRequest, type ReflectionRequest } from './index.js';
import type { Reflection } from '../executor/reflection.js';
import { verifyModelFile, type ModelFileExpectation } from './modelStore.js';
import { ModelWorkerClient, ModelWorkerError, type WorkerCommand } from './modelWorkerClient.js';
import { buildNarratorPrompt, DEFAULT_PROMPT_BUDGET, type NarratorPromptBudget } from './narratorPrompt.js';
import { buildPlanGrammar, DEFAULT_GRAMMAR_LIMITS, planFromModelOutput, type PlanGrammarLimits } from './planGrammar.js';

/** Options of {@link LlamaNarrator}. */
export interface LlamaNarratorOptions {
  /** The GGUF file (see modelStore.ts for the cached default model). */
  readonly modelPath: string;
  /** Story root, for plan validation. */
  readonly root: string;
  /** Used whenever the model cannot give a valid plan in time (FR-005). Not disposed by this narrator. */
  readonly fallback: Narrator;
  /** Published size/SHA-256 of the model file, checked before loading (the GGUF header is always checked). */
  readonly expected?: ModelFileExpectation;
  /** How to start the worker. Default: `dist/modelWorker.cjs` beside the bundle, or modelWorker.ts through tsx from sources. */
  readonly workerCommand?: WorkerCommand;
  /** Per-generation budget (FR-006). Default GENERATION_BUDGET_MS. */
  readonly budgetMs?: number;
  readonly threads?: number;
  readonly contextSize?: number;
  readonly maxTokens?: number;
  /** Seed of the first generation; generation n uses seed + n. Default 1. */
  readonly seed?: number;
  readonly temperature?: number;
  readonly grammarLimits?: Partial<PlanGrammarLimits>;
  readonly promptBudget?: Partial<NarratorPromptBudget>;
  readonly onLog?: (message: string) => void;
}

/** Timings of one successful LLM generation (for logs and benchmarks). */
export interface LlmGenerationTimings {
  /** From the generatePlan call to the validated plan. */
  readonly totalMs: number;
  /** Pure token generation in the worker. */
  readonly generationMs: number;
  /** Grammar construction in the worker (cached per schema). */
  readonly grammarMs: number;
  readonly tokens: number;
  readonly seed: number;
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

  /** Fires after each successful LLM generation. */
  readonly onDidGeneratePlan: Event<LlmGenerationTimings> = this.generatedEmitter.event;

  constructor(private readonly options: LlamaNarratorOptions) {
    const onLog = options.onLog;
    this.client = new ModelWorkerClient({ command: options.workerCommand ?? defaultWorkerCommand(), ...(onLog ? { onLog } : {}) });
  }

  /** Verifies and loads the model ahead of the first generation. Resolves with a failure reason, or undefined when ready. */
  async prepare(): Promise<string | undefined> {
    const outcome = await this.ensureLoaded();
    return outcome && !outcome.ok ? outcome.reason : undefined;
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
   * Seed 003's LLM reflection: turns the rule-based findings into a short summary and at most three
   * suggestions, grammar-constrained and within the generation budget. Undefined on any failure.
   */
  async reflect(request: ReflectionRequest): Promise<Reflection | undefined> {
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

  async dispose(): Promise<void> {
    this.generatedEmitter.dispose();
    await this.client.dispose();
  }

  private async generateWithinBudget(request: PlanRequest, started: number): Promise<Outcome> {
    const budgetMs = this.options.budgetMs ?? GENERATION_BUDGET_MS;
    const budget = new AbortController();
    const stop = (): void => budget.abort();
    const timer = setTimeout(stop, budgetMs);
    request.signal?.addEventListener('abort', stop, { once: true });
    const timedOut = new Promise<Outcome>((resolve) =>
      budget.signal.addEventListener('abort', () => resolve({ ok: false, reason: `timeout: no valid plan within ${budgetMs} ms` }), { once: true }),
    );
    try {
      return await Promise.race([this.generateWithModel(request, budget.signal, started), timedOut]);
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', stop);
      budget.abort();
    }
  }

  /** Never rejects: every failure is an Outcome (the budget race may have settled already). */
  private async generateWithModel(request: PlanRequest, signal: AbortSignal, started: number): Promise<Outcome> {
    try {
      const limits = { ...DEFAULT_GRAMMAR_LIMITS, ...this.options.grammarLimits };
      const grammar = buildPlanGrammar(request.skills, request.disabledSkills, limits);
      const prompt = buildNarratorPrompt(request, grammar, { ...DEFAULT_PROMPT_BUDGET, ...this.options.promptBudget });
      const loaded = await this.ensureLoaded();
      if (loaded) return loaded;
      if (signal.aborted) return { ok: false, reason: 'timeout: the model was not ready in time' };
      const seed = (this.options.seed ?? 1) + this.generations++;
      const generated = await this.client.generate(
        {
          systemPrompt: prompt.system,
          prompt: prompt.user,
          grammarSchema: grammar.schema,
          maxTokens: this.options.maxTokens ?? 500,
          seed,
          temperature: this.options.temperature ?? 0.3,
        },
        signal,
      );
      const plan = planFromModelOutput(generated.value, request);
      const known = new Set(grammar.toolPaths);
      const unknown = plan.tools.find((tool) => !known.has(tool.toolPath));
      if (unknown) return { ok: false, reason: `invalid plan: script ${unknown.toolPath} is not available` };
      const validation = await validatePlanValue(plan, { root: this.options.root, checkToolPaths: false });
      if (!validation.valid) {
        const errors = validation.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').slice(0, 3);
        return { ok: false, reason: `invalid plan: ${errors.map((diagnostic) => `${diagnostic.code} ${diagnostic.message}`).join('; ')}` };
      }
      const timings = { totalMs: performance.now() - started, generationMs: generated.generationMs, grammarMs: generated.grammarMs, tokens: generated.tokens, seed };
      this.log(`plan in ${timings.totalMs.toFixed(0)} ms (generation ${timings.generationMs.toFixed(0)} ms, ${timings.tokens} tokens, seed ${seed})`);
      this.generatedEmitter.fire(timings);
      return { ok: true, plan };
    } catch (error) {
      return { ok: false, reason: failureReason(error) };
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
      const loaded = await this.client.load({
        modelPath,
        contextSize: this.options.contextSize ?? 2048,
        threads: this.options.threads ?? defaultThreads(),
      });
      this.loadedInWorker = this.client.startCount;
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

/** A few threads: all cores contend with the host (auto threads took 15 s for a tiny model on a many-core machine). */
function defaultThreads(): number {
  return Math.max(1, Math.min(4, Math.floor(os.availableParallelism() / 2)));
}

/** The bundled worker beside a CommonJS bundle, or the TypeScript source through tsx when running from sources. */
export function defaultWorkerCommand(): WorkerCommand {
  const script = modelWorkerScript();
  return script.endsWith('.cjs') ? { command: process.execPath, args: [script] } : { command: process.execPath, args: ['--import', 'tsx', script] };
}

/** The model worker's script: dist/modelWorker.cjs beside the bundle, or modelWorker.ts when run from sources. */
export function modelWorkerScript(): string {
  if (typeof __dirname === 'string') {
    const bundled = path.join(__dirname, 'modelWorker.cjs');
    if (existsSync(bundled)) return bundled;
  }
  // Only reached from sources (ESM); bundles take the branch above.
  return fileURLToPath(new URL('./modelWorker.ts', import.meta.url));
}
