// Tests of the storyteller skill: manifest and schemas, and the narrate script run for real (dice outcomes, null dependencies, styles, turns).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createAjv } from '../../src/runtime/contracts/schemas.js';
import {
  assertProtocol,
  assertScripts,
  assertValidConfigSchema,
  eventsOfType,
  loadValidManifest,
  readJson,
  runScript,
  skillsRoot,
  type RunOptions,
} from './skillTestKit.js';

const skillDir = path.join(skillsRoot, 'storyteller');
const narrate = path.join(skillDir, 'scripts', 'narrate.js');
const roll = path.join(skillsRoot, 'dice-roller', 'scripts', 'roll.js');

interface NarrateOutput {
  narration: string;
  style: string;
  outcome: string;
}

/** A dependency entry as the runtime passes it: a ToolOutput whose `result` is the dependency's done.output. */
function toolOutput(result: Record<string, unknown>): Record<string, unknown> {
  return { ok: true, summary: 'rolled', result, state: {}, assets: [], uiEvents: [] };
}

/** A dice-roller result: a roll has a formula and its rolls, and is read as one only then. */
function rollOutput(result: Record<string, unknown>): Record<string, unknown> {
  return toolOutput({ formula: '1d20', rolls: [Number(result['total'])], modifier: 0, ...result });
}

async function narrateRun(
  request: Record<string, unknown>,
  options: RunOptions = {},
): Promise<{
  output: NarrateOutput;
  stdout: string;
  stderr: string;
  patch: Record<string, unknown>;
  ui: Record<string, unknown> | undefined;
  logs: { level: string; message: string }[];
}> {
  const run = await runScript(narrate, { requestId: 'n1', tool: 'narrate1', dependencies: {}, state: {}, ...request }, options);
  const { events, done } = assertProtocol(run);
  assert.equal(done.ok, true, run.stdout);
  const output = done.output as unknown as NarrateOutput;
  assert.equal(typeof output.narration, 'string');
  assert.ok(output.narration.length > 10);
  const patches = eventsOfType(events, 'state_patch');
  assert.equal(patches.length, 1);
  const uis = eventsOfType(events, 'ui_event');
  assert.equal(uis.length, 1);
  assert.equal(uis[0]!.event, 'narration');
  return {
    output,
    stdout: run.stdout,
    stderr: run.stderr,
    patch: patches[0]!.patch,
    ui: uis[0]!.payload,
    logs: eventsOfType(events, 'log').map((event) => ({ level: event.level, message: event.message })),
  };
}

const lockpick = { action: 'I try to pick the lock.', target: 'rusted_lock', mood: 'tense' };

test('storyteller: skill.json, config schema, input schema and prompt are valid', async () => {
  const manifest = await loadValidManifest(skillDir);
  assert.equal(manifest.name, 'storyteller');
  assert.deepEqual(manifest.capabilities, ['narration', 'description']);
  assert.equal(manifest.priority, 50);
  assert.deepEqual(
    manifest.scripts?.map((script) => [script.name, script.path]),
    [['narrate', 'scripts/narrate.js']],
  );
  await assertScripts(skillDir, manifest);
  const defaults = await assertValidConfigSchema(skillDir);
  assert.equal(defaults['style'], 'vivid');
  assert.equal(defaults['provider'], 'template');
  const schema = (await readJson(path.join(skillDir, 'config-schema.json'))) as { properties: Record<string, Record<string, unknown>> };
  assert.deepEqual(schema.properties['style']?.['enum'], ['terse', 'vivid', 'poetic']);
  assert.deepEqual(schema.properties['provider']?.['enum'], ['template', 'local']);
  const apiKey = schema.properties['apiKey'];
  assert.equal(apiKey?.['x-sensitive'], true);
  assert.equal(apiKey?.['format'], 'password');
  assert.equal(apiKey?.['x-env-var'], 'STORYTELLER_API_KEY');
  const prompt = await fs.readFile(path.join(skillDir, 'prompt.md'), 'utf8');
  assert.ok(prompt.length > 500 && prompt.includes('dependencies'), 'prompt.md is a real prompt');

  const validateInput = createAjv().compile((await readJson(path.join(skillDir, 'scripts', 'narrate.input.schema.json'))) as object);
  assert.ok(validateInput({}));
  assert.ok(validateInput(lockpick));
  assert.ok(!validateInput({ action: 3 }));
});

