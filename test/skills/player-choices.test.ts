// Tests of the player-choices skill: manifest and schemas, and the offer script run for real (3-5 options, hints, determinism, scenes, tone, dice / NPC / faction / memory dependencies).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAjv } from '../../src/runtime/contracts/schemas.js';
import {
  assertProtocol,
  assertScripts,
  assertValidConfigSchema,
  eventsOfType,
  loadValidManifest,
  mapLimit,
  readJson,
  runScript,
  skillsRoot,
  type RunOptions,
} from './skillTestKit.js';

const skillDir = path.join(skillsRoot, 'player-choices');
const offer = path.join(skillDir, 'scripts', 'offer.js');
const roll = path.join(skillsRoot, 'dice-roller', 'scripts', 'roll.js');
const parallel = Math.max(2, Math.min(8, os.availableParallelism()));

interface Hint {
  choice: string;
  consequence: string;
  approach: string;
}
interface Offer {
  choices: string[];
  hints: Hint[];
  payload: Record<string, unknown> | undefined;
  logs: { level: string; message: string }[];
}

/** A dependency entry as the runtime passes it: a ToolOutput whose `result` is the dependency's done.output. */
function toolOutput(result: Record<string, unknown>): Record<string, unknown> {
  return { ok: true, summary: 'done', result, state: {}, assets: [], uiEvents: [] };
}

async function offerOk(request: Record<string, unknown>, options: RunOptions = {}): Promise<Offer> {
  const run = await runScript(offer, { requestId: 'c1', tool: 'choices1', dependencies: {}, state: {}, ...request }, options);
  const { events, done } = assertProtocol(run);
  assert.equal(done.ok, true, run.stdout);
  const output = done.output as unknown as { choices: string[]; hints: Hint[] };
  const { choices, hints } = output;
  assert.ok(choices.length >= 3 && choices.length <= 5, `3-5 choices, got ${choices.length}`);
  for (const choice of choices) {
    assert.equal(typeof choice, 'string');
    assert.match(choice, /^[A-Z][^\n]{3,80}$/, `a short capitalised action: ${choice}`);
  }
  assert.equal(new Set(choices.map((choice) => choice.toLowerCase())).size, choices.length, 'no duplicates');
  assert.deepEqual(
    hints.map((hint) => hint.choice),
    choices,
  );
  for (const hint of hints) {
    assert.ok(hint.consequence.length > 10);
    assert.ok(['bold', 'cautious', 'social', 'cunning', 'curious', 'retreat'].includes(hint.approach), hint.approach);
  }
  const uis = eventsOfType(events, 'ui_event');
  assert.equal(uis.length, 1);
  assert.equal(uis[0]!.event, 'narrative_choice');
  assert.deepEqual(uis[0]!.payload?.['choices'], choices);
  const patches = eventsOfType(events, 'state_patch');
  assert.deepEqual(
    patches.map((event) => event.patch),
    [{ choices: { offered: choices } }],
  );
  return { choices, hints, payload: uis[0]!.payload, logs: eventsOfType(events, 'log').map((event) => ({ level: event.level, message: event.message })) };
}

test('player-choices: skill.json, config schema, input schema and prompt are valid', async () => {
  const manifest = await loadValidManifest(skillDir);
  assert.equal(manifest.name, 'player-choices');
  assert.deepEqual(manifest.capabilities, ['choices', 'dialogue', 'decision']);
  assert.deepEqual(
    manifest.scripts?.map((script) => [script.name, script.path]),
    [['offer', 'scripts/offer.js']],
  );
  await assertScripts(skillDir, manifest);
  assert.deepEqual(await assertValidConfigSchema(skillDir), { defaultCount: 3, showHints: true });
  const prompt = await fs.readFile(path.join(skillDir, 'prompt.md'), 'utf8');
  assert.ok(prompt.length > 1000 && prompt.includes('narrative_choice') && prompt.includes('dependencies'), 'prompt.md is a real prompt');

  const validateInput = createAjv().compile((await readJson(path.join(skillDir, 'scripts', 'offer.input.schema.json'))) as object);
  assert.ok(validateInput({}));
  assert.ok(validateInput({ situation: 'A locked door', action: 'I knock', count: 5, tone: 'bold' }));
  assert.ok(!validateInput({ count: 2 }));
  assert.ok(!validateInput({ count: 6 }));
  assert.ok(!validateInput({ situation: 42 }));
});

