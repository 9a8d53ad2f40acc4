// Skill discovery over real temporary stories and over the repository's own skills/ directory.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoverSkills } from '../../../src/runtime/skills/skillDiscovery.js';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';
import { configSchema, createTempStory, DONE_SCRIPT } from './skillFixture.js';

const repository = path.resolve(import.meta.dirname, '../../..');

test('good skills load; an invalid manifest, broken JSON and a directory without skill.json are skipped with problems naming the file', async () => {
  const story = createTempStory();
  try {
    story.skill(
      'torch',
      { scripts: [{ name: 'light', path: 'scripts/light.js', timeout: 5000 }], priority: 70, capabilities: ['fire'] },
      {
        'scripts/light.js': DONE_SCRIPT,
        'prompt.md': 'Light things.',
      },
    );
    story.skill('bad-version', { version: '1.0' }, { 'scripts/run.js': DONE_SCRIPT });
    story.write('story/skills/broken-json/skill.json', '{ "name": "broken-json", ');
    story.write('story/skills/no-manifest/scripts/run.js', DONE_SCRIPT);
    story.write('story/skills/loose-file.js', DONE_SCRIPT);
    story.skill('door', {}, { 'scripts/open.js': DONE_SCRIPT });

    const { skills, broken, problems } = await discoverSkills({ root: story.root });
    assert.deepEqual(
      skills.map((skill) => skill.name),
      ['door', 'torch'],
      'the good skills load, in directory order',
    );
    assert.deepEqual(
      broken.map((skill) => [skill.name, skill.manifestPath]),
      [
        ['bad-version', path.join(story.root, 'skills/bad-version/skill.json')],
        ['broken-json', path.join(story.root, 'skills/broken-json/skill.json')],
      ],
      'a skill whose skill.json does not parse or validate is broken, not merely skipped',
    );
    const torch = skills.find((skill) => skill.name === 'torch')!;
    assert.equal(torch.priority, 70);
    assert.deepEqual(torch.capabilities, ['fire']);
    assert.equal(torch.prompt, 'Light things.');
    assert.deepEqual(torch.problems, []);
    assert.deepEqual(
      torch.scripts.map((script) => [script.name, script.toolPath, script.timeoutMs, script.declared, script.executable]),
      [['light', 'skills/torch/scripts/light.js', 5000, true, true]],
    );
    assert.equal(torch.scripts[0]!.path, fs.realpathSync(path.join(story.root, 'skills/torch/scripts/light.js')));
    assert.equal(skills.find((skill) => skill.name === 'door')!.priority, 50, 'priority defaults to 50');

    const badVersion = problems.find((problem) => problem.code === 'MANIFEST_INVALID');
    assert.ok(badVersion, JSON.stringify(problems));
    assert.equal(badVersion.file, path.join(story.root, 'skills/bad-version/skill.json'));
    assert.equal(badVersion.pointer, '/version');
    assert.match(
      badVersion.message,
      /^the skill "bad-version" is unusable: its skill\.json does not follow the manifest schema: version: "1\.0" does not match the pattern/,
    );
    // The schema violation is at the value of "version": its line and column (1-based) in the file as written.
    const badText = fs.readFileSync(badVersion.file!, 'utf8');
    const versionOffset = badText.indexOf('"1.0"');
    const versionLine = badText.slice(0, versionOffset).split('\n').length;
    const versionColumn = versionOffset - badText.lastIndexOf('\n', versionOffset - 1);
    assert.deepEqual(
      [badVersion.line, badVersion.column, badVersion.endLine, badVersion.endColumn],
      [versionLine, versionColumn, versionLine, versionColumn + 5],
    );
    assert.equal(badVersion.skill, 'bad-version');
    const brokenJson = problems.find((problem) => problem.code === 'MANIFEST_JSON_INVALID');
    assert.ok(brokenJson);
    assert.equal(brokenJson.file, path.join(story.root, 'skills/broken-json/skill.json'));
    assert.equal(brokenJson.message, 'the skill "broken-json" is unusable: its skill.json is not valid JSON: expected a property name in double quotes');
    assert.deepEqual([brokenJson.line, brokenJson.column], [1, 26], 'at the end of the text, where a property name was expected');
    assert.equal(brokenJson.severity, 'error');
    const noManifest = problems.find((problem) => problem.code === 'MANIFEST_MISSING');
    assert.equal(noManifest?.message, 'Skipping skills/no-manifest: no skill.json');
    assert.equal(noManifest?.severity, 'warning');
    assert.equal(problems.length, 3, 'a loose file under skills/ is not a skill and not a problem');
  } finally {
    story.remove();
  }
});

