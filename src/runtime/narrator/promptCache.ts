// Where the evaluated fixed prompt is persisted between processes: one file per model file, prompt text and runtime, in a bounded folder whose stale entries are removed.
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, statSync, utimesSync, type Stats } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Entries kept, newest use first; the rest are removed. */
export const PROMPT_CACHE_MAX_ENTRIES = 4;
/** Bytes kept at most (a Phi-3.5-mini prompt of ~1,300 tokens is ~0.5 GB of KV cache). */
export const PROMPT_CACHE_MAX_BYTES = 2 * 1024 ** 3;
/** A temporary file left by a process that died while writing is removed after this long. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;

/** `$NARRATORIA_PROMPT_CACHE_DIR`, else `$XDG_CACHE_HOME/narratoria/prompt-cache`, else `~/.cache/narratoria/prompt-cache`. */
export function promptCacheDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env['NARRATORIA_PROMPT_CACHE_DIR']) return env['NARRATORIA_PROMPT_CACHE_DIR'];
  const base = env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache');
  return path.join(base, 'narratoria', 'prompt-cache');
}

/** What the evaluated state depends on: a state file from another model can crash llama.cpp, so every part is in the key. */
export interface PromptCacheKey {
  readonly modelPath: string;
  /** The model file as it is now (size and modification time). */
  readonly modelSize: number;
  readonly modelMtimeMs: number;
  readonly contextSize: number;
  /** Flash attention changes how the state is laid out: part of the key. */
  readonly flashAttention?: boolean;
  /** The KV cache's key and value types when not f16 (a state holds the cache in its types), e.g. `q8_0/f16`. */
  readonly kvCacheTypes?: string;
  /** The llama.cpp release of the binding (from the worker's load). */
  readonly runtime: string;
  readonly systemPrompt: string;
}

/** The cache file of a key (not created). */
export function promptCacheFile(key: PromptCacheKey, directory: string = promptCacheDirectory()): string {
  const hash = createHash('sha256')
    .update(
      JSON.stringify([
        path.resolve(key.modelPath),
        key.modelSize,
        key.modelMtimeMs,
        key.contextSize,
        key.flashAttention === true,
        key.runtime,
        key.systemPrompt,
        // Only when set: the keys of f16 caches stay those written before the types were part of the key.
        ...(key.kvCacheTypes !== undefined ? [key.kvCacheTypes] : []),
      ]),
    )
    .digest('hex')
    .slice(0, 40);
  return path.join(directory, `${hash}.state`);
}

/**
 * Keeps the folder bounded: the PROMPT_CACHE_MAX_ENTRIES most recently used entries within PROMPT_CACHE_MAX_BYTES
 * (`keep` always stays: the entry in use), and no temporary file older than an hour. Never throws.
 */
export function sweepPromptCache(directory: string = promptCacheDirectory(), keep?: string, now: number = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  const removed: string[] = [];
  const remove = (file: string): void => {
    try {
      rmSync(file, { force: true });
      removed.push(file);
    } catch {
      // Another process may hold it: the next sweep tries again.
    }
  };
  const entries: { file: string; stats: Stats }[] = [];
  for (const name of names) {
    const file = path.join(directory, name);
    let stats: Stats;
    try {
      stats = statSync(file);
    } catch {
      continue;
    }
    if (name.endsWith('.tmp')) {
      if (now - stats.mtimeMs > STALE_TEMPORARY_MS) remove(file);
    } else if (name.endsWith('.state')) {
      entries.push({ file, stats });
    }
  }
  // The entry in use first, then the most recently used (a load touches the file: see touchPromptCache).
  const mine = (file: string): boolean => keep !== undefined && path.resolve(file) === path.resolve(keep);
  entries.sort((left, right) => Number(mine(right.file)) - Number(mine(left.file)) || right.stats.mtimeMs - left.stats.mtimeMs);
  let bytes = 0;
  let kept = 0;
  for (const { file, stats } of entries) {
    if (mine(file) || (kept < PROMPT_CACHE_MAX_ENTRIES && bytes + stats.size <= PROMPT_CACHE_MAX_BYTES)) {
      kept++;
      bytes += stats.size;
    } else {
      remove(file);
    }
  }
  return removed;
}

/** Marks an entry as just used (the sweep keeps the most recently used). Never throws. */
export function touchPromptCache(file: string, now: Date = new Date()): void {
  try {
    utimesSync(file, now, now);
  } catch {
    // Read-only or gone: it is only the sweep's order.
  }
}
