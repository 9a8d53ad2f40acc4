// The model worker process: loads a GGUF with node-llama-cpp and generates grammar-constrained text on request (JSON lines on stdio). The only file that imports node-llama-cpp; a native crash here never reaches the host.
import * as readline from 'node:readline';
import type { ChatWrapper, Llama, LlamaChat, LlamaContext, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import {
  decodeMessage,
  encodeMessage,
  type ErrorResponse,
  type GenerateRequest,
  type LoadRequest,
  type WorkerMessage,
  type WorkerRequest,
} from './modelWorkerProtocol.js';

type NodeLlamaCpp = typeof import('node-llama-cpp');

/** What is loaded: the binding, the model, one context with one sequence, and a chat over it. */
interface Loaded {
  readonly modelPath: string;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  readonly chat: LlamaChat;
}

const MAX_CACHED_GRAMMARS = 8;

let binding: NodeLlamaCpp | undefined;
let llama: Llama | undefined;
let loaded: Loaded | undefined;
/** A grammar made from a JSON schema: it also parses and validates the output. */
type JsonGrammar = LlamaGrammar & { parse(json: string): unknown };
const grammars = new Map<string, JsonGrammar>();
const controllers = new Map<number, AbortController>();
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
    const context = await model.createContext({ contextSize: request.contextSize, threads: request.threads, sequences: 1 });
    const chat = new binding.LlamaChat({ contextSequence: context.getSequence(), chatWrapper: chatWrapperFor(binding, model), autoDisposeSequence: true });
    loaded = { modelPath: request.modelPath, model, context, chat };
  }
  const { model, context } = loaded;
  send({
    type: 'loaded',
    id: request.id,
    bindingMs,
    loadMs: performance.now() - started,
    trainContextSize: model.trainContextSize,
    contextSize: context.contextSize,
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
    send({ type: 'log', level: 'warn', message: `chat template not usable, resolving a chat wrapper: ${error instanceof Error ? error.message : String(error)}` });
    return 'auto';
  }
}

async function grammarFor(schema: GenerateRequest['grammarSchema']): Promise<JsonGrammar> {
  const key = JSON.stringify(schema);
  const cached = grammars.get(key);
  if (cached) return cached;
  if (!llama) throw new Error('no model loaded');
  // The schema comes from planGrammar.ts, which only uses the subset node-llama-cpp supports.
  const grammar: JsonGrammar = await llama.createGrammarForJsonSchema(schema as never);
  if (grammars.size >= MAX_CACHED_GRAMMARS) grammars.delete(grammars.keys().next().value as string);
  grammars.set(key, grammar);
  return grammar;
}

async function generate(request: GenerateRequest, signal: AbortSignal): Promise<void> {
  if (!loaded) return fail(request.id, 'not_loaded', 'no model loaded');
  const grammarStarted = performance.now();
  const grammar = await grammarFor(request.grammarSchema);
  const grammarMs = performance.now() - grammarStarted;
  if (signal.aborted) return fail(request.id, 'aborted', 'cancelled before generation');
  let tokens = 0;
  const started = performance.now();
  let response: Awaited<ReturnType<LlamaChat['generateResponse']>>;
  try {
    response = await loaded.chat.generateResponse(
      [
        { type: 'system', text: request.systemPrompt },
        { type: 'user', text: request.prompt },
        { type: 'model', response: [] },
      ],
      {
        grammar,
        maxTokens: request.maxTokens,
        seed: request.seed,
        temperature: request.temperature,
        signal,
        onToken: (generated) => {
          tokens += generated.length;
        },
      },
    );
  } catch (error) {
    return fail(request.id, signal.aborted ? 'aborted' : 'generation_failed', error);
  }
  const generationMs = performance.now() - started;
  let value: unknown;
  try {
    value = grammar.parse(response.response);
  } catch (error) {
    return fail(request.id, 'bad_output', `${error instanceof Error ? error.message : String(error)} (stop: ${response.metadata.stopReason})`);
  }
  send({ type: 'generated', id: request.id, text: response.response, value, generationMs, grammarMs, tokens, stopReason: response.metadata.stopReason });
}

async function unload(): Promise<void> {
  const current = loaded;
  loaded = undefined;
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

function handle(request: WorkerRequest): void {
  switch (request.type) {
    case 'cancel':
      controllers.get(request.target)?.abort();
      return;
    case 'load':
      queue = queue.then(() => load(request).catch((error: unknown) => fail(request.id, 'load_failed', error)));
      return;
    case 'generate': {
      const controller = new AbortController();
      controllers.set(request.id, controller);
      queue = queue.then(() =>
        generate(request, controller.signal)
          .catch((error: unknown) => fail(request.id, 'generation_failed', error))
          .finally(() => controllers.delete(request.id)),
      );
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