test('scripts only in scripts/ are discovered as undeclared, with their executable bit; data files there are not scripts', async () => {
  const story = createTempStory();
  try {
    story.skill('tools', {});
    story.write('story/skills/tools/scripts/run.sh', '#!/bin/sh\necho\n', 0o755);
    story.write('story/skills/tools/scripts/helper.js', DONE_SCRIPT, 0o644);
    story.write('story/skills/tools/scripts/tool', '#!/bin/sh\n', 0o755);
    story.write('story/skills/tools/scripts/notes.md', '# notes', 0o644);
    story.write('story/skills/tools/scripts/helper.input.schema.json', { type: 'object' });
    story.write('story/skills/tools/scripts/.hidden.js', DONE_SCRIPT, 0o755);
    const { skills, problems } = await discoverSkills({ root: story.root });
    assert.deepEqual(problems, []);
    const scripts = skills[0]!.scripts.map((script) => ({
      name: script.name,
      toolPath: script.toolPath,
      executable: script.executable,
      declared: script.declared,
    }));
    assert.deepEqual(scripts, [
      { name: 'helper', toolPath: 'skills/tools/scripts/helper.js', executable: false, declared: false },
      { name: 'run', toolPath: 'skills/tools/scripts/run.sh', executable: true, declared: false },
      { name: 'tool', toolPath: 'skills/tools/scripts/tool', executable: true, declared: false },
    ]);
    assert.equal(skills[0]!.scripts[0]!.timeoutMs, 30_000);
  } finally {
    story.remove();
  }
});

test('declared scripts come first; a declared file in scripts/ is not listed twice; missing files and bad input schemas are errors', async () => {
  const story = createTempStory();
  try {
    story.skill(
      'dice',
      {
        scripts: [
          { name: 'roll', path: 'scripts/roll.js', inputSchema: 'scripts/roll.input.schema.json', description: 'Roll dice.', required: true },
          { name: 'ghost', path: 'scripts/ghost.js' },
          { name: 'broken', path: 'scripts/broken.js', inputSchema: 'scripts/broken.schema.json' },
          { name: 'weird', path: 'scripts/weird.js', inputSchema: 'scripts/weird.schema.json', rollback: 'nothing' },
          { name: 'escape', path: '../outside.js' },
        ],
      },
      {
        'scripts/roll.js': DONE_SCRIPT,
        'scripts/roll.input.schema.json': {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { formula: { type: 'string' } },
        },
        'scripts/broken.js': DONE_SCRIPT,
        'scripts/broken.schema.json': '{ nope',
        'scripts/weird.js': DONE_SCRIPT,
        'scripts/weird.schema.json': { type: 'no-such-type' },
        'scripts/extra.js': DONE_SCRIPT,
      },
    );
    const { skills } = await discoverSkills({ root: story.root });
    const dice = skills[0]!;
    assert.deepEqual(
      dice.scripts.map((script) => [script.name, script.declared]),
      [
        ['roll', true],
        ['broken', true],
        ['weird', true],
        ['extra', false],
      ],
    );
    const roll = dice.scripts[0]!;
    assert.equal(roll.description, 'Roll dice.');
    assert.equal(roll.required, true);
    assert.deepEqual(roll.inputSchema?.['properties'], { formula: { type: 'string' } });
    assert.equal(dice.scripts[1]!.inputSchema, undefined);
    const codes = dice.problems.map((problem) => [problem.severity, problem.code, problem.pointer]);
    assert.deepEqual(codes, [
      ['error', 'SCRIPT_NOT_FOUND', '/scripts/1'],
      ['error', 'INPUT_SCHEMA_INVALID', '/scripts/2'],
      ['error', 'INPUT_SCHEMA_INVALID', '/scripts/3'],
      ['error', 'PATH_OUTSIDE_SKILL', '/scripts/4'],
      ['warning', 'SCRIPT_ROLLBACK_UNKNOWN', '/scripts/3/rollback'],
    ]);
    assert.match(dice.problems[0]!.message, /skills\/dice\/skill\.json: script "ghost": skills\/dice\/scripts\/ghost\.js does not exist/);
    assert.match(dice.problems[1]!.message, /is not valid JSON/);
    assert.match(dice.problems[2]!.message, /does not compile as a JSON Schema/);
  } finally {
    story.remove();
  }
});

