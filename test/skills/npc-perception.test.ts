// Tests of the npc-perception skill: manifest and schemas, and the adjust / query scripts run for real (clamping, attitude labels, dice modifiers, persistence, use by dice-roller).
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

const skillDir = path.join(skillsRoot, 'npc-perception');
const adjust = path.join(skillDir, 'scripts', 'adjust.js');
const query = path.join(skillDir, 'scripts', 'query.js');
const roll = path.join(skillsRoot, 'dice-roller', 'scripts', 'roll.js');
const parallel = Math.max(2, Math.min(8, os.availableParallelism()));

interface Perception {
  perception: number;
  attitude: string;
  modifier: number;
}
interface AdjustOutput extends Perception {
  npc: string;
  delta: number;
  previousPerception: number;
  previousAttitude: string;
}
interface QueryOne extends Perception {
  npc: string;
  known: boolean;
  lastUpdated: string | null;
}

async function withDataDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'narratoria-npc-'));
  try {
    return await body(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function options(dir: string, config?: Record<string, unknown>): RunOptions {
  return { env: { NARRATORIA_SKILL_DATA: dir }, ...(config ? { config } : {}) };
}

async function adjustOk(
  dir: string,
  input: Record<string, unknown>,
  config?: Record<string, unknown>,
): Promise<AdjustOutput & { patch: Record<string, unknown>; ui: Record<string, unknown> | undefined }> {
  const run = await runScript(adjust, { requestId: 'a1', tool: 'npc1', input, dependencies: {}, state: {} }, options(dir, config));
  const { events, done } = assertProtocol(run);
  assert.equal(done.ok, true, run.stdout);
  const output = done.output as unknown as AdjustOutput;
  const patches = eventsOfType(events, 'state_patch');
  assert.equal(patches.length, 1);
  assert.deepEqual(patches[0]!.patch, { npcs: { [output.npc]: { perception: output.perception, attitude: output.attitude, modifier: output.modifier } } });
  const uis = eventsOfType(events, 'ui_event');
  return { ...output, patch: patches[0]!.patch, ui: uis[0]?.payload };
}

async function queryOk<T>(dir: string, input: Record<string, unknown>, config?: Record<string, unknown>): Promise<T & { patches: Record<string, unknown>[] }> {
  const run = await runScript(query, { input }, options(dir, config));
  const { events, done } = assertProtocol(run);
  assert.equal(done.ok, true, run.stdout);
  return { ...(done.output as unknown as T), patches: eventsOfType(events, 'state_patch').map((event) => event.patch) };
}

test('npc-perception: skill.json, config schema, input schemas and prompt are valid', async () => {
  const manifest = await loadValidManifest(skillDir);
  assert.equal(manifest.name, 'npc-perception');
  assert.deepEqual(manifest.capabilities, ['npc', 'perception', 'social']);
  assert.deepEqual(
    manifest.scripts?.map((script) => [script.name, script.path]),
    [
      ['adjust', 'scripts/adjust.js'],
      ['query', 'scripts/query.js'],
    ],
  );
  await assertScripts(skillDir, manifest);
  assert.deepEqual(await assertValidConfigSchema(skillDir), { initialPerception: 0, showChanges: true });
  const prompt = await fs.readFile(path.join(skillDir, 'prompt.md'), 'utf8');
  assert.ok(prompt.length > 1000 && prompt.includes('modifier') && prompt.includes('1d20-2'), 'prompt.md documents the modifier table and its use with dice');
  for (const row of ['| −100 … −60 | `hostile` | −4 |', '| −9 … +9 | `neutral` | +0 |', '| +60 … +100 | `devoted` | +4 |']) {
    assert.ok(prompt.includes(row), `prompt.md has the row ${row}`);
  }

  const ajv = createAjv();
  const adjustInput = ajv.compile((await readJson(path.join(skillDir, 'scripts', 'adjust.input.schema.json'))) as object);
  assert.ok(adjustInput({ npc: 'Captain Vey', delta: -10, reason: 'caught lying' }));
  assert.ok(!adjustInput({ npc: 'Captain Vey' }));
  assert.ok(!adjustInput({ delta: 3 }));
  assert.ok(!adjustInput({ npc: 'Captain Vey', delta: 0.5 }));
  const queryInput = ajv.compile((await readJson(path.join(skillDir, 'scripts', 'query.input.schema.json'))) as object);
  assert.ok(queryInput({}));
  assert.ok(queryInput({ npc: 'Mira' }));
  assert.ok(!queryInput({ npc: '' }));
});

test('npc-perception: attitudes and modifiers follow the documented table', async () => {
  const cases: [number, string, number][] = [
    [-100, 'hostile', -4],
    [-60, 'hostile', -4],
    [-59, 'unfriendly', -2],
    [-30, 'unfriendly', -2],
    [-29, 'wary', -1],
    [-10, 'wary', -1],
    [-9, 'neutral', 0],
    [0, 'neutral', 0],
    [9, 'neutral', 0],
    [10, 'cordial', 1],
    [29, 'cordial', 1],
    [30, 'friendly', 2],
    [59, 'friendly', 2],
    [60, 'devoted', 4],
    [100, 'devoted', 4],
  ];
  await withDataDir(async (dir) => {
    const results = await mapLimit(cases, parallel, ([value], index) => adjustOk(dir, { npc: `Villager ${index}`, delta: value }));
    assert.deepEqual(
      results.map((result) => [result.perception, result.attitude, result.modifier]),
      cases,
    );
    // All fifteen concurrent adjustments were stored.
    const all = await queryOk<{ npcs: Record<string, Perception> }>(dir, {});
    assert.equal(Object.keys(all.npcs).length, cases.length);
    assert.deepEqual(all.patches, [{ npcs: all.npcs }]);
    for (const [index, [value, attitude, modifier]] of cases.entries()) {
      assert.deepEqual(all.npcs[`Villager ${index}`], { perception: value, attitude, modifier });
    }
  });
});

test('npc-perception: adjustments accumulate, clamp to -100..+100 and persist across processes', async () => {
  await withDataDir(async (dir) => {
    const first = await adjustOk(dir, { npc: 'Captain Vey', delta: -35, reason: 'caught lying about the cargo' });
    assert.deepEqual(
      {
        npc: first.npc,
        perception: first.perception,
        attitude: first.attitude,
        modifier: first.modifier,
        delta: first.delta,
        previousPerception: first.previousPerception,
        previousAttitude: first.previousAttitude,
      },
      { npc: 'Captain Vey', perception: -35, attitude: 'unfriendly', modifier: -2, delta: -35, previousPerception: 0, previousAttitude: 'neutral' },
    );
    assert.deepEqual(first.ui, {
      npc: 'Captain Vey',
      delta: -35,
      previousPerception: 0,
      perception: -35,
      attitude: 'unfriendly',
      modifier: -2,
      previousAttitude: 'neutral',
      reason: 'caught lying about the cargo',
    });
    // Same NPC, other spelling: the first spelling is kept.
    const floor = await adjustOk(dir, { npc: '  the CAPTAIN   vey ', delta: -200 });
    assert.equal(floor.npc, 'Captain Vey');
    assert.equal(floor.perception, -100);
    assert.equal(floor.previousPerception, -35);
    const back = await adjustOk(dir, { npc: 'Captain Vey', delta: 150 });
    assert.deepEqual([back.perception, back.attitude, back.modifier], [50, 'friendly', 2]);
    const ceiling = await adjustOk(dir, { npc: 'Captain Vey', delta: 200 });
    assert.equal(ceiling.perception, 100);

    const vey = await queryOk<QueryOne>(dir, { npc: 'captain vey' });
    assert.deepEqual([vey.npc, vey.perception, vey.attitude, vey.modifier, vey.known], ['Captain Vey', 100, 'devoted', 4, true]);
    assert.ok(vey.lastUpdated && !Number.isNaN(Date.parse(vey.lastUpdated)));
    assert.deepEqual(vey.patches, [{ npcs: { 'Captain Vey': { perception: 100, attitude: 'devoted', modifier: 4 } } }]);

    const stranger = await queryOk<QueryOne>(dir, { npc: 'Mira' });
    assert.deepEqual(
      [stranger.npc, stranger.perception, stranger.attitude, stranger.modifier, stranger.known, stranger.lastUpdated],
      ['Mira', 0, 'neutral', 0, false, null],
    );
    assert.deepEqual(stranger.patches, [], 'nothing to record for an NPC never met');

    const stored = (await readJson(path.join(dir, 'perceptions.json'))) as {
      npcs: Record<string, { name: string; perception: number; history: { delta: number; reason?: string }[] }>;
    };
    assert.deepEqual(Object.keys(stored.npcs), ['captain vey']);
    assert.equal(stored.npcs['captain vey']!.name, 'Captain Vey');
    assert.deepEqual(
      stored.npcs['captain vey']!.history.map((entry) => entry.delta),
      [-35, -200, 150, 200],
    );
    assert.deepEqual(await fs.readdir(dir), ['perceptions.json'], 'no lock or temporary file is left behind');
  });
});

test('npc-perception: initialPerception and showChanges come from the config', async () => {
  await withDataDir(async (dir) => {
    const config = { initialPerception: -15, showChanges: false };
    const unknown = await queryOk<QueryOne>(dir, { npc: 'Gatekeeper' }, config);
    assert.deepEqual([unknown.perception, unknown.attitude, unknown.modifier, unknown.known], [-15, 'wary', -1, false]);
    const warmer = await adjustOk(dir, { npc: 'Gatekeeper', delta: 10 }, config);
    assert.deepEqual([warmer.previousPerception, warmer.perception, warmer.attitude], [-15, -5, 'neutral']);
    assert.equal(warmer.ui, undefined, 'no perception_change event when showChanges is off');
    const invalid = assertProtocol(await runScript(adjust, { input: { npc: 'Gatekeeper', delta: 1 } }, options(dir, { initialPerception: 500 })));
    assert.equal(invalid.done.ok, true);
    assert.ok(eventsOfType(invalid.events, 'log').some((event) => event.level === 'warn' && /initialPerception/.test(event.message)));
  });
});

test('npc-perception: the modifier plugs into a dice-roller formula', async () => {
  await withDataDir(async (dir) => {
    await adjustOk(dir, { npc: 'Captain Vey', delta: -40 });
    const vey = await queryOk<QueryOne>(dir, { npc: 'Captain Vey' });
    assert.equal(vey.modifier, -2);
    const formula = `1d20${vey.modifier >= 0 ? '+' : ''}${vey.modifier}`;
    const rolled = assertProtocol(await runScript(roll, { input: { formula, dc: 15, reason: 'persuade Captain Vey' } }));
    assert.equal(rolled.done.ok, true, formula);
    const result = rolled.done.output as { formula: string; modifier: number; total: number; rolls: { value: number }[] };
    assert.equal(result.formula, '1d20-2');
    assert.equal(result.modifier, vey.modifier);
    assert.equal(result.total, result.rolls[0]!.value + vey.modifier);
  });
});

const badRuns: [string, unknown, string][] = [
  [adjust, '', 'INVALID_STDIN'],
  [adjust, '{oops', 'INVALID_STDIN'],
  [adjust, { input: 5 }, 'INVALID_INPUT'],
  [adjust, { input: { delta: 5 } }, 'INVALID_INPUT'],
  [adjust, { input: { npc: '   ', delta: 5 } }, 'INVALID_INPUT'],
  [adjust, { input: { npc: 'Vey' } }, 'INVALID_INPUT'],
  [adjust, { input: { npc: 'Vey', delta: 1.5 } }, 'INVALID_INPUT'],
  [adjust, { input: { npc: 'Vey', delta: 201 } }, 'INVALID_INPUT'],
  [adjust, { input: { npc: 'Vey', delta: 1, reason: ['x'] } }, 'INVALID_INPUT'],
  [query, 'null', 'INVALID_STDIN'],
  [query, { input: { npc: 42 } }, 'INVALID_INPUT'],
];

test('npc-perception: bad stdin or input gives one error event and done ok:false, never a stack trace', async () => {
  await withDataDir(async (dir) => {
    await mapLimit(badRuns, parallel, async ([script, stdin, code]) => {
      const run = await runScript(script, stdin, options(dir));
      const { events, done } = assertProtocol(run);
      assert.equal(done.ok, false, JSON.stringify(stdin));
      const errors = eventsOfType(events, 'error');
      assert.equal(errors.length, 1);
      assert.equal(errors[0]!.errorCode, code, JSON.stringify(stdin));
      assert.equal(eventsOfType(events, 'state_patch').length, 0);
      assert.doesNotMatch(run.stdout, /\n\s+at /);
    });
    await assert.rejects(fs.access(path.join(dir, 'perceptions.json')), 'nothing was stored');
  });
});
