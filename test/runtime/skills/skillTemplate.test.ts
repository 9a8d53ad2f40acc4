// Tests the skill scaffold: files validate against the contracts, the script really speaks the protocol, nothing is overwritten.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { checkSkillName, displayNameOf, scaffoldSkill } from '../../../src/runtime/skills/skillTemplate.js';
import { SkillRegistry } from '../../../src/runtime/skills/skillRegistry.js';
import { inspectScript } from '../../../src/runtime/inspect/inspectScript.js';

async function withStory(run: (root: string) => Promise<void>): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'narratoria-template-'));
  try {
    await run(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

test('skill names follow the manifest pattern', () => {
  assert.equal(checkSkillName('weather-report'), undefined);
  assert.match(checkSkillName('Weather Report')!, /lowercase/);
  assert.match(checkSkillName('')!, /name/);
  assert.equal(displayNameOf('weather-report'), 'Weather Report');
});

test('a scaffolded skill loads without problems and its script runs to done ok', async () => {
  await withStory(async (root) => {
    const result = await scaffoldSkill({ skillsDirectory: path.join(root, 'skills'), name: 'weather-report' });
    assert.ok(result.ok);
    const registry = await SkillRegistry.load({ root });
    try {
      const skill = registry.skills.find((candidate) => candidate.name === 'weather-report');
      assert.ok(skill, 'the new skill is discovered');
      assert.deepEqual(skill.problems, []);
      assert.equal(skill.scripts[0]?.name, 'run');
      const sample = JSON.parse(await readFile(path.join(result.directory, 'samples', 'input.json'), 'utf8'));
      const report = await inspectScript({ scriptPath: result.script, input: sample, root });
      assert.equal(report.verdict.ok, true, JSON.stringify(report.verdict));
      assert.ok(report.lines.some((line) => line.event?.type === 'state_patch'));
    } finally {
      registry.dispose();
    }
  });
});

test('scaffolding never overwrites an existing folder', async () => {
  await withStory(async (root) => {
    const existing = path.join(root, 'skills', 'weather-report');
    await mkdir(existing, { recursive: true });
    await writeFile(path.join(existing, 'notes.txt'), 'mine');
    const result = await scaffoldSkill({ skillsDirectory: path.join(root, 'skills'), name: 'weather-report' });
    assert.equal(result.ok, false);
    assert.equal(await readFile(path.join(existing, 'notes.txt'), 'utf8'), 'mine');
  });
});
