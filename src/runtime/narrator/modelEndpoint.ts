// The local model as a service to skill scripts: a Unix socket (a named pipe on Windows) on which a script asks the loaded model to retell a text.
import { mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/** What a script asks (one JSON line): its draft retold in a voice, on the retelling context. The runtime writes the prompt. */
export interface RetellRequest {
  readonly type: 'retell';
  /** The voice: a word or two ("terse", "vivid", "poetic"). */
  readonly style: string;
  /** The narration to retell, with the turn's facts in it. */
  readonly draft: string;
  readonly maxTokens: number;
  readonly seed: number;
  readonly temperature: number;
}

/**
 * The retelling's fixed prompt: the same for every turn and voice, so the model evaluates it once per session (in the
 * background, see LlamaNarrator.prepare) and each retelling evaluates only its few per-turn tokens.
 */
export const RETELLING_SYSTEM_PROMPT =
  'You retell the draft narration of a turn of an interactive story, in the second person, in as few sentences as its facts need, ' +
  'in the voice named before it. Keep every fact, name and number of the draft, and never tell an act the draft says was refused ' +
  'or failed as done. Answer with the narration only.';

/** The per-turn text of a retelling: the voice, then the draft (as few tokens as the facts need). */
export function retellingUserPrompt(request: Pick<RetellRequest, 'style' | 'draft'>): string {
  return `${request.style}: ${request.draft}`;
}

/** What the endpoint answers, one JSON line each: chunks of text as they are written, then `done` or `error`. */
export type RetellReply =
  | { readonly type: 'chunk'; readonly text: string }
  | {
      readonly type: 'done';
      readonly text: string;
      readonly tokens: number;
      readonly promptTokens?: number;
      readonly firstChunkMs?: number;
      readonly ms: number;
    }
  | { readonly type: 'error'; readonly reason: string };

/** Runs one retelling on the model; `onChunk` gets the text as it is written; aborting `signal` stops it. */
export type Reteller = (
  request: RetellRequest,
  onChunk: (text: string) => void,
  signal: AbortSignal,
) => Promise<{ readonly text: string; readonly tokens: number; readonly promptTokens?: number }>;

/** Bounds on what a script may ask. */
const MAX_DRAFT_CHARS = 2000;
const MAX_STYLE_CHARS = 40;
const MAX_TOKENS = 400;
const MAX_REQUEST_BYTES = 16_384;

export interface ModelEndpoint {
  /** The socket's path (the value of NARRATORIA_MODEL_ENDPOINT). */
  readonly address: string;
  dispose(): Promise<void>;
}

/**
 * Listens on a socket only this user can reach (in a fresh 0700 folder; a random pipe name on Windows). Each
 * connection carries one request. A script that closes its end (killed by a timeout or a cancelled turn) stops its
 * generation.
 */
export async function openModelEndpoint(retell: Reteller): Promise<ModelEndpoint> {
  const folder = process.platform === 'win32' ? undefined : mkdtempSync(path.join(os.tmpdir(), 'narratoria-model-'));
  const address = folder ? path.join(folder, 'model.sock') : `\\\\.\\pipe\\narratoria-model-${process.pid}-${randomBytes(8).toString('hex')}`;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serve(socket, retell);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The endpoint never keeps a process alive on its own.
  server.unref();
  return {
    address,
    dispose: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (folder) rmSync(folder, { recursive: true, force: true });
    },
  };
}

function serve(socket: net.Socket, retell: Reteller): void {
  const controller = new AbortController();
  let buffered = '';
  let started = false;
  const reply = (message: RetellReply): void => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
  };
  socket.setEncoding('utf8');
  socket.on('error', () => controller.abort());
  socket.on('close', () => controller.abort());
  socket.on('data', (chunk: string) => {
    if (started) return;
    buffered += chunk;
    if (buffered.length > MAX_REQUEST_BYTES) {
      started = true;
      reply({ type: 'error', reason: `the request is longer than ${MAX_REQUEST_BYTES} bytes` });
      socket.end();
      return;
    }
    const newline = buffered.indexOf('\n');
    if (newline < 0) return;
    started = true;
    const request = parseRequest(buffered.slice(0, newline));
    if (typeof request === 'string') {
      reply({ type: 'error', reason: request });
      socket.end();
      return;
    }
    const begun = performance.now();
    let firstChunkMs: number | undefined;
    retell(
      request,
      (text) => {
        firstChunkMs ??= performance.now() - begun;
        reply({ type: 'chunk', text });
      },
      controller.signal,
    )
      .then(
        (result) =>
          reply({
            type: 'done',
            text: result.text,
            tokens: result.tokens,
            ...(result.promptTokens !== undefined ? { promptTokens: result.promptTokens } : {}),
            ...(firstChunkMs !== undefined ? { firstChunkMs } : {}),
            ms: performance.now() - begun,
          }),
        (error: unknown) => reply({ type: 'error', reason: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => socket.end());
  });
}

/** The request, or why it is not one. */
export function parseRequest(line: string): RetellRequest | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'the request is not JSON';
  }
  if (typeof value !== 'object' || value === null) return 'the request is not a JSON object';
  const body = value as Record<string, unknown>;
  if (body['type'] !== 'retell') return 'unknown request type (expected "retell")';
  const text = (key: string, limit: number) => (typeof body[key] === 'string' ? (body[key] as string).replace(/\s+/g, ' ').trim().slice(0, limit) : undefined);
  const style = text('style', MAX_STYLE_CHARS) || 'plain';
  const draft = text('draft', MAX_DRAFT_CHARS);
  if (draft === undefined || draft === '') return 'draft must be a string that is not empty';
  const number = (key: string, fallback: number) => (typeof body[key] === 'number' && Number.isFinite(body[key]) ? (body[key] as number) : fallback);
  return {
    type: 'retell',
    style,
    draft,
    maxTokens: Math.max(1, Math.min(MAX_TOKENS, Math.floor(number('maxTokens', 160)))),
    seed: Math.floor(Math.abs(number('seed', 1))) % 2 ** 31,
    temperature: Math.max(0, Math.min(2, number('temperature', 0.7))),
  };
}