test('storyteller: narrates a successful roll from a dependency', async () => {
  const result = { formula: '1d20+5', total: 17, rolls: [{ sides: 20, value: 12 }], modifier: 5, dc: 15, success: true };
  for (const style of ['terse', 'vivid', 'poetic']) {
    const { output, patch, ui } = await narrateRun({ input: lockpick, dependencies: { roll1: toolOutput(result) } }, { config: { style } });
    assert.equal(output.outcome, 'success');
    assert.equal(output.style, style);
    assert.match(output.narration, /17/);
    assert.match(output.narration, /pick the lock/);
    assert.deepEqual(ui, { text: output.narration, style, provider: 'template' });
    assert.deepEqual(patch, { story: { lastNarration: output.narration, turns: 1, recentSentences: output.narration.split(/(?<=[.!?)])\s+/) } });
  }
});

test('storyteller: narrates a failed roll, and computes success from dc when the roll omits it', async () => {
  const failed = await narrateRun({ input: lockpick, dependencies: { roll1: rollOutput({ total: 6, dc: 15, success: false }) } });
  assert.equal(failed.output.outcome, 'failure');
  assert.match(failed.output.narration, /6/);
  const computed = await narrateRun({ input: lockpick, dependencies: { roll1: rollOutput({ total: 9, dc: 15 }) } });
  assert.equal(computed.output.outcome, 'failure');
  const computedOk = await narrateRun({ input: lockpick, dependencies: { roll1: rollOutput({ total: 15, dc: 15 }) } });
  assert.equal(computedOk.output.outcome, 'success');
  const noDc = await narrateRun({ input: lockpick, dependencies: { roll1: rollOutput({ total: 11 }) } });
  assert.equal(noDc.output.outcome, 'rolled');
  assert.match(noDc.output.narration, /11/);
});

test('storyteller: a roll for a social act tells the act, never the thing it names as resisting or giving way', async () => {
  const haggle = { action: 'I haggle over the rope.', target: 'the rope' };
  const outcomes = new Set<string>();
  for (const [total, success] of [
    [6, false],
    [11, false],
    [17, true],
    [20, true],
  ] as const) {
    for (const seed of ['1', '2', '3', '4', '5', '6']) {
      for (const style of ['terse', 'vivid', 'poetic']) {
        const { output } = await narrateRun(
          { input: haggle, dependencies: { roll1: rollOutput({ total, dc: 12, success }) } },
          { config: { style }, env: { NARRATORIA_SEED: seed } },
        );
        outcomes.add(output.outcome);
        assert.match(output.narration, /haggle over the rope/);
        assert.doesNotMatch(output.narration, /rope (?:holds firm|gives way|yields|resists|is yours|looms|waits)|the rope (?:opens|keeps)/i, output.narration);
      }
    }
  }
  assert.ok(outcomes.has('failure') && outcomes.has('success'), [...outcomes].join(', '));
  // A deed keeps its target: the lock still holds firm or gives way.
  const lock = await narrateRun(
    { input: lockpick, dependencies: { roll1: rollOutput({ total: 6, dc: 15, success: false }) } },
    { env: { NARRATORIA_SEED: '1' } },
  );
  assert.match(lock.output.narration, /pick the lock/);
});

