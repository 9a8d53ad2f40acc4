// Lore for a scene (docs/lore.md#lore-in-play): BM25 over the words blended with meaning by the bundled word vectors; the best chunks become facts with their source.
import { wordVectors, type WordVectors } from '../../narrator/selection/relatedness/vectors.js';
import { ENGLISH_STOP_WORDS, wordsOf } from '../../narrator/selection/textTerms.js';
import { rankLoreChunks } from '../lore/loreRanking.js';
import type { LoreChunk } from '../lore/loreTypes.js';
import type { LoreFact } from './storyContext.js';

/** How many facts a scene gets at most. */
export const LORE_FACTS = 3;
/** The words' share of a chunk's score; meaning has the rest. */
const WORDS_WEIGHT = 0.6;
/** A chunk's score (0..1) must reach this to be retrieved. */
const FLOOR = 0.3;
/** And at least this share of the best chunk's score. */
const RELATIVE_FLOOR = 0.45;

const HEADINGS_ONLY = /^(?: {0,3}#{1,6}[ \t][^\n]*(?:\n|$))+$/;

interface MeaningIndex {
  /** Each chunk's meaning vector (unit length), undefined for a chunk with no known word. */
  readonly vectors: readonly (Float32Array | undefined)[];
  /** Inverse document frequency of each word among the chunks. */
  readonly idf: ReadonlyMap<string, number>;
  readonly documents: number;
}

const meaningIndexes = new WeakMap<readonly LoreChunk[], MeaningIndex>();

function contentWords(text: string): string[] {
  return wordsOf(text).filter((word) => word.length > 2 && !ENGLISH_STOP_WORDS.has(word) && !/^\d+$/.test(word));
}

/** The idf-weighted mean of the words' unit vectors, itself of unit length (undefined when no word is known). */
function meaningVector(words: readonly string[], idf: (word: string) => number, vectors: WordVectors): Float32Array | undefined {
  const sum = new Float32Array(vectors.dimensions);
  let any = false;
  for (const word of words) {
    const unit = vectors.vectorOf(word);
    if (!unit) continue;
    const weight = idf(word);
    for (let dimension = 0; dimension < sum.length; dimension++) sum[dimension]! += weight * unit[dimension]!;
    any = true;
  }
  if (!any) return undefined;
  let length = 0;
  for (const value of sum) length += value * value;
  length = Math.sqrt(length) || 1;
  for (let dimension = 0; dimension < sum.length; dimension++) sum[dimension]! /= length;
  return sum;
}

function meaningIndexOf(chunks: readonly LoreChunk[], vectors: WordVectors): MeaningIndex {
  let index = meaningIndexes.get(chunks);
  if (index) return index;
  const words = chunks.map((chunk) => (HEADINGS_ONLY.test(chunk.text) ? [] : [...new Set(contentWords(`${chunk.heading ?? ''} ${chunk.text}`))]));
  const frequency = new Map<string, number>();
  for (const list of words) for (const word of list) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const documents = words.filter((list) => list.length > 0).length;
  const idf = new Map([...frequency].map(([word, count]) => [word, Math.log(1 + (documents - count + 0.5) / (count + 0.5))]));
  const weight = (word: string) => idf.get(word) ?? Math.log(1 + (documents + 0.5) / 0.5);
  index = { vectors: words.map((list) => (list.length === 0 ? undefined : meaningVector(list, weight, vectors))), idf, documents };
  meaningIndexes.set(chunks, index);
  return index;
}

function cosine(left: Float32Array, right: Float32Array): number {
  let sum = 0;
  for (let dimension = 0; dimension < left.length; dimension++) sum += left[dimension]! * right[dimension]!;
  return sum;
}

/** A retrieved chunk with its blended score and its parts. */
export interface ScoredChunk {
  readonly chunk: LoreChunk;
  readonly score: number;
  readonly words: number;
  readonly meaning: number;
}

/**
 * Every chunk scored for `query`, best first: the words' BM25 score (as a share of the best chunk's) blended with how
 * close the chunk is in meaning (the cosine of idf-weighted word vectors, as a share of the way from the chunks' mean to
 * the closest). Chunks of headings alone are left out.
 */
export function scoreLoreChunks(query: string, chunks: readonly LoreChunk[], vectors: WordVectors | null = wordVectors()): ScoredChunk[] {
  if (chunks.length === 0) return [];
  const ranked = rankLoreChunks(query, chunks, { limit: chunks.length });
  const best = ranked[0]?.score ?? 0;
  const lexical = new Map(ranked.map((entry) => [entry.chunk, best > 0 ? entry.score / best : 0]));
  const meanings = new Map<LoreChunk, number>();
  if (vectors) {
    const index = meaningIndexOf(chunks, vectors);
    const weight = (word: string) => index.idf.get(word) ?? Math.log(1 + (index.documents + 0.5) / 0.5);
    const wanted = meaningVector(contentWords(query), weight, vectors);
    if (wanted) {
      const cosines = chunks.map((chunk, at) => ({ chunk, value: index.vectors[at] ? cosine(wanted, index.vectors[at]) : undefined }));
      const known = cosines.filter((entry): entry is { chunk: LoreChunk; value: number } => entry.value !== undefined);
      const mean = known.reduce((sum, entry) => sum + entry.value, 0) / Math.max(1, known.length);
      const top = Math.max(...known.map((entry) => entry.value));
      for (const entry of known) meanings.set(entry.chunk, top > mean ? Math.max(0, (entry.value - mean) / (top - mean)) : 0);
    }
  }
  const meaningWeight = meanings.size > 0 ? 1 - WORDS_WEIGHT : 0;
  const wordsWeight = 1 - meaningWeight;
  return chunks
    .filter((chunk) => !HEADINGS_ONLY.test(chunk.text))
    .map((chunk) => {
      const words = lexical.get(chunk) ?? 0;
      const meaning = meanings.get(chunk) ?? 0;
      return { chunk, score: wordsWeight * words + meaningWeight * meaning, words, meaning };
    })
    .sort((left, right) => right.score - left.score || chunks.indexOf(left.chunk) - chunks.indexOf(right.chunk));
}

/** The chunks a query retrieves: at most `limit`, each scoring at least the floor and a share of the best. */
export function retrieveLore(query: string, chunks: readonly LoreChunk[], limit = LORE_FACTS, vectors: WordVectors | null = wordVectors()): ScoredChunk[] {
  const scored = scoreLoreChunks(query, chunks, vectors);
  const top = scored[0]?.score ?? 0;
  return scored.filter((entry) => entry.score >= FLOOR && entry.score >= top * RELATIVE_FLOOR && entry.words > 0).slice(0, limit);
}

/** Retrieved chunks as facts the narration may use, with their sources. */
export function loreFacts(query: string, chunks: readonly LoreChunk[], limit = LORE_FACTS): LoreFact[] {
  return retrieveLore(query, chunks, limit).map(({ chunk, score }) => ({
    id: chunk.id,
    file: chunk.file,
    chunkIndex: chunk.chunkIndex,
    text: chunk.text,
    score: Math.round(score * 1000) / 1000,
  }));
}
