// Tests of the dice-roller skill: manifest and schemas, and the roll script run for real (formulas, ranges, seeds, DCs, config).
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
  type ScriptRun,
} from './skillTestKit.js';

const skillDir = path.join(skillsRoot, 'dice-roller');
const roll = path.join(skillDir, 'scripts', 'roll.js');
/** Scripts run concurrently; bounded by the machine's cores. */
const parallel = Math.max(2, Math.min(8, os.availableParallelism()));

interface Die {
  sides: number;
  value: number;
}
interface RollOutput {
  formula: string;
  total: number;
  rolls: Die[];
  modifier: number;
  dc?: number;
  success?: boolean;
  critical?: 'success' | 'failure';
  reason?: string;
  label?: string;
  seed?: number | string;
}

function rollOf(run: ScriptRun): { output: RollOutput; run: ScriptRun; summary: string | undefined } {
  const { events, done } = assertProtocol(run);
  assert.equal(done.ok, true, `roll failed: ${run.stdout}`);
  const output = done.output as unknown as RollOutput;
  // The state patch and the UI event carry the same roll as the output.
  const patches = eventsOfType(events, 'state_patch');
  assert.equal(patches.length, 1);
  const lastRoll = (patches[0]!.patch['dice'] as { lastRoll: Record<string, unknown> }).lastRoll;
  assert.equal(lastRoll['formula'], output.formula);
  assert.equal(lastRoll['total'], output.total);
  assert.deepEqual(lastRoll['rolls'], output.rolls);
  assert.equal(lastRoll['modifier'], output.modifier);
  assert.equal(lastRoll['dc'], output.dc ?? null);
  assert.equal(lastRoll['success'], output.success ?? null);
  const ui = eventsOfType(events, 'ui_event');
  assert.equal(ui.length, 1);
  assert.equal(ui[0]!.event, 'dice_roll');
  assert.equal(ui[0]!.payload?.['total'], output.total);
  assert.equal(ui[0]!.payload?.['formula'], output.formula);
  assert.equal(eventsOfType(events, 'log').length >= 1, true);
  return { output, run, summary: done.summary };
}

async function rollOnce(input: Record<string, unknown>, config?: Record<string, unknown>): Promise<RollOutput> {
  const run = await runScript(roll, { requestId: 'req-1', tool: 'roll1', input, dependencies: {}, state: {} }, config ? { config } : {});
  return rollOf(run).output;
}

/** Asserts the arithmetic of one roll against the expected dice and modifier. */
function assertRollShape(output: RollOutput, expectedSides: number[], modifier: number): void {
  assert.deepEqual(
    output.rolls.map((die) => die.sides),
    expectedSides,
  );
  for (const die of output.rolls) {
    assert.ok(Number.isInteger(die.value) && die.value >= 1 && die.value <= die.sides, `die ${JSON.stringify(die)} in range`);
  }
  assert.equal(output.modifier, modifier);
  assert.equal(output.total, output.rolls.reduce((sum, die) => sum + die.value, 0) + modifier);
  const min = expectedSides.length + modifier;
  const max = expectedSides.reduce((sum, sides) => sum + sides, 0) + modifier;
  assert.ok(output.total >= min && output.total <= max, `total ${output.total} in [${min}, ${max}]`);
  const single20 = output.rolls.length === 1 && output.rolls[0]!.sides === 20;
  const natural = output.rolls[0]!.value;
  if (single20 && natural === 20) assert.equal(output.critical, 'success');
  else if (single20 && natural === 1) assert.equal(output.critical, 'failure');
  else assert.equal(output.critical, undefined);
}

