// memory/lib/meaning: how close in meaning a query's words are to each memory's words, by the runtime's word vectors ("tavern" finds "inn"; a rare compound by its parts: "innkeeper" finds "inn"); no vectors, no scores.
'use strict';

const { cosine, loadWordVectors } = require('./wordVectors.js');

/** Query words among this many most frequent say little about meaning ("make", "go", "look" are near everything). */
const COMMON_RANK = 300;
/** A query word counts by how rare it is: at this frequency rank it counts half. */
const RARITY = 1000;
/** Below this cosine two words are not alike enough to count (GloVe: tavern/inn 0.78, ship/boat 0.83, harbour/port 0.64; elephants/dragon 0.43, tavern/blacksmith 0.58 and lighthouse/chapel 0.56 are only neighbours). */
const ALIKE = 0.55;
/** How alike a compound is to one of its parts ("innkeeper" and "inn", "blacksmith" and "smith"). */
const PART_SIMILARITY = 0.8;
/** A compound is also read by its parts when its own vector is this rare (trained on few examples) or missing. */
const RARE_RANK = 20000;
/** The shortest part of a compound ("inn"). */
const SHORTEST_PART = 3;

/** The forms of a word the vectors may hold: itself, then without a plural, past or -ing ("stories" -> "story", "stopped" -> "stop"). */
function baseForms(word) {
  const forms = [word];
  const add = (form) => {
    if (form.length >= SHORTEST_PART && !forms.includes(form)) forms.push(form);
  };
  if (word.endsWith('ies')) add(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) add(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss')) add(word.slice(0, -1));
  for (const suffix of ['ed', 'ing']) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    add(stem);
    add(`${stem}e`);
    if (/([^aeiou])\1$/.test(stem)) add(stem.slice(0, -1));
    if (suffix === 'ed' && stem.endsWith('i')) add(`${stem.slice(0, -1)}y`);
  }
  return forms;
}

/** Every way to cut `word` into two words of at least three letters ("innkeeper" -> inn + keeper, innk + eeper, …). */
function cuts(word) {
  const pairs = [];
  for (let at = SHORTEST_PART; at <= word.length - SHORTEST_PART; at++) pairs.push([word.slice(0, at), word.slice(at)]);
  return pairs;
}

/**
 * What the vectors say of one word: its vector and rank (through its first known form), and its parts when it is a
 * rare or unknown compound that may be cut (never a name: "Duskmere" is no dusk).
 */
function readingOf(word, vectors, mayCut) {
  const forms = baseForms(word);
  const known = forms.find((form) => vectors.units.has(form));
  const reading = {
    word,
    forms,
    vector: known === undefined ? undefined : vectors.units.get(known),
    rank: known === undefined ? undefined : vectors.ranks.get(known),
    parts: [],
  };
  if (mayCut && (reading.rank === undefined || reading.rank >= RARE_RANK)) {
    for (const [head, tail] of cuts(word)) {
      if (!vectors.units.has(head) || !baseForms(tail).some((form) => vectors.units.has(form))) continue;
      reading.parts.push(readingOf(head, vectors, false), readingOf(tail, vectors, false));
    }
    if (reading.rank === undefined && reading.parts.length > 0) reading.rank = Math.max(...reading.parts.map((part) => part.rank));
  }
  return reading;
}

/** Two readings of the same word ("map" and "maps")? */
function sameWord(left, right) {
  return left.forms.some((form) => right.forms.includes(form));
}

/** How alike two words are in meaning, 0..1: 1 for the same word, else the cosine of their vectors or a compound's part. */
function similarity(left, right) {
  if (sameWord(left, right)) return 1;
  let best = left.vector && right.vector ? cosine(left.vector, right.vector) : 0;
  for (const [compound, other] of [[left, right], [right, left]]) {
    for (const part of compound.parts) {
      const alike = sameWord(part, other) ? 1 : part.vector && other.vector ? cosine(part.vector, other.vector) : 0;
      best = Math.max(best, PART_SIMILARITY * alike);
    }
  }
  return best;
}

/** The words whose vectors a comparison of these words may need: their forms and the forms of their possible parts (not of names). */
function wantedWords(allWords, names) {
  const wanted = new Set();
  for (const word of allWords) {
    for (const form of baseForms(word)) wanted.add(form);
    if (names.has(word)) continue;
    for (const [head, tail] of cuts(word)) {
      wanted.add(head);
      for (const form of baseForms(tail)) wanted.add(form);
    }
  }
  return wanted;
}

/**
 * Per memory, how close in meaning it is to the query, 0..1: each query word's closest word in the memory (cosine
 * above ALIKE, rescaled), averaged with rarer words counting more. `queryWords` and each of `memoryWords` are
 * lowercase content words; `names` (lowercase) are never cut into parts. Null when `vectorsFile` cannot be read.
 * `words` says how many vectors were read.
 */
function meaningScores(vectorsFile, queryWords, memoryWords, names = new Set()) {
  const distinct = [...new Set([...queryWords, ...memoryWords.flat()])];
  const vectors = loadWordVectors(vectorsFile, wantedWords(distinct, names));
  if (!vectors) return null;
  const readings = new Map(distinct.map((word) => [word, readingOf(word, vectors, !names.has(word))]));
  const query = [...new Set(queryWords)]
    .map((word) => readings.get(word))
    .filter((reading) => reading.rank !== undefined && reading.rank >= COMMON_RANK);
  if (query.length === 0) return { scores: memoryWords.map(() => 0), words: vectors.units.size };
  const weights = query.map((reading) => reading.rank / (reading.rank + RARITY));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  // Each query word against each distinct memory word once.
  const closeness = new Map();
  const closenessOf = (reading, word) => {
    const key = `${reading.word}\u0000${word}`;
    let value = closeness.get(key);
    if (value === undefined) {
      const alike = similarity(reading, readings.get(word));
      value = alike > ALIKE ? (alike - ALIKE) / (1 - ALIKE) : 0;
      closeness.set(key, value);
    }
    return value;
  };
  const scores = memoryWords.map((words) => {
    let sum = 0;
    query.forEach((reading, index) => {
      let best = 0;
      for (const word of words) best = Math.max(best, closenessOf(reading, word));
      sum += weights[index] * best;
    });
    return sum / total;
  });
  return { scores, words: vectors.units.size };
}

module.exports = { baseForms, meaningScores };
