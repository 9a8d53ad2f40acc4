// Tests of the grammar schema (available scripts only, positional toolIds, bounded strings), the model-output-to-plan step and the narrator prompt.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { validatePlanValue } from '../../../src/runtime/validation/validatePlan.js';
import { buildNarratorPrompt, trimToBudget } from '../../../src/runtime/narrator/narratorPrompt.js';
import { buildPlanGrammar, planFromModelOutput, type GrammarSchema } from '../../../src/runtime/narrator/planGrammar.js';
import type { NarratorSkill } from '../../../src/runtime/skills/skillTypes.js';
import { loadShippedSkills, planRequest, REPOSITORY_ROOT } from './narratorFixtures.js';

const ROLL = 'skills/dice-roller/scripts/roll.js';
const NARRATE = 'skills/storyteller/scripts/narrate.js';

/** Every `toolPath` constant anywhere in a schema. */
function toolPathsIn(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(toolPathsIn);
  if (typeof schema !== 'object' || schema === null) return [];
  const record = schema as Record<string, unknown>;
  const own = record['toolPath'] && typeof (record['toolPath'] as GrammarSchema)['const'] === 'string' ? [String((record['toolPath'] as GrammarSchema)['const'])] : [];
  return [...own, ...Object.values(record).flatMap(toolPathsIn)];
}

describe('buildPlanGrammar', () => {
  const skills = loadShippedSkills();

  test('toolPath is limited to the scripts of selectable, enabled skills', () => {
    assert.deepEqual(buildPlanGrammar(skills, []).toolPaths, [ROLL, NARRATE]);
    assert.deepEqual([...new Set(toolPathsIn(buildPlanGrammar(skills, []).schema))].sort(), [ROLL, NARRATE]);
    assert.deepEqual(buildPlanGrammar(skills, ['dice-roller']).toolPaths, [NARRATE]);
    const failing: NarratorSkill[] = skills.map((skill) => (skill.name === 'storyteller' ? { ...skill, health: 'permanentFailure' } : skill));
    assert.deepEqual(buildPlanGrammar(failing, []).toolPaths, [ROLL]);
    const degraded: NarratorSkill[] = skills.map((skill) => ({ ...skill, health: 'degraded' }));
    assert.deepEqual(buildPlanGrammar(degraded, []).toolPaths, [ROLL, NARRATE]);
  });

  test('no scripts: tools can only be empty', () => {
    const grammar = buildPlanGrammar(skills, ['dice-roller', 'storyteller']);
    assert.deepEqual(grammar.toolPaths, []);
    assert.deepEqual((grammar.schema['properties'] as Record<string, unknown>)['tools'], { type: 'array', items: { type: 'null' }, maxItems: 0 });
  });

  test('lists of 0..maxTools positional tools; tool n depends only on earlier steps; strings are bounded', () => {
    const grammar = buildPlanGrammar(skills, [], { maxTools: 3, narrativeMaxLength: 120, inputStringMaxLength: 40, maxInputProperties: 8 });
    const properties = grammar.schema['properties'] as Record<string, GrammarSchema>;
    assert.deepEqual(properties['narrative'], { type: 'string', maxLength: 120 });
    const lists = properties['tools']?.['oneOf'] as GrammarSchema[];
    assert.deepEqual(lists.map((list) => list['maxItems']), [0, 1, 2, 3]);
    const third = ((lists[3]?.['prefixItems'] as GrammarSchema[])[2]?.['oneOf'] as GrammarSchema[])[0]?.['properties'] as Record<string, GrammarSchema>;
    assert.deepEqual(third['toolId'], { const: 'step3' });
    assert.deepEqual(third['dependencies'], { type: 'array', items: { enum: ['step1', 'step2'] }, maxItems: 2 });
    const input = third['input']?.['properties'] as Record<string, GrammarSchema>;
    assert.deepEqual(Object.keys(input), ['formula', 'reason', 'dc', 'label', 'seed']);
    assert.deepEqual(input['formula'], { oneOf: [{ type: 'string', minLength: 1, maxLength: 40 }, { type: 'null' }] });
    assert.deepEqual(input['seed'], { oneOf: [{ type: 'integer' }, { type: 'string', maxLength: 40 }, { type: 'null' }] });
    assert.deepEqual(grammar.scripts.map((script) => script.inputFields), [['formula', 'reason', 'dc', 'label', 'seed'], ['action', 'target', 'mood']]);
  });

  test('a script without an input schema gets a small free-form object', () => {
    const [dice] = skills;
    assert.ok(dice);
    const bare: NarratorSkill = { ...dice, scripts: [{ name: 'roll', toolPath: ROLL }] };
    const grammar = buildPlanGrammar([bare], []);
    const first = ((grammar.schema['properties'] as Record<string, GrammarSchema>)['tools']?.['oneOf'] as GrammarSchema[])[1];
    const tool = (first?.['prefixItems'] as GrammarSchema[])[0]?.['properties'] as Record<string, GrammarSchema>;
    assert.equal(tool['input']?.['maxProperties'], 4);
    assert.equal(grammar.scripts[0]?.inputFields, undefined);
  });
});

