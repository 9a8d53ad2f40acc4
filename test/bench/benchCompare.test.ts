// Unit tests of the bench report's noise and of --compare's verdicts (pure functions over hand-made rows and results).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { combinedNoise, compareTables, comparisonLines } from './benchCompare.js';
import { benchNoise, noiseOfRatios, type BenchNoise, type BenchReport, type BenchTableRow } from './benchReport.js';
import type { BenchId, BenchResult } from './benchUtil.js';

function noise(mad: number): BenchNoise {
  return { mad, pairs: 9, lowest: 1 - mad * 2, highest: 1 + mad * 2 };
}

function row(id: BenchId, ratio: number, options: { mad?: number; op?: '<=' | '>='; status?: 'met' | 'missed' } = {}): BenchTableRow {
  return {
    id,
    name: `bench ${id}`,
    title: `bench ${id}, small`,
    baseline: 'baseline 10 ms',
    figure: 'measured 11 ms',
    ratio,
    target: { op: options.op ?? '<=', value: 1.25 },
    status: options.status ?? 'met',
    noise: options.mad === undefined ? null : noise(options.mad),
  };
}

function result(id: BenchId, ratio: number, samples: Record<string, number[]>): Pick<BenchResult, 'id' | 'ratio' | 'samples'> {
  return { id, ratio, samples };
}

test('the noise of pair ratios is their median absolute deviation, with the extremes', () => {
  const spread = noiseOfRatios([1.0, 1.1, 1.2, 1.3, 1.9]);
  assert.ok(Math.abs(spread!.mad - 0.1) < 1e-12);
  assert.deepEqual({ ...spread, mad: 0.1 }, { mad: 0.1, pairs: 5, lowest: 1.0, highest: 1.9 });
  assert.equal(noiseOfRatios([1.2, 1.2, 1.2])?.mad, 0);
});

test('fewer than three finite pairs give no noise', () => {
  assert.equal(noiseOfRatios([]), null);
  assert.equal(noiseOfRatios([1.1, 1.3]), null);
  assert.equal(noiseOfRatios([1.1, Number.NaN, Number.POSITIVE_INFINITY, 1.3]), null);
});

test("a bench's noise comes from its interleaved pairs, index by index", () => {
  const b2 = benchNoise(result('b2', 1.2, { cli: [120, 126, 118, 130], bareProcess: [100, 100, 100, 100], floor: [1, 2, 3, 4] }));
  assert.equal(b2?.pairs, 4);
  assert.equal(b2?.lowest, 1.18);
  assert.equal(b2?.highest, 1.3);
});

test('(c) is a rate, so its pairs divide the baseline time by the executor time', () => {
  const c = benchNoise(result('c', 0.5, { executorMs: [200, 200, 200], baselineMs: [100, 90, 110] }));
  assert.ok(Math.abs(c!.mad - 0.05) < 1e-12);
  assert.deepEqual([c?.pairs, c?.lowest, c?.highest], [3, 0.45, 0.55]);
});

test('(f) takes its noise from the plan size whose ratio is the headline', () => {
  const samples = {
    validator1000Ms: [15, 16, 14],
    ajv1000Ms: [10, 10, 10],
    validator10000Ms: [120, 150, 130],
    ajv10000Ms: [100, 100, 100],
  };
  assert.equal(benchNoise(result('f', 1.5, samples))?.lowest, 1.4);
  assert.equal(benchNoise(result('f', 1.3, samples))?.lowest, 1.2);
});

test('benches without pairs, with uneven series or missing series report no noise', () => {
  assert.equal(benchNoise(result('d', 0.6, {})), null);
  assert.equal(benchNoise(result('j', 1.2, { coverageMs: [1, 2, 3], plainMs: [1, 2, 3] })), null);
  assert.equal(benchNoise(result('a', 0.8, { executorMs: [1, 2, 3], pgraphMs: [1, 2] })), null);
  assert.equal(benchNoise(result('h', 1.0, { executorMs: [1, 2, 3] })), null);
});