test('storyteller: narrates critical hits and fumbles', async () => {
  const hit = await narrateRun({ input: lockpick, dependencies: { roll1: rollOutput({ total: 25, dc: 15, success: true, critical: 'success' }) } });
  assert.equal(hit.output.outcome, 'criticalSuccess');
  const fumble = await narrateRun({ input: lockpick, dependencies: { roll1: rollOutput({ total: 6, dc: 15, success: false, critical: 'failure' }) } });
  assert.equal(fumble.output.outcome, 'criticalFailure');
  assert.notEqual(hit.output.narration, fumble.output.narration);
});

test('storyteller: a null dependency (failed optional tool) is narrated gracefully', async () => {
  for (const style of ['terse', 'vivid', 'poetic']) {
    const { output } = await narrateRun({ input: lockpick, dependencies: { roll1: null } }, { config: { style } });
    assert.equal(output.outcome, 'lost');
    assert.match(output.narration, /dice clatter away unseen/i);
    assert.match(output.narration, /pick the lock/);
  }
  // A dice result elsewhere in the dependencies wins over a missing one.
  const mixed = await narrateRun({ input: lockpick, dependencies: { memory1: null, roll1: rollOutput({ total: 18, dc: 10 }) } });
  assert.equal(mixed.output.outcome, 'success');
});

