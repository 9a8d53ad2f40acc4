// Fails when a copy of the skill SDK differs from packages/skill-sdk/ (the sample skills' lib/, New Skill's embedded text and what it writes), when a shared skill library's copy differs from its original, or when a hand-written copy of the protocol helpers comes back.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SKILL_SDK_DECLARATIONS, SKILL_SDK_SOURCE } from '../../src/runtime/skills/skillSdkSource.js';
import { scaffoldSkill } from '../../src/runtime/skills/skillTemplate.js';
import { repoRoot, skillsRoot } from './skillTestKit.js';

const sdkSource = readFileSync(path.join(repoRoot, 'packages', 'skill-sdk', 'index.js'), 'utf8');
const sdkDeclarations = readFileSync(path.join(repoRoot, 'packages', 'skill-sdk', 'index.d.ts'), 'utf8');
const FIX = 'run `node packages/skill-sdk/syncCopies.mjs` (or `npm run build`) and commit the copies; edit packages/skill-sdk/, never a copy';

function sampleSkills(): string[] {
  return readdirSync(skillsRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(skillsRoot, entry.name, 'skill.json')))
    .map((entry) => entry.name);
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'data' || entry.name === 'node_modules' ? [] : filesUnder(full);
    return [full];
  });
}

test('every sample skill holds lib/narratoria-skill-sdk.js and .d.ts identical to packages/skill-sdk/', () => {
  const skills = sampleSkills();
  assert.ok(skills.length >= 7, `sample skills: ${skills.join(', ')}`);
  for (const skill of skills) {
    for (const [extension, expected] of [
      ['js', sdkSource],
      ['d.ts', sdkDeclarations],
    ] as const) {
      const copy = path.join(skillsRoot, skill, 'lib', `narratoria-skill-sdk.${extension}`);
      assert.ok(existsSync(copy), `${path.relative(repoRoot, copy)} is missing: ${FIX}`);
      assert.ok(readFileSync(copy, 'utf8') === expected, `${path.relative(repoRoot, copy)} differs from packages/skill-sdk/: ${FIX}`);
    }
  }
});

test("New Skill's embedded SDK is packages/skill-sdk/, and a scaffolded skill gets identical copies", async () => {
  assert.ok(SKILL_SDK_SOURCE === sdkSource, `src/runtime/skills/skillSdkSource.ts (SKILL_SDK_SOURCE) differs: ${FIX}`);
  assert.ok(SKILL_SDK_DECLARATIONS === sdkDeclarations, `src/runtime/skills/skillSdkSource.ts (SKILL_SDK_DECLARATIONS) differs: ${FIX}`);
  const root = await mkdtemp(path.join(tmpdir(), 'narratoria-sdk-copies-'));
  try {
    const result = await scaffoldSkill({ skillsDirectory: path.join(root, 'skills'), name: 'lantern-check' });
    assert.ok(result.ok);
    assert.equal(await readFile(path.join(result.directory, 'lib', 'narratoria-skill-sdk.js'), 'utf8'), sdkSource);
    assert.equal(await readFile(path.join(result.directory, 'lib', 'narratoria-skill-sdk.d.ts'), 'utf8'), sdkDeclarations);
    assert.match(await readFile(result.script, 'utf8'), /require\('\.\.\/lib\/narratoria-skill-sdk\.js'\)/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('syncCopies.mjs --check agrees: nothing to copy', () => {
  const check = spawnSync(process.execPath, [path.join(repoRoot, 'packages', 'skill-sdk', 'syncCopies.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);
});

test("each shared skill library's copy (the storyteller's voice.js in the memory skill) is identical to its original", async () => {
  const { SHARED_SKILL_LIBRARIES } = (await import(pathToFileURL(path.join(repoRoot, 'packages', 'skill-sdk', 'syncCopies.mjs')).href)) as {
    SHARED_SKILL_LIBRARIES: { original: string; copies: string[] }[];
  };
  assert.ok(
    SHARED_SKILL_LIBRARIES.some(
      ({ original, copies }) =>
        original.endsWith(path.join('storyteller', 'lib', 'voice.js')) && copies.some((copy) => copy.endsWith(path.join('memory', 'lib', 'voice.js'))),
    ),
  );
  for (const { original, copies } of SHARED_SKILL_LIBRARIES) {
    const text = readFileSync(path.join(repoRoot, original), 'utf8');
    for (const copy of copies) {
      assert.ok(
        existsSync(path.join(repoRoot, copy)) && readFileSync(path.join(repoRoot, copy), 'utf8') === text,
        `${copy} is missing or differs from ${original}: edit the original, then run \`node packages/skill-sdk/syncCopies.mjs\` (or \`npm run build\`) and commit the copy`,
      );
    }
  }
});

/** The narrator tests' own fixture skills, which use the SDK too (the blind-written author corpora stay as written). */
const fixtureSkillFolders = ['narrator-skills', 'narrator-skills-heldout'].map((folder) => path.join(repoRoot, 'test', 'fixtures', folder));

test("the narrator tests' own fixture skills hold the same copies", () => {
  for (const folder of fixtureSkillFolders) {
    for (const skill of readdirSync(folder).filter((entry) => existsSync(path.join(folder, entry, 'skill.json')))) {
      const copy = path.join(folder, skill, 'lib', 'narratoria-skill-sdk.js');
      assert.ok(existsSync(copy) && readFileSync(copy, 'utf8') === sdkSource, `${path.relative(repoRoot, copy)} is missing or differs: ${FIX}`);
    }
  }
});

test('no hand-written copy of the protocol helpers is left in skills/, the fixture skills or the New Skill template', () => {
  const offenders: string[] = [];
  const template = path.join(repoRoot, 'src', 'runtime', 'skills', 'skillTemplate.ts');
  const scripts = [skillsRoot, ...fixtureSkillFolders].flatMap((folder) => filesUnder(folder).filter((candidate) => candidate.endsWith('.js')));
  for (const file of [...scripts, template]) {
    const relative = path.relative(repoRoot, file);
    if (path.basename(file) === 'narratoria-skill-sdk.js') continue;
    if (path.basename(file) === 'protocol.js') offenders.push(`${relative} (use the SDK)`);
    const text = readFileSync(file, 'utf8');
    for (const pattern of [
      /function (emit|fail|readStdin|loadConfig|dataDirectory|writeFileAtomic|seededRandom)\(/,
      /\bdoneSent\b/,
      /process\.stdout\.write\(/,
    ]) {
      if (pattern.test(text)) offenders.push(`${relative} (${pattern.source})`);
    }
  }
  assert.deepEqual(offenders, [], 'scripts write events through lib/narratoria-skill-sdk.js');
});
