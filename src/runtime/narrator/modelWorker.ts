// The model worker process: loads a GGUF with node-llama-cpp and generates grammar-constrained text on request (JSON lines on stdio); a native crash here never reaches the host.
import * as readline from 'node:readline';
import { existsSync, renameSync, rmSync, statSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ChatWrapper, Llama, LlamaChat, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import type * as NodeLlamaCppModule from 'node-llama-cpp';
import { DECISION_TURN_TOKENS, hasRoom, RETELLING_TURN_TOKENS, TEMPLATE_MARGIN_TOKENS } from './contextSizing.js';
import { CpuLoadSampler, threadsUnderLoad } from './cpuLoad.js';
import { chatTokens, chatWrapperFor, fixedTokens } from './modelChatTemplate.js';
import { BufferLog, ContextSlots, holds, type Slot } from './modelWorkerContexts.js';
import { DEFAULT_MODEL_LOADING } from './modelLoading.js';
import { ownMemory } from './processMemory.js';
import {
  decodeMessage,
  encodeMessage,
  type ErrorResponse,
  type GenerateRequest,
  type LoadRequest,
  type PrefixRequest,
  type WorkerMessage,
  type WorkerRequest,
} from './modelWorkerProtocol.js';

type NodeLlamaCpp = typeof NodeLlamaCppModule;

/** What is loaded: the model, its chat wrapper, and its contexts (made when their fixed prompts arrive, sized to them). */
interface Loaded {
  readonly modelPath: string;
  readonly model: LlamaModel;
  readonly chatWrapper: ChatWrapper;
  readonly slots: ContextSlots;
}

const MAX_CACHED_GRAMMARS = 8;

let binding: NodeLlamaCpp | undefined;
let llama: Llama | undefined;
let loaded: Loaded | undefined;
/** Buffer sizes from llama.cpp's log, for the memory report. */
const buffers = new BufferLog();
/** The threads a request asked for, and whether fewer are used while other processes keep cores busy (cpuLoad.ts). */
let threads = { ceiling: 1, adapt: false };
let sampler: CpuLoadSampler | undefined;
/** A grammar made from a JSON schema: it also parses and validates the output. */
type JsonGrammar = LlamaGrammar & { parse(json: string): unknown };
const grammars = new Map<string, JsonGrammar>();
const controllers = new Map<number, AbortController>();
/** Requests the worker is carrying out now (not waiting in the queue). */
const running = new Set<number>();
let queue: Promise<void> = Promise.resolve();

function send(message: WorkerMessage): void {
  process.stdout.write(encodeMessage(message));
}

function fail(id: number, code: ErrorResponse['code'], error: unknown): void {
  send({ type: 'error', id, code, message: error instanceof Error ? error.message : String(error) });
}

const FORWARDED_LEVELS = new Set(['fatal', 'error', 'warn']);

/** The threads the next decode may use: the ceiling, or fewer while other processes keep cores busy. */
function applyThreads(): number {
  const used = threads.adapt && sampler ? threadsUnderLoad(threads.ceiling, os.availableParallelism(), sampler.busyCores) : threads.ceiling;
  if (llama) llama.maxThreads = used;
  return used;
}

async function load(request: LoadRequest): Promise<void> {
  const bindingStarted = performance.now();
  // node-llama-cpp is ESM with top-level await: a CommonJS bundle can only reach it through import().
  binding ??= await import('node-llama-cpp');
  llama ??= await binding.getLlama({
    // Apple silicon's only prebuilt binary is the Metal one; models still load with gpuLayers: 0 (CPU).
    gpu: process.platform === 'darwin' && process.arch === 'arm64' ? 'metal' : false,
    build: 'never',
    progressLogs: false,
    // Info lines carry the buffer sizes (the memory report); only warnings and errors reach the host.
    logLevel: binding.LlamaLogLevel.info,
    logger: (level, message) => {
      if (!buffers.record(message) && FORWARDED_LEVELS.has(String(level))) send({ type: 'log', level: String(level), message: message.trimEnd() });
    },
  });
  const bindingMs = performance.now() - bindingStarted;
  const started = performance.now();
  threads = { ceiling: Math.max(1, request.threads), adapt: request.adaptThreads ?? false };
  if (threads.adapt) sampler ??= new CpuLoadSampler(1000, () => applyThreads());
  applyThreads();
  if (loaded && loaded.modelPath !== request.modelPath) await unload();
  if (!loaded) {
    const current = binding;
    const loading = request.loading ?? DEFAULT_MODEL_LOADING;
    const model = await buffers.during('weights', () =>
      llama!.loadModel({
        modelPath: request.modelPath,
        gpuLayers: 0,
        useMmap: loading.weights === 'map',
        useDirectIo: loading.weights === 'direct',
        lazyMode: loading.lazy,
      }),
    );
    const chatWrapper = chatWrapperFor(current, model, (message) => send({ type: 'log', level: 'warn', message }));
    const settings = {
      threads: threads.ceiling,
      flashAttention: request.flashAttention ?? false,
      kvCacheKey: loading.kvCacheKey,
      kvCacheValue: loading.kvCacheValue,
      ...(request.contextSize ? { decisionContextSize: request.contextSize } : {}),
    };
    loaded = { modelPath: request.modelPath, model, chatWrapper, slots: new ContextSlots(current, model, chatWrapper, settings, buffers) };
    // An explicit size: the decision's context now, as before sizing to need.
    if (request.contextSize) await loaded.slots.ensure('decision', { fixedTokens: 0 }, 'grow');
  }
  const { model, slots } = loaded;
  const contextSize = slots.peek('decision')?.context.contextSize;
  send({
    type: 'loaded',
    id: request.id,
    bindingMs,
    loadMs: performance.now() - started,
    trainContextSize: model.trainContextSize,
    ...(contextSize !== undefined ? { contextSize } : {}),
    runtime: `llama.cpp ${llama.llamaCppRelease.release}`,
  });
}

/** The request's grammar: its GBNF text, or one made from its JSON schema; cached. Both parse their output as JSON. */
async function grammarFor(request: GenerateRequest): Promise<JsonGrammar> {
  const key = request.grammarText !== undefined ? `gbnf:${request.grammarText}` : `schema:${JSON.stringify(request.grammarSchema)}`;
  const cached = grammars.get(key);
  if (cached) return cached;
  if (!llama) throw new Error('no model loaded');
  let grammar: JsonGrammar;
  if (request.grammarText !== undefined) {
    const made = await llama.createGrammar({ grammar: request.grammarText });
    grammar = Object.assign(made, { parse: (json: string): unknown => JSON.parse(json) });
  } else {
    // The schema comes from narratorDecision.ts or the reflection, which only use the subset node-llama-cpp supports.
    grammar = await llama.createGrammarForJsonSchema((request.grammarSchema ?? {}) as never);
  }
  if (grammars.size >= MAX_CACHED_GRAMMARS) grammars.delete(grammars.keys().next().value as string);
  grammars.set(key, grammar);
  return grammar;
}

async function prefix(request: PrefixRequest): Promise<void> {
  if (!loaded) return fail(request.id, 'not_loaded', 'no model loaded');
  const current = loaded;
  const name = request.sequence ?? 'decision';
  const started = performance.now();
  const tokens = fixedTokens(current.chatWrapper, current.model, request.systemPrompt);
  const held = current.slots.peek(name);
  const turnTokens = request.turnTokens;
  const answer = (source: 'memory' | 'file' | 'evaluated', contextSize: number, savedBytes?: number) =>
    send({
      type: 'prefixed',
      id: request.id,
      tokens: tokens.length,
      source,
      ms: performance.now() - started,
      contextSize,
      ...(savedBytes !== undefined ? { savedBytes } : {}),
    });
  if (held && holds(held.sequence, tokens) && hasRoom(held.context.contextSize, tokens.length, turnTokens ?? 0))
    return answer('memory', held.context.contextSize);
  // Sized to this prompt and a turn (made again when the size differs: a larger catalog, or a context a long turn grew).
  const slot = await current.slots.ensure(name, { fixedTokens: tokens.length, ...(turnTokens !== undefined ? { turnTokens } : {}) }, 'fit');
  const { sequence } = slot;
  const contextSize = slot.context.contextSize;
  const fixed = { tokens, ...(request.cacheFile ? { cacheFile: request.cacheFile } : {}) };
  if (holds(sequence, tokens)) {
    slot.fixed = fixed;
    return answer('memory', contextSize);
  }
  if (request.cacheFile && existsSync(request.cacheFile)) {
    try {
      // The cache file's name is keyed by this model file, the prompt text and the runtime version (promptCache.ts).
      await sequence.loadStateFromFile(request.cacheFile, { acceptRisk: true });
      if (holds(sequence, tokens)) {
        slot.fixed = fixed;
        return answer('file', contextSize);
      }
      send({ type: 'log', level: 'warn', message: `prompt cache ${request.cacheFile} holds other tokens: evaluating again` });
    } catch (error) {
      send({ type: 'log', level: 'warn', message: `prompt cache ${request.cacheFile} not loaded: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  await sequence.clearHistory();
  applyThreads();
  await sequence.evaluateWithoutGeneratingNewTokens(tokens);
  slot.fixed = { tokens };
  if (!request.cacheFile) return answer('evaluated', contextSize);
  const temporary = `${request.cacheFile}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(request.cacheFile), { recursive: true });
    await sequence.saveStateToFile(temporary);
    renameSync(temporary, request.cacheFile);
    slot.fixed = fixed;
    return answer('evaluated', contextSize, statSync(request.cacheFile).size);
  } catch (error) {
    rmSync(temporary, { force: true });
    send({ type: 'log', level: 'warn', message: `prompt cache ${request.cacheFile} not saved: ${error instanceof Error ? error.message : String(error)}` });
    return answer('evaluated', contextSize);
  }
}

/** The slot of a generation, with room for its whole chat and answer (grown when a long turn needs more). */
async function slotFor(current: Loaded, request: GenerateRequest): Promise<Slot> {
  const name = request.sequence ?? 'decision';
  const total = chatTokens(current.chatWrapper, current.model, request.systemPrompt, request.prompt).length + request.maxTokens + TEMPLATE_MARGIN_TOKENS;
  const fixed = current.slots.peek(name)?.fixed?.tokens.length ?? 0;
  const allowance = name === 'decision' ? DECISION_TURN_TOKENS : RETELLING_TURN_TOKENS;
  return current.slots.ensure(name, { fixedTokens: fixed, turnTokens: Math.max(total - fixed, allowance) }, 'grow');
}

async function generate(request: GenerateRequest, signal: AbortSignal): Promise<void> {
  if (!loaded) return fail(request.id, 'not_loaded', 'no model loaded');
  const grammarStarted = performance.now();
  const grammar = request.grammarText !== undefined || request.grammarSchema !== undefined ? await grammarFor(request) : undefined;
  const grammarMs = performance.now() - grammarStarted;
  if (signal.aborted) return fail(request.id, 'aborted', 'cancelled before generation');
  const { chat, sequence } = await slotFor(loaded, request);
  let tokens = 0;
  const meterBefore = sequence.tokenMeter.getState();
  const threadsUsed = applyThreads();
  const started = performance.now();
  let response: Awaited<ReturnType<LlamaChat['generateResponse']>>;
  try {
    response = await chat.generateResponse(
      [
        { type: 'system', text: request.systemPrompt },
        { type: 'user', text: request.prompt },
        { type: 'model', response: [] },
      ],
      {
        ...(grammar ? { grammar } : {}),
        maxTokens: request.maxTokens,
        seed: request.seed,
        temperature: request.temperature,
        signal,
        onToken: (generated) => {
          tokens += generated.length;
        },
        ...(request.stream ? { onTextChunk: (text: string) => send({ type: 'chunk', id: request.id, text }) } : {}),
      },
    );
  } catch (error) {
    return fail(request.id, signal.aborted ? 'aborted' : 'generation_failed', error);
  }
  const generationMs = performance.now() - started;
  let value: unknown = response.response;
  try {
    if (grammar) value = grammar.parse(response.response);
  } catch (error) {
    return fail(request.id, 'bad_output', `${error instanceof Error ? error.message : String(error)} (stop: ${response.metadata.stopReason})`);
  }
  // The meter splits each evaluated batch into one "output" token (the one with logits) and the rest "input": together
  // they are every token evaluated, the generated ones fed back included. The prompt is what is left.
  const used = sequence.tokenMeter.diff(meterBefore);
  const promptTokens = Math.max(0, used.usedInputTokens + used.usedOutputTokens - tokens);
  send({
    type: 'generated',
    id: request.id,
    text: response.response,
    value,
    generationMs,
    grammarMs,
    tokens,
    promptTokens,
    threads: threadsUsed,
    stopReason: response.metadata.stopReason,
  });
}

async function unload(): Promise<void> {
  const current = loaded;
  loaded = undefined;
  if (!current) return;
  await current.slots.dispose();
  await current.model.dispose();
  buffers.forget('weights');
}

async function shutdown(code: number): Promise<never> {
  try {
    sampler?.dispose();
    await unload();
    await llama?.dispose();
  } finally {
    process.exit(code);
  }
}

/** Requests answered already: a queued request cancelled before its turn is answered at once, and skipped when its turn comes. */
const answered = new Set<number>();

function handle(request: WorkerRequest): void {
  switch (request.type) {
    case 'cancel': {
      const controller = controllers.get(request.target);
      controller?.abort();
      if (controller && !running.has(request.target)) {
        answered.add(request.target);
        fail(request.target, 'aborted', 'cancelled while waiting for an earlier request');
      }
      return;
    }
    case 'memory':
      send({ type: 'memory', id: request.id, ...ownMemory(), ...(loaded ? { buffers: loaded.slots.breakdown() } : {}) });
      return;
    case 'load':
      queue = queue.then(() => load(request).catch((error: unknown) => fail(request.id, 'load_failed', error)));
      return;
    case 'prefix':
    case 'generate': {
      const controller = new AbortController();
      controllers.set(request.id, controller);
      queue = queue.then(() => {
        if (answered.delete(request.id)) {
          controllers.delete(request.id);
          return undefined;
        }
        running.add(request.id);
        return (request.type === 'prefix' ? prefix(request) : generate(request, controller.signal))
          .catch((error: unknown) => fail(request.id, controller.signal.aborted ? 'aborted' : 'generation_failed', error))
          .finally(() => {
            running.delete(request.id);
            controllers.delete(request.id);
          });
      });
      return;
    }
    case 'dispose':
      queue = queue.then(async () => {
        send({ type: 'disposed', id: request.id });
        await shutdown(0);
      });
      return;
    default: {
      const unknown: never = request;
      fail((unknown as { id?: number }).id ?? -1, 'bad_request', 'unknown request type');
    }
  }
}

function main(): void {
  // stdout carries protocol lines only: send stray console output to stderr.
  console.log = console.info = console.debug = console.warn = console.error;
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    const message = decodeMessage(line);
    if (!message || typeof message['id'] !== 'number') return send({ type: 'log', level: 'warn', message: `ignored a malformed request line` });
    handle(message as unknown as WorkerRequest);
  });
  // The host went away (even without a dispose): leave too.
  lines.on('close', () => void shutdown(0));
}

main();
