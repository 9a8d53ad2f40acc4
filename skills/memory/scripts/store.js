#!/usr/bin/env node
// memory/store: appends one story memory (summary in the story's voice, characters, location, significance 1-5 or a word, tags) to the skill's JSON-lines store, as Narratoria protocol v0 NDJSON.
'use strict';

const path = require('node:path');
const { InputError, cleanText, dataDirectory, readCheckedConfig, runTool, withLock } = require('../lib/narratoria-skill-sdk.js');
const { DEFAULT_SIGNIFICANCE, STORE_FILE, appendMemory, newMemoryId, significanceValue } = require('../lib/memories.js');
const { summaryInStoryVoice } = require('../lib/storyVoice.js');

const MAX_SUMMARY = 4000;
const MAX_NAME = 200;
const MAX_LIST = 50;

const CONFIG = {
  maxMemories: { fallback: 1000, valid: (v) => Number.isSafeInteger(v) && v >= 1 },
  embeddingModel: { fallback: '', valid: (v) => typeof v === 'string' },
};

/** A list of distinct non-empty strings (order kept), or an InputError naming the field. */
function stringList(value, field) {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new InputError(`input.${field} must be an array of strings`);
  }
  const seen = new Set();
  const list = [];
  for (const item of value) {
    const text = cleanText(item).slice(0, MAX_NAME);
    if (text === '' || seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    list.push(text);
  }
  if (list.length > MAX_LIST) throw new InputError(`input.${field} may hold at most ${MAX_LIST} entries`);
  return list;
}

/** A summary cut to 70 characters for the tool's own summary line. */
function shortened(summary) {
  return summary.length > 70 ? `${summary.slice(0, 67)}...` : summary;
}

function readMemoryInput(input) {
  if (typeof input.summary !== 'string' || cleanText(input.summary) === '') {
    throw new InputError('input.summary is required: one or two sentences saying what happened, e.g. {"summary":"Mira stole the harbour map"}');
  }
  // Stored as the story tells it: "Remember that Mira gave me a key" -> "Mira gave you a key".
  const summary = summaryInStoryVoice(cleanText(input.summary));
  if (summary.length > MAX_SUMMARY) throw new InputError(`input.summary is longer than ${MAX_SUMMARY} characters; store a shorter summary`);
  const characters = stringList(input.characters, 'characters');
  const tags = stringList(input.tags, 'tags');
  let location = null;
  if (input.location !== undefined && input.location !== null) {
    if (typeof input.location !== 'string') throw new InputError('input.location must be a string');
    location = cleanText(input.location).slice(0, MAX_NAME) || null;
  }
  let significance = DEFAULT_SIGNIFICANCE;
  if (input.significance !== undefined && input.significance !== null) {
    significance = significanceValue(input.significance);
    if (significance === undefined) {
      throw new InputError('input.significance must be an integer from 1 (trivial) to 5 (story-changing), or one of "low" (2), "medium" (3), "high" (4), "critical" (5)');
    }
  }
  return { summary, characters, location, significance, tags };
}

runTool({ name: 'memory', example: '{"input":{"summary":"Mira stole the harbour map","characters":["Mira"]}}' }, async ({ input, emit, log }) => {
  const fields = readMemoryInput(input);
  const config = readCheckedConfig(CONFIG);
  const dir = dataDirectory(true);
  const now = new Date();
  const memory = { id: newMemoryId(now), timestamp: now.toISOString(), ...fields };
  const file = path.join(dir, STORE_FILE);
  const { count, pruned, skipped, existing } = withLock(file, () => appendMemory(dir, memory, config.maxMemories));
  if (existing) {
    log('info', `Already remembered as ${existing.id}; not stored again`, { id: existing.id, count });
    emit({ type: 'state_patch', patch: { memory: { count, lastStored: { id: existing.id, summary: existing.summary } } } });
    return { summary: `Already remembered: ${shortened(existing.summary)}`, output: { id: existing.id, count, pruned: 0, repeated: true, narration: '' } };
  }
  if (skipped > 0) log('warn', `Skipped ${skipped} unreadable line(s) of ${STORE_FILE}; they were dropped when the store was rewritten`);
  if (pruned.length > 0) {
    log('info', `Pruned ${pruned.length} memor${pruned.length === 1 ? 'y' : 'ies'} to stay within maxMemories=${config.maxMemories}`, { pruned });
  }
  log('info', `Stored memory ${memory.id} (significance ${memory.significance})`, { id: memory.id, count });
  emit({ type: 'state_patch', patch: { memory: { count, lastStored: { id: memory.id, summary: memory.summary } } } });
  return {
    summary: `Remembered: ${shortened(memory.summary)}`,
    // Nothing for the narration to tell: the player's act ("remember that…") is the telling (docs/writing-skills.md#what-the-narration-tells).
    output: { id: memory.id, count, pruned: pruned.length, narration: '' },
  };
});
