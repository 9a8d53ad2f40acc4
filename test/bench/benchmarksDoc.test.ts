// docs/benchmarks.md keeps its shape: one table row per bench of the catalog, short cells, the history at the end.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BENCH_IDS } from './benchCatalog.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const page = readFileSync(path.join(ROOT, 'docs', 'benchmarks.md'), 'utf8');
const MAXIMUM_CELL = 300;
const COLUMNS = ['Bench', 'What is measured', 'Baseline', "Today's figure", 'Ratio', 'Target', 'Met', 'Run'];

/** The section under a `## ` heading, up to the next one. */
function section(heading: string): string {
  const start = page.indexOf(`\n## ${heading}\n`);
  assert.notEqual(start, -1, `docs/benchmarks.md has a "## ${heading}" section`);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end === -1 ? undefined : end);
}

/** The cells of the first table in a section, header row first (the separator row left out). */
function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|(\s*-+\s*\|)+$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

const [header, ...rows] = tableRows(section("Today's figures"));

test("the table of today's figures has its columns, and every row all of them", () => {
  assert.deepEqual(header, COLUMNS);
  for (const row of rows) assert.equal(row.length, COLUMNS.length, `a row of ${row.length} cells: ${row[0]}`);
});

test('every bench of the catalog has one row, and no row names an unknown bench', () => {
  const ids = rows.map((row) => /^\(([a-z0-9]+)\)$/.exec(row[0] ?? '')?.[1]);
  assert.deepEqual(ids, [...BENCH_IDS]);
});

test(`no cell is longer than ${MAXIMUM_CELL} characters`, () => {
  for (const row of rows) {
    for (const [column, cell] of row.entries()) {
      assert.ok([...cell].length <= MAXIMUM_CELL, `${row[0]} ${COLUMNS[column]}: ${[...cell].length} characters`);
    }
  }
});

test('each row says whether its target is met, and names the run its figure comes from', () => {
  for (const row of rows) {
    assert.match(row[6] ?? '', /^(met|missed)\b/, `${row[0]} Met`);
    assert.match(row[7] ?? '', /^\d{4}-\d{2}-\d{2}, [0-9a-f]{7,}$/, `${row[0]} Run`);
  }
});

test('the dated history is the last section, and the page says how to write and compare reports', () => {
  const headings = [...page.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
  assert.equal(headings.at(-1), 'History');
  assert.match(section('History'), /\*\*\d{4}-\d{2}-\d{2}\.\*\*/);
  assert.match(page, /npm run bench -- --json FILE/);
  assert.match(page, /npm run bench -- --compare FILE --against FILE2/);
  assert.match(page, /contracts\/bench-report\.schema\.json/);
});
