// `narratoria validate` checks tool inputs against the story's skills (the real bundle over the repository's skills/).
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { narratoria, projectRoot } from './cliHarness.js';

let scratch: string;
let planFile: string;
before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-cli-skills-'));
  const plan = {
    requestId: '7c9e6679-7425-40de-944b-e07dc4f0be15',
    tools: [{ toolId: 'roll', toolPath: 'skills/dice-roller/scripts/roll.js', input: { formula: 3, fromula: '1d20' } }],
  };
  planFile = path.join(scratch, 'bad-input.plan.json');
  writeFileSync(planFile, JSON.stringify(plan, null, 2));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

interface ReportEntry {
  readonly file: string;
  readonly valid: boolean;
  readonly diagnostics: readonly { severity: string; code: string; message: string; pointer: string; line: number; column: number }[];
}

test('validate: "formula": 3 for dice-roller roll is INPUT_TYPE_MISMATCH at its position and exits 1', async () => {
  const run = await narratoria(['validate', planFile, '--root', projectRoot]);
  assert.equal(run.code, 1, run.stderr);
  // JSON.stringify with 2 spaces: "formula" is on line 8, its value at column 20.
  assert.match(
    run.stdout,
    /bad-input\.plan\.json:8:20: error INPUT_TYPE_MISMATCH: "roll": input\.formula must be a string \(skills\/dice-roller\/scripts\/roll\.js inputSchema\), got number/,
  );
  assert.match(run.stdout, /bad-input\.plan\.json:9:9: warning INPUT_UNKNOWN_PROPERTY: .*did you mean "formula"\?/);
  assert.match(run.stdout, /1 file\(s\) checked: 1 invalid, 1 error\(s\), 1 warning\(s\)/);
});

test('validate --format json: the report follows contracts/validate-report.schema.json', async () => {
  const run = await narratoria(['validate', planFile, '--root', projectRoot, '--format', 'json']);
  assert.equal(run.code, 1, run.stderr);
  const report = JSON.parse(run.stdout) as ReportEntry[];
  assert.deepEqual(validateAgainst('validate-report.schema.json', report), []);
  assert.equal(report[0]!.valid, false);
  assert.deepEqual(
    report[0]!.diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.code, diagnostic.pointer, diagnostic.line, diagnostic.column]),
    [
      ['error', 'INPUT_TYPE_MISMATCH', '/tools/0/input/formula', 8, 20],
      ['warning', 'INPUT_UNKNOWN_PROPERTY', '/tools/0/input/fromula', 9, 9],
    ],
  );
});

test('validate: a good input for the same script is valid (exit 0)', async () => {
  const good = path.join(scratch, 'good.plan.json');
  const plan = {
    requestId: '7c9e6679-7425-40de-944b-e07dc4f0be15',
    tools: [{ toolId: 'roll', toolPath: 'skills/dice-roller/scripts/roll.js', input: { formula: '1d20+2' } }],
  };
  writeFileSync(good, JSON.stringify(plan));
  const run = await narratoria(['validate', good, '--root', projectRoot, '--format', 'json']);
  assert.equal(run.code, 0, run.stdout);
  assert.deepEqual((JSON.parse(run.stdout) as ReportEntry[])[0]!.diagnostics, []);
});
