// The local model cache: which model to use, where it lives, its status, and verification before loading. No network here (see modelDownload.ts).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { narratoriaCacheHome } from '../common/userCache.js';
import { readGgufHeader, type GgufSummary } from './ggufHeader.js';

/** What a model file must be: its published size and SHA-256, when known. */
export interface ModelFileExpectation {
  readonly sizeBytes?: number;
  /** Lower-case hex. */
  readonly sha256?: string;
}

/** A downloadable model: a file in a Hugging Face repository at a pinned revision. */
export interface ModelCatalogEntry extends ModelFileExpectation {
  readonly id: string;
  readonly displayName: string;
  /** `owner/name` on the hub. */
  readonly repository: string;
  /** A commit, so the bytes behind the URL never change. */
  readonly revision: string;
  readonly file: string;
  readonly license: string;
}

/**
 * Phi-3.5-mini-instruct (3.8B, MIT), Q4_K_M quantisation, from bartowski/Phi-3.5-mini-instruct-GGUF.
 * SHA-256 from the repository's Git LFS pointer ("Large File Pointer Details" on
 * https://huggingface.co/bartowski/Phi-3.5-mini-instruct-GGUF/blob/4cd0c5148e612aa078f250862a4bffe4a10f5d38/Phi-3.5-mini-instruct-Q4_K_M.gguf:
 * SHA256 e4165e3a…eff5, 2.39 GB). The exact byte size 2,393,232,672 and the upload commit b1693692… come from
 * public model catalogs that pin the same file and hash (found with a code search; not read from the hub itself).
 */
export const PHI_3_5_MINI_Q4_K_M: ModelCatalogEntry = {
  id: 'phi-3.5-mini-instruct-q4_k_m',
  displayName: 'Phi-3.5-mini-instruct Q4_K_M',
  repository: 'bartowski/Phi-3.5-mini-instruct-GGUF',
  revision: 'b1693692c4758ac83f0d0e65aff9b4f945f29941',
  file: 'Phi-3.5-mini-instruct-Q4_K_M.gguf',
  sizeBytes: 2_393_232_672,
  sha256: 'e4165e3a71af97f1b4820da61079826d8752a2088e313af0c7d346796c38eff5',
  license: 'MIT',
};

/** The narrator's model (docs/design-rules.md#the-narrator-model). */
export const DEFAULT_MODEL: ModelCatalogEntry = PHI_3_5_MINI_Q4_K_M;

/** Where models go: `$NARRATORIA_MODEL_DIR`, else `$XDG_CACHE_HOME/narratoria/models`, else `~/.cache/narratoria/models`. */
export function modelCacheDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env['NARRATORIA_MODEL_DIR']) return path.resolve(env['NARRATORIA_MODEL_DIR']);
  return path.join(narratoriaCacheHome(env), 'models');
}

/** Path of the model file of `entry` in `directory`. */
export function modelFilePath(entry: ModelCatalogEntry = DEFAULT_MODEL, directory: string = modelCacheDirectory()): string {
  return path.join(directory, entry.file);
}

/** Path of the unfinished download of `modelPath` (resumed with an HTTP Range request). */
export function partialFilePath(modelPath: string): string {
  return `${modelPath}.partial`;
}

/** Path of the verification stamp: the SHA-256 and the size/mtime it was computed for. */
export function verificationStampPath(modelPath: string): string {
  return `${modelPath}.verified.json`;
}

/** State of the model in the cache. `verified`: a stamp matches the file as it is now (no re-hash needed). */
export type ModelStatus =
  | { readonly state: 'absent'; readonly path: string }
  | { readonly state: 'partial'; readonly path: string; readonly bytes: number; readonly totalBytes: number | undefined }
  | { readonly state: 'present'; readonly path: string; readonly bytes: number; readonly verified: boolean };

/** Where to look: a catalog entry in a cache directory. */
export interface ModelLocation {
  readonly entry?: ModelCatalogEntry;
  readonly directory?: string;
}

/** Reports whether the model is absent, partly downloaded or present (and whether it was verified). Cheap: never hashes. */
export async function modelStatus(location: ModelLocation = {}): Promise<ModelStatus> {
  const entry = location.entry ?? DEFAULT_MODEL;
  const modelPath = modelFilePath(entry, location.directory ?? modelCacheDirectory());
  const file = await statOrUndefined(modelPath);
  if (file) {
    const stamp = await readStamp(modelPath);
    const verified = stamp !== undefined && stampMatches(stamp, file) && (entry.sha256 === undefined || stamp.sha256 === entry.sha256);
    return { state: 'present', path: modelPath, bytes: file.size, verified };
  }
  const partial = await statOrUndefined(partialFilePath(modelPath));
  if (partial) return { state: 'partial', path: modelPath, bytes: partial.size, totalBytes: entry.sizeBytes };
  return { state: 'absent', path: modelPath };
}

