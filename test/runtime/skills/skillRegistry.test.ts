// The skill registry: narrator view, enablement, health from ToolResults, refresh, contextFor, and that secrets never leak.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ExecutionResult, ToolResult } from '../../../src/runtime/contractTypes/executionResult.js';
import { SkillRegistry, type HealthChange, type SkillsChange } from '../../../src/runtime/skills/skillRegistry.js';
import { configSchema, createTempStory, DONE_SCRIPT, type TempStory } from './skillFixture.js';

const SECRET = 'sk-never-show-me-0042';

function buildStory(): TempStory {
  const story = createTempStory();
  story.skill(
    'dice',
    { priority: 60, capabilities: ['dice'], scripts: [{ name: 'roll', path: 'scripts/roll.js', timeout: 5000, inputSchema: 'scripts/roll.schema.json' }] },
    {
      'scripts/roll.js': DONE_SCRIPT,
      'scripts/roll.schema.json': { type: 'object' },
      'prompt.md': 'Roll when chance matters.',
    },
  );
  story.skill(
    'teller',
    { priority: 60 },
    {
      'scripts/narrate.js': DONE_SCRIPT,
      'config-schema.json': configSchema({
        style: { type: 'string', enum: ['terse', 'vivid'], default: 'vivid' },
        apiKey: { type: 'string', 'x-sensitive': true, 'x-env-var': 'TELLER_KEY', minLength: 100 },
        model: { type: 'string', 'x-env-var': 'TELLER_MODEL' },
      }),
      'config.json': { style: 'terse' },
    },
  );
  story.skill('memory', { priority: 90 }, { 'scripts/store.js': DONE_SCRIPT });
  story.skill(
    'broken',
    {},
    {
      'scripts/run.js': DONE_SCRIPT,
      'config-schema.json': configSchema({ level: { type: 'integer' } }, { required: ['level'] }),
    },
  );
  return story;
}

const failed = (skill: string, fields: Partial<ToolResult> = {}): ToolResult => ({
  toolId: `${skill}-tool`,
  skill,
  state: 'failed',
  error: { code: 'TOOL_REPORTED_FAILURE', message: 'no', category: 'tool_failure' },
  ...fields,
});
const succeeded = (skill: string): ToolResult => ({ toolId: `${skill}-tool`, skill, state: 'success' });

test('narratorSkills: enabled, usable, not permanently failed; by priority then name. disabledSkills: the others', async () => {
  const story = buildStory();
  const registry = await SkillRegistry.load({ root: story.root, disabledSkills: ['memory'] });
  try {
    assert.deepEqual(
      registry.skills.map((skill) => skill.name),
      ['broken', 'dice', 'memory', 'teller'],
    );
    assert.deepEqual(
      registry.narratorSkills().map((skill) => skill.name),
      ['dice', 'teller'],
    );
    assert.deepEqual(registry.disabledSkills(), ['broken', 'memory']);
    assert.equal(registry.status('broken')?.usable, false, 'a required field without value makes the skill unusable');
    const dice = registry.narratorSkills()[0]!;
    assert.deepEqual(dice, {
      name: 'dice',
      displayName: 'dice',
      description: 'The dice skill.',
      capabilities: ['dice'],
      priority: 60,
      health: 'healthy',
      prompt: 'Roll when chance matters.',
      scripts: [{ name: 'roll', toolPath: 'skills/dice/scripts/roll.js', inputSchema: { type: 'object' } }],
    });
    const enablement: unknown[] = [];
    registry.onDidChangeEnablement((change) => enablement.push(change));
    assert.equal(registry.setEnabled('memory', true), true);
    assert.equal(registry.setEnabled('memory', true), true);
    assert.equal(registry.setEnabled('nope', false), false);
    assert.deepEqual(enablement, [{ skill: 'memory', enabled: true }], 'one event per actual change');
    assert.deepEqual(
      registry.narratorSkills().map((skill) => skill.name),
      ['memory', 'dice', 'teller'],
    );
    registry.setEnabled('dice', false);
    assert.equal(registry.isEnabled('dice'), false);
    assert.deepEqual(registry.disabledSkills(), ['broken', 'dice']);
    assert.equal(registry.health('dice'), 'healthy', 'disabling is not a health change');
  } finally {
    registry.dispose();
    story.remove();
  }
});

