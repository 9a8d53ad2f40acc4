// A skill whose skill.json does not load, in the runtime: the registry lists it as broken (and again after a refresh), a plan using it is invalid (SKILL_BROKEN), a playtest naming it says it is broken, and health has one vocabulary.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SkillRegistry } from '../../../src/runtime/skills/skillRegistry.js';
import { brokenSkillReason, formatSkillProblem } from '../../../src/runtime/skills/skillProblems.js';
import { healthLabelOf, healthReasonOf } from '../../../src/runtime/skills/skillHealthLabel.js';
import { DiagnosticCode, validatePlanText } from '../../../src/runtime/validation/index.js';
import { parsePlaytest } from '../../../src/runtime/playtest/playtestDocument.js';
import { createTempStory, DONE_SCRIPT } from './skillFixture.js';

const BROKEN_MANIFEST = [
  '{',
  '  "name": "ferryman",',
  '  "version": "1.0.0",',
  '  "description": "Takes the player across the river."',
  '  "scripts": []',
  '}',
  '',
].join('\n');

test('the registry lists a broken skill with where, and follows it as it is fixed and broken again', async () => {
  const story = createTempStory();
  const registry = await (async () => {
    story.skill('lantern', { scripts: [{ name: 'light', path: 'scripts/light.js' }] }, { 'scripts/light.js': DONE_SCRIPT });
    story.write('story/skills/ferryman/skill.json', BROKEN_MANIFEST);
    story.write('story/skills/ferryman/scripts/cross.js', DONE_SCRIPT, 0o755);
    return SkillRegistry.load({ root: story.root });
  })();
  try {
    assert.deepEqual(
      registry.skills.map((skill) => skill.name),
      ['lantern'],
    );
    assert.deepEqual(
      registry.brokenSkills.map((skill) => skill.name),
      ['ferryman'],
    );
    const broken = registry.broken('ferryman')!;
    assert.equal(broken.manifestPath, path.join(story.root, 'skills/ferryman/skill.json'));
    assert.equal(broken.realDirectory, fs.realpathSync(path.join(story.root, 'skills/ferryman')));
    const [problem] = broken.problems;
    assert.deepEqual(
      [problem?.code, problem?.line, problem?.column, problem?.skill],
      ['MANIFEST_JSON_INVALID', 5, 3, 'ferryman'],
      'at "scripts", after the missing comma',
    );
    assert.ok(registry.problems.includes(problem!), "its problems are among the registry's");
    assert.ok(!registry.narratorSkills().some((skill) => skill.name === 'ferryman'));
    assert.equal(
      formatSkillProblem(problem!, story.root),
      'skills/ferryman/skill.json:5:3: error MANIFEST_JSON_INVALID: the skill "ferryman" is unusable: its skill.json is not valid JSON: expected \',\' between values',
    );
    assert.equal(
      brokenSkillReason(broken, story.root),
      "skills/ferryman/skill.json:5:3: MANIFEST_JSON_INVALID: its skill.json is not valid JSON: expected ',' between values",
    );

    story.write('story/skills/ferryman/skill.json', BROKEN_MANIFEST.replace('river."', 'river.",'));
    await registry.refresh();
    assert.deepEqual(
      registry.skills.map((skill) => skill.name),
      ['ferryman', 'lantern'],
      'fixed: it loads',
    );
    assert.deepEqual(registry.brokenSkills, []);

    story.write('story/skills/ferryman/skill.json', { name: 'ferryman', version: 1, description: 'Takes the player across.', scripts: [{ name: 'cross' }] });
    await registry.refresh();
    assert.deepEqual(
      registry.skills.map((skill) => skill.name),
      ['lantern'],
      'broken again: it leaves the skills',
    );
    const invalid = registry.broken('ferryman')!.problems;
    assert.deepEqual(
      invalid.map((found) => [found.code, found.pointer, found.line, found.column]),
      [
        ['MANIFEST_INVALID', '/version', 3, 14],
        ['MANIFEST_INVALID', '/scripts/0/path', 6, 5],
      ],
      'one problem per schema violation, each at its property (a missing one at its object)',
    );
    assert.match(
      brokenSkillReason(registry.broken('ferryman')!, story.root),
      /^skills\/ferryman\/skill\.json:3:14: MANIFEST_INVALID: .* \(and 1 more problem\)$/,
    );
  } finally {
    registry.dispose();
    story.remove();
  }
});