describe('planFromModelOutput', () => {
  test('fills requestId, metadata and disabledSkills, drops null inputs and repeated dependencies; the result validates', async () => {
    const output = {
      narrative: '  The lock resists.  ',
      tools: [
        { toolId: 'step1', toolPath: ROLL, input: { formula: '1d20+2', reason: 'pick the lock', dc: 15, label: null, seed: null }, dependencies: [], required: true, async: false },
        { toolId: 'step2', toolPath: NARRATE, input: { action: 'pick the lock', target: null, mood: 'tense' }, dependencies: ['step1', 'step1'], required: false, async: true },
      ],
    };
    const parent = '9b2f0c54-0d37-4a5e-9a44-3c1c7b0c2f11';
    const plan = planFromModelOutput(output, { attempt: 2, parentPlanId: parent, disabledSkills: ['memory'] });
    assert.match(plan.requestId, /^[0-9a-f-]{36}$/);
    assert.equal(plan.narrative, 'The lock resists.');
    assert.deepEqual(plan.tools[0]?.input, { formula: '1d20+2', reason: 'pick the lock', dc: 15 });
    assert.deepEqual(plan.tools[1]?.dependencies, ['step1']);
    assert.equal(plan.parallel, true);
    assert.deepEqual(plan.disabledSkills, ['memory']);
    assert.equal(plan.metadata?.generationAttempt, 2);
    assert.equal(plan.metadata?.parentPlanId, parent);
    assert.equal(plan.metadata?.narrator, 'llm');
    const validation = await validatePlanValue(plan, { root: REPOSITORY_ROOT });
    assert.deepEqual(validation.diagnostics, []);
  });
});

describe('buildNarratorPrompt', () => {
  test('rules, the catalog of available scripts and the behavioral prompts within the budget', () => {
    const request = planRequest({ disabledSkills: ['storyteller'], attempt: 2, feedback: 'roll.js failed: INVALID_FORMULA', state: { hp: 3 } });
    const grammar = buildPlanGrammar(request.skills, request.disabledSkills);
    const prompt = buildNarratorPrompt(request, grammar, { systemChars: 2000, behavioralPromptChars: 500, stateChars: 100, feedbackChars: 100, inputChars: 100 });
    assert.match(prompt.system, /toolPath "skills\/dice-roller\/scripts\/roll\.js", input: formula, reason, dc, label, seed\./);
    assert.doesNotMatch(prompt.system, /narrate\.js/);
    assert.match(prompt.system, /### dice-roller\n# Dice Roller/);
    assert.ok(prompt.system.length < 3500, `system prompt has ${prompt.system.length} chars`);
    assert.match(prompt.user, /^Player: I try to pick the lock on the chest$/m);
    assert.match(prompt.user, /Disabled skills \(never use them\): storyteller/);
    assert.match(prompt.user, /The previous plan failed: roll\.js failed: INVALID_FORMULA/);
    assert.match(prompt.user, /Story state: \{"hp":3\}/);
  });

  test('the behavioral prompt budget is shared: short prompts whole, long ones cut', () => {
    const [dice, storyteller] = loadShippedSkills();
    assert.ok(dice && storyteller);
    const short: NarratorSkill = { ...storyteller, prompt: 'Keep it short.' };
    const request = planRequest({ skills: [dice, short] });
    const prompt = buildNarratorPrompt(request, buildPlanGrammar(request.skills, []), { systemChars: 10_000, behavioralPromptChars: 1000, stateChars: 0, feedbackChars: 0, inputChars: 100 });
    assert.match(prompt.system, /### storyteller\nKeep it short\./);
    const diceGuide = prompt.system.slice(prompt.system.indexOf('### dice-roller'), prompt.system.indexOf('### storyteller'));
    assert.ok(diceGuide.length < 1000 && diceGuide.trimEnd().endsWith('…'), diceGuide);
  });

  test('trimToBudget cuts at a line break near the end, else mid-line', () => {
    assert.equal(trimToBudget('short', 10), 'short');
    assert.equal(trimToBudget('first line\nsecond line', 16), 'first line…');
    assert.equal(trimToBudget('abcdefghij', 5), 'abcd…');
  });
});
