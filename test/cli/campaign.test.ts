// `narratoria init --campaign` and `narratoria validate` on campaigns, as real processes on real folders: clean starters, seeded mistakes at file:line:column, the JSON report's contract, exit codes.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { narratoria, projectRoot, type CliRun } from './cliHarness.js';

const temporary: string[] = [];
after(() => {
  for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
});

function scratch(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-campaign-cli-'));
  temporary.push(folder);
  return folder;
}

function show(run: CliRun): string {
  return `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
}

interface Entry {
  file: string;
  kind?: string;
  format?: { id: string; version: string };
  valid: boolean;
  diagnostics: {
    severity: string;
    code: string;
    message: string;
    file?: string;
    line: number | null;
    column: number | null;
    related?: { file?: string; line?: number | null }[];
  }[];
}

function report(run: CliRun): Entry[] {
  const entries = JSON.parse(run.stdout) as Entry[];
  assert.deepEqual(validateAgainst('validate-report.schema.json', entries), []);
  return entries;
}

test('init --campaign minimal: three campaign files beside the story, and the folder validates clean as a campaign', async () => {
  const parent = scratch();
  const init = await narratoria(['init', 'train', '--campaign', 'minimal'], parent);
  assert.equal(init.code, 0, show(init));
  assert.match(init.stdout, /^Created a story with a minimal campaign in train:/m);
  assert.match(init.stdout, /^ {2}manifest\.json$/m);
  assert.match(init.stdout, /^ {2}world\/ \(1 file\)$/m);
  assert.match(init.stdout, /Check the campaign: narratoria validate train/);
  for (const file of ['manifest.json', 'world/setting.md', 'plot/premise.md', 'skills/dice-roller/skill.json', 'plans/pick-the-lock.plan.json']) {
    assert.ok(existsSync(path.join(parent, 'train', file)), file);
  }
  assert.match(readFileSync(path.join(parent, 'train', 'README.md'), 'utf8'), /## The campaign\n\nThis folder is also a Narratoria campaign \(a minimal one\)/);

  const text = await narratoria(['validate', 'train'], parent);
  assert.equal(text.code, 0, show(text));
  assert.equal(text.stdout, '✔ the campaign train is valid\n0 file(s) and 1 campaign(s) checked: 0 invalid, 0 error(s), 0 warning(s)\n');
  const json = await narratoria(['validate', path.join('train', 'manifest.json'), '--format', 'json'], parent);
  assert.equal(json.code, 0, show(json));
  assert.deepEqual(report(json), [
    { file: path.join('train', 'manifest.json'), kind: 'campaign', format: { id: 'folder-json', version: '1.0.0' }, valid: true, diagnostics: [] },
  ]);
});

test('init --campaign complete: the complete starter validates with no diagnostic, and its plans and skills still work', async () => {
  const parent = scratch();
  const init = await narratoria(['init', 'lantern', '--campaign', 'complete'], parent);
  assert.equal(init.code, 0, show(init));
  assert.match(init.stdout, /^ {2}lore\/ \(5 files\)$/m);
  assert.ok(existsSync(path.join(parent, 'lantern', 'characters', 'npcs', 'odile', 'profile.json')));
  const json = await narratoria(['validate', 'lantern', '--format', 'json'], parent);
  assert.equal(json.code, 0, show(json));
  const [entry] = report(json);
  assert.deepEqual(entry!.diagnostics, []);
  // The story's example plan beside the campaign is a plan as before.
  const plan = await narratoria(['validate', 'plans/pick-the-lock.plan.json'], path.join(parent, 'lantern'));
  assert.equal(plan.code, 0, show(plan));
});

test('validate: seeded mistakes in a campaign exit 1, each at its file:line:column relative to the working folder', async () => {
  const parent = scratch();
  assert.equal((await narratoria(['init', 'lantern', '--campaign', 'complete'], parent)).code, 0);
  const beatsFile = path.join(parent, 'lantern', 'plot', 'beats.json');
  writeFileSync(beatsFile, readFileSync(beatsFile, 'utf8').replace('"requires_beat": "beat_003"', '"requires_beat": "beat_030"'));
  const manifestFile = path.join(parent, 'lantern', 'manifest.json');
  writeFileSync(manifestFile, readFileSync(manifestFile, 'utf8').replace('"genre"', '"genra"'));

  const text = await narratoria(['validate', 'lantern'], parent);
  assert.equal(text.code, 1, show(text));
  const beatsText = readFileSync(beatsFile, 'utf8');
  const before = beatsText.slice(0, beatsText.indexOf('"beat_030"')).split('\n');
  assert.match(
    text.stdout,
    new RegExp(`^lantern/plot/beats\\.json:${before.length}:${before.at(-1)!.length + 1}: error CAMPAIGN_UNKNOWN_BEAT: requires_beat names "beat_030"`, 'm'),
  );
  assert.match(
    text.stdout,
    /^lantern\/manifest\.json:\d+:3: warning CAMPAIGN_UNKNOWN_KEY: unknown key "genra" in the manifest; Narratoria ignores it\. Did you mean "genre"\?/m,
  );
  assert.match(text.stdout, /0 file\(s\) and 1 campaign\(s\) checked: 1 invalid, 1 error\(s\), 1 warning\(s\)\n$/);

  const json = await narratoria(['validate', 'lantern', '--format', 'json'], parent);
  assert.equal(json.code, 1);
  const [entry] = report(json);
  assert.equal(entry!.valid, false);
  assert.deepEqual(
    entry!.diagnostics.map((diagnostic) => [diagnostic.file, diagnostic.code]),
    [
      // "genre" is gone too: one info lists the recommended keys missing.
      ['lantern/manifest.json', 'CAMPAIGN_RECOMMENDED_KEY_MISSING'],
      ['lantern/manifest.json', 'CAMPAIGN_UNKNOWN_KEY'],
      ['lantern/plot/beats.json', 'CAMPAIGN_UNKNOWN_BEAT'],
    ],
  );
});

test('validate: a requires_beat cycle reports its related edges with their files and lines in JSON', async () => {
  const parent = scratch();
  assert.equal((await narratoria(['init', 'lantern', '--campaign', 'complete'], parent)).code, 0);
  const beatsFile = path.join(parent, 'lantern', 'plot', 'beats.json');
  const beats = JSON.parse(readFileSync(beatsFile, 'utf8')) as { beats: { conditions?: Record<string, unknown> }[] };
  beats.beats[0]!.conditions = { requires_beat: 'beat_002' };
  writeFileSync(beatsFile, JSON.stringify(beats, null, 2));
  const json = await narratoria(['validate', 'lantern', '--format', 'json'], parent);
  assert.equal(json.code, 1, show(json));
  const cycle = report(json)[0]!.diagnostics.find((diagnostic) => diagnostic.code === 'CAMPAIGN_BEAT_CYCLE');
  assert.match(cycle!.message, /beat_001 -> beat_002 -> beat_001/);
  assert.equal(cycle!.related?.length, 2);
  assert.ok(cycle!.related!.every((information) => information.file === 'lantern/plot/beats.json' && typeof information.line === 'number'));
});

test('validate: a folder without manifest.json exits 2 and says what validate takes; plans and campaigns mix in one call', async () => {
  const parent = scratch();
  mkdirSync(path.join(parent, 'notes'));
  assert.equal((await narratoria(['init', 'train', '--campaign', 'minimal'], parent)).code, 0);
  const run = await narratoria(['validate', 'notes', 'train', 'train/plans/pick-the-lock.plan.json', '--root', 'train', '--format', 'json'], parent);
  assert.equal(run.code, 2, show(run));
  const entries = report(run);
  assert.deepEqual(
    entries.map((entry) => [entry.file, entry.kind, entry.valid]),
    [
      ['notes', undefined, false],
      ['train', 'campaign', true],
      ['train/plans/pick-the-lock.plan.json', undefined, true],
    ],
  );
  assert.equal(entries[0]!.diagnostics[0]!.code, 'FILE_UNREADABLE');
  assert.match(entries[0]!.diagnostics[0]!.message, /notes is a folder without manifest\.json: validate takes plan files, or a campaign/);
});

test('init --campaign with an unknown name is a usage error that writes nothing', async () => {
  const parent = scratch();
  const run = await narratoria(['init', 'x', '--campaign', 'huge'], parent);
  assert.equal(run.code, 2, show(run));
  assert.match(run.stderr, /--campaign must be minimal or complete, not "huge"/);
  assert.equal(existsSync(path.join(parent, 'x')), false);
  assert.ok(existsSync(path.join(projectRoot, 'contracts', 'campaign', 'manifest.schema.json')));
});