test('dice-roller: skill.json, config schema, input schema and prompt are valid', async () => {
  const manifest = await loadValidManifest(skillDir);
  assert.equal(manifest.name, 'dice-roller');
  assert.deepEqual(manifest.capabilities, ['dice', 'chance', 'check']);
  assert.equal(manifest.priority, 60);
  assert.deepEqual(
    manifest.scripts?.map((script) => [script.name, script.path]),
    [['roll', 'scripts/roll.js']],
  );
  await assertScripts(skillDir, manifest);
  const defaults = await assertValidConfigSchema(skillDir);
  assert.deepEqual(defaults, { showIndividualRolls: true, randomSource: 'crypto' });
  const prompt = await fs.readFile(path.join(skillDir, 'prompt.md'), 'utf8');
  assert.ok(prompt.length > 500 && prompt.includes('formula'), 'prompt.md is a real prompt');

  const validateInput = createAjv().compile((await readJson(path.join(skillDir, 'scripts', 'roll.input.schema.json'))) as object);
  assert.ok(validateInput({}));
  assert.ok(validateInput({ formula: '1d20+5', dc: 15, reason: 'pick the lock', label: 'Dexterity', seed: 7 }));
  assert.ok(!validateInput({ formula: 5 }));
  assert.ok(!validateInput({ dc: 1.5 }));
});

const formulas: { formula: string; canonical: string; sides: number[]; modifier: number }[] = [
  { formula: '1d20+5', canonical: '1d20+5', sides: [20], modifier: 5 },
  { formula: '3d6', canonical: '3d6', sides: [6, 6, 6], modifier: 0 },
  { formula: '2d6-1', canonical: '2d6-1', sides: [6, 6], modifier: -1 },
  { formula: '2d6+1d4+2', canonical: '2d6+1d4+2', sides: [6, 6, 4], modifier: 2 },
  { formula: 'd%', canonical: '1d100', sides: [100], modifier: 0 },
  { formula: ' 2D8 + 3 - 1 ', canonical: '2d8+2', sides: [8, 8], modifier: 2 },
  { formula: 'd20', canonical: '1d20', sides: [20], modifier: 0 },
  { formula: '4 + 1d6', canonical: '1d6+4', sides: [6], modifier: 4 },
];

for (const { formula, canonical, sides, modifier } of formulas) {
  test(`dice-roller: ${JSON.stringify(formula)} rolls in range and totals add up (crypto, 15 rolls)`, async () => {
    const outputs = await mapLimit(Array.from({ length: 15 }), parallel, () => rollOnce({ formula }));
    for (const output of outputs) {
      assert.equal(output.formula, canonical);
      assertRollShape(output, sides, modifier);
    }
  });
}

test('dice-roller: summary reads "Rolled <formula>: <total>"', async () => {
  const { output, summary } = rollOf(await runScript(roll, { input: { formula: '1d20+5' } }));
  assert.equal(summary, `Rolled 1d20+5: ${output.total}${output.critical ? (output.critical === 'success' ? ' (natural 20)' : ' (natural 1)') : ''}`);
});

test('dice-roller: the default formula is 1d20', async () => {
  const output = await rollOnce({});
  assert.equal(output.formula, '1d20');
  assertRollShape(output, [20], 0);
});

const invalidFormulas: unknown[] = ['', 'abc', '1d1', '0d6', '101d6', '1d1001', '1d20-1d4', '2d6d6', '1d20+', '+5', '5', '1d20 5', 'd', '1d20*2', 42];

for (const formula of invalidFormulas) {
  test(`dice-roller: invalid formula ${JSON.stringify(formula)} gives INVALID_FORMULA and done ok:false`, async () => {
    const run = await runScript(roll, { input: { formula } });
    const { events, done } = assertProtocol(run);
    assert.equal(done.ok, false);
    const errors = eventsOfType(events, 'error');
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.errorCode, 'INVALID_FORMULA');
    assert.match(errors[0]!.errorMessage, /Accepted: NdS/);
    assert.equal(eventsOfType(events, 'state_patch').length, 0);
    assert.equal(eventsOfType(events, 'ui_event').length, 0);
  });
}

for (const [label, stdin] of [
  ['empty stdin', ''],
  ['whitespace stdin', '  \n'],
  ['invalid JSON', '{"input": {'],
  ['a JSON array', '[1,2]'],
  ['a non-object input', '{"input":"1d20"}'],
  ['a non-integer dc', '{"input":{"formula":"1d20","dc":"hard"}}'],
] as const) {
  test(`dice-roller: ${label} gives an error event and done ok:false, never a stack trace on stdout`, async () => {
    const run = await runScript(roll, stdin);
    const { events, done } = assertProtocol(run);
    assert.equal(done.ok, false);
    assert.equal(eventsOfType(events, 'error').length, 1);
    assert.doesNotMatch(run.stdout, /\n\s+at /);
  });
}