test('health from ToolResults: 3 failures degrade, 3 more disable for this session, restartSession heals', async () => {
  const story = buildStory();
  const registry = await SkillRegistry.load({ root: story.root });
  const changes: HealthChange[] = [];
  registry.onDidChangeHealth((change) => changes.push(change));
  try {
    for (let index = 0; index < 3; index++) registry.recordResult(failed('dice'));
    assert.equal(registry.health('dice'), 'degraded');
    assert.equal(registry.narratorSkills().find((skill) => skill.name === 'dice')?.health, 'degraded', 'degraded skills are still offered');
    registry.recordResult(succeeded('dice'));
    assert.equal(registry.health('dice'), 'healthy', 'a success recovers a degraded skill');
    const execution = { toolResults: Array.from({ length: 6 }, () => failed('dice')) } as unknown as ExecutionResult;
    const recorded = registry.recordExecution(execution);
    assert.deepEqual(
      recorded.map((change) => change.current),
      ['degraded', 'permanentFailure'],
    );
    assert.ok(registry.disabledSkills().includes('dice'));
    assert.ok(!registry.narratorSkills().some((skill) => skill.name === 'dice'));
    registry.restartSession();
    assert.equal(registry.health('dice'), 'healthy');
    assert.ok(!registry.disabledSkills().includes('dice'));
    assert.deepEqual(
      changes.map((change) => `${change.skill}:${change.previous}->${change.current}`),
      ['dice:healthy->degraded', 'dice:degraded->healthy', 'dice:healthy->degraded', 'dice:degraded->permanentFailure', 'dice:permanentFailure->healthy'],
    );
    registry.recordResult(failed('teller', { state: 'timeout' }));
    assert.equal(registry.health('teller'), 'temporaryFailure');
    registry.recordResult(failed('teller'));
    assert.equal(registry.health('teller'), 'permanentFailure', 'a final failure while temporaryFailure: retries exhausted');
    registry.resetHealth('teller');
    assert.equal(registry.health('teller'), 'healthy');
    registry.recordResult({ toolId: 'x', toolPath: 'skills/memory/scripts/store.js', state: 'timeout' });
    assert.equal(registry.health('memory'), 'temporaryFailure', 'the skill is found from the toolPath when the result has none');
    assert.equal(registry.recordResult(failed('unknown-skill')), undefined);
  } finally {
    registry.dispose();
    story.remove();
  }
});

test('refresh reports added, removed and changed skills; unchanged skills keep their health', async () => {
  const story = buildStory();
  const registry = await SkillRegistry.load({ root: story.root });
  const events: SkillsChange[] = [];
  registry.onDidChangeSkills((change) => events.push(change));
  try {
    for (let index = 0; index < 3; index++) {
      registry.recordResult(failed('dice'));
      registry.recordResult(failed('teller'));
    }
    assert.deepEqual([registry.health('dice'), registry.health('teller')], ['degraded', 'degraded']);
    assert.deepEqual(await registry.refresh(), { added: [], removed: [], changed: [] });
    assert.deepEqual(events, [], 'no event when nothing changed');
    story.skill('lantern', {}, { 'scripts/glow.js': DONE_SCRIPT });
    fs.rmSync(path.join(story.root, 'skills', 'memory'), { recursive: true });
    story.write('story/skills/teller/config.json', { style: 'vivid' });
    const change = await registry.refresh();
    assert.deepEqual(change, { added: ['lantern'], removed: ['memory'], changed: ['teller'] });
    assert.deepEqual(events, [change]);
    assert.equal(registry.health('dice'), 'degraded', 'unchanged: health kept');
    assert.equal(registry.health('teller'), 'healthy', 'changed: starts healthy again');
    assert.equal(registry.get('memory'), undefined);
    assert.equal(registry.get('teller')?.config?.['style'], 'vivid');
  } finally {
    registry.dispose();
    story.remove();
  }
});

test('contextFor creates nothing in the skill, passes the effective config (with the secret) and the manifest timeout', async () => {
  const story = buildStory();
  const secrets = async (skill: string, key: string) => (skill === 'teller' && key === 'apiKey' ? SECRET : undefined);
  const registry = await SkillRegistry.load({ root: story.root, secrets, environment: { TELLER_MODEL: 'tiny', TELLER_KEY: 'ignored' } });
  try {
    const teller = registry.get('teller')!;
    const script = teller.scripts[0]!;
    const dataDirectory = path.join(fs.realpathSync(teller.directory), 'data');
    assert.equal(fs.existsSync(dataDirectory), false);
    const context = await registry.contextFor(script.path);
    assert.equal(context.skill, 'teller');
    // A skill's data belongs to a session (.narratoria/sessions/<id>/data/<skill>), never to its own folder.
    assert.equal(fs.existsSync(dataDirectory), false, 'no data/ in the skill');
    assert.equal(context.skillDirectory, fs.realpathSync(teller.directory));
    assert.deepEqual(JSON.parse(context.configJson!), { style: 'terse', apiKey: SECRET, model: 'tiny' });
    assert.deepEqual(context.env, {});
    assert.equal(context.manifestTimeoutMs, undefined, 'an undeclared script has no manifest timeout');
    const dice = registry.get('dice')!;
    assert.equal((await registry.contextFor(dice.scripts[0]!.path)).manifestTimeoutMs, 5000);
    assert.deepEqual(await registry.contextFor(path.join(story.base, 'outside.js')), { skill: null });
  } finally {
    registry.dispose();
    story.remove();
  }
});

test('a sensitive value appears in no string the registry exposes except configJson', async () => {
  const story = buildStory();
  // In config.json via ${VAR}, from the secret store, and too short for its minLength: every path a leak could take.
  story.write('story/skills/teller/config.json', { style: 'terse', apiKey: '${TELLER_SECRET}' });
  const registry = await SkillRegistry.load({ root: story.root, environment: { TELLER_SECRET: SECRET } });
  try {
    const teller = registry.get('teller')!;
    assert.ok(
      teller.problems.some((problem) => problem.code === 'CONFIG_LENGTH'),
      JSON.stringify(teller.problems),
    );
    assert.equal(teller.config?.['apiKey'], '********');
    for (const exposed of [registry.skills, registry.problems, registry.narratorSkills(), registry.disabledSkills(), registry.status('teller')]) {
      assert.ok(!JSON.stringify(exposed).includes(SECRET), JSON.stringify(exposed));
    }
    const context = await registry.contextFor(teller.scripts[0]!.path);
    assert.ok(context.configJson?.includes(SECRET));
  } finally {
    registry.dispose();
    story.remove();
  }
});