test('a missing prompt.md is fine unless the manifest names the prompt file', async () => {
  const story = createTempStory();
  try {
    story.skill('quiet', {}, { 'scripts/run.js': DONE_SCRIPT });
    story.skill('named', { prompt: 'behaviour.md' }, { 'scripts/run.js': DONE_SCRIPT });
    const { skills } = await discoverSkills({ root: story.root });
    const [named, quiet] = skills;
    assert.equal(quiet!.prompt, undefined);
    assert.deepEqual(quiet!.problems, []);
    assert.equal(named!.prompt, undefined);
    assert.deepEqual(
      named!.problems.map((problem) => [problem.severity, problem.code]),
      [['warning', 'PROMPT_MISSING']],
    );
    assert.match(named!.problems[0]!.message, /prompt skills\/named\/behaviour\.md does not exist/);
  } finally {
    story.remove();
  }
});

test('story skills come before extra roots and replace their skills of the same name without a warning; toolPaths outside the root are absolute', async () => {
  const story = createTempStory();
  try {
    story.skill('dice-roller', { description: 'the story override' }, { 'scripts/roll.js': DONE_SCRIPT });
    story.skill('dice-roller', { description: 'the bundled one' }, { 'scripts/roll.js': DONE_SCRIPT }, 'bundled');
    story.skill('lantern', {}, { 'scripts/glow.js': DONE_SCRIPT }, 'bundled');
    story.skill('renamed', { name: 'other-name' }, { 'scripts/run.js': DONE_SCRIPT });
    const bundled = path.join(story.base, 'bundled');
    const { skills, problems, overridden } = await discoverSkills({ root: story.root, extraSkillRoots: [bundled, path.join(story.base, 'missing')] });
    assert.deepEqual(
      skills.map((skill) => [skill.name, skill.description]),
      [
        ['dice-roller', 'the story override'],
        ['other-name', 'The renamed skill.'],
        ['lantern', 'The lantern skill.'],
      ],
    );
    assert.equal(skills[2]!.scripts[0]!.toolPath, path.join(bundled, 'lantern/scripts/glow.js'));
    // The story's own dice-roller replaces the bundled one: recorded, not a problem.
    assert.equal(
      problems.find((problem) => problem.code === 'SKILL_DUPLICATE'),
      undefined,
    );
    assert.deepEqual(overridden, [
      { name: 'dice-roller', usedDirectory: path.join(story.root, 'skills', 'dice-roller'), overriddenDirectory: path.join(bundled, 'dice-roller') },
    ]);
    assert.ok(problems.some((problem) => problem.code === 'SKILLS_ROOT_MISSING'));
    assert.deepEqual(
      skills[1]!.problems.map((problem) => problem.code),
      ['SKILL_NAME_MISMATCH'],
    );
  } finally {
    story.remove();
  }
});

