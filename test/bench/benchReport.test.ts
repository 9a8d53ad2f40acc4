// The bench report against contracts/bench-report.schema.json, reading saved reports back, and `npm run bench -- --json/--compare` as a process.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildReport, readReport, reportText, tableRow, writeReport } from './benchReport.js';
import type { BenchResult } from './benchUtil.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'bench');
/** Two real `npm run bench -- --quick --only a,c --json FILE` runs, one after the other. */
const FIRST = path.join(FIXTURES, 'quick-a-c-first.json');
const SECOND = path.join(FIXTURES, 'quick-a-c-second.json');

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(path.join(ROOT, 'contracts', 'bench-report.schema.json'), 'utf8')) as object);

function assertValid(report: unknown): void {
  assert.ok(validate(report), JSON.stringify(validate.errors, null, 2));
}

function temporaryFolder(t: { after: (fn: () => void) => void }): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-bench-report-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

function bench(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'test', 'bench', 'index.ts'), ...args],
      { cwd: ROOT, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
}

const scheduling: BenchResult = {
  id: 'a',
  title: 'scheduling overhead, 10k-node DAG',
  line: '(a) scheduling ...',
  ratio: 0.75,
  target: { op: '<=', value: 1 },
  met: true,
  medians: { executorMs: 750, validationMs: 50, executorWithoutValidationMs: 700, pgraphMs: 1000 },
  samples: { executorMs: [740, 750, 760], validationMs: [50, 50, 50], pgraphMs: [1000, 990, 1010], executorSerializingStdinMs: [] },
  details: {},
};
const latency: BenchResult = {
  id: 'd',
  title: 'pattern narrator latency',
  line: '(d) ...',
  ratio: 0.6,
  target: { op: '<=', value: 1 },
  met: true,
  medians: { generationMs: 0.13, p99Ms: 0.6, allowanceMs: 1 },
  samples: {},
  details: {},
};

test('the two saved real reports follow the schema, with a table row per bench run and its noise', () => {
  for (const file of [FIRST, SECOND]) {
    const report = JSON.parse(readFileSync(file, 'utf8')) as { table: { id: string; noise: unknown }[] };
    assertValid(report);
    assert.deepEqual(
      report.table.map((row) => row.id),
      ['a', 'c'],
    );
    assert.ok(report.table.every((row) => row.noise !== null));
  }
});

test('a built report follows the schema: a row with noise, a row without, and a failed bench', () => {
  const report = buildReport([scheduling, latency], [{ id: 'e', message: 'the model could not load' }], { quick: true, root: ROOT });
  assertValid(JSON.parse(reportText(report)));
  const { noise, ...cells } = report.table[0]!;
  assert.deepEqual(cells, {
    id: 'a',
    name: 'scheduling overhead',
    title: 'scheduling overhead, 10k-node DAG',
    baseline: 'p-graph 1000 ms',
    figure: '750 ms (valid. 50.0 ms)',
    ratio: 0.75,
    target: { op: '<=', value: 1 },
    status: 'met',
  });
  // Pair ratios 740/1000, 750/990 and 760/1010: median 760/1010, deviations 0.0125, 0.0051 and 0.
  assert.deepEqual(noise, { mad: 750 / 990 - 760 / 1010, pairs: 3, lowest: 0.74, highest: 750 / 990 });
  assert.equal(report.table[1]?.noise, null);
  assert.match(report.commit ?? '', /^[0-9a-f]{7,}(-dirty)?$/);
});

test('a written report reads back as it was', (t) => {
  const file = path.join(temporaryFolder(t), 'nested', 'report.json');
  const report = buildReport([scheduling], [], { quick: false, root: ROOT });
  writeReport(file, report);
  assert.deepEqual(readReport(file), JSON.parse(reportText(report)));
});

test('a report of format 1 (results only) gets its table from its results', (t) => {
  const saved = JSON.parse(readFileSync(FIRST, 'utf8')) as { table: unknown; commit: unknown; formatVersion: number };
  const { table, commit: _commit, ...rest } = saved;
  const file = path.join(temporaryFolder(t), 'old.json');
  writeFileSync(file, JSON.stringify({ ...rest, formatVersion: 1 }));
  const report = readReport(file);
  assert.deepEqual(report.table, table);
  assert.equal(report.commit, null);
  assert.deepEqual(tableRow(latency).noise, null);
});

test('reading something that is not a bench report says what is wrong', (t) => {
  const folder = temporaryFolder(t);
  const broken = path.join(folder, 'broken.json');
  writeFileSync(broken, '{"results": [');
  assert.throws(() => readReport(broken), /cannot read the bench report/);
  const other = path.join(folder, 'other.json');
  writeFileSync(other, '{"formatVersion": 1, "plans": []}');
  assert.throws(() => readReport(other), /is not a bench report/);
  const future = path.join(folder, 'future.json');
  writeFileSync(future, '{"formatVersion": 9, "results": [], "table": []}');
  assert.throws(() => readReport(future), /unknown bench report format 9/);
});

test('--compare FILE --against FILE2 compares two saved real reports without running', async () => {
  const { code, stdout, stderr } = await bench(['--compare', FIRST, '--against', SECOND]);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^Comparing .*quick-a-c-first\.json \(.*, quick\)$/m);
  assert.match(stdout, /^ {5}with .*quick-a-c-second\.json/m);
  assert.match(stdout, /^\(a\) scheduling overhead\s+1\.313×\s+1\.627×\s+\+0\.314× \(\+23\.9%\)\s+±0\.374×\s+within noise$/m);
  assert.match(stdout, /^\(c\) NDJSON throughput\s+0\.599×\s+0\.648×\s+\+0\.049× \(\+8\.1%\)\s+±0\.021×\s+better beyond noise$/m);
  const only = await bench(['--compare', FIRST, '--against', SECOND, '--only', 'c']);
  assert.doesNotMatch(only.stdout, /\(a\) scheduling/);
  assert.match(only.stdout, /\(c\) NDJSON throughput/);
});

test('the options of a comparison are checked before anything runs', async (t) => {
  const alone = await bench(['--against', SECOND]);
  assert.equal(alone.code, 1);
  assert.match(alone.stderr, /--against FILE2 compares with --compare FILE/);
  const quick = await bench(['--compare', FIRST, '--against', SECOND, '--quick']);
  assert.equal(quick.code, 1);
  assert.match(quick.stderr, /--quick and --json do not apply/);
  const missing = await bench(['--compare', path.join(temporaryFolder(t), 'missing.json'), '--quick', '--only', 'a']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /cannot read the bench report/);
  assert.doesNotMatch(missing.stdout, /running \(a\)/);
});

test('a real quick run writes --json FILE by the schema and compares itself with a saved report', async (t) => {
  const file = path.join(temporaryFolder(t), 'run.json');
  const { code, stdout, stderr } = await bench(['--quick', '--only', 'a', '--json', file, '--compare', FIRST]);
  assert.equal(code, 0, stderr);
  const report = JSON.parse(readFileSync(file, 'utf8')) as { quick: boolean; table: { id: string }[] };
  assertValid(report);
  assert.equal(report.quick, true);
  assert.deepEqual(
    report.table.map((row) => row.id),
    ['a'],
  );
  assert.match(stdout, /^ {5}with this run \(/m);
  assert.match(stdout, /^\(a\) scheduling overhead\s+1\.313×\s+\d+\.\d{3}×/m);
  assert.doesNotMatch(stdout, /\(c\) NDJSON/);
});
