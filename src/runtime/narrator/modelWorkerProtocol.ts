// The JSON-lines protocol between the host and the model worker process (one JSON object per line on stdin/stdout). Types and line codecs only.
import type { ModelLoading } from './modelLoading.js';
import type { GrammarSchema } from './narratorDecision.js';
import type { ProcessMemory } from './processMemory.js';

/** The worker's two contexts: the narrator's decisions, and the retellings skill scripts ask for. */
export type SequenceName = 'decision' | 'retelling';

/** Loads (or replaces) the model. */
export interface LoadRequest {
  readonly type: 'load';
  readonly id: number;
  readonly modelPath: string;
  /**
   * The decision context's cells. Absent: sized to need when its fixed prompt arrives (contextSizing.ts), and grown
   * when a turn needs more.
   */
  readonly contextSize?: number;
  readonly threads: number;
  /** Flash attention (off on a CPU: 2-4x slower per token there, measured). Default false. */
  readonly flashAttention?: boolean;
  /** How the weights and the KV cache are held (modelLoading.ts). Default DEFAULT_MODEL_LOADING. */
  readonly loading?: ModelLoading;
  /** Use fewer threads than `threads` while other processes keep cores busy (cpuLoad.ts). Default false: `threads` always. */
  readonly adaptThreads?: boolean;
}

/**
 * Makes the sequence hold the evaluated fixed part of the prompt (the system prompt, as the chat template renders it
 * before any user text): already in memory, loaded from `cacheFile`, or evaluated now (and then saved to `cacheFile`).
 */
export interface PrefixRequest {
  readonly type: 'prefix';
  readonly id: number;
  readonly systemPrompt: string;
  /** Where the evaluated state is persisted (written through a temporary file, then renamed). */
  readonly cacheFile?: string;
  /** Which sequence (see GenerateRequest.sequence). Default the decision's. */
  readonly sequence?: SequenceName;
  /** Tokens a turn adds after the fixed prompt at most (its text and answer): the context is sized to both. Default contextSizing.ts's. */
  readonly turnTokens?: number;
}

/** Generates one response under a grammar: a JSON schema's or a GBNF text's. */
export interface GenerateRequest {
  readonly type: 'generate';
  readonly id: number;
  readonly systemPrompt: string;
  readonly prompt: string;
  /** A JSON schema the output must follow (node-llama-cpp's JSON grammar: it allows whitespace between values)… */
  readonly grammarSchema?: GrammarSchema;
  /** …or a GBNF grammar whose every output is JSON (exact, no free whitespace: each generated token costs time). Neither: free text, its value the text. */
  readonly grammarText?: string;
  readonly maxTokens: number;
  readonly seed: number;
  readonly temperature: number;
  /** Sends the text as it is generated ({@link ChunkMessage}s), before the response. */
  readonly stream?: boolean;
  /**
   * Which sequence: the narrator's decisions (default; it holds the decision prompt's evaluated prefix), or a small
   * context of its own for retellings, so that a retelling never evicts that prefix.
   */
  readonly sequence?: SequenceName;
}

/** Aborts the request `target` (a queued or running generation). Has no response of its own. */
export interface CancelRequest {
  readonly type: 'cancel';
  readonly id: number;
  readonly target: number;
}

/** Asks for the worker's memory (answered at once, even while a request runs). */
export interface MemoryRequest {
  readonly type: 'memory';
  readonly id: number;
}

/** Releases the model; the worker exits after answering. */
export interface DisposeRequest {
  readonly type: 'dispose';
  readonly id: number;
}

/** Host → worker. */
export type WorkerRequest = LoadRequest | PrefixRequest | GenerateRequest | MemoryRequest | CancelRequest | DisposeRequest;

/** Timings of a load, in ms. */
export interface LoadedResponse {
  readonly type: 'loaded';
  readonly id: number;
  readonly bindingMs: number;
  readonly loadMs: number;
  readonly trainContextSize: number;
  /** The decision context's cells; absent until its fixed prompt sizes it. */
  readonly contextSize?: number;
  /** The binding's llama.cpp release (part of a persisted prompt's key). */
  readonly runtime?: string;
}

