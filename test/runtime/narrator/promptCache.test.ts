// Unit tests of the persisted prompt cache: one key per model file, prompt and runtime; the folder's bounds; stale temporary files.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  PROMPT_CACHE_MAX_ENTRIES,
  promptCacheDirectory,
  promptCacheFile,
  sweepPromptCache,
  touchPromptCache,
  type PromptCacheKey,
} from '../../../src/runtime/narrator/promptCache.js';

const key: PromptCacheKey = {
  modelPath: '/models/phi.gguf',
  modelSize: 2_393_232_608,
  modelMtimeMs: 1,
  contextSize: 2048,
  runtime: 'llama.cpp b6000',
  systemPrompt: 'You are the narrator.',
};

test('every part of the key changes the file: model, its size and time, context, runtime, prompt, KV cache types', () => {
  const base = promptCacheFile(key, '/cache');
  assert.match(base, /^\/cache\/[0-9a-f]{40}\.state$/);
  assert.equal(promptCacheFile({ ...key }, '/cache'), base);
  for (const change of [
    { modelPath: '/models/other.gguf' },
    { modelSize: 1 },
    { modelMtimeMs: 2 },
    { contextSize: 4096 },
    { runtime: 'llama.cpp b6001' },
    { systemPrompt: 'You are the narrator!' },
    { flashAttention: true },
    { kvCacheTypes: 'q8_0/f16' },
  ]) {
    assert.notEqual(promptCacheFile({ ...key, ...change }, '/cache'), base, JSON.stringify(change));
  }
});

test('the folder: $NARRATORIA_PROMPT_CACHE_DIR, else the XDG cache, else ~/.cache', () => {
  assert.equal(promptCacheDirectory({ NARRATORIA_PROMPT_CACHE_DIR: '/x' }), '/x');
  assert.equal(promptCacheDirectory({ XDG_CACHE_HOME: '/xdg' }), path.join('/xdg', 'narratoria', 'prompt-cache'));
  assert.equal(promptCacheDirectory({}), path.join(os.homedir(), '.cache', 'narratoria', 'prompt-cache'));
});

test('the sweep keeps the most recently used entries (the one in use always), and removes stale temporary files', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-prompt-cache-'));
  try {
    const now = Date.now();
    const files = Array.from({ length: PROMPT_CACHE_MAX_ENTRIES + 2 }, (_, index) => {
      const file = path.join(folder, `entry${index}.state`);
      writeFileSync(file, 'x');
      const when = new Date(now - (index + 1) * 60_000);
      utimesSync(file, when, when);
      return file;
    });
    // The oldest is the one in use: it stays, and the newest others fill the rest.
    touchPromptCache(files[1]!, new Date(now));
    const stale = path.join(folder, 'entry.state.123.tmp');
    const fresh = path.join(folder, 'entry.state.456.tmp');
    writeFileSync(stale, 'x');
    writeFileSync(fresh, 'x');
    utimesSync(stale, new Date(now - 2 * 3600_000), new Date(now - 2 * 3600_000));
    const removed = sweepPromptCache(folder, files.at(-1), now);
    const left = readdirSync(folder).sort();
    assert.deepEqual(left, ['entry.state.456.tmp', 'entry0.state', 'entry1.state', 'entry2.state', 'entry5.state']);
    assert.equal(removed.length, 3);
    assert.deepEqual(sweepPromptCache(path.join(folder, 'missing')), []);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