test('two skills of the same name in one root: the second is skipped with a SKILL_DUPLICATE warning', async () => {
  const story = createTempStory();
  try {
    story.skill('lantern', {}, { 'scripts/glow.js': DONE_SCRIPT });
    story.skill('lantern-copy', { name: 'lantern' }, { 'scripts/glow.js': DONE_SCRIPT });
    const { skills, problems, overridden } = await discoverSkills({ root: story.root });
    assert.deepEqual(
      skills.map((skill) => skill.directory),
      [path.join(story.root, 'skills', 'lantern')],
    );
    const duplicate = problems.find((problem) => problem.code === 'SKILL_DUPLICATE');
    assert.ok(duplicate);
    assert.equal(duplicate.severity, 'warning');
    assert.equal(duplicate.file, path.join(story.root, 'skills', 'lantern-copy', 'skill.json'));
    assert.match(duplicate.message, /a skill named "lantern" was already found in skills\/lantern/);
    assert.deepEqual(overridden, []);
  } finally {
    story.remove();
  }
});

test('a skill directory linking outside every skills root is skipped', async () => {
  const story = createTempStory();
  try {
    story.skill('elsewhere', {}, { 'scripts/run.js': DONE_SCRIPT }, 'outside');
    fs.symlinkSync(path.join(story.base, 'outside', 'elsewhere'), path.join(story.root, 'skills', 'elsewhere'));
    const { skills, problems } = await discoverSkills({ root: story.root });
    assert.deepEqual(skills, []);
    assert.deepEqual(
      problems.map((problem) => problem.code),
      ['SKILL_OUTSIDE_ROOTS'],
    );
  } finally {
    story.remove();
  }
});

test('the repository skills dice-roller and storyteller load without error problems', async () => {
  const { skills } = await discoverSkills({ root: repository });
  for (const name of ['dice-roller', 'storyteller']) {
    const skill = skills.find((candidate) => candidate.name === name);
    assert.ok(skill, `${name} was discovered`);
    assert.deepEqual(
      skill.problems.filter((problem) => problem.severity === 'error'),
      [],
      name,
    );
    assert.deepEqual(validateAgainst('skill-manifest.schema.json', skill.manifest), []);
    assert.ok(skill.prompt && skill.prompt.length > 100, `${name} has its prompt.md`);
    assert.ok(skill.configSchema, `${name} has a valid config schema`);
    assert.ok(skill.scripts.length > 0);
    for (const script of skill.scripts) {
      assert.ok(script.declared);
      assert.ok(script.inputSchema, `${name}/${script.name} has its input schema`);
      assert.match(script.toolPath, new RegExp(`^skills/${name}/scripts/`));
    }
  }
  const storyteller = skills.find((skill) => skill.name === 'storyteller')!;
  assert.deepEqual(storyteller.config, { style: 'vivid', provider: 'template', apiKey: '' }, 'defaults applied');
  const dice = skills.find((skill) => skill.name === 'dice-roller')!;
  assert.deepEqual(dice.config, { showIndividualRolls: true, randomSource: 'crypto' });
});

test('config problems stay on the skill and name the config file', async () => {
  const story = createTempStory();
  try {
    story.skill(
      'teller',
      {},
      {
        'scripts/run.js': DONE_SCRIPT,
        'config-schema.json': configSchema({ style: { type: 'string', enum: ['terse', 'vivid'] } }),
        'config.json': { style: 'loud' },
      },
    );
    story.skill('bad-schema', {}, { 'scripts/run.js': DONE_SCRIPT, 'config-schema.json': { type: 'object' } });
    const { skills } = await discoverSkills({ root: story.root });
    const teller = skills.find((skill) => skill.name === 'teller')!;
    assert.deepEqual(
      teller.problems.map((problem) => problem.code),
      ['CONFIG_ENUM'],
    );
    assert.equal(teller.problems[0]!.message, 'skills/teller/config.json: "style" must be one of "terse", "vivid", but is "loud"');
    assert.equal(teller.problems[0]!.file, path.join(story.root, 'skills/teller/config.json'));
    const badSchema = skills.find((skill) => skill.name === 'bad-schema')!;
    assert.equal(badSchema.configSchema, undefined);
    assert.ok(
      badSchema.problems.every((problem) => problem.code === 'CONFIG_SCHEMA_INVALID' && problem.message.startsWith('skills/bad-schema/config-schema.json: ')),
    );
    assert.ok(
      badSchema.problems.some((problem) => /"\$schema"/.test(problem.message)),
      JSON.stringify(badSchema.problems),
    );
  } finally {
    story.remove();
  }
});
