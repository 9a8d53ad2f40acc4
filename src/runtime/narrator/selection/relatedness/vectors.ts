// The bundled word vectors (vectors.bin: GloVe's, int8-quantized by buildVectors.mjs): how alike two English words are, by cosine; loaded once.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { bundledOrSourceFile, loadedOnce } from '../../../common/bundledFile.js';
import { baseForms } from './lexicon.js';

export interface WordVectors {
  readonly size: number;
  readonly dimensions: number;
  /** How long loading took, in milliseconds (reported by bench d). */
  readonly loadMs: number;
  /** The unit vector of `word`, or of its first base form (plural, past, -ing) the data has; undefined for an unknown word. */
  vectorOf(word: string): Float32Array | undefined;
  /** How common `word` is: its rank among the data's words, most frequent first (undefined for an unknown word). */
  rankOf(word: string): number | undefined;
  /** The cosine of two words' vectors (0 when either is unknown). */
  similarity(left: string, right: string): number;
}

/** The process's word vectors, loaded on first call; null when the data file is missing (selection then works without them). */
export const wordVectors: () => WordVectors | null = loadedOnce(
  () => vectorsFile(),
  (file) => loadVectors(file),
);

/** dist/data/vectors.bin beside a bundle, or the file beside this source when run from sources. */
export function vectorsFile(): string {
  return bundledOrSourceFile(path.join('data', 'vectors.bin'), './vectors.bin', import.meta.url);
}

/** Reads vectors.bin: `vectors <count> <dimensions>\n`, the words one a line, then count × dimensions signed bytes. */
export function loadVectors(file: string): WordVectors | null {
  const started = performance.now();
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return null;
  }
  const firstLine = data.indexOf(10);
  const header = /^vectors (\d+) (\d+)$/.exec(data.toString('latin1', 0, Math.max(0, firstLine)));
  if (!header) return null;
  const count = Number(header[1]);
  const dimensions = Number(header[2]);
  const index = new Map<string, number>();
  let start = firstLine + 1;
  for (let at = 0; at < count; at++) {
    const end = data.indexOf(10, start);
    if (end < 0) return null;
    index.set(data.toString('latin1', start, end), at);
    start = end + 1;
  }
  if (data.length - start < count * dimensions) return null;
  const bytes = new Int8Array(data.buffer, data.byteOffset + start, count * dimensions);
  const units = new Map<number, Float32Array>();
  const unitOf = (at: number): Float32Array => {
    let unit = units.get(at);
    if (unit) return unit;
    unit = new Float32Array(dimensions);
    let squares = 0;
    for (let dimension = 0; dimension < dimensions; dimension++) {
      const value = bytes[at * dimensions + dimension]!;
      unit[dimension] = value;
      squares += value * value;
    }
    const length = Math.sqrt(squares) || 1;
    for (let dimension = 0; dimension < dimensions; dimension++) unit[dimension]! /= length;
    if (units.size < 20_000) units.set(at, unit);
    return unit;
  };
  const positionOf = (word: string): number | undefined => {
    const own = index.get(word);
    if (own !== undefined) return own;
    for (const base of baseForms(word).slice(1)) {
      const found = index.get(base);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const loadMs = performance.now() - started;
  const vectors: WordVectors = {
    size: count,
    dimensions,
    loadMs,
    vectorOf(word) {
      const at = positionOf(word);
      return at === undefined ? undefined : unitOf(at);
    },
    rankOf: positionOf,
    similarity(left, right) {
      const one = vectors.vectorOf(left);
      const other = vectors.vectorOf(right);
      return one && other ? dot(one, other) : 0;
    },
  };
  return vectors;
}

/** The dot product of `left` and the `left.length` values of `right` from `offset` (the cosine of two unit vectors). */
export function dot(left: Float32Array, right: Float32Array, offset = 0): number {
  let sum = 0;
  for (let dimension = 0; dimension < left.length; dimension++) sum += left[dimension]! * right[offset + dimension]!;
  return sum;
}
