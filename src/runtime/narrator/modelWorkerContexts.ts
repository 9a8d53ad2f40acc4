// The model worker's contexts (the decision's and the retelling's), each sized to what it holds and grown when a turn needs more; and what llama.cpp allocated for them.
import { existsSync } from 'node:fs';
import type { ChatWrapper, LlamaChat, LlamaContext, LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import type * as NodeLlamaCppModule from 'node-llama-cpp';
import { contextOptionsFor, DECISION_TURN_TOKENS, RETELLING_TURN_TOKENS, type ContextNeed, type ContextOptions } from './contextSizing.js';
import { DEFAULT_MODEL_LOADING, kvCacheTypesFor, type KvCacheType } from './modelLoading.js';
import type { BufferBreakdown, SequenceName } from './modelWorkerProtocol.js';

type NodeLlamaCpp = typeof NodeLlamaCppModule;

/** A context with its one sequence and a chat over it. */
export interface Slot {
  readonly context: LlamaContext;
  readonly sequence: LlamaContextSequence;
  readonly chat: LlamaChat;
  readonly batchSize: number;
  /** The fixed prompt last put in the sequence, and where its evaluated state is persisted (to restore it after growing). */
  fixed?: { readonly tokens: readonly Token[]; readonly cacheFile?: string };
}

/** How contexts are made: CPU threads, flash attention, the KV cache's types, and an explicit decision context size (none: sized to need). */
export interface SlotSettings {
  readonly threads: number;
  readonly flashAttention: boolean;
  readonly kvCacheKey?: KvCacheType;
  readonly kvCacheValue?: KvCacheType;
  readonly decisionContextSize?: number;
}

/** node-llama-cpp's names of the KV cache types. */
const GGML_TYPE_NAMES = { f16: 'F16', q8_0: 'Q8_0', q4_0: 'Q4_0' } as const;

/** What a turn adds after the fixed prompt when the host does not say (contextSizing.ts). */
const DEFAULT_TURN_TOKENS: Record<SequenceName, number> = { decision: DECISION_TURN_TOKENS, retelling: RETELLING_TURN_TOKENS };

/**
 * Buffer sizes llama.cpp logs as it allocates ("<device> <kind> buffer size = <n> MiB"), by owner: the weights while
 * the model loads, a context while it is made. The latest size of each device and kind counts (a re-reserve replaces).
 */
export class BufferLog {
  private owner: 'weights' | SequenceName | undefined;
  private readonly sizes = new Map<string, Map<string, number>>();

  /**
   * Attributes the buffers logged while `work` runs to `owner`. The binding hands log lines to JavaScript
   * asynchronously: a line can come after the work resolved, so the owner stays until the next one, and the work
   * ends only after the loop has turned once more.
   */
  async during<T>(owner: 'weights' | SequenceName, work: () => Promise<T>): Promise<T> {
    this.owner = owner;
    this.sizes.set(owner, new Map());
    const result = await work();
    await new Promise((resolve) => setTimeout(resolve, 10));
    return result;
  }

  /** A llama.cpp log line; true when it was a buffer size. */
  record(message: string): boolean {
    const match = /(\S+) (model|KV|compute|output) buffer size =\s*([\d.]+) MiB/.exec(message);
    if (!match || !this.owner) return false;
    this.sizes.get(this.owner)?.set(`${match[1]} ${match[2]}`, Math.round(Number(match[3]) * 1024 * 1024));
    return true;
  }

  forget(owner: 'weights' | SequenceName): void {
    this.sizes.delete(owner);
  }

  /** `owner`'s buffers of one kind by llama.cpp's buffer type (CPU, CPU_Mapped, CPU_REPACK, AMX...), in bytes. */
  byBufferType(owner: 'weights' | SequenceName, kind: string): { readonly bufferType: string; readonly bytes: number }[] {
    const found: { bufferType: string; bytes: number }[] = [];
    for (const [key, bytes] of this.sizes.get(owner) ?? []) {
      const [bufferType, ofKind] = key.split(' ');
      if (ofKind === kind && bufferType !== undefined) found.push({ bufferType, bytes });
    }
    return found;
  }

  /** Bytes of `owner`'s buffers of one kind (model, KV, compute, output), mapped ones (CPU_Mapped: the file itself) apart. */
  bytes(owner: 'weights' | SequenceName, kind: string, mapped = false): number {
    let total = 0;
    for (const [key, value] of this.sizes.get(owner) ?? []) {
      const [device, ofKind] = key.split(' ');
      if (ofKind === kind && (device?.endsWith('_Mapped') ?? false) === mapped) total += value;
    }
    return total;
  }
}

/** The decision's and the retelling's contexts of one loaded model. */
export class ContextSlots {
  private readonly slots = new Map<SequenceName, Slot>();
  /** Contexts being made, shared by concurrent callers. */
  private readonly making = new Map<SequenceName, Promise<Slot>>();

  constructor(
    private readonly binding: NodeLlamaCpp,
    private readonly model: LlamaModel,
    private readonly chatWrapper: ChatWrapper,
    private readonly settings: SlotSettings,
    private readonly buffers: BufferLog,
  ) {}

  /** The slot when it exists already. */
  peek(name: SequenceName): Slot | undefined {
    return this.slots.get(name);
  }

  /**
   * The slot of `name`, with room for `need`: made when missing, made again larger (or smaller) when its size is not
   * the one the need asks for and `resize` allows it. An explicit decision size is never changed.
   */
  async ensure(name: SequenceName, need: Partial<ContextNeed> & { readonly fixedTokens: number }, resize: 'grow' | 'fit'): Promise<Slot> {
    const pending = this.making.get(name);
    if (pending) await pending.catch(() => undefined);
    const wanted = this.optionsFor(name, { fixedTokens: need.fixedTokens, turnTokens: need.turnTokens ?? DEFAULT_TURN_TOKENS[name] });
    const current = this.slots.get(name);
    if (current) {
      const size = current.context.contextSize;
      const keep = this.explicit(name) || (resize === 'grow' ? size >= wanted.contextSize : size === wanted.contextSize);
      if (keep) return current;
    }
    const making = this.make(name, wanted, current);
    this.making.set(name, making);
    try {
      return await making;
    } finally {
      this.making.delete(name);
    }
  }

  /** Each context's size, batch and buffers (for the memory report). */
  describe(): { readonly sequence: SequenceName; readonly contextSize: number; readonly batchSize: number }[] {
    return [...this.slots].map(([sequence, slot]) => ({ sequence, contextSize: slot.context.contextSize, batchSize: slot.batchSize }));
  }

  /** What llama.cpp allocated: the weights and each context's KV cache and compute buffers. */
  breakdown(): BufferBreakdown {
    const { key, value } = this.kvCacheTypes;
    return {
      weightsBytes: this.buffers.bytes('weights', 'model'),
      mappedWeightsBytes: this.buffers.bytes('weights', 'model', true),
      weightBuffers: this.buffers.byBufferType('weights', 'model'),
      contexts: this.describe().map((each) => ({
        ...each,
        kvCacheTypes: `${key}/${value}`,
        kvCacheBytes: this.buffers.bytes(each.sequence, 'KV'),
        computeBytes: this.buffers.bytes(each.sequence, 'compute') + this.buffers.bytes(each.sequence, 'output'),
      })),
    };
  }

  async dispose(): Promise<void> {
    for (const [name, slot] of [...this.slots]) {
      this.slots.delete(name);
      this.buffers.forget(name);
      slot.chat.dispose();
      await slot.context.dispose();
    }
  }

  /**
   * Flash attention and the KV cache's types. The retelling's context uses flash attention only when a quantized value
   * type needs it (it is slower on a CPU, measured); the decision's follows the request, or the same need.
   */
  private cacheTypes(name: SequenceName): {
    flashAttention: boolean;
    experimentalKvCacheKeyType?: (typeof GGML_TYPE_NAMES)[KvCacheType];
    experimentalKvCacheValueType?: (typeof GGML_TYPE_NAMES)[KvCacheType];
  } {
    const { key, value } = this.kvCacheTypes;
    const needed = value !== 'f16';
    return {
      flashAttention: needed || (name === 'decision' && this.settings.flashAttention),
      ...(key !== 'f16' ? { experimentalKvCacheKeyType: GGML_TYPE_NAMES[key] } : {}),
      ...(value !== 'f16' ? { experimentalKvCacheValueType: GGML_TYPE_NAMES[value] } : {}),
    };
  }

  /** The KV cache types asked for, those the model's head sizes allow (modelLoading.ts). */
  get kvCacheTypes(): { readonly key: KvCacheType; readonly value: KvCacheType } {
    const loading = { ...DEFAULT_MODEL_LOADING, kvCacheKey: this.settings.kvCacheKey ?? 'f16', kvCacheValue: this.settings.kvCacheValue ?? 'f16' };
    const metadata = this.model.fileInfo.architectureMetadata;
    const headCount = typeof metadata.attention?.head_count === 'number' ? metadata.attention.head_count : undefined;
    const evenSize = metadata.embedding_length !== undefined && headCount ? metadata.embedding_length / headCount : undefined;
    return kvCacheTypesFor(loading, { keySize: metadata.attention?.key_length ?? evenSize, valueSize: metadata.attention?.value_length ?? evenSize });
  }

  private explicit(name: SequenceName): boolean {
    return name === 'decision' && this.settings.decisionContextSize !== undefined;
  }

  private optionsFor(name: SequenceName, need: ContextNeed): ContextOptions {
    const sized = contextOptionsFor(need, this.model.trainContextSize);
    if (!this.explicit(name)) return sized;
    const contextSize = this.settings.decisionContextSize!;
    return { contextSize, batchSize: Math.min(contextSize, sized.batchSize) };
  }

  /** Makes the context (the old one released first, so both never take memory at once) and restores its fixed prompt from its file. */
  private async make(name: SequenceName, options: ContextOptions, previous: Slot | undefined): Promise<Slot> {
    if (previous) {
      this.slots.delete(name);
      previous.chat.dispose();
      await previous.context.dispose();
    }
    const context = await this.buffers.during(name, () =>
      this.model.createContext({
        contextSize: options.contextSize,
        batchSize: options.batchSize,
        threads: this.settings.threads,
        sequences: 1,
        ...this.cacheTypes(name),
      }),
    );
    const sequence = context.getSequence();
    const chat = new this.binding.LlamaChat({ contextSequence: sequence, chatWrapper: this.chatWrapper, autoDisposeSequence: true });
    const slot: Slot = { context, sequence, chat, batchSize: options.batchSize };
    this.slots.set(name, slot);
    const fixed = previous?.fixed;
    if (fixed?.cacheFile && existsSync(fixed.cacheFile)) {
      try {
        await sequence.loadStateFromFile(fixed.cacheFile, { acceptRisk: true });
        if (holds(sequence, fixed.tokens)) slot.fixed = fixed;
        else await sequence.clearHistory();
      } catch {
        await sequence.clearHistory();
      }
    }
    return slot;
  }
}

/** Whether the sequence holds `tokens` at its start. */
export function holds(sequence: LlamaContextSequence, tokens: readonly Token[]): boolean {
  const held = sequence.contextTokens;
  if (held.length < tokens.length) return false;
  for (let index = 0; index < tokens.length; index++) if (held[index] !== tokens[index]) return false;
  return true;
}
