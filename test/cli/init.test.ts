// `narratoria init` as a newcomer uses it (real processes, real temporary folders): the story it creates validates, tests and plays; a folder with files in it is refused without --force and never loses data with it.
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { narratoria, projectRoot, type CliRun } from './cliHarness.js';

const temporary: string[] = [];
after(() => {
  for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
});

function scratch(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-init-'));
  temporary.push(folder);
  return folder;
}

function show(run: CliRun): string {
  return `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
}

/** Every file under `folder` with its text, relative paths as keys. */
function snapshot(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(folder, full), readFileSync(full, 'utf8'));
  }
  return files;
}

const samples = readdirSync(path.join(projectRoot, 'skills'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

test('init into an empty folder: the sample skills, a plan that validates and runs, a playtest that passes, a story that plays', async () => {
  const parent = scratch();
  const story = path.join(parent, 'my-story');
  mkdirSync(story);
  const init = await narratoria(['init', 'my-story'], parent);
  assert.equal(init.code, 0, show(init));
  assert.equal(init.stderr, '');
  for (const skill of samples) {
    assert.ok(existsSync(path.join(story, 'skills', skill, 'skill.json')), `skills/${skill}/skill.json`);
    assert.match(init.stdout, new RegExp(`skills/${skill}/ \\(\\d+ files?\\)`));
  }
  for (const file of ['plans/pick-the-lock.plan.json', 'playtests/first-steps.playtest.json', 'README.md']) {
    assert.ok(existsSync(path.join(story, file)), file);
    assert.match(init.stdout, new RegExp(`^  ${file.replace(/\./g, '\\.')}$`, 'm'));
  }
  assert.match(init.stdout, /Next: narratoria play --root my-story/);
  // A script keeps its mode, and nothing a skill saved while running (data/) or a local config.json is copied.
  assert.equal(
    statSync(path.join(story, 'skills', 'dice-roller', 'scripts', 'roll.js')).mode,
    statSync(path.join(projectRoot, 'skills', 'dice-roller', 'scripts', 'roll.js')).mode,
  );
  for (const skill of samples) {
    assert.ok(!existsSync(path.join(story, 'skills', skill, 'data')), `skills/${skill}/data`);
    assert.ok(!existsSync(path.join(story, 'skills', skill, 'config.json')), `skills/${skill}/config.json`);
  }
  const readme = readFileSync(path.join(story, 'README.md'), 'utf8');
  for (const command of ['narratoria play', 'narratoria test', 'narratoria validate plans/pick-the-lock.plan.json'])
    assert.ok(readme.includes(command), command);
  const playtest = JSON.parse(readFileSync(path.join(story, 'playtests', 'first-steps.playtest.json'), 'utf8')) as unknown;
  assert.deepEqual(validateAgainst('playtest.schema.json', playtest), []);

  // The commands the README gives, run in the story folder.
  const validate = await narratoria(['validate', 'plans/pick-the-lock.plan.json'], story);
  assert.equal(validate.code, 0, show(validate));
  assert.match(validate.stdout, /0 invalid, 0 error/);
  const played = await narratoria(['test', '--narrator', 'pattern'], story);
  assert.equal(played.code, 0, show(played));
  assert.match(played.stdout, /1 passed, 0 failed/);
  const run = await narratoria(['run', 'plans/pick-the-lock.plan.json', '--no-save'], story);
  assert.equal(run.code, 0, show(run));

  // And from the parent folder, with --root.
  const turn = await narratoria(['play', '--once', 'I look around', '--narrator', 'pattern', '--root', 'my-story'], parent);
  assert.equal(turn.code, 0, show(turn));
  assert.match(turn.stdout, /attempt 1 \[pattern\] .*: success/);
});

test('init with no folder fills the current one; init DIR creates DIR and its parents', async () => {
  const here = scratch();
  const run = await narratoria(['init'], here);
  assert.equal(run.code, 0, show(run));
  assert.ok(existsSync(path.join(here, 'skills', 'storyteller', 'skill.json')));
  assert.match(run.stdout, /Created a story in \.:/);
  assert.match(run.stdout, /Next: narratoria play {3}/);

  const parent = scratch();
  const nested = await narratoria(['init', path.join('a', 'b')], parent);
  assert.equal(nested.code, 0, show(nested));
  assert.ok(existsSync(path.join(parent, 'a', 'b', 'README.md')));
  assert.match(readFileSync(path.join(parent, 'a', 'b', 'README.md'), 'utf8'), /^# b\n/);
});

test('init into a folder with files in it: exit 2 and nothing changes; with --force it adds its files, deletes nothing and names what it replaced', async () => {
  const story = scratch();
  mkdirSync(path.join(story, 'notes'));
  writeFileSync(path.join(story, 'notes', 'ideas.txt'), 'a lighthouse keeper\n');
  writeFileSync(path.join(story, 'README.md'), '# My own README\n');
  const before = snapshot(story);

  const refused = await narratoria(['init', story], story);
  assert.equal(refused.code, 2, show(refused));
  assert.match(refused.stderr, /is not empty \(it holds README\.md, notes\); nothing was written/);
  assert.match(refused.stderr, /--force/);
  assert.equal(refused.stdout, '');
  assert.deepEqual(snapshot(story), before, 'nothing changed');

  const forced = await narratoria(['init', '--force'], story);
  assert.equal(forced.code, 0, show(forced));
  const after = snapshot(story);
  assert.equal(after.get(path.join('notes', 'ideas.txt')), 'a lighthouse keeper\n', 'a file of its own is kept');
  assert.notEqual(after.get('README.md'), '# My own README\n', 'README.md is replaced');
  assert.match(forced.stdout, /Replaced 1 existing file\(s\) \(--force\):\n {2}README\.md\n/);
  assert.ok(after.has(path.join('skills', 'dice-roller', 'skill.json')));
  const played = await narratoria(['test', '--narrator', 'pattern'], story);
  assert.equal(played.code, 0, show(played));
});

test('init --force never writes through something in the way: a file where a folder goes is reported and nothing is written', async () => {
  const story = scratch();
  writeFileSync(path.join(story, 'plans'), 'not a folder\n');
  const before = snapshot(story);
  const run = await narratoria(['init', '--force'], story);
  assert.equal(run.code, 2, show(run));
  assert.match(run.stderr, /in the way .*: plans; nothing was written/);
  assert.deepEqual(snapshot(story), before);
  assert.deepEqual(readdirSync(story), ['plans']);
});

test('init usage errors: two folders, a file as the folder, an unknown option', async () => {
  const parent = scratch();
  writeFileSync(path.join(parent, 'story.txt'), 'x');
  const two = await narratoria(['init', 'a', 'b'], parent);
  assert.equal(two.code, 2, show(two));
  assert.match(two.stderr, /init takes one folder/);
  const file = await narratoria(['init', 'story.txt'], parent);
  assert.equal(file.code, 2, show(file));
  assert.match(file.stderr, /story\.txt is a file, not a folder/);
  const unknown = await narratoria(['init', 'x', '--bogus'], parent);
  assert.equal(unknown.code, 2, show(unknown));
  assert.deepEqual(readdirSync(parent), ['story.txt']);
});
