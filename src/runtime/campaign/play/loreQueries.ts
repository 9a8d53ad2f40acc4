// A campaign's lore.queries.json (contracts/campaign/lore-queries.schema.json) measured against play's lore retrieval: SC-004 of spec 007 and stricter figures. Pure.
import { validateAgainst } from '../../contracts/schemas.js';
import type { LoreChunk } from '../lore/loreTypes.js';
import { LORE_FACTS, retrieveLore } from './loreRetrieval.js';

/** The file name of a campaign's query set, at its root. */
export const LORE_QUERIES_FILE = 'lore.queries.json';
/** SC-004 of spec 007: lore retrieval returns relevant context for 90% of the author's queries. */
export const DEFAULT_MIN_PRECISION = 0.9;

/** Mirrors contracts/campaign/lore-queries.schema.json. */
export interface LoreQuerySet {
  readonly limit?: number;
  readonly minPrecision?: number;
  readonly queries: readonly { readonly query: string; readonly expect: readonly string[]; readonly limit?: number; readonly note?: string }[];
}

/** One query's result. */
export interface LoreQueryResult {
  readonly query: string;
  readonly expect: readonly string[];
  readonly retrieved: readonly { readonly id: string; readonly score: number }[];
  /** The expected entries retrieved (a file counts when one of its chunks is). */
  readonly found: readonly string[];
  readonly missed: readonly string[];
  /** Relevant context came back: at least one expected entry among the retrieved chunks. */
  readonly relevant: boolean;
  /** The best chunk is an expected one. */
  readonly topHit: boolean;
}

/** Mirrors contracts/lore-precision-report.schema.json. */
export interface LorePrecisionReport {
  readonly campaign: string;
  readonly file: string;
  readonly limit: number;
  readonly minPrecision: number;
  readonly queries: number;
  readonly relevant: number;
  readonly precision: number;
  readonly topPrecision: number;
  readonly retrievedPrecision: number;
  readonly recall: number;
  readonly passed: boolean;
  readonly problems: readonly string[];
  readonly results: readonly LoreQueryResult[];
}

/** The query set a text holds, or the problems that keep it from being one (as `/pointer message`). */
export function readLoreQueries(text: string): { readonly set: LoreQuerySet } | { readonly problems: readonly string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problems: [`not valid JSON: ${(error as Error).message}`] };
  }
  const problems = validateAgainst('campaign/lore-queries.schema.json', value);
  if (problems.length > 0) return { problems: problems.map((problem) => `${problem.instancePath || '/'} ${problem.message ?? 'is invalid'}`) };
  return { set: value as LoreQuerySet };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Whether a retrieved chunk is an expected entry: its id, or its file. */
function matches(entry: string, chunk: Pick<LoreChunk, 'id' | 'file'>): boolean {
  return entry === chunk.id || entry === chunk.file;
}

/** Retrieves lore for every query as play does and measures it. */
export function measureLoreQueries(
  set: LoreQuerySet,
  chunks: readonly LoreChunk[],
  names: { readonly campaign: string; readonly file: string },
): LorePrecisionReport {
  const limit = set.limit ?? LORE_FACTS;
  const minPrecision = set.minPrecision ?? DEFAULT_MIN_PRECISION;
  const known = new Set(chunks.flatMap((chunk) => [chunk.id, chunk.file]));
  const problems = [...new Set(set.queries.flatMap((query) => query.expect.filter((entry) => !known.has(entry))))].map(
    (entry) => `${entry}: no lore chunk or file has this id (narratoria lore lists them)`,
  );
  let retrievedCount = 0;
  let retrievedExpected = 0;
  let expectedCount = 0;
  let foundCount = 0;
  const results = set.queries.map((query): LoreQueryResult => {
    const retrieved = retrieveLore(query.query, chunks, query.limit ?? limit);
    const found = query.expect.filter((entry) => retrieved.some(({ chunk }) => matches(entry, chunk)));
    retrievedCount += retrieved.length;
    retrievedExpected += retrieved.filter(({ chunk }) => query.expect.some((entry) => matches(entry, chunk))).length;
    expectedCount += query.expect.length;
    foundCount += found.length;
    const top = retrieved[0]?.chunk;
    return {
      query: query.query,
      expect: query.expect,
      retrieved: retrieved.map(({ chunk, score }) => ({ id: chunk.id, score: round(score) })),
      found,
      missed: query.expect.filter((entry) => !found.includes(entry)),
      relevant: found.length > 0,
      topHit: top !== undefined && query.expect.some((entry) => matches(entry, top)),
    };
  });
  const relevant = results.filter((result) => result.relevant).length;
  const share = (part: number, whole: number) => (whole === 0 ? 0 : round(part / whole));
  const precision = share(relevant, results.length);
  return {
    ...names,
    limit,
    minPrecision,
    queries: results.length,
    relevant,
    precision,
    topPrecision: share(results.filter((result) => result.topHit).length, results.length),
    retrievedPrecision: share(retrievedExpected, retrievedCount),
    recall: share(foundCount, expectedCount),
    passed: precision >= minPrecision && problems.length === 0,
    problems,
    results,
  };
}
