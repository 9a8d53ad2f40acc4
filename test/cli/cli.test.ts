// The CLI contract: flags, exit codes and JSON outputs (validated against contracts/) of validate, run, inspect and runs.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { narratoria, projectRoot, storyRoot } from './cliHarness.js';
import { maxConcurrent, spanOfIso, type Span } from '../support/concurrency.js';

let scratch: string;
before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-cli-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const example = 'contracts/examples/pick-the-lock.plan.json';

function writePlan(name: string, plan: unknown): string {
  const file = path.join(scratch, name);
  writeFileSync(file, typeof plan === 'string' ? plan : JSON.stringify(plan, null, 2));
  return file;
}

test('help, version and usage errors', async () => {
  const help = await narratoria(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /narratoria validate/);
  assert.equal((await narratoria(['--version'])).code, 0);
  assert.equal((await narratoria([])).code, 2);
  const unknown = await narratoria(['frobnicate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
  assert.equal((await narratoria(['validate', example, '--bogus'])).code, 2);
  assert.equal((await narratoria(['validate'])).code, 2);
  assert.equal((await narratoria(['run', example, '--concurrency', 'zero'])).code, 2);
  assert.equal((await narratoria(['run', example, '--format', 'yaml'])).code, 2);
});

test('validate: valid examples exit 0 and the JSON report matches its contract', async () => {
  const files = ['contracts/examples/pick-the-lock.plan.json', 'contracts/examples/look-around.plan.json', 'contracts/examples/parallel-checks.plan.json'];
  const run = await narratoria(['validate', ...files, '--format', 'json']);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { file: string; valid: boolean }[];
  assert.deepEqual(validateAgainst('validate-report.schema.json', report), []);
  assert.deepEqual(
    report.map((entry) => [entry.file, entry.valid]),
    files.map((file) => [file, true]),
  );
});

test('validate: a cycle exits 1 with a positioned, coded diagnostic', async () => {
  const run = await narratoria(['validate', 'test/fixtures/plans/cycle.plan.json', '--root', storyRoot, '--format', 'json']);
  assert.equal(run.code, 1);
  const [entry] = JSON.parse(run.stdout) as {
    valid: boolean;
    diagnostics: { code: string; message: string; line: number; column: number; pointer: string }[];
  }[];
  assert.deepEqual(validateAgainst('validate-report.schema.json', [entry]), []);
  assert.equal(entry!.valid, false);
  const cycle = entry!.diagnostics.find((diagnostic) => diagnostic.code === 'DEPENDENCY_CYCLE');
  assert.ok(cycle, JSON.stringify(entry));
  assert.match(cycle.message, /x -> z -> y -> x|y -> x -> z -> y|z -> y -> x -> z/);
  assert.ok(cycle.line >= 1 && cycle.column >= 1);
  const text = await narratoria(['validate', 'test/fixtures/plans/cycle.plan.json', '--root', storyRoot]);
  assert.equal(text.code, 1);
  assert.match(text.stdout, /cycle\.plan\.json:\d+:\d+: error DEPENDENCY_CYCLE/);
});

test('validate: unreadable file exits 2 but still reports the other files', async () => {
  const run = await narratoria(['validate', example, 'no/such/plan.json', '--format', 'json']);
  assert.equal(run.code, 2);
  const report = JSON.parse(run.stdout) as { file: string; valid: boolean; diagnostics: { code: string }[] }[];
  assert.deepEqual(validateAgainst('validate-report.schema.json', report), []);
  assert.equal(report[0]!.valid, true);
  assert.equal(report[1]!.diagnostics[0]!.code, 'FILE_UNREADABLE');
});

test('validate: upstream example plans are schema-valid; their missing tools are reported', async () => {
  const run = await narratoria([
    'validate',
    'test/fixtures/plans/upstream-torch.plan.json',
    'test/fixtures/plans/upstream-torch-replan.plan.json',
    '--format',
    'json',
  ]);
  const report = JSON.parse(run.stdout) as { diagnostics: { code: string }[] }[];
  for (const entry of report) {
    assert.ok(
      entry.diagnostics.every((diagnostic) => diagnostic.code.startsWith('TOOL_PATH_')),
      JSON.stringify(entry),
    );
  }
});

test('run: the example plan succeeds, with progress in text and only the result in JSON', async () => {
  const text = await narratoria(['run', example, '--no-save']);
  assert.equal(text.code, 0, text.stderr + text.stdout);
  assert.match(text.stdout, /▶ roll dice-roller/);
  assert.match(text.stdout, /✔ narrate success/);
  assert.match(text.stdout, /succeeded/);
  const json = await narratoria(['run', example, '--format', 'json', '--no-save']);
  assert.equal(json.code, 0);
  const result = JSON.parse(json.stdout) as { success: boolean; aggregatedState: { dice?: { lastRoll?: { total: number } } } };
  assert.deepEqual(validateAgainst('execution-result.schema.json', result), []);
  assert.equal(result.success, true);
  assert.equal(typeof result.aggregatedState.dice?.lastRoll?.total, 'number');
});

test('run: a failing plan exits 1; an invalid plan exits 2 and runs nothing', async () => {
  const failing = writePlan('failing.json', {
    requestId: '22222222-3333-4444-8555-666666666666',
    tools: [{ toolId: 'bad', toolPath: 'skills/faults/scripts/done-not-ok.js', retryPolicy: { maxRetries: 0 } }],
  });
  const failed = await narratoria(['run', failing, '--root', storyRoot, '--format', 'json', '--no-save']);
  assert.equal(failed.code, 1);
  const result = JSON.parse(failed.stdout) as { success: boolean; failedTools: string[] };
  assert.deepEqual(validateAgainst('execution-result.schema.json', result), []);
  assert.deepEqual(result.failedTools, ['bad']);

  const marker = path.join(scratch, 'must-not-exist');
  const invalid = writePlan('invalid.json', {
    requestId: '33333333-3333-4444-8555-666666666666',
    tools: [
      { toolId: 'a', toolPath: 'skills/helpers/scripts/asset.js', input: { outPath: marker } },
      { toolId: 'b', toolPath: 'skills/helpers/scripts/echo.js', dependencies: ['nope'] },
    ],
  });
  const rejected = await narratoria(['run', invalid, '--root', storyRoot, '--format', 'json', '--no-save']);
  assert.equal(rejected.code, 2);
  assert.match(rejected.stderr, /UNKNOWN_DEPENDENCY/);
  const rejectedResult = JSON.parse(rejected.stdout) as { toolResults: unknown[]; failureReason: string };
  assert.deepEqual(validateAgainst('execution-result.schema.json', rejectedResult), []);
  assert.equal(rejectedResult.toolResults.length, 0);
  assert.equal(existsSync(marker), false, 'nothing may run for an invalid plan');
  assert.equal((await narratoria(['run', 'missing.json'])).code, 2);
  assert.equal((await narratoria(['run', writePlan('broken.json', '{ "requestId": ')])).code, 2);
});

test('run: --tool-timeout, --plan-timeout and --concurrency are honoured', async () => {
  const hang = writePlan('hang.json', {
    requestId: '44444444-3333-4444-8555-666666666666',
    tools: [{ toolId: 'hang', toolPath: 'skills/faults/scripts/hang.js', retryPolicy: { maxRetries: 0 } }],
  });
  // Deterministic: hang.js never finishes, so the 500 ms tool limit and the 400 ms plan limit fire however slow
  // the machine is (a late start only makes them fire before the script has logged anything).
  const timedOut = await narratoria(['run', hang, '--root', storyRoot, '--format', 'json', '--tool-timeout', '500', '--no-save']);
  assert.equal(timedOut.code, 1);
  assert.equal((JSON.parse(timedOut.stdout) as { toolResults: { state: string }[] }).toolResults[0]!.state, 'timeout');
  const planTimeout = await narratoria(['run', hang, '--root', storyRoot, '--format', 'json', '--plan-timeout', '400', '--no-save']);
  assert.equal(planTimeout.code, 1);
  assert.equal((JSON.parse(planTimeout.stdout) as { status: string }).status, 'timeout');

  const sleepers = writePlan('sleepers.json', {
    requestId: '55555555-3333-4444-8555-666666666666',
    parallel: true,
    tools: [1, 2, 3, 4].map((n) => ({ toolId: `s${n}`, toolPath: 'skills/helpers/scripts/sleep.js', input: { ms: 300 }, async: true })),
  });
  const run = await narratoria(['run', sleepers, '--root', storyRoot, '--format', 'json', '--concurrency', '2', '--no-save']);
  assert.equal(run.code, 0);
  const results = (JSON.parse(run.stdout) as { toolResults: { startedAt: string; finishedAt: string; output: { result: Span } }[] }).toolResults;
  // Concurrency is what runs at one instant: a sweep over the runtime's own span of each tool (slot taken to
  // slot released, so the limit is exact), then over the spans the scripts measured inside them. The runtime
  // starts two tools at once, so its sweep sees exactly two whatever the machine's load; a script's span lies
  // inside its tool's, so it can only see fewer (one, when a slow Node start keeps two scripts apart).
  assert.equal(maxConcurrent(results.map((tool) => spanOfIso(tool.startedAt, tool.finishedAt))), 2, 'the runtime runs 2 tools at once');
  const scriptMost = maxConcurrent(results.map((tool) => tool.output.result));
  assert.ok(scriptMost >= 1 && scriptMost <= 2, `at most 2 scripts at once, saw ${scriptMost}`);
});

test('run: --state reads the session state and writes the new one back', async () => {
  const stateFile = path.join(scratch, 'session.json');
  writeFileSync(stateFile, JSON.stringify({ hero: { hp: 12 }, story: { turns: 4 } }));
  const run = await narratoria(['run', example, '--state', stateFile, '--no-save']);
  assert.equal(run.code, 0, run.stderr);
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { hero: unknown; story: { turns: number }; dice: unknown };
  assert.deepEqual(state.hero, { hp: 12 });
  assert.equal(state.story.turns, 5);
  assert.ok(state.dice);
  writeFileSync(stateFile, '[1,2]');
  assert.equal((await narratoria(['run', example, '--state', stateFile, '--no-save'])).code, 2);
});

test('inspect: reports each line, stderr, exit code and verdict', async () => {
  const good = await narratoria(['inspect', 'skills/dice-roller/scripts/roll.js', '--input', '{"formula":"2d6-1"}', '--format', 'json']);
  assert.equal(good.code, 0, good.stderr);
  const report = JSON.parse(good.stdout) as { verdict: { ok: boolean }; lines: { status: string }[] };
  assert.deepEqual(validateAgainst('inspect-report.schema.json', report), []);
  assert.equal(report.verdict.ok, true);
  assert.ok(report.lines.every((line) => line.status === 'event'));

  const garbage = await narratoria(['inspect', path.join(storyRoot, 'skills/faults/scripts/garbage-line.js'), '--format', 'json']);
  assert.equal(garbage.code, 1);
  const garbageReport = JSON.parse(garbage.stdout) as { verdict: { ok: boolean; category: string }; lines: { status: string }[] };
  assert.deepEqual(validateAgainst('inspect-report.schema.json', garbageReport), []);
  assert.deepEqual(
    garbageReport.lines.map((line) => line.status),
    ['event', 'invalid_json', 'event'],
  );
  assert.equal(garbageReport.verdict.category, 'invalid_json');

  const text = await narratoria(['inspect', path.join(storyRoot, 'skills/faults/scripts/events-after-done.js')]);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /after_done/);
  assert.equal((await narratoria(['inspect', 'x.js', '--input', 'not json'])).code, 2);
});

test('runs: a run is recorded, listed and shown', async () => {
  const root = mkdtempSync(path.join(scratch, 'story-'));
  const plan = writePlan('runs.json', {
    requestId: '66666666-3333-4444-8555-666666666666',
    tools: [{ toolId: 'echo', toolPath: path.join(projectRoot, 'skills/storyteller/scripts/narrate.js') }],
  });
  const run = await narratoria(['run', plan, '--root', root, '--allow-outside-skills', '--format', 'json']);
  assert.equal(run.code, 0, run.stderr);
  const list = await narratoria(['runs', 'list', '--root', root, '--format', 'json']);
  const runs = JSON.parse(list.stdout) as { planId: string; status: string }[];
  assert.deepEqual(
    runs.map((entry) => [entry.planId, entry.status]),
    [['66666666-3333-4444-8555-666666666666', 'succeeded']],
  );
  const show = await narratoria(['runs', 'show', '66666666-3333-4444-8555-666666666666', '--root', root]);
  assert.equal(show.code, 0);
  assert.equal((await narratoria(['runs', 'show', 'nope', '--root', root])).code, 2);
});

test('a reader that closes the pipe early ends the command quietly (no EPIPE crash)', async () => {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [path.join(projectRoot, 'dist', 'cli.cjs'), 'skills', '--root', projectRoot], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.destroy(); // the reader is gone before the first line
  const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /EPIPE|Error/);
});