test('dice-roller: seeded pseudo mode is deterministic', async () => {
  const config = { randomSource: 'pseudo' };
  const a = await rollOnce({ formula: '4d6+1', seed: 1234 }, config);
  const b = await rollOnce({ formula: '4d6+1', seed: 1234 }, config);
  assert.deepEqual(a, b);
  assert.equal(a.seed, 1234);
  const c = await rollOnce({ formula: '4d6+1', seed: 'the-crypt' }, config);
  const d = await rollOnce({ formula: '4d6+1', seed: 'the-crypt' }, config);
  assert.deepEqual(c.rolls, d.rolls);
  assertRollShape(a, [6, 6, 6, 6], 1);
  // Different seeds give different sequences (not all ten identical).
  const many = await mapLimit(
    Array.from({ length: 10 }, (_, i) => i),
    parallel,
    (seed) => rollOnce({ formula: '4d6', seed }, config),
  );
  assert.ok(new Set(many.map((output) => JSON.stringify(output.rolls))).size > 1);
  // Without a seed, pseudo mode picks one and reports it, so the roll can be replayed.
  const unseeded = await rollOnce({ formula: '4d6' }, config);
  assert.notEqual(unseeded.seed, undefined);
  const replay = await rollOnce({ formula: '4d6', seed: unseeded.seed }, config);
  assert.deepEqual(replay.rolls, unseeded.rolls);
});

test('dice-roller: crypto mode ignores the seed', async () => {
  // Random on purpose (crypto mode), yet it cannot flake: six 10d100 rolls all equal has probability 100^-50.
  const outputs = await mapLimit(Array.from({ length: 6 }), parallel, () => rollOnce({ formula: '10d100', seed: 1 }));
  assert.ok(new Set(outputs.map((output) => JSON.stringify(output.rolls))).size > 1);
  for (const output of outputs) assert.equal(output.seed, undefined);
});

test('dice-roller: success is total >= dc', async () => {
  // 1d2+10 totals 11 or 12.
  for (const output of await mapLimit(Array.from({ length: 4 }), parallel, () => rollOnce({ formula: '1d2+10', dc: 11 }))) {
    assert.equal(output.dc, 11);
    assert.equal(output.success, true);
  }
  for (const output of await mapLimit(Array.from({ length: 4 }), parallel, () => rollOnce({ formula: '1d2+10', dc: 13 }))) {
    assert.equal(output.success, false);
  }
  const edge = await mapLimit(Array.from({ length: 8 }), parallel, () => rollOnce({ formula: '1d2+10', dc: 12, reason: 'jump the gap' }));
  for (const output of edge) {
    assert.equal(output.success, output.total >= 12);
    assert.equal(output.reason, 'jump the gap');
  }
  const noDc = await rollOnce({ formula: '1d2+10' });
  assert.equal(noDc.dc, undefined);
  assert.equal(noDc.success, undefined);
});

test('dice-roller: natural 20 and natural 1 on a single d20 are criticals (seed search)', async () => {
  const config = { randomSource: 'pseudo' };
  const seen = new Set<string>();
  for (let start = 0; start < 600 && seen.size < 2; start += 16) {
    const batch = await mapLimit(
      Array.from({ length: 16 }, (_, i) => start + i),
      parallel,
      (seed) => rollOnce({ formula: '1d20+3', seed, dc: 30 }, config),
    );
    for (const output of batch) {
      assertRollShape(output, [20], 3);
      if (output.critical) seen.add(output.critical);
      if (output.critical === 'success') assert.equal(output.success, false, 'a natural 20 does not change the DC comparison');
    }
  }
  assert.deepEqual([...seen].sort(), ['failure', 'success']);
});