test('player-choices: offers 3 by default, honours count 3-5 and clamps other counts with a warning', async () => {
  const situation = 'A rusted iron door blocks the corridor; guards are talking beyond it.';
  const [byDefault, three, four, five, many, few] = await mapLimit([undefined, 3, 4, 5, 9, 1], parallel, (count) =>
    offerOk({ input: { situation, ...(count === undefined ? {} : { count }) } }),
  );
  assert.equal(byDefault!.choices.length, 3);
  assert.equal(three!.choices.length, 3);
  assert.equal(four!.choices.length, 4);
  assert.equal(five!.choices.length, 5);
  assert.equal(many!.choices.length, 5);
  assert.ok(many!.logs.some((entry) => entry.level === 'warn'));
  assert.equal(few!.choices.length, 3);
  assert.ok(few!.logs.some((entry) => entry.level === 'warn'));
  // Asking for more keeps the first ones: the list only grows.
  assert.deepEqual(four!.choices.slice(0, 3), three!.choices);
  assert.deepEqual(five!.choices.slice(0, 4), four!.choices);
  // Different approaches where possible.
  assert.equal(new Set(five!.hints.map((hint) => hint.approach)).size, 5);
  // The options are about the door.
  assert.ok(
    three!.choices.every((choice) => /door/.test(choice)),
    three!.choices.join(' | '),
  );
  assert.deepEqual(byDefault!.payload?.['hints'], byDefault!.hints);
  const fromConfig = await offerOk({ input: { situation } }, { config: { defaultCount: 5 } });
  assert.equal(fromConfig.choices.length, 5);
});

test('player-choices: the same input always gives the same options', async () => {
  const request = {
    input: { situation: 'Bandits leap from the trees by the river crossing', action: 'I draw my sword', count: 5, tone: 'tense' },
    dependencies: { roll1: toolOutput({ total: 14, dc: 12, success: true, reason: 'spot the ambush' }) },
  };
  const runs = await mapLimit([1, 2, 3], parallel, () => offerOk(request));
  assert.deepEqual(runs[1]!.choices, runs[0]!.choices);
  assert.deepEqual(runs[2]!.hints, runs[0]!.hints);
  // Another situation gives other options.
  const other = await offerOk({ input: { situation: 'A merchant haggles over the price of a silver amulet' } });
  assert.notDeepEqual(other.choices, runs[0]!.choices.slice(0, 3));
});

test('player-choices: a dice result among the dependencies leads the options', async () => {
  const input = { situation: 'The rusted lock of the guard room door', action: 'I try to pick the lock', count: 4 };
  const [failure, success, crit, fumble, noDc, lost] = await mapLimit(
    [
      { roll1: toolOutput({ total: 9, dc: 15, success: false, reason: 'pick the lock' }) },
      { roll1: toolOutput({ total: 18, dc: 15, success: true, reason: 'pick the lock' }) },
      { roll1: toolOutput({ total: 22, dc: 15, success: true, critical: 'success' }) },
      { roll1: toolOutput({ total: 3, dc: 15, success: false, critical: 'failure' }) },
      { roll1: toolOutput({ total: 11 }) },
      { roll1: null },
    ],
    parallel,
    (dependencies) => offerOk({ input, dependencies }),
  );
  assert.deepEqual(failure!.choices.slice(0, 2), ['Try again with a different approach', 'Cut your losses and fall back']);
  assert.match(failure!.hints[0]!.consequence, /failed \(9 against 15\)/);
  assert.match(failure!.hints[0]!.consequence, /pick the lock/);
  assert.deepEqual(success!.choices.slice(0, 2), ['Press the advantage while it lasts', 'Secure what you have gained']);
  assert.match(success!.hints[0]!.consequence, /succeeded \(18 against 15\)/);
  assert.equal(crit!.choices[0], 'Seize the moment and push your luck further');
  assert.match(crit!.hints[0]!.consequence, /natural 20/);
  assert.equal(fumble!.choices[0], 'Scramble to undo the damage');
  // Without a DC, or when the roll is lost, only the scene decides.
  for (const offerRun of [noDc!, lost!]) {
    assert.ok(offerRun.choices.filter((choice) => /door/.test(choice)).length >= 3, offerRun.choices.join(' | '));
    assert.ok(!offerRun.hints.some((hint) => /against|natural/.test(hint.consequence)));
  }
  // The failed action itself is not offered again, in any of them.
  for (const offerRun of [failure!, success!, crit!, fumble!, noDc!, lost!]) {
    assert.ok(!offerRun.choices.some((choice) => choice.toLowerCase() === 'i try to pick the lock'));
  }
});

test('player-choices: reacts to the real output of dice-roller (roll -> offer)', async () => {
  const rolled = assertProtocol(await runScript(roll, { input: { formula: '1d2+20', dc: 30, reason: 'leap the chasm' } }));
  const result = rolled.done.output as Record<string, unknown>;
  assert.equal(result['success'], false);
  const choices = await offerOk({ input: { situation: 'A chasm splits the mountain pass' }, dependencies: { roll1: toolOutput(result) } });
  assert.equal(choices.choices[0], 'Try again with a different approach');
  assert.match(choices.hints[0]!.consequence, /leap the chasm/);
});

