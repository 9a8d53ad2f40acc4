// Shared helpers for the benchmarks: result shape, medians, seeded PRNG, forced GC and number formatting.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { BenchId } from './benchCatalog.js';

export type { BenchId } from './benchCatalog.js';

export interface BenchTarget {
  /** `<=`: the ratio must be at most `value`; `>=`: at least. */
  readonly op: '<=' | '>=';
  readonly value: number;
}

export interface BenchResult {
  readonly id: BenchId;
  readonly title: string;
  /** The one-line human summary printed for this bench. */
  readonly line: string;
  /** Headline ratio (executor relative to the baseline) and its target. */
  readonly ratio: number;
  readonly target: BenchTarget;
  readonly met: boolean;
  /** Median of each measured series (ms unless the key says otherwise). */
  readonly medians: Readonly<Record<string, number>>;
  /** Every measured sample, in measurement order. */
  readonly samples: Readonly<Record<string, readonly number[]>>;
  readonly details: Readonly<Record<string, unknown>>;
}

export interface BenchOptions {
  readonly quick: boolean;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function meetsTarget(ratio: number, target: BenchTarget): boolean {
  return target.op === '<=' ? ratio <= target.value : ratio >= target.value;
}

export function targetText(ratio: number, target: BenchTarget): string {
  const verdict = meetsTarget(ratio, target) ? 'ok' : 'MISSED';
  return `(target ${target.op === '<=' ? '≤' : '≥'} ${target.value.toFixed(2)}×) ${verdict}`;
}

export function ms(value: number): string {
  return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`;
}

export function ratioText(value: number): string {
  return `${value.toFixed(3)}×`;
}

export function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Deterministic PRNG (mulberry32): the same seed gives the same DAG on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let gcFunction: (() => void) | null | undefined;

/** Runs a full GC between measurements when possible (exposes gc at runtime; no CLI flag needed). */
export function collectGarbage(): void {
  if (gcFunction === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gcFunction = runInNewContext('gc') as () => void;
    } catch {
      gcFunction = null;
    }
  }
  gcFunction?.();
}

/** Fails the bench (exit 1 from index.ts) with a clear message. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`bench sanity check failed: ${message}`);
}
