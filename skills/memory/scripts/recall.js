#!/usr/bin/env node
// memory/recall: ranks the stored story memories against a query (lexical TF-IDF similarity, meaning by the runtime's word vectors when NARRATORIA_WORD_VECTORS is set, significance and recency) and returns the best ones in the story's voice, as Narratoria protocol v0 NDJSON.
'use strict';

const { InputError, dataDirectory, isObject, readCheckedConfig, runTool } = require('../lib/narratoria-skill-sdk.js');
const { readMemories, recall, significanceValue, STORE_FILE } = require('../lib/memories.js');

const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 50;

const CONFIG = {
  maxMemories: { fallback: 1000, valid: (v) => Number.isSafeInteger(v) && v >= 1 },
  embeddingModel: { fallback: '', valid: (v) => typeof v === 'string' },
};

function readRecallInput(input) {
  if (typeof input.query !== 'string') {
    throw new InputError('input.query is required: what to remember, e.g. {"query":"the harbour map"} or {"query":"what happened so far?"}');
  }
  const query = input.query.slice(0, 2000);
  let limit = DEFAULT_LIMIT;
  if (input.limit !== undefined && input.limit !== null) {
    if (!Number.isInteger(input.limit) || input.limit < 1 || input.limit > MAX_LIMIT) {
      throw new InputError(`input.limit must be an integer from 1 to ${MAX_LIMIT}`);
    }
    limit = input.limit;
  }
  const filters = {};
  if (input.filters !== undefined && input.filters !== null) {
    if (!isObject(input.filters)) throw new InputError('input.filters must be an object like {"character":"Mira","minSignificance":3}');
    const { character, location, minSignificance } = input.filters;
    if (character !== undefined && character !== null) {
      if (typeof character !== 'string' || character.trim() === '') throw new InputError('input.filters.character must be a non-empty string');
      filters.character = character;
    }
    if (location !== undefined && location !== null) {
      if (typeof location !== 'string' || location.trim() === '') throw new InputError('input.filters.location must be a non-empty string');
      filters.location = location;
    }
    if (minSignificance !== undefined && minSignificance !== null) {
      filters.minSignificance = significanceValue(minSignificance);
      if (filters.minSignificance === undefined) {
        throw new InputError('input.filters.minSignificance must be an integer from 1 to 5, or one of "low", "medium", "high", "critical"');
      }
    }
  }
  return { query, limit, filters };
}

runTool({ name: 'memory', example: '{"input":{"query":"the harbour map","limit":5}}' }, async ({ input, emit, log }) => {
  const request = readRecallInput(input);
  const config = readCheckedConfig(CONFIG);
  // The runtime's word vectors (absent when a script runs on its own: then words alone rank).
  const vectorsFile = (process.env.NARRATORIA_WORD_VECTORS || '').trim() || undefined;
  if (config.embeddingModel.trim() !== '') {
    // The original memory skill can rank with a sentence-embedding model (docs/design-rules.md#the-sample-skills); this build has none bundled.
    log('warn', `Embedding model ${JSON.stringify(config.embeddingModel)} is not available in this runtime; using ${vectorsFile ? 'lexical similarity and word vectors' : 'lexical similarity'}`);
  }
  const { memories, skipped } = readMemories(dataDirectory(false));
  if (skipped > 0) log('warn', `Skipped ${skipped} unreadable line(s) of ${STORE_FILE}`);
  const result = recall(memories, request, { vectorsFile });
  if (result.vectorsUnreadable) log('warn', `The word vectors ${vectorsFile} cannot be read; ranking by words alone`);
  log('info', `Recalled ${result.memories.length} of ${memories.length} memories (${result.mode})`, {
    query: request.query,
    mode: result.mode,
    method: result.method,
    considered: result.considered,
  });
  emit({
    type: 'ui_event',
    event: 'memory_recall',
    payload: {
      query: request.query,
      mode: result.mode,
      memories: result.memories.map(({ id, summary, relevance }) => ({ id, summary, relevance })),
    },
  });
  let summary;
  if (result.mode === 'empty') summary = 'No memories stored yet';
  else if (result.memories.length === 0) summary = `No memory matches "${request.query}"`;
  else summary = `Recalled ${result.memories.length} memor${result.memories.length === 1 ? 'y' : 'ies'}: ${result.memories[0].summary}`;
  if (summary.length > 100) summary = `${summary.slice(0, 97)}...`;
  return {
    summary,
    output: { memories: result.memories, mode: result.mode, method: result.method, total: memories.length },
  };
});