test('dice-roller: state patch, UI event and output carry reason, dc and label', async () => {
  const run = await runScript(roll, { requestId: 'abc', input: { formula: '2d6', dc: 7, reason: 'climb the wall', label: 'Athletics' } });
  const { output } = rollOf(run);
  const { events } = assertProtocol(run);
  for (const event of events) assert.equal(event.requestId, 'abc');
  const ui = eventsOfType(events, 'ui_event')[0]!;
  assert.deepEqual(ui.payload, {
    formula: '2d6',
    dice: output.rolls,
    modifier: 0,
    total: output.total,
    reason: 'climb the wall',
    label: 'Athletics',
    dc: 7,
    success: output.total >= 7,
  });
  const patch = eventsOfType(events, 'state_patch')[0]!.patch;
  assert.deepEqual(patch, {
    dice: {
      lastRoll: {
        formula: '2d6',
        rolls: output.rolls,
        modifier: 0,
        total: output.total,
        reason: 'climb the wall',
        label: 'Athletics',
        dc: 7,
        success: output.total >= 7,
        critical: null,
        outcome: null,
        band: null,
      },
    },
  });
  assert.equal(output.label, 'Athletics');
});

test('dice-roller: showIndividualRolls false leaves the dice out of the UI event only', async () => {
  const run = await runScript(roll, { input: { formula: '3d6' } }, { config: { showIndividualRolls: false } });
  const { output } = rollOf(run);
  const ui = eventsOfType(assertProtocol(run).events, 'ui_event')[0]!;
  assert.equal(ui.payload?.['dice'], undefined);
  assert.equal(ui.payload?.['total'], output.total);
  assert.equal(output.rolls.length, 3);
});

test('dice-roller: without NARRATORIA_SKILL_CONFIG it reads <skill dir>/config.json and schema defaults', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dice-roller-'));
  try {
    await fs.copyFile(path.join(skillDir, 'config-schema.json'), path.join(dir, 'config-schema.json'));
    await fs.writeFile(path.join(dir, 'config.json'), JSON.stringify({ randomSource: 'pseudo' }));
    const env = { NARRATORIA_SKILL_DIR: dir };
    const a = rollOf(await runScript(roll, { input: { formula: '5d10', seed: 99 } }, { env })).output;
    const b = rollOf(await runScript(roll, { input: { formula: '5d10', seed: 99 } }, { env })).output;
    assert.equal(a.seed, 99, 'pseudo mode came from config.json');
    assert.deepEqual(a.rolls, b.rolls);
    const ui = eventsOfType(assertProtocol(await runScript(roll, { input: {} }, { env })).events, 'ui_event')[0]!;
    assert.ok(Array.isArray(ui.payload?.['dice']), 'showIndividualRolls defaults to true from the schema');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('dice-roller: an unknown randomSource warns and falls back to crypto', async () => {
  const run = await runScript(roll, { input: { formula: '1d6' } }, { config: { randomSource: 'quantum' } });
  const { events, done } = assertProtocol(run);
  assert.equal(done.ok, true);
  assert.ok(eventsOfType(events, 'log').some((event) => event.level === 'warn'));
});

test("dice-roller: bands (a campaign's rules) give the outcome: a partial success works, at a cost", async () => {
  const bands = [
    { max: 6, outcome: 'failure' },
    { min: 7, max: 9, outcome: 'partial' },
    { min: 10, outcome: 'success' },
  ];
  for (let seed = 1; seed <= 12; seed++) {
    const run = await runScript(roll, { requestId: 'b', input: { formula: '2d6', bands } }, { env: { NARRATORIA_SEED: String(seed) } });
    const output = rollOf(run).output as unknown as { total: number; success: boolean; outcome: string; band: string };
    const expected = output.total <= 6 ? 'failure' : output.total <= 9 ? 'partial' : 'success';
    assert.equal(output.outcome, expected, JSON.stringify(output));
    assert.equal(output.success, expected !== 'failure');
    assert.equal(output.band, expected === 'failure' ? '6 or less' : expected === 'partial' ? '7-9' : '10+');
  }
  const bad = await runScript(roll, { requestId: 'c', input: { formula: '2d6', bands: [{ outcome: 'maybe' }] } });
  assert.match(bad.stdout, /input\.bands must be a list/);
});
