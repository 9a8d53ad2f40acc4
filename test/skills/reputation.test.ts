// Tests of the reputation skill: manifest and schemas, and the update / query scripts run for real (clamping, decay over time, ranks, unknown factions, persistence).
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

const skillDir = path.join(skillsRoot, 'reputation');
const update = path.join(skillDir, 'scripts', 'update.js');
const query = path.join(skillDir, 'scripts', 'query.js');
const parallel = Math.max(2, Math.min(8, os.availableParallelism()));
const T0 = '2025-03-01T12:00:00.000Z';
const DAY = 24 * 60 * 60 * 1000;
const at = (days: number): string => new Date(Date.parse(T0) + days * DAY).toISOString();

interface Standing {
  standing: number;
  rank: string;
}
interface UpdateOutput extends Standing {
  faction: string;
  delta: number;
  previousStanding: number;
  previousRank: string;
  scale: number;
}
interface QueryOne extends Standing {
  faction: string;
  lastUpdated: string | null;
  scale: number;
}
interface QueryAll {
  factions: Record<string, Standing & { lastUpdated: string | null }>;
  scale: number;
}

async function withDataDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'narratoria-reputation-'));
  try {
    return await body(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function options(dir: string, config?: Record<string, unknown>): RunOptions {
  return { env: { NARRATORIA_SKILL_DATA: dir }, ...(config ? { config } : {}) };
}

async function updateOk(
  dir: string,
  input: Record<string, unknown>,
  config?: Record<string, unknown>,
): Promise<UpdateOutput & { patch: Record<string, unknown>; ui: Record<string, unknown> }> {
  const run = await runScript(update, { requestId: 'u1', tool: 'rep1', input, dependencies: {}, state: {} }, options(dir, config));
  const { events, done } = assertProtocol(run);
  assert.equal(done.ok, true, run.stdout);
  const output = done.output as unknown as UpdateOutput;
  const patches = eventsOfType(events, 'state_patch');
  assert.equal(patches.length, 1);
  assert.deepEqual(patches[0]!.patch, { reputation: { [output.faction]: { standing: output.standing, rank: output.rank } } });
  const uis = eventsOfType(events, 'ui_event');
  assert.equal(uis.length, 1);
  assert.equal(uis[0]!.event, 'reputation_change');
  return { ...output, patch: patches[0]!.patch, ui: uis[0]!.payload ?? {} };
}

async function queryOk<T>(dir: string, input: Record<string, unknown>, config?: Record<string, unknown>): Promise<T & { patch: Record<string, unknown> }> {
  const run = await runScript(query, { input }, options(dir, config));
  const { events, done } = assertProtocol(run);
  assert.equal(done.ok, true, run.stdout);
  const patches = eventsOfType(events, 'state_patch');
  assert.equal(patches.length, 1);
  return { ...(done.output as unknown as T), patch: patches[0]!.patch };
}

test('reputation: skill.json, config schema, input schemas and prompt are valid', async () => {
  const manifest = await loadValidManifest(skillDir);
  assert.equal(manifest.name, 'reputation');
  assert.deepEqual(manifest.capabilities, ['reputation', 'faction', 'standing']);
  assert.deepEqual(
    manifest.scripts?.map((script) => [script.name, script.path]),
    [
      ['update', 'scripts/update.js'],
      ['query', 'scripts/query.js'],
    ],
  );
  await assertScripts(skillDir, manifest);
  const defaults = await assertValidConfigSchema(skillDir);
  assert.deepEqual(defaults, {
    factionList: ['Town Guard', 'Thieves Guild', 'Mages Circle', 'Merchant League', 'Forest Elves'],
    allowNewFactions: false,
    reputationScale: 100,
    decayRate: 0.05,
  });
  const prompt = await fs.readFile(path.join(skillDir, 'prompt.md'), 'utf8');
  assert.ok(prompt.length > 1000 && prompt.includes('exalted') && prompt.includes('delta'), 'prompt.md is a real prompt');

  const ajv = createAjv();
  const updateInput = ajv.compile((await readJson(path.join(skillDir, 'scripts', 'update.input.schema.json'))) as object);
  assert.ok(updateInput({ faction: 'Thieves Guild', delta: -10, reason: 'robbed a fence', now: T0 }));
  assert.ok(!updateInput({ faction: 'Thieves Guild' }));
  assert.ok(!updateInput({ faction: 'Thieves Guild', delta: 1.5 }));
  assert.ok(!updateInput({ faction: 'Thieves Guild', delta: 1, now: 'yesterday' }));
  const queryInput = ajv.compile((await readJson(path.join(skillDir, 'scripts', 'query.input.schema.json'))) as object);
  assert.ok(queryInput({}));
  assert.ok(queryInput({ faction: 'Town Guard', now: T0 }));
  assert.ok(!queryInput({ faction: 3 }));
});

test('reputation: updates add up, clamp to the scale and report ranks, the change event and history', async () => {
  await withDataDir(async (dir) => {
    const first = await updateOk(dir, { faction: 'the thieves\u2019 guild', delta: 55, reason: 'returned the ledger', now: T0 });
    assert.deepEqual(
      {
        faction: first.faction,
        standing: first.standing,
        rank: first.rank,
        delta: first.delta,
        previousStanding: first.previousStanding,
        previousRank: first.previousRank,
        scale: first.scale,
      },
      { faction: 'Thieves Guild', standing: 55, rank: 'honored', delta: 55, previousStanding: 0, previousRank: 'neutral', scale: 100 },
    );
    assert.deepEqual(first.ui, {
      faction: 'Thieves Guild',
      delta: 55,
      previousStanding: 0,
      standing: 55,
      previousRank: 'neutral',
      rank: 'honored',
      rankChanged: true,
      scale: 100,
      reason: 'returned the ledger',
    });
    const capped = await updateOk(dir, { faction: 'Thieves Guild', delta: 500, now: T0 });
    assert.equal(capped.standing, 100);
    assert.equal(capped.rank, 'exalted');
    assert.equal(capped.previousStanding, 55);
    const floored = await updateOk(dir, { faction: 'THIEVES GUILD', delta: -1000, now: T0 });
    assert.equal(floored.standing, -100);
    assert.equal(floored.rank, 'hostile');
    const steady = await updateOk(dir, { faction: 'Thieves Guild', delta: 0, now: T0 });
    assert.equal(steady.ui['rankChanged'], false);

    const stored = (await readJson(path.join(dir, 'reputation.json'))) as {
      factions: Record<string, { standing: number; updatedAt: string; history: { delta: number; reason?: string }[] }>;
    };
    const guild = stored.factions['Thieves Guild']!;
    assert.equal(guild.standing, -100);
    assert.equal(guild.updatedAt, T0);
    assert.deepEqual(
      guild.history.map((entry) => entry.delta),
      [55, 500, -1000, 0],
    );
    assert.equal(guild.history[0]!.reason, 'returned the ledger');
    assert.deepEqual(await fs.readdir(dir), ['reputation.json'], 'no lock or temporary file is left behind');
  });
});

test('reputation: standing decays toward 0 by decayRate per day since the last update', async () => {
  await withDataDir(async (dir) => {
    await updateOk(dir, { faction: 'Town Guard', delta: 50, now: T0 });
    await updateOk(dir, { faction: 'Mages Circle', delta: -80, now: T0 });
    const sameDay = await queryOk<QueryOne>(dir, { faction: 'Town Guard', now: T0 });
    assert.equal(sameDay.standing, 50);
    assert.equal(sameDay.lastUpdated, T0);
    // 50 × 0.95^10 = 29.94 -> 30 (friendly); -80 × 0.95^10 = -47.9 -> -48 (unfriendly).
    const later = await queryOk<QueryAll>(dir, { now: at(10) });
    assert.deepEqual(later.factions['Town Guard'], { standing: 30, rank: 'friendly', lastUpdated: T0 });
    assert.deepEqual(later.factions['Mages Circle'], { standing: -48, rank: 'unfriendly', lastUpdated: T0 });
    assert.deepEqual(later.factions['Forest Elves'], { standing: 0, rank: 'neutral', lastUpdated: null });
    assert.deepEqual(Object.keys(later.factions), ['Town Guard', 'Thieves Guild', 'Mages Circle', 'Merchant League', 'Forest Elves']);
    assert.deepEqual(
      later.patch['reputation'],
      Object.fromEntries(Object.entries(later.factions).map(([name, entry]) => [name, { standing: entry.standing, rank: entry.rank }])),
    );
    // Querying does not reset the clock: the same moment gives the same answer.
    assert.equal((await queryOk<QueryOne>(dir, { faction: 'Town Guard', now: at(10) })).standing, 30);
    // Half a day: 50 × 0.95^0.5 = 48.7 -> 49.
    assert.equal((await queryOk<QueryOne>(dir, { faction: 'Town Guard', now: at(0.5) })).standing, 49);
    // An update applies the decay first: 29.94 + 10 = 39.94 -> 40, and restarts the clock.
    const bumped = await updateOk(dir, { faction: 'Town Guard', delta: 10, now: at(10) });
    assert.equal(bumped.previousStanding, 30);
    assert.equal(bumped.standing, 40);
    assert.equal((await queryOk<QueryOne>(dir, { faction: 'Town Guard', now: at(10) })).standing, 40);
    // A clock before the last update does not decay (nor grow) the standing.
    assert.equal((await queryOk<QueryOne>(dir, { faction: 'Town Guard', now: at(-3) })).standing, 40);
    // decayRate 0 never fades; 1 fades completely after a day.
    assert.equal((await queryOk<QueryOne>(dir, { faction: 'Mages Circle', now: at(365) }, { decayRate: 0 })).standing, -80);
    assert.equal((await queryOk<QueryOne>(dir, { faction: 'Mages Circle', now: at(1) }, { decayRate: 1 })).standing, 0);
  });
});

test('reputation: ranks follow the documented thresholds (as fractions of the scale)', async () => {
  const cases: [number, string][] = [
    [-100, 'hostile'],
    [-60, 'hostile'],
    [-59, 'unfriendly'],
    [-20, 'unfriendly'],
    [-19, 'neutral'],
    [0, 'neutral'],
    [19, 'neutral'],
    [20, 'friendly'],
    [49, 'friendly'],
    [50, 'honored'],
    [84, 'honored'],
    [85, 'exalted'],
    [100, 'exalted'],
  ];
  await withDataDir(async (dir) => {
    const name = (index: number): string => `Faction ${String.fromCharCode(65 + index)}`;
    const config = { factionList: cases.map((_, index) => name(index)), decayRate: 0 };
    const results = await mapLimit(cases, parallel, ([value], index) => updateOk(dir, { faction: name(index), delta: value, now: T0 }, config));
    assert.deepEqual(
      results.map((result) => [result.standing, result.rank]),
      cases,
    );
    // Everything was stored despite the concurrent updates.
    const all = await queryOk<QueryAll>(dir, {}, config);
    assert.deepEqual(
      Object.values(all.factions).map((entry) => [entry.standing, entry.rank]),
      cases,
    );
  });
  await withDataDir(async (dir) => {
    const config = { reputationScale: 10 };
    const six = await updateOk(dir, { faction: 'Town Guard', delta: 6, now: T0 }, config);
    assert.deepEqual([six.standing, six.rank, six.scale], [6, 'honored', 10]);
    const capped = await updateOk(dir, { faction: 'Town Guard', delta: 50, now: T0 }, config);
    assert.deepEqual([capped.standing, capped.rank], [10, 'exalted']);
  });
});

test('reputation: unknown factions are refused unless allowNewFactions is on', async () => {
  await withDataDir(async (dir) => {
    for (const script of [update, query]) {
      const run = await runScript(script, { input: { faction: 'Pirates of the Sable Coast', delta: 5 } }, options(dir));
      const { events, done } = assertProtocol(run);
      assert.equal(done.ok, false);
      const errors = eventsOfType(events, 'error');
      assert.equal(errors.length, 1);
      assert.equal(errors[0]!.errorCode, 'UNKNOWN_FACTION');
      assert.match(errors[0]!.errorMessage, /Thieves Guild/);
      assert.deepEqual(errors[0]!.details?.['known'], ['Town Guard', 'Thieves Guild', 'Mages Circle', 'Merchant League', 'Forest Elves']);
      assert.equal(eventsOfType(events, 'state_patch').length, 0);
    }
    await assert.rejects(fs.access(path.join(dir, 'reputation.json')), 'nothing was stored');

    const config = { allowNewFactions: true };
    const pirates = await updateOk(dir, { faction: 'Pirates of the Sable Coast', delta: -25, now: T0 }, config);
    assert.equal(pirates.faction, 'Pirates of the Sable Coast');
    assert.equal(pirates.rank, 'unfriendly');
    const again = await updateOk(dir, { faction: 'pirates of the sable coast', delta: -5, now: T0 }, config);
    assert.equal(again.faction, 'Pirates of the Sable Coast', 'the stored spelling is kept');
    assert.equal(again.standing, -30);
    const all = await queryOk<QueryAll>(dir, { now: T0 }, config);
    assert.deepEqual(Object.keys(all.factions).at(-1), 'Pirates of the Sable Coast');
    assert.equal(all.factions['Pirates of the Sable Coast']!.standing, -30);
    const unknownQuery = await queryOk<QueryOne>(dir, { faction: 'Sea Witches', now: T0 }, config);
    assert.deepEqual([unknownQuery.standing, unknownQuery.rank, unknownQuery.lastUpdated], [0, 'neutral', null]);
    // With new factions off again, the extra faction is no longer listed.
    const listed = await queryOk<QueryAll>(dir, { now: T0 });
    assert.equal(listed.factions['Pirates of the Sable Coast'], undefined);
  });
});

test('reputation: standings persist across processes and a custom faction list is honoured', async () => {
  await withDataDir(async (dir) => {
    const config = { factionList: ['House Arryn', 'Iron Bank'], decayRate: 0 };
    await updateOk(dir, { faction: 'Iron Bank', delta: 30 }, config);
    await updateOk(dir, { faction: 'iron bank', delta: 30 }, config);
    const one = await queryOk<QueryOne>(dir, { faction: 'IRON BANK' }, config);
    assert.deepEqual([one.faction, one.standing, one.rank, one.scale], ['Iron Bank', 60, 'honored', 100]);
    assert.deepEqual(one.patch, { reputation: { 'Iron Bank': { standing: 60, rank: 'honored' } } });
    const all = await queryOk<QueryAll>(dir, {}, config);
    assert.deepEqual(Object.keys(all.factions), ['House Arryn', 'Iron Bank']);
    const refused = assertProtocol(await runScript(update, { input: { faction: 'Thieves Guild', delta: 1 } }, options(dir, config)));
    assert.equal(refused.done.ok, false);
  });
});

test('reputation: a corrupt store is set aside with a warning', async () => {
  await withDataDir(async (dir) => {
    await fs.writeFile(path.join(dir, 'reputation.json'), '{ not json', 'utf8');
    const read = assertProtocol(await runScript(query, { input: {} }, options(dir)));
    assert.equal(read.done.ok, true);
    assert.ok(eventsOfType(read.events, 'log').some((event) => event.level === 'warn'));
    const written = await updateOk(dir, { faction: 'Town Guard', delta: 5, now: T0 });
    assert.equal(written.standing, 5);
    const files = await fs.readdir(dir);
    assert.ok(
      files.some((file) => file.startsWith('reputation.json.corrupt-')),
      files.join(', '),
    );
  });
});

const badRuns: [string, unknown, string][] = [
  [update, '', 'INVALID_STDIN'],
  [update, '{"input":', 'INVALID_STDIN'],
  [update, { input: [] }, 'INVALID_INPUT'],
  [update, { input: { delta: 5 } }, 'INVALID_INPUT'],
  [update, { input: { faction: 'Town Guard' } }, 'INVALID_INPUT'],
  [update, { input: { faction: 'Town Guard', delta: 2.5 } }, 'INVALID_INPUT'],
  [update, { input: { faction: 'Town Guard', delta: '5' } }, 'INVALID_INPUT'],
  [update, { input: { faction: 'Town Guard', delta: 5, reason: 7 } }, 'INVALID_INPUT'],
  [update, { input: { faction: 'Town Guard', delta: 5, now: 'last tuesday' } }, 'INVALID_INPUT'],
  [query, '"hello"', 'INVALID_STDIN'],
  [query, { input: { faction: 12 } }, 'INVALID_INPUT'],
  [query, { input: { now: '2025-13-45' } }, 'INVALID_INPUT'],
];

test('reputation: bad stdin or input gives one error event and done ok:false, never a stack trace', async () => {
  await withDataDir(async (dir) => {
    await mapLimit(badRuns, parallel, async ([script, stdin, code]) => {
      const run = await runScript(script, stdin, options(dir));
      const { events, done } = assertProtocol(run);
      assert.equal(done.ok, false, JSON.stringify(stdin));
      const errors = eventsOfType(events, 'error');
      assert.equal(errors.length, 1);
      assert.equal(errors[0]!.errorCode, code, JSON.stringify(stdin));
      assert.doesNotMatch(run.stdout, /\n\s+at /);
    });
  });
});