/** Outcome of {@link verifyModelFile}. `checksum` says what the hash was compared with. */
export type ModelVerification =
  | {
      readonly ok: true;
      readonly sha256: string;
      readonly sizeBytes: number;
      readonly header: GgufSummary;
      /** published: matched the expected hash; recorded: matched (or became) the hash recorded at the first verification; cached: a stamp for this exact file matched, no re-hash. */
      readonly checksum: 'published' | 'recorded' | 'cached';
    }
  | { readonly ok: false; readonly code: 'missing' | 'size_mismatch' | 'invalid_gguf' | 'checksum_mismatch'; readonly message: string };

/**
 * Verifies a model file before it is loaded: size (when known), GGUF header and metadata, and SHA-256 — against
 * `expected.sha256` when known, otherwise against the hash recorded the first time this file was verified.
 * A successful hash is stamped beside the file so later checks of the unchanged file skip the hash.
 */
export async function verifyModelFile(modelPath: string, expected: ModelFileExpectation = {}): Promise<ModelVerification> {
  const file = await statOrUndefined(modelPath);
  if (!file) return { ok: false, code: 'missing', message: `no model file at ${modelPath}` };
  if (expected.sizeBytes !== undefined && file.size !== expected.sizeBytes) {
    return { ok: false, code: 'size_mismatch', message: `${modelPath} has ${file.size} bytes, expected ${expected.sizeBytes}` };
  }
  const header = await readGgufHeader(modelPath);
  if (!header.ok) return { ok: false, code: 'invalid_gguf', message: `${modelPath}: ${header.message}` };
  const stamp = await readStamp(modelPath);
  const published = expected.sha256?.toLowerCase();
  if (stamp && stampMatches(stamp, file) && (published === undefined || stamp.sha256 === published)) {
    return { ok: true, sha256: stamp.sha256, sizeBytes: file.size, header: header.summary, checksum: 'cached' };
  }
  const sha256 = await sha256OfFile(modelPath);
  const reference = published ?? stamp?.sha256;
  if (reference !== undefined && sha256 !== reference) {
    const against = published !== undefined ? 'the published' : 'the recorded';
    return { ok: false, code: 'checksum_mismatch', message: `${modelPath}: SHA-256 ${sha256} differs from ${against} ${reference}` };
  }
  await writeStamp(modelPath, { sha256, sizeBytes: file.size, mtimeMs: file.mtimeMs });
  return { ok: true, sha256, sizeBytes: file.size, header: header.summary, checksum: published !== undefined ? 'published' : 'recorded' };
}

/** SHA-256 (lower-case hex) of a whole file, streamed. */
export async function sha256OfFile(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(filePath, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}

/** Records a verified hash for the file as it is now (used by the downloader after hashing while downloading). */
export async function recordVerifiedHash(modelPath: string, sha256: string): Promise<void> {
  const file = await stat(modelPath);
  await writeStamp(modelPath, { sha256, sizeBytes: file.size, mtimeMs: file.mtimeMs });
}

interface VerificationStamp {
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly mtimeMs: number;
}

function stampMatches(stamp: VerificationStamp, file: { size: number; mtimeMs: number }): boolean {
  return stamp.sizeBytes === file.size && stamp.mtimeMs === file.mtimeMs;
}

async function readStamp(modelPath: string): Promise<VerificationStamp | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(verificationStampPath(modelPath), 'utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const { sha256, sizeBytes, mtimeMs } = value as Record<string, unknown>;
    if (typeof sha256 !== 'string' || typeof sizeBytes !== 'number' || typeof mtimeMs !== 'number') return undefined;
    return { sha256, sizeBytes, mtimeMs };
  } catch {
    return undefined;
  }
}

async function writeStamp(modelPath: string, stamp: VerificationStamp): Promise<void> {
  try {
    await writeFile(verificationStampPath(modelPath), `${JSON.stringify(stamp)}\n`);
  } catch {
    // A read-only cache only costs a re-hash next time.
  }
}

async function statOrUndefined(filePath: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  try {
    const info = await stat(filePath);
    return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}
