// Unit tests of the pattern narrator: intents, skill choice by capability/priority, disabled skills, metadata, unknown input.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { buildPatternPlan, PatternNarrator } from '../../../src/runtime/narrator/patternNarrator.js';
import { detectIntents } from '../../../src/runtime/narrator/intents.js';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';
import type { PlanRequest } from '../../../src/runtime/narrator/index.js';
import { narratorSkill, sampleSkills } from './narratorSkills.js';

const request = (input: string, overrides: Partial<PlanRequest> = {}): PlanRequest => ({
  input, skills: sampleSkills, disabledSkills: [], attempt: 1, parentPlanId: null, ...overrides,
});
const shape = (input: string, overrides: Partial<PlanRequest> = {}) =>
  buildPatternPlan(request(input, overrides)).tools.map((tool) => [tool.toolId, tool.toolPath.split('/')[1], tool.dependencies ?? []]);

test('at least seven intents map to the right skills', () => {
  assert.deepEqual(shape('I roll to pick the lock'), [['roll', 'dice-roller', []], ['narrate', 'storyteller', ['roll']]]);
  assert.deepEqual(shape('I attack the goblin'), [['roll', 'dice-roller', []], ['narrate', 'storyteller', ['roll']]]);
  assert.deepEqual(shape('I examine the ancient door'), [['narrate', 'storyteller', []]]);
  assert.deepEqual(shape('What happened in the crypt?'), [['recall', 'memory', []], ['narrate', 'storyteller', ['recall']]]);
  assert.deepEqual(shape('What is my reputation with the Thieves Guild?'), [['standing', 'reputation', []], ['narrate', 'storyteller', ['standing']]]);
  assert.deepEqual(shape('I talk to the innkeeper'), [['narrate', 'storyteller', []], ['choices', 'player-choices', ['narrate']]]);
  assert.deepEqual(shape('How does Mira feel about me?'), [['perception', 'npc-perception', []], ['narrate', 'storyteller', ['perception']]]);
  assert.deepEqual(shape('Draw a portrait of the old wizard'), [['portrait', 'character-portraits', []], ['narrate', 'storyteller', []]]);
});

test('inputs carry what the player said: formula, DC, subject, query', () => {
  const roll = buildPatternPlan(request('I roll 2d6+1 to climb the wall, DC 14')).tools[0]!;
  assert.deepEqual(roll.input, { formula: '2d6+1', reason: 'climb the wall, DC 14', dc: 14 });
  const lock = buildPatternPlan(request('I roll to pick the lock')).tools;
  assert.deepEqual(lock[0]!.input, { formula: '1d20', reason: 'pick the lock' });
  assert.deepEqual(lock[1]!.input, { action: 'I roll to pick the lock', target: 'pick the lock' });
  assert.equal(buildPatternPlan(request('How does Mira feel about me?')).tools[0]!.input?.['npc'], 'Mira');
  assert.equal(buildPatternPlan(request('What is my reputation with the Thieves Guild?')).tools[0]!.input?.['faction'], 'Thieves Guild');
  assert.deepEqual(detectIntents('I examine the ancient door')[0], { kind: 'look', subject: 'the ancient door' });
});

test('unknown input gets a narrative-only plan that quotes it', () => {
  const plan = buildPatternPlan(request('Xyzzy plugh'));
  assert.deepEqual(plan.tools, []);
  assert.match(plan.narrative ?? '', /Xyzzy plugh/);
});

test('skills are chosen by capability and priority, never a disabled one', () => {
  const premium = narratorSkill('fancy-dice', ['dice'], 90, ['throw']);
  assert.equal(buildPatternPlan(request('I roll for initiative', { skills: [...sampleSkills, premium] })).tools[0]!.toolPath, 'skills/fancy-dice/scripts/throw.js');
  const withoutDice = shape('I roll to pick the lock', { disabledSkills: ['dice-roller'] });
  assert.deepEqual(withoutDice, [['narrate', 'storyteller', []]]);
  const nothing = buildPatternPlan(request('I roll to pick the lock', { disabledSkills: ['dice-roller', 'storyteller'] }));
  assert.deepEqual(nothing.tools, []);
  assert.ok(nothing.narrative, 'a narrative is always there');
  assert.deepEqual(nothing.disabledSkills, ['dice-roller', 'storyteller']);
});

test('metadata tracks the attempt and parent plan; every plan matches the contract', async () => {
  const narrator = new PatternNarrator();
  const first = await narrator.generatePlan(request('I roll to pick the lock'));
  const second = await narrator.generatePlan(request('I roll to pick the lock', { attempt: 2, parentPlanId: first.plan.requestId, disabledSkills: ['dice-roller'] }));
  assert.equal(first.narrator, 'pattern');
  assert.deepEqual(first.plan.metadata, { generationAttempt: 1, parentPlanId: null, narrator: 'pattern' });
  assert.deepEqual(second.plan.metadata, { generationAttempt: 2, parentPlanId: first.plan.requestId, narrator: 'pattern' });
  for (const input of ['I roll to pick the lock', 'Xyzzy', 'I talk to the innkeeper', 'What happened?', 'Draw a portrait of Ayla']) {
    const { plan } = await narrator.generatePlan(request(input));
    assert.deepEqual(validateAgainst('plan-json.schema.json', plan), [], input);
  }
  assert.notEqual(first.plan.requestId, second.plan.requestId);
});

test('deterministic: the same input and skills give the same plan (ids aside)', () => {
  const strip = (input: string) => ({ ...buildPatternPlan(request(input)), requestId: '' });
  for (const input of ['I roll to pick the lock', 'I talk to the innkeeper', 'Look around']) assert.deepEqual(strip(input), strip(input));
});
