// Unit tests of the pattern narrator on the real sample skills: plan composition by role, inputs from schemas and words, disabled skills, priority, an author's new skill, explanations, metadata, determinism.
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildPatternPlan, PatternNarrator } from '../../../src/runtime/narrator/patternNarrator.js';
import { explanationLines, type SelectionExplanation } from '../../../src/runtime/narrator/planExplanation.js';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';
import type { PlanRequest } from '../../../src/runtime/narrator/index.js';
import { SkillRegistry } from '../../../src/runtime/skills/skillRegistry.js';
import type { NarratorSkill } from '../../../src/runtime/skills/skillTypes.js';

let samples: NarratorSkill[];
before(async () => {
  const story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-pattern-'));
  try {
    samples = (await SkillRegistry.load({ root: story, extraSkillRoots: [path.resolve(import.meta.dirname, '..', '..', '..', 'skills')] })).narratorSkills();
  } finally {
    rmSync(story, { recursive: true, force: true });
  }
});

const request = (input: string, overrides: Partial<PlanRequest> = {}): PlanRequest => ({
  input,
  skills: samples,
  disabledSkills: [],
  attempt: 1,
  parentPlanId: null,
  ...overrides,
});
const shape = (input: string, overrides: Partial<PlanRequest> = {}) =>
  buildPatternPlan(request(input, overrides)).tools.map((tool) => [tool.toolId, tool.toolPath.split('/').at(-3), tool.dependencies ?? []]);

test('composition: a roll, context tools and a portrait before the narration that depends on them, choices after it', () => {
  assert.deepEqual(shape('I roll to pick the lock'), [
    ['roll', 'dice-roller', []],
    ['narrate', 'storyteller', ['roll']],
  ]);
  assert.deepEqual(shape('I attack the goblin'), [
    ['roll', 'dice-roller', []],
    ['narrate', 'storyteller', ['roll']],
  ]);
  assert.deepEqual(shape('Have I met the ferryman before?'), [
    ['recall', 'memory', []],
    ['narrate', 'storyteller', ['recall']],
  ]);
  assert.deepEqual(shape('What is my standing with the Thieves Guild?'), [
    ['reputation-query', 'reputation', []],
    ['narrate', 'storyteller', ['reputation-query']],
  ]);
  assert.deepEqual(shape('Is the innkeeper still angry with me?'), [
    ['npc-perception-query', 'npc-perception', []],
    ['narrate', 'storyteller', ['npc-perception-query']],
  ]);
  assert.deepEqual(shape('What could I try now?'), [
    ['narrate', 'storyteller', []],
    ['offer', 'player-choices', ['narrate']],
  ]);
  assert.deepEqual(
    shape('What does the old wizard look like?'),
    [
      ['portrait', 'character-portraits', []],
      ['narrate', 'storyteller', ['portrait']],
    ],
    'the narration tells what the portrait was drawn from',
  );
  // A plain action or movement gets a real narration, never a bare template.
  assert.deepEqual(shape('I wander along the riverbank'), [['narrate', 'storyteller', []]]);
  const optional = buildPatternPlan(request('Have I met the ferryman before?')).tools[0]!;
  assert.equal(optional.required, false, 'context tools are optional: the narration goes on without them');
});

test('inputs come from the words and the script schemas: formula, DC, reason, names, factions, deeds', () => {
  const roll = buildPatternPlan(request('I roll 2d6+1 to climb the wall, DC 14')).tools[0]!;
  assert.deepEqual(roll.input, { formula: '2d6+1', reason: 'roll 2d6+1 to climb the wall, DC 14', dc: 14 });
  assert.equal(buildPatternPlan(request('Does Mira trust me?')).tools[0]!.input?.['npc'], 'Mira');
  assert.equal(buildPatternPlan(request('What is my standing with the Thieves Guild?')).tools[0]!.input?.['faction'], 'Thieves Guild');
  const help = buildPatternPlan(request('I help the Forest Elves put out the fire')).tools[0]!;
  assert.deepEqual([help.toolId, help.input?.['faction'], help.input?.['delta']], ['reputation-update', 'Forest Elves', 10], 'a kind deed raises the standing');
  const spit = buildPatternPlan(request("I spit at Captain Vey's feet")).tools[0]!;
  assert.deepEqual(
    [spit.toolId, spit.input?.['npc'], spit.input?.['delta']],
    ['npc-perception-adjust', 'Captain Vey', -10],
    'a harmful deed lowers the attitude',
  );
  const narrate = buildPatternPlan(request('I wander along the riverbank')).tools[0]!;
  assert.equal(narrate.input?.['action'], 'wander along the riverbank');
});

test('never a disabled skill; with no storyteller the plan still has a narrative', () => {
  assert.deepEqual(shape('I roll to pick the lock', { disabledSkills: ['dice-roller'] }), [['narrate', 'storyteller', []]]);
  const nothing = buildPatternPlan(request('I roll to pick the lock', { disabledSkills: ['dice-roller', 'storyteller'] }));
  assert.deepEqual(nothing.tools, []);
  assert.ok(nothing.narrative, 'a narrative is always there');
  assert.deepEqual(nothing.disabledSkills, ['dice-roller', 'storyteller']);
});