test('player-choices: scenes, tone and other dependencies shape the options', async () => {
  const [combat, diplomatic, social, magic, hazard, factions, memory] = await mapLimit(
    [
      { input: { situation: 'Three bandits block the road, blades drawn', count: 5 } },
      { input: { situation: 'Three bandits block the road, blades drawn', tone: 'diplomatic' } },
      {
        input: { situation: 'The merchant eyes you from behind the counter' },
        dependencies: {
          p1: toolOutput({ npc: 'Old Hesk', perception: 40, attitude: 'friendly', modifier: 2 }),
          p2: toolOutput({ npc: 'Captain Vey', attitude: 'hostile', modifier: -4 }),
        },
      },
      { input: { situation: 'Glowing runes pulse on an ancient altar' } },
      { input: { situation: 'A sheer cliff rises above the camp' } },
      {
        input: { situation: 'You reach the town gates at dusk' },
        dependencies: {
          r1: toolOutput({ faction: 'Town Guard', standing: -70, rank: 'hostile' }),
          r2: toolOutput({ faction: 'Thieves Guild', standing: 60, rank: 'honored' }),
        },
      },
      {
        input: { count: 4 },
        dependencies: { m1: toolOutput({ memories: [{ id: 'mem-1', summary: 'Mira stole the harbour map', relevance: 0.8, characters: ['Mira'] }] }) },
      },
    ] as Record<string, unknown>[],
    parallel,
    (request) => offerOk(request),
  );
  assert.ok(
    combat!.choices.some((choice) => /bandits/.test(choice)),
    combat!.choices.join(' | '),
  );
  assert.ok(combat!.hints.some((hint) => hint.approach === 'retreat'));
  assert.equal(diplomatic!.hints[0]!.approach, 'social', 'the tone picks the first option');
  assert.deepEqual(social!.choices.slice(0, 2), ['Ask Old Hesk for a favour', "Try to win back Captain Vey's trust"]);
  assert.match(social!.hints[0]!.consequence, /\+2 on social rolls/);
  assert.match(social!.hints[1]!.consequence, /-4 on social rolls/);
  assert.ok(
    magic!.choices.some((choice) => /runes/.test(choice)),
    magic!.choices.join(' | '),
  );
  assert.equal(hazard!.choices[0], 'Climb the cliff directly');
  assert.deepEqual(factions!.choices.slice(0, 2), ['Keep out of sight of the Town Guard', 'Call on the Thieves Guild for help']);
  assert.ok(memory!.choices.includes('Ask around about Mira'));
  assert.match(memory!.hints.find((hint) => hint.choice === 'Ask around about Mira')!.consequence, /harbour map/);
});

test('player-choices: falls back to the last narration in state, then to general options', async () => {
  const fromState = await offerOk({ input: {}, state: { story: { lastNarration: 'You stand at the mouth of a dark cave.' } } });
  assert.ok(
    fromState.choices.some((choice) => /cave/.test(choice)),
    fromState.choices.join(' | '),
  );
  const fromNarration = await offerOk({
    input: {},
    dependencies: { narrate1: toolOutput({ narration: 'The portcullis slams shut behind you.', style: 'vivid', outcome: 'action' }) },
  });
  assert.ok(
    fromNarration.choices.some((choice) => /portcullis/.test(choice)),
    fromNarration.choices.join(' | '),
  );
  const general = await offerOk({});
  assert.deepEqual(general.choices, ['Look around carefully', 'Press on ahead', 'Call out to anyone nearby']);
});

test('player-choices: showHints false leaves the hints out of the UI event only', async () => {
  const result = await offerOk({ input: { situation: 'A locked chest' } }, { config: { showHints: false } });
  assert.deepEqual(result.payload, { choices: result.choices });
  assert.equal(result.hints.length, result.choices.length);
});

for (const [label, stdin] of [
  ['empty stdin', ''],
  ['invalid JSON', '{"input": '],
  ['a JSON array', '[]'],
  ['a non-object input', '{"input":"fight"}'],
  ['a non-string situation', '{"input":{"situation":42}}'],
  ['a non-integer count', '{"input":{"count":"three"}}'],
  ['a fractional count', '{"input":{"count":3.5}}'],
] as const) {
  test(`player-choices: ${label} gives an error event and done ok:false, never a stack trace`, async () => {
    const run = await runScript(offer, stdin);
    const { events, done } = assertProtocol(run);
    assert.equal(done.ok, false);
    assert.equal(eventsOfType(events, 'error').length, 1);
    assert.equal(eventsOfType(events, 'ui_event').length, 0);
    assert.doesNotMatch(run.stdout, /\n\s+at /);
  });
}