test('two runs combine their noise as the root of the sum of squares, or use the one measured', () => {
  assert.equal(combinedNoise(noise(0.03), noise(0.04)), 0.05);
  assert.equal(combinedNoise(null, noise(0.04)), 0.04);
  assert.equal(combinedNoise(null, null), null);
});

test('a change no larger than the noise is within noise', () => {
  const [change] = compareTables([row('b2', 1.2, { mad: 0.03 })], [row('b2', 1.24, { mad: 0.04 })]);
  assert.equal(change?.verdict, 'within-noise');
  assert.ok(Math.abs(change!.change! - 0.04) < 1e-12);
  assert.ok(Math.abs(change!.relative! - 0.04 / 1.2) < 1e-12);
  assert.equal(change?.noise, 0.05);
});

test('beyond the noise, a higher ratio is worse for an at-most target and better for an at-least one', () => {
  const [slower] = compareTables([row('b2', 1.17, { mad: 0.03 })], [row('b2', 1.35, { mad: 0.03 })]);
  assert.equal(slower?.verdict, 'worse');
  const [faster] = compareTables([row('b2', 1.35, { mad: 0.03 })], [row('b2', 1.17, { mad: 0.03 })]);
  assert.equal(faster?.verdict, 'better');
  const [moreThroughput] = compareTables([row('c', 0.9, { mad: 0.01, op: '>=' })], [row('c', 1.0, { mad: 0.01, op: '>=' })]);
  assert.equal(moreThroughput?.verdict, 'better');
  const [lessThroughput] = compareTables([row('c', 1.0, { mad: 0.01, op: '>=' })], [row('c', 0.9, { mad: 0.01, op: '>=' })]);
  assert.equal(lessThroughput?.verdict, 'worse');
});

test('a moved ratio with no noise in either run says so; an unmoved one is within noise', () => {
  assert.equal(compareTables([row('d', 0.6)], [row('d', 0.7)])[0]?.verdict, 'no-noise');
  assert.equal(compareTables([row('d', 0.6)], [row('d', 0.6)])[0]?.verdict, 'within-noise');
});

test('rows follow the catalog order, and a bench in one report only is named as such', () => {
  const changes = compareTables([row('j', 1.2), row('a', 0.8, { mad: 0.1 })], [row('b2', 1.2), row('a', 0.85, { mad: 0.1 })]);
  assert.deepEqual(
    changes.map((change) => [change.id, change.verdict]),
    [
      ['a', 'within-noise'],
      ['b2', 'only-after'],
      ['j', 'only-before'],
    ],
  );
  assert.equal(changes[1]?.change, null);
});

function report(table: BenchTableRow[], quick: boolean): BenchReport {
  return {
    formatVersion: 2,
    createdAt: '2026-11-29T10:00:00.000Z',
    commit: 'abc1234',
    quick,
    node: 'v20.20.2',
    platform: 'linux-x64',
    cpus: 2,
    loadAverage: [1, 1, 1],
    table,
    results: [],
    errors: [],
  };
}

test('the printed comparison marks changes beyond noise, status changes and a quick-against-full pair', () => {
  const before = report([row('a', 0.8, { mad: 0.01 }), row('b2', 1.2, { mad: 0.02 })], false);
  const after = report([row('a', 0.81, { mad: 0.01 }), row('b2', 1.3, { mad: 0.02, status: 'missed' })], true);
  const lines = comparisonLines({ label: 'before.json', report: before }, { label: 'after.json', report: after }, compareTables(before.table, after.table));
  const text = lines.join('\n');
  assert.match(lines[0]!, /^Comparing before\.json \(2026-11-29T10:00:00\.000Z, abc1234\)$/);
  assert.match(text, /warning: one report is a quick run and the other a full run/);
  assert.match(text, /\(a\) bench a\s+0\.800×\s+0\.810×\s+\+0\.010× \(\+1\.3%\)\s+±0\.014×\s+within noise/);
  assert.match(text, /\(b2\) bench b2\s+1\.200×\s+1\.300×\s+\+0\.100× \(\+8\.3%\)\s+±0\.028×\s+WORSE beyond noise \(ok → MISSED\)/);
});