test('storyteller: without dependencies it narrates the action; without input it describes the scene', async () => {
  const action = await narrateRun({ input: { action: 'I search my pack for the silver key' } });
  assert.equal(action.output.outcome, 'action');
  assert.match(action.output.narration, /search your pack for the silver key/);
  // Words that are no action are never quoted back (issue 26).
  const quoted = await narrateRun({ input: { action: 'a quick look around' } });
  assert.doesNotMatch(quoted.output.narration, /[“”"]|quick look/);
  const nonDice = await narrateRun({ input: { action: 'I open the door' }, dependencies: { echo1: toolOutput({ note: 'no dice here' }) } });
  assert.equal(nonDice.output.outcome, 'action');
  const scene = await narrateRun({ input: { target: 'mysterious_door', mood: 'eerie' } });
  assert.equal(scene.output.outcome, 'scene');
  const bare = await narrateRun({ input: {} });
  assert.equal(bare.output.outcome, 'scene');
  const noFields = await narrateRun({});
  assert.equal(noFields.output.outcome, 'scene');
});

test('storyteller: the roll reason stands in for a missing action', async () => {
  const { output } = await narrateRun({ input: {}, dependencies: { roll1: rollOutput({ total: 19, dc: 12, success: true, reason: 'climb the wall' }) } });
  assert.match(output.narration, /climb the wall/);
});

test('storyteller: the same input gives the same text; the style changes it', async () => {
  const request = { input: lockpick, dependencies: { roll1: rollOutput({ total: 16, dc: 15, success: true }) } };
  const first = await narrateRun(request);
  const second = await narrateRun(request);
  assert.equal(first.stdout, second.stdout);
  const texts = new Set<string>();
  for (const style of ['terse', 'vivid', 'poetic']) {
    const { output } = await narrateRun(request, { config: { style } });
    texts.add(output.narration);
  }
  assert.equal(texts.size, 3);
  // Default style is vivid.
  const vivid = await narrateRun(request, { config: { style: 'vivid' } });
  assert.equal(vivid.output.narration, first.output.narration);
  assert.equal(first.output.style, 'vivid');
});

test('storyteller: turns increment from the session state snapshot', async () => {
  const fromFour = await narrateRun({ input: lockpick, state: { story: { turns: 4, lastNarration: 'old' } } });
  assert.deepEqual(fromFour.patch, {
    story: { lastNarration: fromFour.output.narration, turns: 5, recentSentences: fromFour.output.narration.split(/(?<=[.!?)])\s+/) },
  });
  const fresh = await narrateRun({ input: lockpick, state: {} });
  assert.equal((fresh.patch['story'] as { turns: number }).turns, 1);
  const garbage = await narrateRun({ input: lockpick, state: { story: { turns: 'many' } } });
  assert.equal((garbage.patch['story'] as { turns: number }).turns, 1);
});

test('storyteller: provider "local" without a model falls back to templates with a warning and never logs the API key', async () => {
  const secret = 'sk-test-do-not-print-123';
  const local = await narrateRun({ input: lockpick }, { config: { provider: 'local', apiKey: secret, style: 'terse' } });
  assert.ok(local.logs.some((log) => log.level === 'warn' && /local/.test(log.message)));
  const template = await narrateRun({ input: lockpick }, { config: { provider: 'template', style: 'terse' } });
  assert.equal(local.output.narration, template.output.narration);
  assert.ok(!local.stdout.includes(secret) && !local.stderr.includes(secret));
  const unknownStyle = await narrateRun({ input: lockpick }, { config: { style: 'baroque' } });
  assert.equal(unknownStyle.output.style, 'vivid');
  assert.ok(unknownStyle.logs.some((log) => log.level === 'warn'));
});

for (const [label, stdin] of [
  ['empty stdin', ''],
  ['invalid JSON', 'not json'],
  ['a JSON string', '"hello"'],
  ['a non-string action', '{"input":{"action":42}}'],
] as const) {
  test(`storyteller: ${label} gives an error event and done ok:false`, async () => {
    const run = await runScript(narrate, stdin);
    const { events, done } = assertProtocol(run);
    assert.equal(done.ok, false);
    assert.equal(eventsOfType(events, 'error').length, 1);
    assert.doesNotMatch(run.stdout, /\n\s+at /);
  });
}

test('storyteller: narrates the real output of dice-roller (roll -> narrate)', async () => {
  const rollRun = assertProtocol(
    await runScript(roll, { input: { formula: '1d20+2', dc: 12, reason: 'leap the chasm', seed: 5 } }, { config: { randomSource: 'pseudo' } }),
  );
  const result = rollRun.done.output as { total: number; success: boolean; critical?: string };
  const { output } = await narrateRun({ input: { action: 'I leap the chasm' }, dependencies: { roll1: toolOutput(result) } });
  const expected =
    result.critical === 'success' ? 'criticalSuccess' : result.critical === 'failure' ? 'criticalFailure' : result.success ? 'success' : 'failure';
  assert.equal(output.outcome, expected);
  assert.match(output.narration, /leap the chasm/);
});

test("storyteller (issue 26): the turn's facts, read by their shapes; no roll without one; questions answered", async () => {
  // A memory recall has a `total` (a count): it is no roll.
  const recalled = await narrateRun({
    input: { action: 'Have I met Mira before?', target: 'Mira' },
    dependencies: { recall: toolOutput({ memories: [{ summary: 'Mira gave you a room at the Rusty Anchor.' }], total: 3, mode: 'query' }) },
  });
  assert.doesNotMatch(recalled.output.narration, /dice|roll|\b3\b/);
  assert.match(recalled.output.narration, /You remember: Mira gave you a room at the Rusty Anchor\./);
  assert.doesNotMatch(recalled.output.narration, /follow through|“/, 'a question is answered, not acted out or quoted');
  const forgotten = await narrateRun({
    input: { action: 'Have I met Mira before?', target: 'Mira' },
    dependencies: { recall: toolOutput({ memories: [], total: 0 }) },
  });
  assert.match(forgotten.output.narration, /^Nothing about Mira comes to mind\.$/);
  const angry = await narrateRun({
    input: { action: 'Is Mira still angry with me?' },
    dependencies: { query: toolOutput({ npc: 'Mira', perception: -40, attitude: 'Unfriendly', modifier: -2, known: true }) },
  });
  assert.equal(angry.output.narration, 'Mira is unfriendly toward you: the welcome is thin and cold.');
  const standing = await narrateRun({
    input: { action: 'What do the Thieves Guild think of me?' },
    dependencies: { query: toolOutput({ faction: 'Thieves Guild', standing: 35, rank: 'Trusted' }) },
  });
  assert.equal(standing.output.narration, 'Your standing with the Thieves Guild is trusted.');
  const portrait = await narrateRun({
    input: { action: 'What does Mira look like?' },
    dependencies: { portrait: toolOutput({ assetId: 'portrait-mira', name: 'Mira', features: ['red hair', 'green eyes', 'a scar'], placeholder: false }) },
  });
  assert.equal(portrait.output.narration, 'Mira: red hair, green eyes and a scar.');
  const unanswered = await narrateRun({ input: { action: 'Where is the key?' } });
  assert.equal(unanswered.output.narration, 'No answer comes to you yet.');
  // A roll with its DC says whether it worked, and a fact after it.
  const persuade = await narrateRun({
    input: { action: 'persuade Mira to give me a free room' },
    dependencies: {
      roll: rollOutput({ total: 6, dc: 12, success: false }),
      query: toolOutput({ npc: 'Mira', perception: 10, attitude: 'neutral', known: true }),
    },
  });
  assert.equal(persuade.output.outcome, 'failure');
  assert.match(persuade.output.narration, /6 against 12/);
  assert.match(persuade.output.narration, /Mira is neutral toward you/);
  // "I choose …": the choice is the action, never quoted.
  const choice = await narrateRun({ input: { action: 'I choose "Look around carefully"' } });
  assert.match(choice.output.narration, /look around carefully/);
  assert.doesNotMatch(choice.output.narration, /[“”"]|choose/);
});

test("storyteller (issue 26): the phrasing follows the turn's seed (NARRATORIA_SEED): a replayed turn reads the same", async () => {
  const request = { input: { action: 'I walk into the tavern' } };
  const texts = new Set<string>();
  for (const seed of ['1', '2', '3', '4', '5', '6']) {
    const first = await narrateRun(request, { env: { NARRATORIA_SEED: seed } });
    const again = await narrateRun(request, { env: { NARRATORIA_SEED: seed } });
    assert.equal(first.output.narration, again.output.narration);
    texts.add(first.output.narration);
  }
  assert.ok(texts.size > 1, 'different seeds, different phrasings');
});

test('storyteller (issue 26): a sentence said in the last five turns is not said again when another phrasing exists', async () => {
  const request = { input: { action: 'I walk into the tavern' } };
  const first = await narrateRun(request);
  const second = await narrateRun({ ...request, state: { story: first.patch['story'] } });
  assert.notEqual(second.output.narration, first.output.narration);
  const third = await narrateRun({ ...request, state: { story: second.patch['story'] } });
  assert.ok(![first.output.narration, second.output.narration].includes(third.output.narration), third.output.narration);
  assert.deepEqual((third.patch['story'] as { recentSentences: string[] }).recentSentences.slice(0, 1), [third.output.narration]);
});

test('storyteller: a phrase of the narrator\'s own said in the last five turns ("without hesitating") is not said again; the player\'s own words may be', async () => {
  const recentSentences = ['Without hesitating, you sit by the fire.', 'You look around the room, taking in everything around you.'];
  for (const action of ['I open the window', 'I wave at the barkeep', 'I listen to the bard', 'I sit by the fire']) {
    const { output } = await narrateRun({ input: { action }, state: { story: { recentSentences } } });
    assert.doesNotMatch(output.narration, /without hesitating|taking in everything around you/i, output.narration);
  }
});

test('storyteller: "roll to pick the lock" narrates picking the lock, the roll told by its own numbers', async () => {
  const { output } = await narrateRun({
    input: { action: 'roll to pick the lock' },
    dependencies: { roll: rollOutput({ total: 11, dc: 12, success: false }) },
  });
  assert.match(output.narration, /pick the lock/);
  assert.doesNotMatch(output.narration, /roll to pick/);
  assert.match(output.narration, /11 against 12/);
});

test("storyteller: a partial roll (a campaign's bands) is told as a partial success", async () => {
  const result = {
    formula: '2d6',
    total: 8,
    rolls: [
      { sides: 6, value: 4 },
      { sides: 6, value: 4 },
    ],
    modifier: 0,
    success: true,
    outcome: 'partial',
    band: '7-9',
  };
  const { output } = await narrateRun({ input: lockpick, dependencies: { roll1: toolOutput(result) } });
  assert.equal(output.outcome, 'partial');
  assert.match(output.narration, /pick the lock/);
  assert.match(output.narration, /partial success|not cleanly|lost along the way/);
});

test('storyteller: a campaign scene tells its beats, voices the NPCs present, uses one lore fact and says what it told', async () => {
  const campaign = {
    scene: 2,
    beats: [
      {
        id: 'beat_002',
        title: "Tamsin's Bargain",
        description: 'Tamsin offers to sail the player round the north cove, if the player keeps quiet about her cargo.',
        dialogue: [{ speaker: 'Brother Alder', line: 'The tide forgives what it is given.', context: 'From the chapel steps' }],
      },
    ],
    npcs: [
      {
        name: 'Tamsin Reed',
        phrase: 'She raised me. That makes it my business.',
        attitude: 'cordial',
        trait: 'wary',
        about: { name: 'Odile Marrow', relationship: 'The only family she has' },
      },
      { name: 'Brother Alder', phrase: 'You think the light keeps them out.', attitude: 'wary' },
    ],
    facts: [
      {
        id: 'lore/places/the-lantern-tower.md#2',
        source: 'lore/places/the-lantern-tower.md#2',
        text: 'Saltlight is stored in a locked cupboard. It is nearly empty now.',
      },
    ],
  };
  const { output } = await narrateRun({ input: { action: 'I ask Tamsin for help', campaign } });
  const told = output as unknown as { narration: string; campaign: { beats: string[]; npcs: string[]; facts: string[] } };
  assert.match(told.narration, /Tamsin's Bargain\. Tamsin offers to sail you round the north cove, if you keep quiet about her cargo\./);
  assert.match(told.narration, /"The tide forgives what it is given\." Brother Alder says, from the chapel steps\./);
  assert.match(told.narration, /Tamsin Reed, wary and cordial toward you, says: "She raised me\. That makes it my business\."/);
  assert.match(told.narration, /What Tamsin Reed feels for Odile Marrow shows: the only family she has\./);
  assert.doesNotMatch(told.narration, /Brother Alder, wary/, "who spoke a beat's line is not voiced again");
  assert.match(told.narration, /Saltlight is stored in a locked cupboard\./);
  assert.deepEqual(told.campaign, { beats: ['beat_002'], npcs: ['Tamsin Reed'], facts: ['lore/places/the-lantern-tower.md#2'] });
  // A fact the last narrations told is not told again.
  const again = await narrateRun({
    input: { action: 'I wait by the harbour wall', campaign: { facts: campaign.facts } },
    state: { story: { recentSentences: ['Saltlight is stored in a locked cupboard.'] } },
  });
  assert.deepEqual((again.output as unknown as { campaign: { facts: string[] } }).campaign.facts, []);
});

test('storyteller: a beat told to the player turns the verbs joined by "and" too, before a name or a pronoun', async () => {
  const campaign = {
    beats: [
      {
        id: 'beat_006',
        title: 'Into Saltmere',
        description: 'At the lowest tide of the season, the player walks into the drowned village and finds Odile keeping a light among the dead.',
        dialogue: [],
      },
      { id: 'beat_007', title: 'The Ferry', description: 'The player hails the ferry and asks her for passage.', dialogue: [] },
    ],
  };
  const { output } = await narrateRun({ input: { action: 'I row out to Saltmere', campaign } });
  const told = (output as unknown as { narration: string }).narration;
  assert.match(told, /you walk into the drowned village and find Odile keeping a light among the dead\./);
  assert.match(told, /You hail the ferry and ask her for passage\./);
});
