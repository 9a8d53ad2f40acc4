// memory/lib/memories.js: the JSON-lines memory store (read, append, prune), significance (1-5 or low/medium/high/critical) and the ranker: lexical (tokens, stop words, stemming, TF-IDF cosine) plus meaning by word vectors when the runtime gives them.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { writeFileAtomic } = require('./narratoria-skill-sdk.js');
const { meaningScores } = require('./meaning.js');
const { summaryInStoryVoice } = require('./storyVoice.js');

const STORE_FILE = 'memories.jsonl';
const DEFAULT_SIGNIFICANCE = 3;

/** Significance in words, as upstream Narratoria's memory examples send it ("significance": "high"), on the 1-5 scale. */
const SIGNIFICANCE_WORDS = Object.freeze({ low: 2, medium: 3, high: 4, critical: 5 });

/** A significance given as an integer 1-5 or a word of SIGNIFICANCE_WORDS (any case), on the 1-5 scale; undefined when it is neither. */
function significanceValue(value) {
  if (Number.isInteger(value)) return value >= 1 && value <= 5 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  return Object.prototype.hasOwnProperty.call(SIGNIFICANCE_WORDS, word) ? SIGNIFICANCE_WORDS[word] : undefined;
}

const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are aren as at be because been before being below between both ' +
    'but by can cannot could couldn did didn do does doesn doing don down during each few for from further had hadn has ' +
    'hasn have haven having he her here hers herself him himself his how i if in into is isn it its itself just let me ' +
    'more most mustn my myself no nor not now of off on once only or other ought our ours ourselves out over own same ' +
    'shan she should shouldn so some such than that the their theirs them themselves then there these they this those ' +
    'through to too under until up upon very was wasn we were weren what when where which while who whom why will with ' +
    'won would wouldn you your yours yourself yourselves also ever every get got ll re ve s t d m o y'
  ).split(' '),
);

