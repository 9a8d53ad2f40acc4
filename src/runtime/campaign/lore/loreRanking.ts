// Ranks lore chunks for a query by BM25 over the words' stems (the narrator's terms, jargon kept): deterministic; `narratoria lore --query` shows it, and play retrieves with it.
import { proseTermOf, wordsOf } from '../../narrator/selection/textTerms.js';
import type { LoreChunk } from './loreTypes.js';

/** How many chunks a query retrieves unless told. */
export const DEFAULT_LORE_LIMIT = 5;

/** BM25's usual constants: how fast a term's repeats stop adding (k1), and how much a long chunk is discounted (b). */
const K1 = 1.2;
const B = 0.75;

export interface LoreRankingOptions {
  /** At most this many chunks (default {@link DEFAULT_LORE_LIMIT}). */
  readonly limit?: number;
}

/** A retrieved chunk: its BM25 score and the query's terms it holds. */
export interface RankedLoreChunk {
  readonly chunk: LoreChunk;
  readonly score: number;
  readonly matchedTerms: readonly string[];
}

/** The terms of every chunk, kept so that repeated queries over the same chunks index them once. */
export interface LoreIndex {
  readonly chunks: readonly LoreChunk[];
  /** Term -> the chunks holding it (by index into `chunks`) with its frequency there. */
  readonly postings: ReadonlyMap<string, readonly (readonly [chunk: number, frequency: number])[]>;
  /** Each chunk's length in terms. */
  readonly lengths: readonly number[];
  readonly averageLength: number;
  /** How many chunks are indexed (all but headings alone). */
  readonly documents: number;
}

const indexes = new WeakMap<readonly LoreChunk[], LoreIndex>();

/** The terms of a text: lowercase words with accents dropped, English function words left out, Porter stems, synonyms folded. */
export function loreTermsOf(text: string): string[] {
  // "Eowyn" and "\u00c9owyn" are one name: accents are dropped before the words are read (they are ASCII letters and digits).
  const plain = /[\u0080-\uffff]/.test(text) ? text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : text;
  const terms: string[] = [];
  for (const word of wordsOf(plain)) {
    const term = proseTermOf(word);
    if (term !== undefined) terms.push(term);
  }
  return terms;
}

/** A chunk that is only Markdown headings: a paragraph to the chunker, but no lore to retrieve (its words are the context of the chunks below it). */
const HEADINGS_ONLY = /^(?: {0,3}#{1,6}[ \t][^\n]*(?:\n|$))+$/;

/**
 * Indexes the chunks. A chunk's terms are those of its text, plus once each those of its context: its heading and its
 * file's path under lore/ (`lore/places/old-harbour.md` adds "place", "old" and "harbour"), which name what a
 * paragraph is about when its text does not. A chunk of headings alone is not indexed.
 */
export function indexLoreChunks(chunks: readonly LoreChunk[]): LoreIndex {
  const postings = new Map<string, [number, number][]>();
  const lengths: number[] = [];
  let documents = 0;
  chunks.forEach((chunk, index) => {
    if (HEADINGS_ONLY.test(chunk.text)) {
      lengths.push(0);
      return;
    }
    documents++;
    const frequencies = new Map<string, number>();
    const terms = loreTermsOf(chunk.text);
    for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    const context = new Set(loreTermsOf(`${chunk.heading ?? ''} ${chunk.file.replace(/^lore\//, '').replace(/\.[^./]*$/, '')}`));
    for (const term of context) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    lengths.push(terms.length + context.size);
    for (const [term, frequency] of frequencies) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push([index, frequency]);
    }
  });
  const averageLength = documents === 0 ? 0 : lengths.reduce((sum, length) => sum + length, 0) / documents;
  return { chunks, postings, lengths, averageLength, documents };
}

/** The index of `chunks`, built on first use and kept while the array lives. */
function indexOf(chunks: readonly LoreChunk[] | LoreIndex): LoreIndex {
  if (!Array.isArray(chunks)) return chunks as LoreIndex;
  let index = indexes.get(chunks);
  if (!index) indexes.set(chunks, (index = indexLoreChunks(chunks)));
  return index;
}

/**
 * The chunks that best answer `query`, best first: BM25 (k1 1.2, b 0.75, idf ln(1 + (N - n + 0.5) / (n + 0.5))) summed
 * over the query's distinct terms. Chunks holding none of them are left out; ties keep the chunks' order. Pass the
 * same array (or an index from {@link indexLoreChunks}) again and it is not indexed again.
 */
export function rankLoreChunks(query: string, chunks: readonly LoreChunk[] | LoreIndex, options: LoreRankingOptions = {}): RankedLoreChunk[] {
  const limit = options.limit ?? DEFAULT_LORE_LIMIT;
  const index = indexOf(chunks);
  const count = index.documents;
  if (limit <= 0 || count === 0) return [];
  const scores = new Map<number, { score: number; matched: string[] }>();
  for (const term of new Set(loreTermsOf(query))) {
    const list = index.postings.get(term);
    if (!list) continue;
    const inverse = Math.log(1 + (count - list.length + 0.5) / (list.length + 0.5));
    for (const [chunk, frequency] of list) {
      const norm = K1 * (1 - B + (B * index.lengths[chunk]!) / (index.averageLength || 1));
      const entry = scores.get(chunk) ?? { score: 0, matched: [] };
      entry.score += (inverse * frequency * (K1 + 1)) / (frequency + norm);
      entry.matched.push(term);
      scores.set(chunk, entry);
    }
  }
  return [...scores.entries()]
    .sort(([left, a], [right, b]) => b.score - a.score || left - right)
    .slice(0, limit)
    .map(([chunk, entry]) => ({ chunk: index.chunks[chunk]!, score: entry.score, matchedTerms: entry.matched }));
}
