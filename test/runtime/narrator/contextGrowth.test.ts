// The model worker's contexts sized to need with a real (tiny) model: made when the fixed prompt arrives, grown for a long turn with the prompt restored from its file, reported with the memory; the KV cache's types.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { CONTEXT_ALIGNMENT } from '../../../src/runtime/narrator/contextSizing.js';
import { parseModelLoading } from '../../../src/runtime/narrator/modelLoading.js';
import { ModelWorkerClient } from '../../../src/runtime/narrator/modelWorkerClient.js';
import { createModelDirectory, TSX_WORKER, type ModelDirectory } from './narratorFixtures.js';

let models: ModelDirectory;
before(() => (models = createModelDirectory()));
after(() => models.remove());

/** A fixed prompt longer than the turn below, so that a turn's prompt tokens tell whether it was restored. */
const systemPrompt = `You retell what happens in one short sentence. ${'Keep every name, number and place the player gives. '.repeat(20)}`;

test('a context sized to its fixed prompt grows for a long turn, its prompt restored from the file, and the memory report says so', async () => {
  const client = new ModelWorkerClient({ command: TSX_WORKER });
  try {
    const loaded = await client.load({ modelPath: models.model('tiny.gguf'), threads: 1 });
    assert.equal(loaded.contextSize, undefined, 'no context before its fixed prompt arrives');
    const cacheFile = path.join(models.directory, 'prompt.state');
    const prefixed = await client.prefix({ systemPrompt, cacheFile, turnTokens: 16 });
    assert.equal(prefixed.source, 'evaluated');
    const sized = Math.ceil((prefixed.tokens + 16) / CONTEXT_ALIGNMENT) * CONTEXT_ALIGNMENT;
    assert.equal(prefixed.contextSize, sized, `${prefixed.tokens} tokens and a 16-token turn`);

    // A turn far longer than the room left: the context grows, and the fixed prompt comes back from its file.
    const longTurn = `The player says: ${'I walk along the old road and look at every stone. '.repeat(8)}`;
    const generated = await client.generate({ systemPrompt, prompt: longTurn, maxTokens: 8, seed: 1, temperature: 0 });
    assert.ok(generated.tokens > 0);
    // Restored: only the turn's text is evaluated (fewer tokens than the fixed prompt); else everything again.
    assert.ok(
      (generated.promptTokens ?? Infinity) < prefixed.tokens,
      `${generated.promptTokens} prompt tokens evaluated, the fixed prompt is ${prefixed.tokens}`,
    );
    const memory = await client.memory();
    const decision = memory?.buffers?.contexts.find((context) => context.sequence === 'decision');
    assert.ok(decision && decision.contextSize > sized, `grown: ${JSON.stringify(memory?.buffers)}`);
    assert.equal(decision.contextSize % CONTEXT_ALIGNMENT, 0);
    assert.ok(decision.kvCacheBytes > 0 && decision.computeBytes > 0, 'the buffers llama.cpp logged for the new context');
    assert.ok((memory?.buffers?.weightsBytes ?? 0) > 0);
    assert.equal(memory?.buffers?.mappedWeightsBytes, 0, 'the weights are read, not mapped');
    assert.equal(decision.kvCacheTypes, 'f16/f16', "the tiny model's heads of 16 values keep the keys in f16");
    assert.ok(memory!.peakRssBytes >= memory!.rssBytes);

    // The grown context keeps the fixed prompt for the next turns.
    const again = await client.prefix({ systemPrompt, cacheFile, turnTokens: 16 });
    assert.equal(again.source, 'memory');
    assert.equal(again.tokens, prefixed.tokens);
  } finally {
    await client.dispose();
  }
});

test("the KV cache's keys in 8 bits by default where the heads allow it: a smaller cache, the same answer", async () => {
  // 64 values in 2 heads: heads of 32, one q8_0 block each.
  const modelPath = models.model('tiny-heads-32.gguf', { heads: 2 });
  const answers: { kvCacheTypes?: string; kvCacheBytes: number; text: string }[] = [];
  for (const loading of [undefined, parseModelLoading('kv=f16').loading]) {
    const client = new ModelWorkerClient({ command: TSX_WORKER });
    try {
      await client.load({ modelPath, threads: 1, ...(loading ? { loading } : {}) });
      await client.prefix({ systemPrompt, turnTokens: 32 });
      const generated = await client.generate({ systemPrompt, prompt: 'I open the door.', maxTokens: 8, seed: 1, temperature: 0 });
      const decision = (await client.memory())?.buffers?.contexts.find((context) => context.sequence === 'decision');
      assert.ok(decision);
      answers.push({ ...(decision.kvCacheTypes ? { kvCacheTypes: decision.kvCacheTypes } : {}), kvCacheBytes: decision.kvCacheBytes, text: generated.text });
    } finally {
      await client.dispose();
    }
  }
  const [quantized, full] = answers;
  assert.equal(quantized?.kvCacheTypes, 'q8_0/f16');
  assert.equal(full?.kvCacheTypes, 'f16/f16');
  // Keys take 34 bytes per 32 values instead of 64: the cache is (34 + 64) / (64 + 64) of the f16 one.
  assert.ok(quantized.kvCacheBytes < full.kvCacheBytes * 0.8, `${quantized.kvCacheBytes} against ${full.kvCacheBytes} bytes`);
  assert.equal(quantized.text, full.text, 'the same greedy answer');
});
