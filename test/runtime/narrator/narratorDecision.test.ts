// Unit tests of the LLM narrator's decision: the fixed prompt (stable per skill set, behavioral prompts in it), the per-turn text, the grammar (only existing, enabled scripts; never the storyteller), the decision read back and composed into a valid plan; and the prompt helpers.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { inputValidator } from '../../../src/runtime/validation/inputChecks.js';
import {
  buildDecisionGrammar,
  buildDecisionSystemPrompt,
  buildDecisionUserPrompt,
  decidedScripts,
  decisionCandidates,
  planFromDecision,
} from '../../../src/runtime/narrator/narratorDecision.js';
import { behavioralPrompts, trimToBudget } from '../../../src/runtime/narrator/narratorPrompt.js';
import type { NarratorSkill } from '../../../src/runtime/skills/skillTypes.js';
import { validatePlanValue } from '../../../src/runtime/validation/validatePlan.js';
import { loadShippedSkills, planRequest, REPOSITORY_ROOT } from './narratorFixtures.js';

const skills = loadShippedSkills(['dice-roller', 'memory', 'npc-perception', 'storyteller', 'player-choices']);

describe('the fixed prompt and the per-turn text', () => {
  test('the fixed prompt lists every script with its description and the behavioral prompts, never the storyteller as a choice, and depends only on the skills', () => {
    const system = buildDecisionSystemPrompt(skills);
    assert.match(system, /^  \* dice-roller\/roll: Roll a dice formula/m);
    assert.match(system, /^  \* memory\/recall: /m);
    assert.doesNotMatch(system, /^  \* storyteller\//m, 'the catalog offers no narrator');
    assert.match(system, /### dice-roller\n/);
    assert.match(system, /at most 3; answer \[\] when no script helps/);
    assert.equal(buildDecisionSystemPrompt([...skills]), system, 'the same text for the same skills: its evaluation is reused');
  });

  test('the per-turn text: the words, the likely scripts, what is unavailable, a replan\'s feedback, and the state\'s keys only', () => {
    const request = planRequest({ skills, input: 'Have I met Mira before?', disabledSkills: ['npc-perception'], attempt: 2, feedback: 'recall.js failed: TIMEOUT', state: { memory: { count: 2 }, dice: {} } });
    const user = buildDecisionUserPrompt(request, decisionCandidates(request));
    const lines = user.split('\n');
    assert.equal(lines[0], 'Player: Have I met Mira before?');
    assert.match(lines[1]!, /^Likely: memory\/recall(, [\w/-]+)*$/, 'the pattern ranking first, then near misses');
    assert.deepEqual(lines.slice(2), ['Unavailable: npc-perception', 'The previous plan failed: recall.js failed: TIMEOUT', 'State: memory, dice']);
  });
});

describe('the decision grammar and its reading', () => {
  test('only existing scripts of enabled, selectable skills, at most three, never a narrator (FR-008)', () => {
    const grammar = buildDecisionGrammar(planRequest({ skills, disabledSkills: ['memory'] })) as { type: string; items: { enum: string[] }; maxItems: number };
    assert.equal(grammar.type, 'array');
    assert.equal(grammar.maxItems, 3);
    assert.ok(grammar.items.enum.includes('dice-roller/roll') && grammar.items.enum.includes('player-choices/offer'), grammar.items.enum.join(', '));
    assert.ok(!grammar.items.enum.some((id) => id.startsWith('memory/') || id.startsWith('storyteller/')), grammar.items.enum.join(', '));
    const failing: NarratorSkill[] = skills.map((skill) => (skill.name === 'dice-roller' ? { ...skill, health: 'permanent_failure' as NarratorSkill['health'] } : skill));
    assert.ok(!(buildDecisionGrammar(planRequest({ skills: failing })) as { items: { enum: string[] } }).items.enum.includes('dice-roller/roll'));
    assert.deepEqual(buildDecisionGrammar(planRequest({ skills: loadShippedSkills(['storyteller']) })), { type: 'array', maxItems: 0 });
    // The model writes names, never free strings: nothing to count differently from the validator.
    assert.doesNotMatch(JSON.stringify(buildDecisionGrammar(planRequest({ skills }))), /"type":"string"|maxLength/);
  });

  test('a decision is read as known names, in order, each once, at most three', () => {
    const request = planRequest({ skills, disabledSkills: ['memory'] });
    assert.deepEqual(decidedScripts(['dice-roller/roll', 'memory/recall', 'dice-roller/roll', 'nope/x', 3, 'player-choices/offer'], request), ['dice-roller/roll', 'player-choices/offer']);
    assert.deepEqual(decidedScripts({ tools: [] }, request), []);
  });

  test('the plan of a decision is composed as the pattern narrator composes: roll first, the storyteller depending on it, choices after; inputs from the words; valid', async () => {
    const request = planRequest({ skills, input: 'I try to pick the lock on the chest' });
    const plan = planFromDecision(request, ['player-choices/offer', 'dice-roller/roll'], { candidates: ['dice-roller/roll'], chosen: ['player-choices/offer', 'dice-roller/roll'] });
    assert.deepEqual(plan.tools.map((tool) => [tool.toolId, tool.dependencies ?? []]), [['roll', []], ['narrate', ['roll']], ['offer', ['roll', 'narrate']]]);
    assert.equal(plan.tools[0]!.input?.['reason'], 'pick the lock on the chest');
    assert.equal(plan.metadata?.narrator, 'llm');
    const metadata = plan.metadata as Record<string, unknown>;
    assert.deepEqual(metadata['decision'], { candidates: ['dice-roller/roll'], chosen: ['player-choices/offer', 'dice-roller/roll'] });
    const validation = await validatePlanValue(plan, { root: REPOSITORY_ROOT });
    assert.deepEqual(validation.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'), []);
    // [] still narrates.
    assert.deepEqual(planFromDecision(request, [], { candidates: [], chosen: [] }).tools.map((tool) => tool.toolId), ['narrate']);
  });
});

describe('prompt helpers', () => {
  test('the behavioral prompt budget is shared: short prompts whole, long ones cut', () => {
    const [dice, storyteller] = loadShippedSkills();
    assert.ok(dice && storyteller);
    const guides = behavioralPrompts([dice, { ...storyteller, prompt: 'Keep it short.' }], 1000);
    assert.ok(guides.includes('### storyteller\nKeep it short.'));
    const diceGuide = guides.find((guide) => guide.startsWith('### dice-roller'))!;
    assert.ok(diceGuide.length < 1000 && diceGuide.trimEnd().endsWith('…'), diceGuide);
  });

  test('trimToBudget cuts at a line break near the end, else mid-line', () => {
    assert.equal(trimToBudget('short', 10), 'short');
    assert.equal(trimToBudget('first line\nsecond line', 16), 'first line…');
    assert.equal(trimToBudget('abcdefghij', 5), 'abcd…');
  });

  test('a string of non-BMP characters at its schema\'s cap is valid: lengths count code points, as JSON Schema and the grammar do', () => {
    const validate = inputValidator({ type: 'object', properties: { text: { type: 'string', maxLength: 300 } } })!;
    assert.equal(validate({ text: '🐉'.repeat(300) }), true, JSON.stringify(validate.errors));
    assert.equal(validate({ text: '🐉'.repeat(301) }), false);
  });
});