/** The fixed prompt is evaluated in the sequence: how many tokens, where they came from, and what that cost. */
export interface PrefixedResponse {
  readonly type: 'prefixed';
  readonly id: number;
  readonly tokens: number;
  /** memory: already evaluated; file: loaded from the cache file; evaluated: evaluated now. */
  readonly source: 'memory' | 'file' | 'evaluated';
  readonly ms: number;
  /** Bytes written to the cache file (evaluated only, when a file was given and could be written). */
  readonly savedBytes?: number;
  /** The context's cells, sized to the prompt and a turn. */
  readonly contextSize?: number;
}

/** The output text, its value parsed against the grammar schema, and the pure generation time. */
export interface GeneratedResponse {
  readonly type: 'generated';
  readonly id: number;
  readonly text: string;
  readonly value: unknown;
  readonly generationMs: number;
  readonly grammarMs: number;
  readonly tokens: number;
  /** Prompt tokens evaluated for this generation (what the sequence did not hold already). */
  readonly promptTokens?: number;
  /** CPU threads it began with (fewer than asked while other processes keep cores busy, with adaptThreads). */
  readonly threads?: number;
  readonly stopReason: string;
}

/** Why a request failed. `aborted`: cancelled; `bad_output`: the text did not parse under the schema. */
export interface ErrorResponse {
  readonly type: 'error';
  readonly id: number;
  readonly code: 'aborted' | 'not_loaded' | 'load_failed' | 'generation_failed' | 'bad_output' | 'bad_request';
  readonly message: string;
}

/** What llama.cpp allocated (from its own log), in bytes. */
export interface BufferBreakdown {
  /** Weights in buffers of llama.cpp's own (read from the file, or copied in another layout). */
  readonly weightsBytes: number;
  /** Weights used in place from the mapped file (file-backed). */
  readonly mappedWeightsBytes: number;
  /**
   * The weights' buffers by llama.cpp's buffer type: `CPU` (read), `CPU_Mapped` (the whole mapped file), and on a CPU
   * with AVX2 copies in a layout of its own (`CPU_REPACK`, `AMX`), which are anonymous memory.
   */
  readonly weightBuffers?: readonly { readonly bufferType: string; readonly bytes: number }[];
  readonly contexts: readonly {
    readonly sequence: SequenceName;
    readonly contextSize: number;
    readonly batchSize: number;
    /** The KV cache's key and value types, e.g. `q8_0/f16`. */
    readonly kvCacheTypes?: string;
    readonly kvCacheBytes: number;
    /** Compute and output buffers. */
    readonly computeBytes: number;
  }[];
}

/** The worker's memory now and at its peak, and what llama.cpp allocated. */
export interface MemoryResponse extends ProcessMemory {
  readonly type: 'memory';
  readonly id: number;
  /** Absent while no model is loaded. */
  readonly buffers?: BufferBreakdown;
}

export interface DisposedResponse {
  readonly type: 'disposed';
  readonly id: number;
}

/** Text of a streamed generation as it is written (not a response: the request's `generated` or `error` follows). */
export interface ChunkMessage {
  readonly type: 'chunk';
  readonly id: number;
  readonly text: string;
}

/** A log line from node-llama-cpp or the worker (no id). */
export interface LogMessage {
  readonly type: 'log';
  readonly level: string;
  readonly message: string;
}

/** Worker → host. */
export type WorkerResponse = LoadedResponse | PrefixedResponse | GeneratedResponse | MemoryResponse | ErrorResponse | DisposedResponse;
export type WorkerMessage = WorkerResponse | ChunkMessage | LogMessage;

/** Encodes one message as a line. */
export function encodeMessage(message: WorkerRequest | WorkerMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/** Decodes a line into an object with a string `type`, or undefined when it is not one. */
export function decodeMessage(line: string): { readonly type: string; readonly [key: string]: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string') {
      return value as { readonly type: string };
    }
  } catch {
    // not JSON: a stray line from native code
  }
  return undefined;
}
