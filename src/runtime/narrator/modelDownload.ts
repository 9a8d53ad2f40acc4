// Downloads a catalog model into the cache with progress, cancel and resume (HTTP Range on a .partial file), then verifies it. The only network code of the narrator.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CancellationError, errorMessage } from '../common/errors.js';
import { readGgufHeader } from './ggufHeader.js';
import {
  DEFAULT_MODEL,
  modelCacheDirectory,
  modelFilePath,
  partialFilePath,
  recordVerifiedHash,
  verifyModelFile,
  type ModelCatalogEntry,
} from './modelStore.js';

/** The hub models are fetched from unless a test or a mirror says otherwise. */
export const DEFAULT_MODEL_BASE_URL = 'https://huggingface.co';

/** Progress of a download; `receivedBytes` counts the bytes already in the .partial file. */
export interface DownloadProgress {
  readonly receivedBytes: number;
  readonly totalBytes: number | undefined;
  /** Bytes that were already on disk when this request started (resume). */
  readonly resumedFrom: number;
}

/** Options of {@link downloadModel}. */
export interface DownloadOptions {
  readonly entry?: ModelCatalogEntry;
  readonly directory?: string;
  /** Hub base URL; the file is fetched from `<baseUrl>/<repository>/resolve/<revision>/<file>`. */
  readonly baseUrl?: string;
  readonly signal?: AbortSignal;
  /** Called at most every `progressIntervalMs` while bytes arrive, and once at the end. */
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly progressIntervalMs?: number;
  /** Further attempts (each resuming where the last stopped) after a network error. Default 2. */
  readonly retries?: number;
  readonly retryDelayMs?: number;
  readonly fetch?: typeof fetch;
}

/** Outcome of {@link downloadModel}. A cancelled download throws CancellationError and keeps its .partial file. */
export type DownloadResult =
  | { readonly ok: true; readonly path: string; readonly sha256: string; readonly sizeBytes: number; readonly downloaded: boolean }
  | {
      readonly ok: false;
      readonly code: 'http' | 'network' | 'size_mismatch' | 'checksum_mismatch' | 'invalid_gguf' | 'filesystem';
      readonly message: string;
    };

/** URL of a catalog entry's file on a hub. */
export function modelUrl(entry: ModelCatalogEntry, baseUrl: string = DEFAULT_MODEL_BASE_URL): string {
  const encodedFile = entry.file.split('/').map(encodeURIComponent).join('/');
  return `${baseUrl.replace(/\/+$/, '')}/${entry.repository}/resolve/${entry.revision}/${encodedFile}`;
}

/**
 * Makes the model available in the cache: returns at once when a verified copy is there; otherwise downloads
 * (resuming a .partial file), hashing as bytes arrive, checks size, SHA-256 and GGUF header, and only then
 * renames the file into place. A file that fails a check is removed. Never used by plan generation (docs/design-rules.md#no-network).
 */
export async function downloadModel(options: DownloadOptions = {}): Promise<DownloadResult> {
  const entry = options.entry ?? DEFAULT_MODEL;
  const directory = options.directory ?? modelCacheDirectory();
  const target = modelFilePath(entry, directory);
  if (await exists(target)) {
    const existing = await verifyModelFile(target, entry);
    if (existing.ok) return { ok: true, path: target, sha256: existing.sha256, sizeBytes: existing.sizeBytes, downloaded: false };
    await rm(target, { force: true });
  }
  try {
    await mkdir(directory, { recursive: true });
  } catch (error) {
    return { ok: false, code: 'filesystem', message: `cannot create ${directory}: ${errorMessage(error)}` };
  }
  const retries = options.retries ?? 2;
  for (let attempt = 0; ; attempt++) {
    const outcome = await fetchToPartial(entry, target, options);
    if (outcome.ok) return finish(entry, target, outcome.sha256);
    if (outcome.code !== 'network' || attempt >= retries) return outcome;
    await delay(options.retryDelayMs ?? 500 * 2 ** attempt, options.signal);
  }
}

type FetchOutcome = { readonly ok: true; readonly sha256: string } | Extract<DownloadResult, { ok: false }>;

