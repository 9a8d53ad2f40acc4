// Issue 40's save and resume with the built CLI: `play --session NAME` keeps a play-through (state, turns, seed, skills' data) under .narratoria/sessions/NAME, `--new` starts another, `sessions list|show|delete` manage them, and a damaged or newer session file is refused and left as it is.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { narratoria } from './cliHarness.js';

let scratch: string;
let story: string;
before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-saved-'));
  story = path.join(scratch, 'story');
  const init = await narratoria(['init', story]);
  assert.equal(init.code, 0, init.stderr);
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const play = (...args: string[]) => narratoria(['play', '--root', story, '--narrator', 'pattern', ...args]);
const sessions = (...args: string[]) => narratoria(['sessions', ...args, '--root', story]);

interface Summary {
  readonly id: string;
  readonly turns?: number;
  readonly dataBytes: number;
  readonly problem?: string;
}

test("a named play-through is saved with its skills' data, continued by name, listed, shown and deleted", async () => {
  const first = await play('--session', 'harbour', '--once', 'Remember that Mira gave me a silver key');
  assert.equal(first.code, 0, first.stderr);
  const folder = path.join(story, '.narratoria', 'sessions', 'harbour');
  assert.ok(existsSync(path.join(folder, 'session.json')));
  assert.ok(readdirSync(path.join(folder, 'data', 'memory')).length > 0, 'the memory is kept with the session');

  const second = await play('--session', 'harbour', '--once', 'Have I met Mira before?', '--format', 'json');
  assert.equal(second.code, 0, second.stderr);
  assert.match((JSON.parse(second.stdout) as { narrative: string }).narrative, /silver key/, 'the memory came back with the session');

  // Another play-through remembers nothing of the first.
  const other = await play('--new', '--once', 'Have I met Mira before?', '--format', 'json');
  assert.equal(other.code, 0, other.stderr);
  assert.doesNotMatch((JSON.parse(other.stdout) as { narrative: string }).narrative, /silver key/);

  const listed = await sessions('list', '--format', 'json');
  assert.equal(listed.code, 0, listed.stderr);
  const summaries = JSON.parse(listed.stdout) as Summary[];
  const harbour = summaries.find((summary) => summary.id === 'harbour');
  assert.equal(harbour?.turns, 2);
  assert.ok(harbour!.dataBytes > 0);
  assert.equal(summaries.filter((summary) => summary.id !== 'harbour' && summary.turns === 1).length, 1, 'the --new session, named by its date');

  const shown = await sessions('show', 'harbour');
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /> Remember that Mira gave me a silver key/);
  assert.match(shown.stdout, /> Have I met Mira before\?/);

  // --new with a saved name does not overwrite it.
  const clash = await play('--new', '--session', 'harbour', '--once', 'hello');
  assert.equal(clash.code, 2);
  assert.match(clash.stderr, /already exists/);

  const deleted = await sessions('delete', 'harbour');
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.ok(!existsSync(folder));
  assert.equal((await sessions('delete', 'harbour')).code, 2, 'no such session');
  assert.equal((await sessions('show', 'no..such')).code, 2, 'not a session name');
});

test('a damaged session, or one of another format version, is refused with the reason and left as it is', async () => {
  for (const [id, text, reason] of [
    ['damaged', '{"formatVersion": 1, "turns": [', /is damaged: not valid JSON/],
    ['newer', '{"formatVersion": 2, "sessionId": "x"}', /session format 2, which this version does not read/],
  ] as const) {
    const file = path.join(story, '.narratoria', 'sessions', id, 'session.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    const run = await play('--session', id, '--once', 'I look around');
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, reason);
    assert.match(run.stderr, /It was left as it is/);
    assert.equal(readFileSync(file, 'utf8'), text, 'untouched');
    assert.deepEqual(readdirSync(path.dirname(file)), ['session.json'], 'nothing set aside or added');
    const listed = JSON.parse((await sessions('list', '--format', 'json')).stdout) as Summary[];
    assert.match(listed.find((summary) => summary.id === id)?.problem ?? '', reason);
    assert.equal((await sessions('show', id)).code, 1);
  }
});

test('--session with a path keeps its older meaning, with a note that names are preferred', async () => {
  const file = path.join(scratch, 'old-style.json');
  const run = await play('--session', file, '--once', 'I look around');
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /names are now preferred/);
  assert.ok(existsSync(file));
});

test("test --keep and explore --keep keep their sessions (file and skills' data) in .narratoria/sessions; without it nothing is left", async () => {
  const count = async () =>
    (JSON.parse((await sessions('list', '--format', 'json')).stdout) as Summary[]).filter((summary) => /^(?:playtest|explore)-/.test(summary.id));
  const before = (await count()).length;
  assert.equal((await narratoria(['test', '--root', story, '--narrator', 'pattern'])).code, 0);
  assert.equal((await narratoria(['explore', '--root', story, '--narrator', 'pattern', '--runs', '2', '--turns', '2', '--jobs', '1'])).code, 0);
  assert.equal((await count()).length, before, 'nothing kept without --keep');
  assert.equal((await narratoria(['test', '--root', story, '--narrator', 'pattern', '--keep'])).code, 0);
  const explored = await narratoria(['explore', '--root', story, '--narrator', 'pattern', '--runs', '2', '--turns', '2', '--jobs', '1', '--keep']);
  assert.ok(explored.code === 0 || explored.code === 1, explored.stderr);
  const kept = await count();
  assert.equal(kept.filter((summary) => summary.id.startsWith('playtest-first-steps')).length, 1);
  assert.equal(kept.filter((summary) => summary.id.startsWith('explore-')).length, 2);
  assert.ok(
    kept.every((summary) => summary.problem === undefined && (summary.turns ?? 0) > 0),
    JSON.stringify(kept),
  );
});
