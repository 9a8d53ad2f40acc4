// Seeds that make a play-through repeatable: a session's seed, each turn's and each tool attempt's (NARRATORIA_SEED, a decimal 32-bit integer), derived by hashing, and a small seeded generator.

/** The largest seed: seeds are unsigned 32-bit integers. */
export const MAX_SEED = 0xffff_ffff;

/**
 * A seed derived from a parent seed and the parts that name a child (a turn number; a toolId and an attempt): FNV-1a
 * over their text, then MurmurHash3's finalizer so that close inputs give unrelated seeds. Unsigned 32-bit.
 */
export function deriveSeed(parent: number, ...parts: readonly (string | number)[]): number {
  let hash = 0x811c9dc5;
  const text = `${parent >>> 0}\u0000${parts.join('\u0000')}`;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A fresh seed for a session or a run that was given none. */
export function randomSeed(): number {
  return Math.floor(Math.random() * (MAX_SEED + 1)) >>> 0;
}

/** A generator of numbers in [0, 1) from a seed (mulberry32): the same seed, the same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed a tool process gets in NARRATORIA_SEED: from its plan run's seed, its toolId and its attempt. */
export function toolSeed(runSeed: number, toolId: string, attempt: number): number {
  return deriveSeed(runSeed, toolId, attempt);
}
