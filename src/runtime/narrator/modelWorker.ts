// The model worker process: loads a GGUF with node-llama-cpp and generates grammar-constrained text on request (JSON lines on stdio).
import * as readline from 'node:readline';
import { existsSync, renameSync, rmSync, statSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { ChatWrapper, Llama, LlamaChat, LlamaContext, LlamaContextSequence, LlamaGrammar, LlamaModel, Token } from 'node-llama-cpp';
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

type NodeLlamaCpp = typeof import('node-llama-cpp');

/** What is loaded: the binding, the model, one context with one sequence, and a chat over it. */
interface Loaded {
  readonly modelPath: string;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  readonly sequence: LlamaContextSequence;
  readonly chat: LlamaChat;
}

const MAX_CACHED_GRAMMARS = 8;
/** The retelling context's size: a short system prompt (~50 tokens), the draft (~60) and the retold text (≤ 160). */
const RETELLING_CONTEXT = 512;

/** The retelling's own context, made on its first request (its KV cache is separate from the decision's). */
interface Retelling {
  readonly context: LlamaContext;
  readonly sequence: LlamaContextSequence;
  readonly chat: LlamaChat;
}
let retelling: Retelling | undefined;

let binding: NodeLlamaCpp | undefined;
let llama: Llama | undefined;
let loaded: Loaded | undefined;
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

async function load(request: LoadRequest): Promise<void> {
  const bindingStarted = performance.now();
  // node-llama-cpp is ESM with top-level await: a CommonJS bundle can only reach it through import().
  binding ??= await import('node-llama-cpp');
  llama ??= await binding.getLlama({
    // Apple silicon's only prebuilt binary is the Metal one; models still load with gpuLayers: 0 (CPU).
    gpu: process.platform === 'darwin' && process.arch === 'arm64' ? 'metal' : false,
    build: 'never',
    progressLogs: false,
    logLevel: binding.LlamaLogLevel.warn,
    logger: (level, message) => send({ type: 'log', level: String(level), message: message.trimEnd() }),
  });
  const bindingMs = performance.now() - bindingStarted;
  const started = performance.now();
  if (loaded && loaded.modelPath !== request.modelPath) await unload();
  if (!loaded) {
    const model = await llama.loadModel({ modelPath: request.modelPath, gpuLayers: 0 });
    const context = await model.createContext({
      contextSize: request.contextSize,
      threads: request.threads,
      sequences: 1,
      flashAttention: request.flashAttention ?? false,
    });
    const sequence = context.getSequence();
    const chat = new binding.LlamaChat({ contextSequence: sequence, chatWrapper: chatWrapperFor(binding, model), autoDisposeSequence: true });
    loaded = { modelPath: request.modelPath, model, context, sequence, chat };
  }
  const { model, context } = loaded;
  send({
    type: 'loaded',
    id: request.id,
    bindingMs,
    loadMs: performance.now() - started,
    trainContextSize: model.trainContextSize,
    contextSize: context.contextSize,
    runtime: `llama.cpp ${llama.llamaCppRelease.release}`,
  });
}

/**
 * The model's own Jinja chat template when it has one. 'auto' resolves to the same wrapper for Phi-3.5 but first
 * compares the template with every specialized wrapper, which took ~1.8 s per load here.
 */
function chatWrapperFor(nodeLlamaCpp: NodeLlamaCpp, model: LlamaModel): ChatWrapper | 'auto' {
  const template = model.fileInfo.metadata.tokenizer?.chat_template;
  if (typeof template !== 'string' || template === '') return 'auto';
  try {
    return new nodeLlamaCpp.JinjaTemplateChatWrapper({ template, tokenizer: model.tokenizer });
  } catch (error) {
    send({
      type: 'log',
      level: 'warn',
      message: `chat template not usable, resolving a chat wrapper: ${error instanceof Error ? error.message : String(error)}`,
    });
    return 'auto';
  }
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

/** The tokens of the fixed part of a chat: what the template renders for the system prompt before any user text. */
function fixedTokens(current: Loaded, systemPrompt: string): Token[] {
  const render = (user: string): Token[] =>
    current.chat.chatWrapper
      .generateContextState({
        chatHistory: [
          { type: 'system', text: systemPrompt },
          { type: 'user', text: user },
          { type: 'model', response: [] },
        ],
      })
      .contextText.tokenize(current.model.tokenizer);
  // Two renderings that differ only in the user text share exactly the fixed part.
  const first = render('a');
  const second = render('z');
  let length = 0;
  while (length < first.length && length < second.length && first[length] === second[length]) length++;
  return first.slice(0, length);
}

function holds(sequence: LlamaContextSequence, tokens: readonly Token[]): boolean {
  const held = sequence.contextTokens;
  if (held.length < tokens.length) return false;
  for (let index = 0; index < tokens.length; index++) if (held[index] !== tokens[index]) return false;
  return true;
}

async function prefix(request: PrefixRequest): Promise<void> {
  if (!loaded) return fail(request.id, 'not_loaded', 'no model loaded');
  const current: Loaded = request.sequence === 'retelling' ? { ...loaded, ...(await retellingChat(loaded, loaded.context.idealThreads)) } : loaded;
  const started = performance.now();
  const tokens = fixedTokens(current, request.systemPrompt);
  const answer = (source: 'memory' | 'file' | 'evaluated', savedBytes?: number) =>
    send({
      type: 'prefixed',
      id: request.id,
      tokens: tokens.length,
      source,
      ms: performance.now() - started,
      ...(savedBytes !== undefined ? { savedBytes } : {}),
    });
  if (holds(current.sequence, tokens)) return answer('memory');
  if (request.cacheFile && existsSync(request.cacheFile)) {
    try {
      // The cache file's name is keyed by this model file, the prompt text and the runtime version (promptCache.ts).
      await current.sequence.loadStateFromFile(request.cacheFile, { acceptRisk: true });
      if (holds(current.sequence, tokens)) return answer('file');
      send({ type: 'log', level: 'warn', message: `prompt cache ${request.cacheFile} holds other tokens: evaluating again` });
    } catch (error) {
      send({ type: 'log', level: 'warn', message: `prompt cache ${request.cacheFile} not loaded: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  await current.sequence.clearHistory();
  await current.sequence.evaluateWithoutGeneratingNewTokens(tokens);
  if (!request.cacheFile) return answer('evaluated');
  const temporary = `${request.cacheFile}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(request.cacheFile), { recursive: true });
    await current.sequence.saveStateToFile(temporary);
    renameSync(temporary, request.cacheFile);
    return answer('evaluated', statSync(request.cacheFile).size);
  } catch (error) {
    rmSync(temporary, { force: true });
    send({ type: 'log', level: 'warn', message: `prompt cache ${request.cacheFile} not saved: ${error instanceof Error ? error.message : String(error)}` });
    return answer('evaluated');
  }
}

/** The retelling's context and chat, made once per loaded model. */
async function retellingChat(current: Loaded, threads: number | undefined): Promise<Retelling> {
  if (retelling) return retelling;
  const context = await current.model.createContext({
    contextSize: Math.min(RETELLING_CONTEXT, current.model.trainContextSize),
    sequences: 1,
    flashAttention: false,
    ...(threads ? { threads } : {}),
  });
  const sequence = context.getSequence();
  const chat = new binding!.LlamaChat({ contextSequence: sequence, chatWrapper: chatWrapperFor(binding!, current.model), autoDisposeSequence: true });
  retelling = { context, sequence, chat };
  return retelling;
}

async function generate(request: GenerateRequest, signal: AbortSignal): Promise<void> {
  if (!loaded) return fail(request.id, 'not_loaded', 'no model loaded');
  const grammarStarted = performance.now();
  const grammar = request.grammarText !== undefined || request.grammarSchema !== undefined ? await grammarFor(request) : undefined;
  const grammarMs = performance.now() - grammarStarted;
  if (signal.aborted) return fail(request.id, 'aborted', 'cancelled before generation');
  const { chat, sequence } = request.sequence === 'retelling' ? await retellingChat(loaded, loaded.context.idealThreads) : loaded;
  let tokens = 0;
  const meterBefore = sequence.tokenMeter.getState();
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
    stopReason: response.metadata.stopReason,
  });
}

async function unload(): Promise<void> {
  const current = loaded;
  loaded = undefined;
  const retold = retelling;
  retelling = undefined;
  if (retold) {
    retold.chat.dispose();
    await retold.context.dispose();
  }
  if (!current) return;
  current.chat.dispose();
  await current.context.dispose();
  await current.model.dispose();
}

async function shutdown(code: number): Promise<never> {
  try {
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
