// How the model worker holds the weights and the KV cache (modelLoading.ts): the default, NARRATORIA_MODEL_LOADING's words, and their description.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  DEFAULT_MODEL_LOADING,
  describeModelLoading,
  kvCacheTypesFor,
  MODEL_LOADING_VARIABLE,
  modelLoadingFromEnvironment,
  parseModelLoading,
} from '../../../src/runtime/narrator/modelLoading.js';

test("nothing asked: the default (weights read, the KV cache's keys in 8 bits, its values f16)", () => {
  assert.deepEqual(parseModelLoading(undefined), { loading: DEFAULT_MODEL_LOADING, problems: [] });
  assert.deepEqual(parseModelLoading('  '), { loading: DEFAULT_MODEL_LOADING, problems: [] });
  assert.deepEqual(modelLoadingFromEnvironment({}), { loading: DEFAULT_MODEL_LOADING, problems: [] });
  assert.equal(describeModelLoading(DEFAULT_MODEL_LOADING), 'read kv-key=q8_0 kv-value=f16');
});

test('the words: how the weights load, lazy reading, and the KV cache types, separated by spaces or commas', () => {
  assert.deepEqual(parseModelLoading('map lazy').loading, { ...DEFAULT_MODEL_LOADING, weights: 'map', lazy: true });
  assert.deepEqual(parseModelLoading('map,lazy=auto').loading, { ...DEFAULT_MODEL_LOADING, weights: 'map', lazy: 'auto' });
  assert.deepEqual(parseModelLoading('direct lazy lazy=off').loading, { ...DEFAULT_MODEL_LOADING, weights: 'direct' });
  assert.deepEqual(parseModelLoading('kv=q8_0').loading, { ...DEFAULT_MODEL_LOADING, kvCacheKey: 'q8_0', kvCacheValue: 'q8_0' });
  assert.deepEqual(parseModelLoading('kv=f16').loading, { ...DEFAULT_MODEL_LOADING, kvCacheKey: 'f16', kvCacheValue: 'f16' });
  assert.deepEqual(parseModelLoading('kv=q4_0 kv-value=f16').loading, { ...DEFAULT_MODEL_LOADING, kvCacheKey: 'q4_0' });
  assert.deepEqual(modelLoadingFromEnvironment({ [MODEL_LOADING_VARIABLE]: 'map' }).loading.weights, 'map');
});

test('words not understood are reported and left out', () => {
  const parsed = parseModelLoading('mmap map kv=q5_1 kv-key lazy=maybe');
  assert.deepEqual(parsed.loading, { ...DEFAULT_MODEL_LOADING, weights: 'map' });
  assert.deepEqual(parsed.problems, ['mmap', 'kv=q5_1', 'kv-key', 'lazy=maybe']);
});

test('a description names what differs from the default, and reads back as the same loading', () => {
  const cases: [string, string][] = [
    ['read kv=f16', 'read kv=f16'],
    ['map lazy', 'map lazy kv-key=q8_0 kv-value=f16'],
    ['lazy=auto map kv=f16', 'map lazy=auto kv=f16'],
    ['direct kv-key=q8_0 kv-value=q8_0', 'direct kv=q8_0'],
    ['kv-key=q4_0', 'read kv-key=q4_0 kv-value=f16'],
  ];
  for (const [text, described] of cases) {
    const { loading } = parseModelLoading(text);
    assert.equal(describeModelLoading(loading), described);
    assert.deepEqual(parseModelLoading(described).loading, loading);
  }
});

test('a quantized KV cache type needs head sizes of whole 32-value blocks, else it is f16', () => {
  const quantized = parseModelLoading('kv=q8_0').loading;
  // Phi-3.5-mini: 3,072 / 32 heads = 96 values a head.
  assert.deepEqual(kvCacheTypesFor(quantized, { keySize: 96, valueSize: 96 }), { key: 'q8_0', value: 'q8_0' });
  // The tiny test model: 64 / 4 heads = 16.
  assert.deepEqual(kvCacheTypesFor(quantized, { keySize: 16, valueSize: 16 }), { key: 'f16', value: 'f16' });
  assert.deepEqual(kvCacheTypesFor(quantized, { keySize: 128, valueSize: 48 }), { key: 'q8_0', value: 'f16' });
  assert.deepEqual(kvCacheTypesFor(DEFAULT_MODEL_LOADING, {}), { key: 'q8_0', value: 'f16' });
});
