// Unit tests of the LLM narrator's decision: the fixed prompt (stable per skill set, behavioral prompts in it), the per-turn text, the grammar (only existing, enabled scripts; never the storyteller), the decision read back and composed into a valid plan; and the prompt helpers.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { inputValidator } from '../../../src/runtime/validation/inputChecks.js';
import {
  buildDecisionGbnf,
  buildDecisionGrammar,
  decisionCatalog,
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
    assert.match(system, /^  1\. dice-roller\/roll: Roll a dice formula, optionally against a DC\.$/m, 'the first sentence: what it does, not how it reports');
    assert.match(system, /^  3\. memory\/recall: /m);
    assert.doesNotMatch(system, /^  \d+\. storyteller\//m, 'the catalog offers no narrator');
    assert.deepEqual(
      decisionCatalog(skills).map((entry) => `${entry.number} ${entry.id}`),
      ['1 dice-roller/roll', '2 memory/store', '3 memory/recall', '4 npc-perception/adjust', '5 npc-perception/query', '6 player-choices/offer'],
    );
    assert.match(system, /### dice-roller\n/);
    assert.match(system, /at most 3, e\.g\. \[2\] or \[1,4\]; answer \[\] when no script helps/);
    assert.equal(buildDecisionSystemPrompt([...skills]), system, 'the same text for the same skills: its evaluation is reused');
  });

  test("the per-turn text: the words, the likely scripts, what is unavailable, a replan's feedback, and the state's keys only", () => {
    const request = planRequest({
      skills,
      input: 'Have I met Mira before?',
      disabledSkills: ['npc-perception'],
      attempt: 2,
      feedback: 'recall.js failed: TIMEOUT',
      state: { memory: { count: 2 }, dice: {} },
    });
    const user = buildDecisionUserPrompt(request, decisionCandidates(request));
    const lines = user.split('\n');
    assert.equal(lines[0], 'Player: Have I met Mira before?');
    assert.match(lines[1]!, /^Likely: 3(, \d+)*$/, 'the pattern ranking first (memory/recall is 3), then near misses');
    assert.deepEqual(lines.slice(2), ['Unavailable: npc-perception', 'The previous plan failed: recall.js failed: TIMEOUT', 'State: memory, dice']);
  });
});

describe('the decision grammar and its reading', () => {
  test('only the numbers of existing scripts of enabled, selectable skills, at most three, never a narrator (FR-008)', () => {
    const request = planRequest({ skills: skills.filter((skill) => skill.name !== 'memory'), catalog: skills, disabledSkills: ['memory'] });
    // The numbers stay those of the fixed prompt's catalog; the disabled skill's are not in the grammar.
    assert.deepEqual(buildDecisionGrammar(request), { type: 'array', items: { enum: [1, 4, 5, 6] }, maxItems: 3 });
    assert.equal(buildDecisionGbnf(request), 'root ::= "[" ( item ( "," item ){0,2} )? "]"\nitem ::= "1" | "4" | "5" | "6"');
    const failing: NarratorSkill[] = skills.map((skill) =>
      skill.name === 'dice-roller' ? { ...skill, health: 'permanent_failure' as NarratorSkill['health'] } : skill,
    );
    const failingRequest = planRequest({ skills: failing });
    const offered = decidedScripts((buildDecisionGrammar(failingRequest) as { items: { enum: number[] } }).items.enum, failingRequest);
    assert.ok(offered.length > 0 && !offered.some((id) => id.startsWith('dice-roller/')), offered.join(', '));
    assert.equal(buildDecisionGbnf(planRequest({ skills: loadShippedSkills(['storyteller']) })), 'root ::= "[]"');
    // The model writes numbers, never free strings: nothing to count differently from the validator.
    assert.doesNotMatch(buildDecisionGbnf(planRequest({ skills })), /\[\^|\.\*/);
  });

  test('a decision is read as allowed scripts, in order, each once, at most three', () => {
    const request = planRequest({ skills: skills.filter((skill) => skill.name !== 'memory'), catalog: skills, disabledSkills: ['memory'] });
    assert.deepEqual(decidedScripts([1, 3, 1, 99, '6', 6], request), ['dice-roller/roll', 'player-choices/offer']);
    assert.deepEqual(decidedScripts({ tools: [] }, request), []);
  });

  test('the plan of a decision is composed as the pattern narrator composes: roll first, the storyteller depending on it, choices after; inputs from the words; valid', async () => {
    const request = planRequest({ skills, input: 'I try to pick the lock on the chest' });
    const plan = planFromDecision(request, ['player-choices/offer', 'dice-roller/roll'], {
      candidates: ['dice-roller/roll'],
      chosen: ['player-choices/offer', 'dice-roller/roll'],
    });
    assert.deepEqual(
      plan.tools.map((tool) => [tool.toolId, tool.dependencies ?? []]),
      [
        ['roll', []],
        ['narrate', ['roll']],
        ['offer', ['roll', 'narrate']],
      ],
    );
    assert.equal(plan.tools[0]!.input?.['reason'], 'pick the lock on the chest');
    assert.equal(plan.metadata?.narrator, 'llm');
    const metadata = plan.metadata as Record<string, unknown>;
    assert.deepEqual(metadata['decision'], { candidates: ['dice-roller/roll'], chosen: ['player-choices/offer', 'dice-roller/roll'] });
    const validation = await validatePlanValue(plan, { root: REPOSITORY_ROOT });
    assert.deepEqual(
      validation.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
      [],
    );
    // [] still narrates.
    assert.deepEqual(
      planFromDecision(request, [], { candidates: [], chosen: [] }).tools.map((tool) => tool.toolId),
      ['narrate'],
    );
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

  test("a string of non-BMP characters at its schema's cap is valid: lengths count code points, as JSON Schema and the grammar do", () => {
    const validate = inputValidator({ type: 'object', properties: { text: { type: 'string', maxLength: 300 } } })!;
    assert.equal(validate({ text: '🐉'.repeat(300) }), true, JSON.stringify(validate.errors));
    assert.equal(validate({ text: '🐉'.repeat(301) }), false);
  });
});