test('a plan using a broken skill is invalid (SKILL_BROKEN on its toolPath); a plan that does not is not', async () => {
  const story = createTempStory();
  try {
    story.skill('lantern', { scripts: [{ name: 'light', path: 'scripts/light.js' }] }, { 'scripts/light.js': DONE_SCRIPT });
    story.write('story/skills/ferryman/skill.json', BROKEN_MANIFEST);
    story.write('story/skills/ferryman/scripts/cross.js', DONE_SCRIPT, 0o755);
    const registry = await SkillRegistry.load({ root: story.root });
    const brokenSkills = registry.brokenSkills;
    registry.dispose();
    const plan = (toolPath: string) =>
      `{\n  "requestId": "7c9e6679-7425-40de-944b-e07dc4f0be15",\n  "tools": [\n    { "toolId": "go", "toolPath": "${toolPath}" }\n  ]\n}\n`;
    const using = await validatePlanText(plan('skills/ferryman/scripts/cross.js'), { root: story.root, brokenSkills });
    assert.equal(using.valid, false);
    const [diagnostic] = using.diagnostics.filter((found) => found.code === DiagnosticCode.SKILL_BROKEN);
    assert.ok(diagnostic, JSON.stringify(using.diagnostics));
    assert.equal(diagnostic.severity, 'error');
    assert.equal(diagnostic.pointer, '/tools/0/toolPath');
    assert.deepEqual(diagnostic.range?.start, { line: 4, column: 35 });
    assert.equal(
      diagnostic.message,
      '"go" uses the skill "ferryman", which is unusable: skills/ferryman/skill.json:5:3: MANIFEST_JSON_INVALID: its skill.json is not valid JSON: expected \',\' between values',
    );
    const other = await validatePlanText(plan('skills/lantern/scripts/light.js'), { root: story.root, brokenSkills });
    assert.equal(other.valid, true, JSON.stringify(other.diagnostics));
  } finally {
    story.remove();
  }
});

test('a playtest expecting a broken skill says it is broken, not that the story has no such skill', () => {
  const text = '{ "turns": [ { "input": "I cross the river", "expect": { "skills": ["ferryman"], "notSkills": ["ferrymen"] } } ] }';
  const broken = new Map([['ferryman', 'skills/ferryman/skill.json:5:3: MANIFEST_JSON_INVALID: its skill.json is not valid JSON']]);
  const { problems } = parsePlaytest('crossing.playtest.json', text, new Set(['lantern']), broken);
  assert.deepEqual(
    problems.map((problem) => `${problem.code}@${problem.line}:${problem.column} ${problem.message}`),
    [
      `SKILL_BROKEN@1:${text.indexOf('"ferryman"') + 1} the story's skill "ferryman" is broken: skills/ferryman/skill.json:5:3: MANIFEST_JSON_INVALID: its skill.json is not valid JSON`,
      `UNKNOWN_SKILL@1:${text.indexOf('"ferrymen"') + 1} the story has no skill "ferrymen"`,
    ],
  );
});

test('health is one of four words: healthy, degraded, unusable, disabled', () => {
  const status = (state: 'healthy' | 'degraded' | 'temporaryFailure' | 'permanentFailure', enabled = true, usable = true) => ({
    enabled,
    usable,
    health: { state, consecutiveFailures: 0 },
  });
  assert.equal(healthLabelOf(status('healthy')), 'healthy');
  assert.equal(healthLabelOf(status('degraded')), 'degraded');
  assert.equal(healthLabelOf(status('temporaryFailure')), 'degraded');
  assert.equal(healthLabelOf(status('permanentFailure')), 'unusable');
  assert.equal(healthLabelOf(status('healthy', true, false)), 'unusable', 'an error problem makes a skill unusable, never "healthy unusable"');
  assert.equal(healthLabelOf(status('permanentFailure', false)), 'disabled', "the user's choice first");
  assert.equal(healthReasonOf(status('healthy')), '');
  assert.match(healthReasonOf(status('healthy', true, false)), /error in its configuration or scripts/);
  assert.match(healthReasonOf(status('permanentFailure')), /kept failing this session/);
});
