// Checks the test story fixtures: every skill.json under test/fixtures/story/skills validates, scripts exist with the intended exec bits, and the well-behaved helpers keep the protocol.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { assertProtocol, assertValidConfigSchema, eventsOfType, fixtureStoryRoot, loadValidManifest, runScript } from './skillTestKit.js';

const fixtureSkills = path.join(fixtureStoryRoot, 'skills');
/** Scripts that must NOT be executable (interpreter selection by extension, or refusal). */
const notExecutable = new Set(['not-executable.data', 'python-echo.py', 'shell-echo.sh']);

test('fixtures: every test/fixtures/story/skills/*/skill.json validates and its scripts exist', async () => {
  const names = (await fs.readdir(fixtureSkills, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  assert.ok(names.includes('faults') && names.includes('helpers'), `fixture skills: ${names.join(', ')}`);
  for (const name of names) {
    const skillDir = path.join(fixtureSkills, name);
    const manifest = await loadValidManifest(skillDir);
    assert.equal(manifest.name, name);
    await assertValidConfigSchema(skillDir);
    const listed = new Set<string>();
    for (const script of manifest.scripts ?? []) {
      const file = path.join(skillDir, script.path);
      const base = path.basename(file);
      listed.add(base);
      const stat = await fs.stat(file);
      assert.ok(stat.isFile(), `${script.path} exists`);
      if (process.platform !== 'win32') {
        assert.equal((stat.mode & 0o111) !== 0, !notExecutable.has(base), `${script.path} exec bit`);
      }
      if (base.endsWith('.js')) {
        const [shebang, header] = (await fs.readFile(file, 'utf8')).split('\n');
        assert.equal(shebang, '#!/usr/bin/env node');
        assert.match(header ?? '', /^\/\/ \S/);
      }
    }
    const onDisk = await fs.readdir(path.join(skillDir, 'scripts'));
    assert.deepEqual([...listed].sort(), onDisk.sort(), `${name}: every script is listed in skill.json`);
  }
});

test('fixtures: the well-behaved helpers keep the protocol', async () => {
  const helpers = path.join(fixtureSkills, 'helpers', 'scripts');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'narratoria-fixtures-'));
  try {
    const echo = assertProtocol(await runScript(path.join(helpers, 'echo.js'), { input: { patch: { a: 1 } }, dependencies: { x: null }, state: { s: 1 } }));
    assert.deepEqual(eventsOfType(echo.events, 'state_patch')[0]?.patch, { a: 1 });
    assert.deepEqual((echo.done.output as { input: unknown }).input, { patch: { a: 1 } });
    assert.deepEqual((echo.done.output as { dependencies: unknown }).dependencies, { x: null });

    const asset = assertProtocol(await runScript(path.join(helpers, 'asset.js'), { input: { outPath: path.join(dir, 'img', 'a.svg') } }));
    assert.equal(eventsOfType(asset.events, 'asset')[0]?.mediaType, 'image/svg+xml');
    assert.match(await fs.readFile(path.join(dir, 'img', 'a.svg'), 'utf8'), /<svg/);

    const choices = assertProtocol(await runScript(path.join(helpers, 'choices.js'), { input: { choices: ['Fight', 'Flee'] } }));
    assert.deepEqual(eventsOfType(choices.events, 'ui_event')[0]?.payload, { choices: ['Fight', 'Flee'] });

    const needs = assertProtocol(await runScript(path.join(helpers, 'needs-context.js'), { input: { suggestion: 'Which door?' } }));
    assert.equal(needs.done.needsMoreContext, true);
    assert.equal(needs.done.contextSuggestion, 'Which door?');

    const patches = assertProtocol(await runScript(path.join(helpers, 'patches.js'), { input: { patches: [{ a: 1 }, { b: 2 }], delayMs: 5 } }));
    assert.deepEqual(
      eventsOfType(patches.events, 'state_patch').map((event) => event.patch),
      [{ a: 1 }, { b: 2 }],
    );

    const counterFile = path.join(dir, 'counter');
    const flaky = async (): Promise<boolean> =>
      assertProtocol(await runScript(path.join(helpers, 'flaky.js'), { input: { counterFile, failTimes: 2 } })).done.ok;
    assert.deepEqual([await flaky(), await flaky(), await flaky()], [false, false, true]);

    const sleep = assertProtocol(await runScript(path.join(helpers, 'sleep.js'), { input: { ms: 30 } }));
    const slept = sleep.done.output as { start: number; end: number };
    // Margin: only a lower bound, which load can only help (a busy machine sleeps longer, never shorter); the 5 ms of
    // slack covers Date.now() rounding against the timer's own clock. No upper bound: that would be a benchmark.
    assert.ok(slept.end - slept.start >= 25);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
