// `narratoria lore DIR --queries FILE` as a real process: the starter query set reaches 90%, the JSON follows its contract, a set below its target exits 1.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { narratoria } from './cliHarness.js';

let scratch: string;
let campaign: string;
before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-lore-queries-'));
  campaign = path.join(scratch, 'salt-lantern');
  const init = await narratoria(['init', campaign, '--campaign', 'complete']);
  assert.equal(init.code, 0, init.stderr);
});
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Report {
  readonly precision: number;
  readonly topPrecision: number;
  readonly passed: boolean;
  readonly queries: number;
  readonly problems: readonly string[];
  readonly results: readonly { readonly query: string; readonly relevant: boolean; readonly retrieved: readonly { readonly id: string }[] }[];
}

test("the complete starter campaign's lore.queries.json: every query retrieved as play does, precision at least 90%", async () => {
  const text = await narratoria(['lore', campaign, '--queries', path.join(campaign, 'lore.queries.json')]);
  assert.equal(text.code, 0, text.stdout + text.stderr);
  assert.match(text.stdout, /of 16 queries got relevant context: precision \d+\.\d% \(SC-004 asks 90\.0%; at most 3 chunks each\)/);
  const json = await narratoria(['lore', campaign, '--queries', path.join(campaign, 'lore.queries.json'), '--format', 'json']);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout) as Report;
  assert.deepEqual(validateAgainst('lore-precision-report.schema.json', report), []);
  assert.equal(report.queries, 16);
  assert.ok(report.precision >= 0.9, `precision ${report.precision}`);
  assert.ok(report.passed);
  for (const result of report.results) assert.ok(result.retrieved.length <= 3, result.query);
});

test('a query set below its target, or naming a chunk the lore lacks, exits 1; a file that is not a query set exits 2', async () => {
  const strict = path.join(scratch, 'strict.queries.json');
  writeFileSync(
    strict,
    JSON.stringify({
      limit: 1,
      minPrecision: 1,
      queries: [
        { query: 'Who keeps things in the customs house cellar?', expect: ['lore/places/gullhaven-harbour.md#3'] },
        { query: 'Which taverns are in the harbour?', expect: ['lore/saltlight/how-saltlight-burns.md#2'] },
        { query: 'the dragon of the north', expect: ['lore/places/dragons.md#1'] },
      ],
    }),
  );
  const run = await narratoria(['lore', campaign, '--queries', strict, '--format', 'json']);
  assert.equal(run.code, 1, run.stderr);
  const report = JSON.parse(run.stdout) as Report;
  assert.deepEqual(
    report.results.map((result) => result.relevant),
    [true, false, false],
  );
  assert.deepEqual(report.problems, ['lore/places/dragons.md#1: no lore chunk or file has this id (narratoria lore lists them)']);
  assert.equal(report.passed, false);
  const broken = path.join(scratch, 'broken.queries.json');
  writeFileSync(broken, JSON.stringify({ queries: [{ query: 'x' }] }));
  const refused = await narratoria(['lore', campaign, '--queries', broken]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /is not a lore query set .*must have required property 'expect'/);
});