test("an equal match goes to the higher priority; an author's new skill is chosen from its manifest alone", () => {
  const dice = samples.find((skill) => skill.name === 'dice-roller')!;
  const premium: NarratorSkill = {
    ...dice,
    name: 'fancy-dice',
    priority: 90,
    scripts: dice.scripts.map((script) => ({ ...script, toolPath: script.toolPath.replace('dice-roller', 'fancy-dice') })),
  };
  assert.match(buildPatternPlan(request('I roll for initiative', { skills: [...samples, premium] })).tools[0]!.toolPath, /\/fancy-dice\/scripts\/roll\.js$/);
  const lighthouse: NarratorSkill = {
    name: 'lighthouse',
    displayName: 'Lighthouse Keeper',
    description: 'The lighthouse on the headland: which ships are out at sea, whether the lamp is lit, and the keeper’s log of wrecks.',
    capabilities: ['lighthouse', 'ships', 'sea'],
    priority: 30,
    health: 'healthy',
    scripts: [
      {
        name: 'log',
        toolPath: 'skills/lighthouse/scripts/log.js',
        description: 'Reads the keeper’s log: ships sighted and wrecks.',
        inputSchema: { type: 'object', properties: { ship: { type: 'string' } } },
      },
    ],
  };
  assert.deepEqual(shape('Are any ships out at sea tonight?', { skills: [...samples, lighthouse] }), [
    ['log', 'lighthouse', []],
    ['narrate', 'storyteller', ['log']],
  ]);
  assert.deepEqual(
    shape('I tie my bootlaces', { skills: [...samples, lighthouse] }),
    [['narrate', 'storyteller', []]],
    'a plain move near no skill stays narration only',
  );
  // A walk by the water matches none of the lighthouse's words, but is close to them in meaning ("riverbank" ~ "headland"):
  // the fallback on meaning chooses it, and says so (docs/narrators-and-selection.md: 2 of 80 plain moves do this).
  const riverbank = buildPatternPlan(request('I wander along the riverbank', { skills: [...samples, lighthouse] }));
  assert.deepEqual(
    riverbank.tools.map((tool) => tool.toolId),
    ['log', 'narrate'],
  );
  assert.ok(
    explanationLines(riverbank).some((line) => line.startsWith("log ← lighthouse/log: no skill's words matched; closest in meaning")),
    explanationLines(riverbank).join('\n'),
  );
});

test('the plan explains each choice: matched terms, score and cues', () => {
  const plan = buildPatternPlan(request('I try to pick the lock on the chest'));
  const selection = plan.metadata?.['selection'] as SelectionExplanation[];
  const roll = selection.find((entry) => entry.toolId === 'roll')!;
  assert.equal(roll.skill, 'dice-roller');
  assert.ok((roll.score ?? 0) > 0);
  assert.ok(roll.terms?.includes('lock'), JSON.stringify(roll));
  assert.deepEqual(roll.cues, ['chance']);
  assert.match(selection.find((entry) => entry.toolId === 'narrate')!.reason, /narrates the outcome of roll/);
  const lines = explanationLines(plan);
  // Then the words each input field came from (issue 38).
  assert.match(lines[0]!, /^roll ← dice-roller\/roll: matched .*"lock".* \(score [\d.]+; cues: chance\); input: reason ← "the player's words", dc ← "12"$/);
  assert.match(lines[1]!, /^narrate ← storyteller\/narrate: narrates the outcome of roll$/);
});

test('metadata tracks the attempt and parent plan; every plan matches the contract', async () => {
  const narrator = new PatternNarrator();
  const first = await narrator.generatePlan(request('I roll to pick the lock'));
  const second = await narrator.generatePlan(
    request('I roll to pick the lock', { attempt: 2, parentPlanId: first.plan.requestId, disabledSkills: ['dice-roller'] }),
  );
  assert.equal(first.narrator, 'pattern');
  assert.deepEqual([first.plan.metadata?.generationAttempt, first.plan.metadata?.parentPlanId, first.plan.metadata?.['narrator']], [1, null, 'pattern']);
  assert.deepEqual([second.plan.metadata?.generationAttempt, second.plan.metadata?.parentPlanId], [2, first.plan.requestId]);
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

test("issue 26: the plan's narrative never quotes the player's words; a risky action's roll gets a difficulty class; a walk draws no portrait", () => {
  for (const input of [
    'I walk into the Rusty Anchor tavern',
    'Is Mira still angry with me?',
    'I try to persuade Mira to give me a free room',
    'I choose "Look around carefully"',
  ]) {
    const plan = buildPatternPlan(request(input));
    assert.doesNotMatch(plan.narrative ?? '', /["“”]/, `${input}: ${plan.narrative}`);
  }
  const roll = (input: string) => buildPatternPlan(request(input)).tools.find((tool) => tool.toolId === 'roll')?.input;
  assert.equal(roll('I attack the drunk orc with my sword')?.['dc'], 9, 'an easy target');
  assert.equal(roll('I try to pick the lock')?.['dc'], 12, 'an ordinary risk');
  assert.equal(roll('I climb the sheer icy cliff')?.['dc'], 15, 'a hard one');
  assert.equal(roll('Roll a d20 for perception')?.['dc'], undefined, 'an explicit roll sets no DC of its own');
  assert.equal(roll('I attack the guard, DC 17')?.['dc'], 17, 'a DC the player names wins');
  for (const walk of ['I head north toward the old mill', 'I go to the market square', 'I walk toward the old bridge']) {
    const tools = buildPatternPlan(request(walk)).tools.map((tool) => tool.toolId);
    assert.ok(!tools.includes('portrait'), `${walk}: ${tools.join(', ')}`);
  }
  assert.ok(buildPatternPlan(request('What does the old wizard look like?')).tools.some((tool) => tool.toolId === 'portrait'));
  assert.ok(buildPatternPlan(request('Draw a portrait of the blacksmith')).tools.some((tool) => tool.toolId === 'portrait'));
});