async function fetchToPartial(entry: ModelCatalogEntry, target: string, options: DownloadOptions): Promise<FetchOutcome> {
  const partial = partialFilePath(target);
  let offset = (await sizeOf(partial)) ?? 0;
  if (entry.sizeBytes !== undefined && offset > entry.sizeBytes) {
    await rm(partial, { force: true });
    offset = 0;
  }
  const hash = createHash('sha256');
  if (offset > 0) for await (const chunk of createReadStream(partial)) hash.update(chunk as Buffer);
  if (entry.sizeBytes !== undefined && offset === entry.sizeBytes) return { ok: true, sha256: hash.digest('hex') };

  const fetchFunction = options.fetch ?? fetch;
  let response: Response;
  try {
    const headers: Record<string, string> = offset > 0 ? { Range: `bytes=${offset}-` } : {};
    response = await fetchFunction(modelUrl(entry, options.baseUrl), { headers, redirect: 'follow', ...(options.signal ? { signal: options.signal } : {}) });
  } catch (error) {
    if (options.signal?.aborted) throw new CancellationError('Model download cancelled');
    return { ok: false, code: 'network', message: `cannot reach ${modelUrl(entry, options.baseUrl)}: ${errorMessage(error)}` };
  }
  if (response.status === 200 && offset > 0) {
    // The server ignored the Range header: start over.
    return streamBody(response, partial, 0, createHash('sha256'), entry, options);
  }
  if (response.status === 206) {
    const start = /^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1];
    if (Number(start) !== offset) {
      await response.body?.cancel();
      await rm(partial, { force: true });
      return { ok: false, code: 'network', message: `the server resumed at byte ${start ?? '?'} instead of ${offset}; the partial file was removed` };
    }
  } else if (response.status === 416 && offset > 0) {
    await response.body?.cancel();
    await rm(partial, { force: true });
    return { ok: false, code: 'network', message: 'the server refused to resume the partial download; it was removed' };
  } else if (response.status !== 200) {
    await response.body?.cancel();
    return { ok: false, code: 'http', message: `HTTP ${response.status} ${response.statusText} for ${modelUrl(entry, options.baseUrl)}` };
  }
  return streamBody(response, partial, offset, hash, entry, options);
}

async function streamBody(
  response: Response,
  partial: string,
  offset: number,
  hash: Hash,
  entry: ModelCatalogEntry,
  options: DownloadOptions,
): Promise<FetchOutcome> {
  if (!response.body) return { ok: false, code: 'network', message: 'the response has no body' };
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  const totalBytes = entry.sizeBytes ?? (Number.isFinite(length) ? offset + length : undefined);
  let receivedBytes = offset;
  let lastReport = 0;
  const interval = options.progressIntervalMs ?? 100;
  const report = (force: boolean): void => {
    const now = performance.now();
    if (!options.onProgress || (!force && now - lastReport < interval)) return;
    lastReport = now;
    options.onProgress({ receivedBytes, totalBytes, resumedFrom: offset });
  };
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      receivedBytes += chunk.length;
      hash.update(chunk);
      report(false);
      callback(null, chunk);
    },
  });
  try {
    const body = Readable.fromWeb(response.body as Parameters<typeof Readable.fromWeb>[0]);
    const file = createWriteStream(partial, { flags: offset > 0 ? 'a' : 'w' });
    await pipeline(body, counter, file, ...(options.signal ? [{ signal: options.signal }] : []));
  } catch (error) {
    if (options.signal?.aborted) throw new CancellationError('Model download cancelled');
    return { ok: false, code: 'network', message: `download interrupted after ${receivedBytes} bytes: ${errorMessage(error)}` };
  }
  report(true);
  if (Number.isFinite(length) && receivedBytes !== offset + length) {
    return { ok: false, code: 'network', message: `download ended after ${receivedBytes} of ${offset + length} bytes` };
  }
  return { ok: true, sha256: hash.digest('hex') };
}

/** Checks the finished .partial file and moves it into place; removes it when a check fails. */
async function finish(entry: ModelCatalogEntry, target: string, sha256: string): Promise<DownloadResult> {
  const partial = partialFilePath(target);
  const sizeBytes = (await sizeOf(partial)) ?? 0;
  const reject = async (code: 'size_mismatch' | 'checksum_mismatch' | 'invalid_gguf', message: string): Promise<DownloadResult> => {
    await rm(partial, { force: true });
    return { ok: false, code, message: `${message}; the downloaded file was removed` };
  };
  if (entry.sizeBytes !== undefined && sizeBytes !== entry.sizeBytes) {
    return reject('size_mismatch', `${path.basename(target)}: downloaded ${sizeBytes} bytes, expected ${entry.sizeBytes}`);
  }
  if (entry.sha256 !== undefined && sha256 !== entry.sha256.toLowerCase()) {
    return reject('checksum_mismatch', `${path.basename(target)}: SHA-256 ${sha256} does not match the published ${entry.sha256}`);
  }
  const header = await readGgufHeader(partial);
  if (!header.ok) return reject('invalid_gguf', `${path.basename(target)}: ${header.message}`);
  try {
    await rename(partial, target);
    await recordVerifiedHash(target, sha256);
  } catch (error) {
    return { ok: false, code: 'filesystem', message: `cannot move the download into place: ${errorMessage(error)}` };
  }
  return { ok: true, path: target, sha256, sizeBytes, downloaded: true };
}

async function sizeOf(filePath: string): Promise<number | undefined> {
  try {
    return (await stat(filePath)).size;
  } catch {
    return undefined;
  }
}

async function exists(filePath: string): Promise<boolean> {
  return (await sizeOf(filePath)) !== undefined;
}

function delay(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancellationError('Model download cancelled'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new CancellationError('Model download cancelled'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
