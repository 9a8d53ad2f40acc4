// The local narrator's fixed prompt: one text per skill set, put in the worker's sequence once per worker (from memory, the prompt cache, or evaluated).
import { stat } from 'node:fs/promises';
import { Emitter, type Event } from '../common/event.js';
import type { NarratorSkill } from '../skills/skillTypes.js';
import { failureReason } from './llamaBudget.js';
import type { LocalModel } from './llamaModel.js';
import { buildDecisionSystemPrompt, DEFAULT_DECISION_BUDGET, type DecisionPromptBudget } from './narratorDecision.js';
import { promptCacheDirectory, promptCacheFile, sweepPromptCache, touchPromptCache } from './promptCache.js';
import type { StoryContext } from '../campaign/play/storyContext.js';

/** How the fixed prompt came to be evaluated in the sequence (for logs and benchmarks). */
export interface PromptPreparation {
  readonly tokens: number;
  readonly source: 'memory' | 'file' | 'evaluated';
  readonly ms: number;
  readonly cacheFile?: string;
  readonly savedBytes?: number;
  /** The context's cells, sized to the prompt and a turn. */
  readonly contextSize?: number;
}

/** Where the evaluated prompt is persisted (false: not persisted; default promptCacheDirectory()), and the prompt's budget. */
export interface FixedPromptOptions {
  readonly promptCache?: string | false;
  readonly promptBudget?: Partial<DecisionPromptBudget>;
}

/** The fixed prompt of a model: which text a skill set gets, and that text kept in the model's sequence. */
export class FixedPrompt {
  /** The fixed prompt the worker's sequence holds, per worker start. */
  private prefixed: { readonly startCount: number; readonly systemPrompt: string } | undefined;
  private preparing: Promise<PromptPreparation | undefined> | undefined;
  private readonly preparedEmitter = new Emitter<PromptPreparation>();
  /** Fires when the fixed prompt has been put in the sequence (evaluated, loaded from the cache file, or found in memory). */
  readonly onDidPrepare: Event<PromptPreparation> = this.preparedEmitter.event;

  constructor(
    private readonly model: LocalModel,
    private readonly options: FixedPromptOptions,
    private readonly log: (message: string) => void,
  ) {}

  /** The fixed prompt of a skill set (and a campaign's constant part): the same text every turn, so its evaluation is reused. */
  textFor(skills: readonly NarratorSkill[], story?: Pick<StoryContext, 'title' | 'setting' | 'constraints'>): string {
    return buildDecisionSystemPrompt(skills, { ...DEFAULT_DECISION_BUDGET, ...this.options.promptBudget }, story);
  }

  /** Whether a fixed prompt is being evaluated or saved now. */
  get pending(): boolean {
    return this.preparing !== undefined;
  }

  /** Resolves when no fixed prompt is being evaluated or saved (at most `timeoutMs`). */
  async settle(timeoutMs: number): Promise<void> {
    const pending = this.preparing;
    if (!pending) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([pending.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  /**
   * Puts the fixed prompt in the worker's sequence once per worker and prompt: from memory, from the persisted
   * cache, or evaluated (then persisted). A failure here only costs speed: the generation evaluates the prompt itself.
   */
  async ensure(systemPrompt: string): Promise<PromptPreparation | undefined> {
    if (!this.preparing && this.holds(systemPrompt)) return undefined;
    const previous = this.preparing;
    if (previous) await previous;
    if (this.holds(systemPrompt)) return undefined;
    const preparing = this.prepare(systemPrompt);
    this.preparing = preparing;
    try {
      return await preparing;
    } finally {
      if (this.preparing === preparing) this.preparing = undefined;
    }
  }

  dispose(): void {
    this.preparedEmitter.dispose();
  }

  /** Whether the running worker's sequence holds this prompt. */
  private holds(systemPrompt: string): boolean {
    const { client } = this.model;
    return this.prefixed?.startCount === client.startCount && this.prefixed.systemPrompt === systemPrompt && client.running;
  }

  private async prepare(systemPrompt: string): Promise<PromptPreparation | undefined> {
    // While another prompt is being put in the sequence, the one it held is no longer there.
    this.prefixed = undefined;
    const directory = this.options.promptCache === false ? undefined : (this.options.promptCache ?? promptCacheDirectory());
    const cacheFile = directory === undefined ? undefined : await this.cacheFileOf(systemPrompt, directory);
    const { client } = this.model;
    const startCount = client.startCount;
    try {
      const prefixed = await client.prefix({ systemPrompt, ...(cacheFile ? { cacheFile } : {}) });
      this.prefixed = { startCount, systemPrompt };
      if (cacheFile && prefixed.source === 'file') touchPromptCache(cacheFile);
      if (cacheFile && directory) sweepPromptCache(directory, cacheFile);
      const preparation: PromptPreparation = {
        tokens: prefixed.tokens,
        source: prefixed.source,
        ms: prefixed.ms,
        ...(cacheFile ? { cacheFile } : {}),
        ...(prefixed.savedBytes !== undefined ? { savedBytes: prefixed.savedBytes } : {}),
        ...(prefixed.contextSize !== undefined ? { contextSize: prefixed.contextSize } : {}),
      };
      const how = prefixed.source === 'file' ? 'loaded from the prompt cache' : prefixed.source === 'memory' ? 'already evaluated' : 'evaluated';
      const context = prefixed.contextSize !== undefined ? ` (context ${prefixed.contextSize})` : '';
      this.log(`fixed prompt of ${prefixed.tokens} tokens ${how} in ${prefixed.ms.toFixed(0)} ms${context}`);
      this.preparedEmitter.fire(preparation);
      return preparation;
    } catch (error) {
      this.log(`the fixed prompt was not prepared (${failureReason(error)}): the generation evaluates it`);
      return undefined;
    }
  }

  /** The prompt cache's file of this prompt for this model file, context and runtime; undefined when the model file cannot be read. */
  private async cacheFileOf(systemPrompt: string, directory: string): Promise<string | undefined> {
    const { model } = this;
    try {
      const file = await stat(model.modelPath);
      const kvCacheTypes = `${model.loading.kvCacheKey}/${model.loading.kvCacheValue}`;
      const key = {
        modelPath: model.modelPath,
        modelSize: file.size,
        modelMtimeMs: file.mtimeMs,
        // 0: sized to need (a persisted state loads into any context with room for it).
        contextSize: model.contextSize ?? 0,
        flashAttention: model.flashAttention,
        ...(kvCacheTypes !== 'f16/f16' ? { kvCacheTypes } : {}),
        runtime: model.runtime,
        systemPrompt,
      };
      return promptCacheFile(key, directory);
    } catch {
      return undefined;
    }
  }
}