/** Words of recap questions ("what happened so far?"): no content of their own. */
const RECAP_WORDS = new Set(
  (
    'happen happens happened happening occur occurred go goes going went recap recent recently lately far story ' +
    'summary summarize summarise remember recall memory memories previously earlier last everything anything event ' +
    'events thing things tell know knew catch remind'
  ).split(' '),
);
const RECAP_CUE = /\b(?:what(?:'s| has| have)?\s+(?:happened|happens|went on|was going on)|recap|so far|recently|lately|previously|remind me|remember|what did (?:we|i)|catch me up|what do (?:we|i) know)\b/i;

/** Field weights of the lexical document: names, places and tags count more than words of the summary. */
const FIELD_WEIGHTS = { summary: 1, characters: 2, location: 1.5, tags: 1.5 };

/** Small suffix-stripping stemmer (Porter-like, English): "stories" -> "story", "traded"/"trading"/"trade" -> "trad". */
function stem(word) {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y';
  if (w.endsWith('ied') && w.length > 4) return w.slice(0, -3) + 'y';
  if (w.endsWith('sses')) return w.slice(0, -2);
  let stripped = false;
  if (w.endsWith('ing') && w.length > 5) {
    w = w.slice(0, -3);
    stripped = true;
  } else if (w.endsWith('ed') && w.length > 4) {
    w = w.slice(0, -2);
    stripped = true;
  } else if (w.endsWith('ly') && w.length > 4) {
    w = w.slice(0, -2);
  } else if (/(?:ss|x|z|ch|sh)es$/.test(w)) {
    w = w.slice(0, -2);
  } else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) {
    w = w.slice(0, -1);
  }
  if (stripped && /([^aeiouyls])\1$/.test(w)) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** Lowercased, accent-free words of `text` (apostrophe suffixes dropped), stop words kept. */
function words(text) {
  if (typeof text !== 'string') return [];
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’](?:s|d|ll|re|ve|t|m)\b/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** Content terms of `text`: words without stop words, stemmed. */
function terms(text) {
  return words(text)
    .filter((word) => !STOP_WORDS.has(word))
    .map(stem);
}

/** Weighted term frequencies of one memory. */
function documentTerms(memory) {
  const counts = new Map();
  const add = (text, weight) => {
    for (const term of terms(text)) counts.set(term, (counts.get(term) || 0) + weight);
  };
  add(memory.summary, FIELD_WEIGHTS.summary);
  for (const name of memory.characters || []) add(name, FIELD_WEIGHTS.characters);
  if (memory.location) add(memory.location, FIELD_WEIGHTS.location);
  for (const tag of memory.tags || []) add(tag, FIELD_WEIGHTS.tags);
  return counts;
}

/**
 * Ranks `memories` (oldest first) against `query` with TF-IDF cosine similarity (sublinear tf, smoothed idf).
 * Returns one entry per memory: { memory, index, lexical (0..1), matched (query terms found) }.
 */
function lexicalScores(memories, queryTerms) {
  const docs = memories.map(documentTerms);
  const df = new Map();
  for (const doc of docs) for (const term of doc.keys()) df.set(term, (df.get(term) || 0) + 1);
  const n = docs.length;
  const idf = (term) => Math.log((n + 1) / ((df.get(term) || 0) + 1)) + 1;
  const queryCounts = new Map();
  for (const term of queryTerms) queryCounts.set(term, (queryCounts.get(term) || 0) + 1);
  const queryVector = new Map();
  let queryNorm = 0;
  for (const [term, count] of queryCounts) {
    const weight = (1 + Math.log(count)) * idf(term);
    queryVector.set(term, weight);
    queryNorm += weight * weight;
  }
  queryNorm = Math.sqrt(queryNorm);
  return docs.map((doc, index) => {
    let dot = 0;
    let norm = 0;
    const matched = [];
    for (const [term, count] of doc) {
      const weight = (1 + Math.log(count)) * idf(term);
      norm += weight * weight;
      const q = queryVector.get(term);
      if (q !== undefined) {
        dot += weight * q;
        matched.push(term);
      }
    }
    const lexical = dot > 0 && queryNorm > 0 ? Math.min(1, dot / (Math.sqrt(norm) * queryNorm)) : 0;
    return { memory: memories[index], index, lexical, matched };
  });
}

function significanceOf(memory) {
  const value = significanceValue(memory.significance);
  return value === undefined ? DEFAULT_SIGNIFICANCE : value;
}

/** Do all content words of `filter` appear among the words of `value`? (case-, accent- and punctuation-insensitive) */
function looselyMatches(value, filter) {
  const wanted = words(filter).filter((word) => !STOP_WORDS.has(word));
  const have = new Set(words(value));
  if (wanted.length === 0) return words(filter).every((word) => have.has(word));
  return wanted.every((word) => have.has(word));
}

function passesFilters(memory, filters) {
  if (filters.character !== undefined && !(memory.characters || []).some((name) => looselyMatches(name, filters.character))) return false;
  if (filters.location !== undefined && !(typeof memory.location === 'string' && looselyMatches(memory.location, filters.location))) return false;
  if (filters.minSignificance !== undefined && significanceOf(memory) < filters.minSignificance) return false;
  return true;
}

/** Below this match a recap question falls back to the recent memories. */
const STRONG_MATCH = 0.12;
/** A memory no word of the query names is returned only when it is at least this close in meaning (0..1). */
const MEANING_FLOOR = 0.15;
/** Closeness in meaning adds at most this share of what the words left unmatched. */
const MEANING_SHARE = 0.6;

const round3 = (value) => Math.round(value * 1000) / 1000;

/** Content words of one memory (not stemmed), for the comparison by meaning. */
function memoryWords(memory) {
  const texts = [memory.summary, ...(memory.characters || []), memory.location || '', ...(memory.tags || [])];
  return texts.flatMap((text) => words(text)).filter((word) => !STOP_WORDS.has(word));
}

/**
 * Names (lowercase): words written with a capital, except at the start of a sentence of the query or a summary
 * ("Duskmere", "Mira"; in characters and locations the first word too: "Captain Vey", not "the innkeeper").
 */
function nameWords(query, memories) {
  const names = new Set();
  const capitalized = (text, sentence) => {
    let previous = sentence ? '.' : '';
    for (const match of String(text).matchAll(/[\p{L}\p{N}'’-]+|[.!?]/gu)) {
      const token = match[0];
      if (/^\p{Lu}/u.test(token) && !/[.!?]/.test(previous)) for (const word of words(token)) names.add(word);
      previous = token;
    }
  };
  capitalized(query, true);
  for (const memory of memories) {
    capitalized(memory.summary, true);
    for (const name of [...(memory.characters || []), memory.location || '']) capitalized(name, false);
  }
  return names;
}

/**
 * Recall: filters, then ranks by how well the words match (lexical) and, when `vectorsFile` is given, how close the
 * memory is in meaning (word vectors: "tavern" finds "inn"), plus a small boost for significance (up to 0.07) and
 * recency (up to 0.03). A recap question ("what happened?") without a strong match, or a query with no content
 * words, returns the most recent and significant memories instead (mode "recent"). Summaries come back in the story's
 * voice, whatever an older version stored ("Remember that Mira gave me…" -> "Mira gave you…").
 */
function recall(allMemories, { query, limit, filters }, { vectorsFile } = {}) {
  const memories = allMemories
    .filter((memory) => passesFilters(memory, filters))
    .map((memory) => ({ ...memory, summary: summaryInStoryVoice(memory.summary) }));
  const n = memories.length;
  const recency = (index) => (n <= 1 ? 1 : index / (n - 1));
  const significance = (memory) => (significanceOf(memory) - 1) / 4;
  const queryWords = words(query).filter((word) => !STOP_WORDS.has(word) && !RECAP_WORDS.has(word));
  const contentTerms = queryWords.map(stem);
  const recapCue = RECAP_CUE.test(query) || contentTerms.length === 0;

  let ranked = [];
  let best = 0;
  let method = 'lexical';
  let vectorsUnreadable = false;
  if (contentTerms.length > 0 && n > 0) {
    const scores = lexicalScores(memories, contentTerms);
    const meaning = vectorsFile ? meaningScores(vectorsFile, queryWords, memories.map(memoryWords), nameWords(query, memories)) : null;
    if (meaning) method = 'lexical+vectors';
    else vectorsUnreadable = Boolean(vectorsFile);
    ranked = scores
      .map((score, index) => {
        const closeness = meaning ? meaning.scores[index] : 0;
        const match = Math.min(1, score.lexical + (1 - score.lexical) * MEANING_SHARE * closeness);
        best = Math.max(best, match);
        return { ...score, closeness, match };
      })
      .filter((score) => score.lexical > 0 || score.closeness >= MEANING_FLOOR)
      .map((score) => ({
        ...score,
        relevance: Math.min(1, 0.9 * score.match + 0.07 * significance(score.memory) + 0.03 * recency(score.index)),
      }));
  }
  let mode = 'relevance';
  if (n === 0) {
    mode = allMemories.length === 0 ? 'empty' : 'relevance';
  } else if (recapCue && best < STRONG_MATCH) {
    mode = 'recent';
    ranked = memories.map((memory, index) => ({
      memory,
      index,
      // Not a match, so kept low: a blend of how recent and how significant the memory is.
      relevance: 0.3 * (0.5 * recency(index) + 0.5 * significance(memory)),
    }));
  }
  ranked.sort((a, b) => b.relevance - a.relevance || b.index - a.index);
  return {
    mode,
    method,
    vectorsUnreadable,
    considered: n,
    memories: ranked.slice(0, limit).map((entry) => ({
      id: entry.memory.id,
      summary: entry.memory.summary,
      relevance: round3(entry.relevance),
      characters: entry.memory.characters || [],
      location: entry.memory.location === undefined ? null : entry.memory.location,
      significance: significanceOf(entry.memory),
      tags: entry.memory.tags || [],
      timestamp: entry.memory.timestamp,
    })),
  };
}

/** Reads the store (oldest first). Unparsable lines (a torn write) are skipped and counted. */
function readMemories(dir) {
  let text;
  try {
    text = fs.readFileSync(path.join(dir, STORE_FILE), 'utf8');
  } catch (error) {
    if (error && error.code === 'ENOENT') return { memories: [], skipped: 0 };
    throw error;
  }
  const memories = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const memory = JSON.parse(line);
      if (memory && typeof memory.id === 'string' && typeof memory.summary === 'string') memories.push(memory);
      else skipped += 1;
    } catch {
      skipped += 1;
    }
  }
  return { memories, skipped };
}

function newMemoryId(now) {
  return `mem-${now.getTime().toString(36)}-${crypto.randomBytes(3).toString('hex')}`;
}

/**
 * Which memories to drop so that at most `max` remain: lowest significance first, oldest first among
 * equals; the memory just stored (`keepId`) is never dropped.
 */
function pruneCandidates(memories, max, keepId) {
  const excess = memories.length - max;
  if (excess <= 0) return new Set();
  const order = memories
    .map((memory, index) => ({ memory, index }))
    .filter(({ memory }) => memory.id !== keepId)
    .sort((a, b) => significanceOf(a.memory) - significanceOf(b.memory) || a.index - b.index);
  return new Set(order.slice(0, excess).map(({ memory }) => memory.id));
}

/** Whether two memories say the same: the same summary (case and spacing aside), characters and location. */
function sameMemory(left, right) {
  const plain = (text) => String(text ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
  const names = (list) => (Array.isArray(list) ? list.map(plain).sort().join('|') : '');
  return plain(left.summary) === plain(right.summary) && names(left.characters) === names(right.characters) && plain(left.location) === plain(right.location);
}

/**
 * Appends `memory` as one line (a single O_APPEND write) and prunes the store down to `max`
 * (rewriting it atomically), unless the store already holds the same memory. Call under the store lock.
 * Returns { count, pruned: [ids], skipped, existing? } (existing: the memory already stored, nothing written).
 */
function appendMemory(dir, memory, max) {
  const file = path.join(dir, STORE_FILE);
  const { memories, skipped } = readMemories(dir);
  // The same memory again (a replanned turn stores it twice, or the player repeats it) is kept once.
  const existing = memories.find((entry) => sameMemory(entry, memory));
  if (existing) return { count: memories.length, pruned: [], skipped, existing };
  const all = [...memories, memory];
  const drop = pruneCandidates(all, max, memory.id);
  if (drop.size === 0 && skipped === 0) {
    let prefix = '';
    try {
      const size = fs.statSync(file).size;
      if (size > 0) {
        const fd = fs.openSync(file, 'r');
        const last = Buffer.alloc(1);
        fs.readSync(fd, last, 0, 1, size - 1);
        fs.closeSync(fd);
        if (last.toString() !== '\n') prefix = '\n';
      }
    } catch {
      // no store yet
    }
    fs.appendFileSync(file, prefix + JSON.stringify(memory) + '\n');
    return { count: all.length, pruned: [], skipped };
  }
  const kept = all.filter((entry) => !drop.has(entry.id));
  writeFileAtomic(file, kept.map((entry) => JSON.stringify(entry)).join('\n') + '\n');
  return { count: kept.length, pruned: [...drop], skipped };
}

module.exports = {
  DEFAULT_SIGNIFICANCE,
  SIGNIFICANCE_WORDS,
  STORE_FILE,
  appendMemory,
  newMemoryId,
  readMemories,
  recall,
  significanceValue,
  stem,
  terms,
};
