// Tests of the memory skill: manifest and schemas, and the store / recall scripts run for real (the story's voice, significance words, ranking by words and by meaning, filters, limit, recap queries, persistence, pruning, concurrency).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { createAjv } from '../../src/runtime/contracts/schemas.js';
import { wordVectorsFile } from '../../src/runtime/process/scriptEnvironment.js';
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

const skillDir = path.join(skillsRoot, 'memory');
const store = path.join(skillDir, 'scripts', 'store.js');
const recall = path.join(skillDir, 'scripts', 'recall.js');
const parallel = Math.max(2, Math.min(8, os.availableParallelism()));

interface Memory {
  id: string;
  summary: string;
  relevance: number;
  characters: string[];
  location: string | null;
  significance: number;
  tags: string[];
  timestamp: string;
}
interface RecallOutput {
  memories: Memory[];
  mode: 'relevance' | 'recent' | 'empty';
  method: string;
  total: number;
}

async function withDataDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'narratoria-memory-'));
  try {
    return await body(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The runtime's word vectors, as a plan run passes them (NARRATORIA_WORD_VECTORS). */
const vectors = wordVectorsFile();

function options(dir: string, config?: Record<string, unknown>, env: Record<string, string | undefined> = {}): RunOptions {
  // Without vectors unless a test asks: the host running the tests may set the variable.
  return { env: { NARRATORIA_SKILL_DATA: dir, NARRATORIA_WORD_VECTORS: undefined, ...env }, ...(config ? { config } : {}) };
}

async function storeOne(
  dir: string,
  input: Record<string, unknown>,
  config?: Record<string, unknown>,
): Promise<{ id: string; count: number; pruned: number; patch: Record<string, unknown> }> {
  const run = await runScript(store, { requestId: 's1', tool: 'store1', input, dependencies: {}, state: {} }, options(dir, config));
  const { events, done } = assertProtocol(run);
  assert.equal(done.ok, true, run.stdout);
  const patches = eventsOfType(events, 'state_patch');
  assert.equal(patches.length, 1);
  const output = done.output as { id: string; count: number; pruned: number };
  assert.match(output.id, /^mem-[a-z0-9]+-[0-9a-f]{6}$/);
  return { ...output, patch: patches[0]!.patch };
}

async function recallQuery(
  dir: string,
  input: Record<string, unknown>,
  config?: Record<string, unknown>,
  env?: Record<string, string | undefined>,
): Promise<RecallOutput & { ui: Record<string, unknown> | undefined; logs: { level: string; message: string }[]; summary: string }> {
  const run = await runScript(recall, { requestId: 'r1', tool: 'recall1', input, dependencies: {}, state: {} }, options(dir, config, env));
  const { events, done } = assertProtocol(run);
  assert.equal(done.ok, true, run.stdout);
  const output = done.output as unknown as RecallOutput;
  const uis = eventsOfType(events, 'ui_event');
  assert.equal(uis.length, 1);
  assert.equal(uis[0]!.event, 'memory_recall');
  // The UI event shows the same memories, best first.
  assert.deepEqual(
    uis[0]!.payload?.['memories'] as { id: string; summary: string; relevance: number }[],
    output.memories.map(({ id, summary, relevance }) => ({ id, summary, relevance })),
  );
  for (let i = 0; i < output.memories.length; i++) {
    const memory = output.memories[i]!;
    assert.ok(memory.relevance >= 0 && memory.relevance <= 1, `relevance ${memory.relevance} in 0..1`);
    if (i > 0) assert.ok(output.memories[i - 1]!.relevance >= memory.relevance, 'sorted by relevance');
  }
  return {
    ...output,
    ui: uis[0]!.payload,
    logs: eventsOfType(events, 'log').map((event) => ({ level: event.level, message: event.message })),
    summary: done.summary ?? '',
  };
}

const story: Record<string, unknown>[] = [
  {
    summary: 'Mira the smuggler stole the harbour map from the customs house',
    characters: ['Mira'],
    location: 'Port Vell harbour',
    significance: 4,
    tags: ['theft', 'map'],
  },
  { summary: 'The party rested at the Gilded Goose and drank too much ale', location: 'Gilded Goose inn', significance: 1 },
  { summary: 'Captain Vey threatened to hang anyone helping the smugglers', characters: ['Captain Vey'], location: 'Port Vell harbour', significance: 3 },
  { summary: 'A red dragon was seen flying over the northern mountains', significance: 5, tags: ['dragon', 'omen'] },
  { summary: 'Old Hesk the merchant was trading spices for silver', characters: ['Old Hesk'], location: 'Port Vell market', significance: 2 },
  {
    summary: 'Captain Vey and Mira argued on the pier about the missing cargo',
    characters: ['Captain Vey', 'Mira'],
    location: 'Port Vell harbour',
    significance: 3,
  },
];

/** Stores the story memories one after another (order matters for recency) and returns their ids. */
async function seed(dir: string): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, memory] of story.entries()) {
    const stored = await storeOne(dir, memory);
    assert.equal(stored.count, index + 1);
    ids.push(stored.id);
  }
  return ids;
}

test('memory: skill.json, config schema, input schemas and prompt are valid', async () => {
  const manifest = await loadValidManifest(skillDir);
  assert.equal(manifest.name, 'memory');
  assert.deepEqual(manifest.capabilities, ['memory', 'recall']);
  assert.deepEqual(
    manifest.scripts?.map((script) => [script.name, script.path, script.inputSchema]),
    [
      ['store', 'scripts/store.js', 'scripts/store.input.schema.json'],
      ['recall', 'scripts/recall.js', 'scripts/recall.input.schema.json'],
    ],
  );
  await assertScripts(skillDir, manifest);
  assert.deepEqual(await assertValidConfigSchema(skillDir), { maxMemories: 1000, embeddingModel: '' });
  const prompt = await fs.readFile(path.join(skillDir, 'prompt.md'), 'utf8');
  assert.ok(prompt.length > 1000 && prompt.includes('significance') && prompt.includes('recall'), 'prompt.md is a real prompt');

  const ajv = createAjv();
  const storeInput = ajv.compile((await readJson(path.join(skillDir, 'scripts', 'store.input.schema.json'))) as object);
  assert.ok(storeInput({ summary: 'Mira stole the map' }));
  assert.ok(storeInput(story[0]));
  assert.ok(!storeInput({}));
  assert.ok(!storeInput({ summary: 'x', significance: 6 }));
  for (const word of ['low', 'medium', 'high', 'critical']) assert.ok(storeInput({ summary: 'x', significance: word }), word);
  assert.ok(!storeInput({ summary: 'x', significance: 'huge' }));
  assert.ok(!storeInput({ summary: 'x', significance: '4' }));
  assert.ok(!storeInput({ summary: 'x', characters: 'Mira' }));
  const recallInput = ajv.compile((await readJson(path.join(skillDir, 'scripts', 'recall.input.schema.json'))) as object);
  assert.ok(recallInput({ query: 'map', limit: 3, filters: { character: 'Mira', location: 'harbour', minSignificance: 2 } }));
  assert.ok(!recallInput({}));
  assert.ok(!recallInput({ query: 'map', limit: 0 }));
  assert.ok(!recallInput({ query: 'map', filters: { minSignificance: 9 } }));
  assert.ok(recallInput({ query: 'map', filters: { minSignificance: 'high' } }));
});

test('memory: store appends JSON lines with an id and timestamp and patches memory.count / lastStored', async () => {
  await withDataDir(async (dir) => {
    const first = await storeOne(dir, { summary: '  Mira   stole the map  ', characters: ['Mira', 'mira', ' '], tags: ['theft'] });
    assert.equal(first.count, 1);
    assert.equal(first.pruned, 0);
    assert.deepEqual(first.patch, { memory: { count: 1, lastStored: { id: first.id, summary: 'Mira stole the map' } } });
    const second = await storeOne(dir, { summary: 'Vey arrived', significance: 5 });
    assert.equal(second.count, 2);
    assert.notEqual(second.id, first.id);
    const lines = (await fs.readFile(path.join(dir, 'memories.jsonl'), 'utf8')).split('\n');
    assert.equal(lines.pop(), '', 'the store ends with a newline');
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(records.length, 2);
    assert.deepEqual(records[0], {
      id: first.id,
      timestamp: records[0]!['timestamp'],
      summary: 'Mira stole the map',
      characters: ['Mira'],
      location: null,
      significance: 3,
      tags: ['theft'],
    });
    assert.ok(!Number.isNaN(Date.parse(records[0]!['timestamp'] as string)));
    assert.equal(records[1]!['significance'], 5);
  });
});

test('memory: the same memory stored again (a replanned turn) is kept once, and the store says it was already remembered', async () => {
  await withDataDir(async (dir) => {
    const first = await storeOne(dir, { summary: 'Mira gave you a silver key', characters: ['Mira'] });
    const again = await storeOne(dir, { summary: '  mira gave you a  silver key ', characters: ['mira'] });
    assert.equal(again.id, first.id);
    assert.equal(again.count, 1);
    assert.equal((again as unknown as { repeated?: boolean }).repeated, true);
    const other = await storeOne(dir, { summary: 'Mira gave you a silver key', characters: ['Mira'], location: 'the Rusty Anchor' });
    assert.notEqual(other.id, first.id, 'a memory with another place is another memory');
    const lines = (await fs.readFile(path.join(dir, 'memories.jsonl'), 'utf8')).trim().split('\n');
    assert.equal(lines.length, 2);
  });
});

test('memory: recall ranks the relevant memory first, honours limit and filters, and persists across processes', async () => {
  await withDataDir(async (dir) => {
    const ids = await seed(dir);
    const [map, , veyThreat, dragon, hesk, pier] = ids;

    const byMap = await recallQuery(dir, { query: 'Who stole the map?' });
    assert.equal(byMap.mode, 'relevance');
    assert.equal(byMap.method, 'lexical');
    assert.equal(byMap.total, 6);
    assert.equal(byMap.memories[0]!.id, map);
    assert.deepEqual(byMap.memories[0]!.characters, ['Mira']);
    assert.equal(byMap.memories[0]!.location, 'Port Vell harbour');
    assert.ok(byMap.memories[0]!.relevance > 0.3);

    const byDragon = await recallQuery(dir, { query: 'dragons in the mountains' });
    assert.equal(byDragon.memories[0]!.id, dragon);
    assert.equal(byDragon.memories.length, 1, 'only matching memories are returned');

    // Stemming: "traded" finds "trading", "merchants" finds "merchant".
    const byTrade = await recallQuery(dir, { query: 'which merchants traded silver' });
    assert.equal(byTrade.memories[0]!.id, hesk);

    // Names weigh more than summary words; both Vey memories come before the others.
    const byVey = await recallQuery(dir, { query: 'Captain Vey' });
    assert.deepEqual(new Set(byVey.memories.slice(0, 2).map((memory) => memory.id)), new Set([veyThreat, pier]));

    const limited = await recallQuery(dir, { query: 'Port Vell harbour', limit: 2 });
    assert.equal(limited.memories.length, 2);
    const unlimited = await recallQuery(dir, { query: 'Port Vell harbour' });
    assert.ok(unlimited.memories.length >= 4);
    assert.deepEqual(limited.memories, unlimited.memories.slice(0, 2));

    const mira = await recallQuery(dir, { query: 'harbour', filters: { character: 'mira' } });
    assert.deepEqual(new Set(mira.memories.map((memory) => memory.id)), new Set([map, pier]));
    const market = await recallQuery(dir, { query: 'Port Vell', filters: { location: 'market' } });
    assert.deepEqual(
      market.memories.map((memory) => memory.id),
      [hesk],
    );
    const significant = await recallQuery(dir, { query: 'Port Vell harbour market', filters: { minSignificance: 3 } });
    assert.ok(significant.memories.length > 0);
    for (const memory of significant.memories) assert.ok(memory.significance >= 3);
    const none = await recallQuery(dir, { query: 'map', filters: { character: 'Old Hesk' } });
    assert.deepEqual(none.memories, []);

    const unknown = await recallQuery(dir, { query: 'elephants juggling' });
    assert.equal(unknown.mode, 'relevance');
    assert.deepEqual(unknown.memories, []);
  });
});

test('memory: a "what happened" query without a strong match returns recent and significant memories', async () => {
  await withDataDir(async (dir) => {
    const empty = await recallQuery(dir, { query: 'What happened so far?' });
    assert.equal(empty.mode, 'empty');
    assert.deepEqual(empty.memories, []);

    const ids = await seed(dir);
    for (const query of ['What happened so far?', 'remind me', '', 'recap']) {
      const recap = await recallQuery(dir, { query, limit: 3 });
      assert.equal(recap.mode, 'recent', query);
      assert.equal(recap.memories.length, 3);
      for (const memory of recap.memories) assert.ok(memory.relevance < 0.3, 'not presented as a strong match');
      // The newest memory and the story-changing dragon lead; the trivial inn visit does not appear.
      assert.deepEqual(new Set(recap.memories.slice(0, 2).map((memory) => memory.id)), new Set([ids[5], ids[3]]));
      assert.ok(!recap.memories.some((memory) => memory.id === ids[1]));
    }
    // A recap question about something specific that is remembered ranks by relevance.
    const specific = await recallQuery(dir, { query: 'What happened with the dragon?' });
    assert.equal(specific.mode, 'relevance');
    assert.equal(specific.memories[0]!.id, ids[3]);
  });
});

test('memory: maxMemories prunes the least significant, oldest memories first and keeps the new one', async () => {
  await withDataDir(async (dir) => {
    const config = { maxMemories: 3 };
    const stored: { id: string; count: number; pruned: number }[] = [];
    for (const [summary, significance] of [
      ['ancient prophecy', 5],
      ['spilled ale', 1],
      ['met the ferryman', 3],
      ['lost a boot', 1],
      ['crowned the heir', 4],
    ] as const) {
      stored.push(await storeOne(dir, { summary, significance }, config));
    }
    assert.deepEqual(
      stored.map((entry) => [entry.count, entry.pruned]),
      [
        [1, 0],
        [2, 0],
        [3, 0],
        [3, 1],
        [3, 1],
      ],
    );
    const kept = (await fs.readFile(path.join(dir, 'memories.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { summary: string }).summary);
    assert.deepEqual(kept, ['ancient prophecy', 'met the ferryman', 'crowned the heir']);
    // A new trivial memory is kept even when everything else is more significant.
    const trivial = await storeOne(dir, { summary: 'sneezed loudly', significance: 1 }, config);
    assert.equal(trivial.count, 3);
    const recalled = await recallQuery(dir, { query: 'sneezed' });
    assert.equal(recalled.memories[0]!.id, trivial.id);
    assert.equal(recalled.total, 3);
  });
});

test('memory: concurrent stores never lose a memory', async () => {
  await withDataDir(async (dir) => {
    const results = await mapLimit(
      Array.from({ length: 8 }, (_, i) => i),
      Math.max(parallel, 4),
      (i) => storeOne(dir, { summary: `event number ${i}`, tags: [`t${i}`] }),
    );
    const lines = (await fs.readFile(path.join(dir, 'memories.jsonl'), 'utf8')).trim().split('\n');
    assert.equal(lines.length, 8);
    assert.equal(new Set(lines.map((line) => (JSON.parse(line) as { id: string }).id)).size, 8);
    assert.deepEqual(new Set(results.map((result) => result.id)), new Set(lines.map((line) => (JSON.parse(line) as { id: string }).id)));
    assert.deepEqual(
      [...results.map((result) => result.count)].sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    const entries = await fs.readdir(dir);
    assert.deepEqual(entries, ['memories.jsonl'], 'no lock or temporary file is left behind');
  });
});

test('memory: an unreadable line is skipped with a warning; the rest is recalled', async () => {
  await withDataDir(async (dir) => {
    await storeOne(dir, { summary: 'The lighthouse keeper vanished' });
    await fs.appendFile(path.join(dir, 'memories.jsonl'), '{"id": "torn', 'utf8');
    const result = await recallQuery(dir, { query: 'lighthouse' });
    assert.equal(result.memories.length, 1);
    assert.ok(result.logs.some((entry) => entry.level === 'warn' && /unreadable/.test(entry.message)));
    // The next store starts on a fresh line and drops the torn one when it rewrites the store.
    const next = await storeOne(dir, { summary: 'The keeper returned' });
    assert.equal(next.count, 2);
    const again = await recallQuery(dir, { query: 'keeper' });
    assert.equal(again.memories.length, 2);
  });
});

test('memory: an embeddingModel that is not available warns and falls back to lexical ranking', async () => {
  await withDataDir(async (dir) => {
    await storeOne(dir, { summary: 'The bell tower collapsed during the storm' });
    const result = await recallQuery(dir, { query: 'bell tower' }, { embeddingModel: 'all-MiniLM-L6-v2' });
    assert.equal(result.method, 'lexical');
    assert.equal(result.memories.length, 1);
    assert.ok(result.logs.some((entry) => entry.level === 'warn' && entry.message.includes('all-MiniLM-L6-v2')));
    const quiet = await recallQuery(dir, { query: 'bell tower' });
    assert.ok(!quiet.logs.some((entry) => entry.level === 'warn'));
  });
});

test('memory: without NARRATORIA_SKILL_DATA the store lives in <skill dir>/data', async () => {
  await withDataDir(async (dir) => {
    await fs.copyFile(path.join(skillDir, 'config-schema.json'), path.join(dir, 'config-schema.json'));
    const env = { NARRATORIA_SKILL_DIR: dir, NARRATORIA_SKILL_DATA: undefined };
    const run = assertProtocol(await runScript(store, { input: { summary: 'Stored beside the skill' } }, { env }));
    assert.equal(run.done.ok, true);
    assert.match(await fs.readFile(path.join(dir, 'data', 'memories.jsonl'), 'utf8'), /Stored beside the skill/);
    const found = assertProtocol(await runScript(recall, { input: { query: 'beside' } }, { env }));
    assert.equal((found.done.output as unknown as RecallOutput).memories.length, 1);
  });
});

/** Records of the store file, oldest first. */
async function storedRecords(dir: string): Promise<Record<string, unknown>[]> {
  return (await fs.readFile(path.join(dir, 'memories.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** First-person words of the player, which a memory told back must never hold. */
const FIRST_PERSON = /\b(?:I|me|my|mine|myself|we|us|our|ours|ourselves)\b|\bI['’]/i;

test("memory: store keeps the summary in the story's voice: the request framing dropped, the player in the second person", async () => {
  await withDataDir(async (dir) => {
    const stored = await storeOne(dir, { summary: 'Remember that Mira gave me a silver key', characters: ['Mira'] });
    const [record] = await storedRecords(dir);
    assert.equal(record!['summary'], 'Mira gave you a silver key');
    assert.deepEqual(stored.patch, { memory: { count: 1, lastStored: { id: stored.id, summary: 'Mira gave you a silver key' } } });
    assert.doesNotMatch(String(record!['summary']), /remember/i);
    assert.doesNotMatch(String(record!['summary']), FIRST_PERSON);
  });
});

test("memory: the story's voice drops each kind of request framing, keeps quoted words, names and facts, and leaves a told memory as it is", () => {
  const { summaryInStoryVoice } = createRequire(import.meta.url)(path.join(skillDir, 'lib', 'storyVoice.js')) as {
    summaryInStoryVoice: (text: string) => string;
  };
  const cases: [string, string][] = [
    ['Remember that Mira gave me a silver key', 'Mira gave you a silver key'],
    ['Note that the bridge to Duskmere is out', 'The bridge to Duskmere is out'],
    ["Don't forget I owe Captain Vey 20 gold", 'You owe Captain Vey 20 gold'],
    ['I want to remember that we lost our map in Port Vell', 'You lost your map in Port Vell'],
    ['Make a note: Old Hesk lied to me about the cargo', 'Old Hesk lied to you about the cargo'],
    ['Please remember: my sister lives by the lighthouse.', 'Your sister lives by the lighthouse.'],
    ['Okay, note to self: the old mine is flooded', 'The old mine is flooded'],
    ["Remember that the key is mine, not Mira's", "The key is yours, not Mira's"],
    ['Mira told me "I will wait for you at the inn", remember that.', 'Mira told you "I will wait for you at the inn".'],
    ['Remember to ask Mira about the key', 'You mean to ask Mira about the key'],
    ["I wasn't at the docks when the ship burned, don't forget", "You weren't at the docks when the ship burned"],
    // Already in the story's voice: unchanged, so reading a memory back twice changes nothing.
    ['Mira gave you a silver key', 'Mira gave you a silver key'],
    ['Mira the smuggler stole the harbour map from the customs house', 'Mira the smuggler stole the harbour map from the customs house'],
    ['met the ferryman', 'met the ferryman'],
  ];
  for (const [said, told] of cases) {
    assert.equal(summaryInStoryVoice(said), told, said);
    assert.equal(summaryInStoryVoice(told), told, `${told} read back`);
  }
});

test('memory: significance in words is accepted and stored on the 1-5 scale (low 2, medium 3, high 4, critical 5)', async () => {
  await withDataDir(async (dir) => {
    for (const [at, word] of ['high', 'low', 'medium', 'critical', 'High'].entries()) {
      await storeOne(dir, { summary: `event ${at}, a ${word} one`, significance: word });
    }
    await storeOne(dir, { summary: 'an integer event', significance: 1 });
    assert.deepEqual(
      (await storedRecords(dir)).map((record) => record['significance']),
      [4, 2, 3, 5, 4, 1],
    );
    const important = await recallQuery(dir, { query: 'event', filters: { minSignificance: 'high' } });
    assert.deepEqual(new Set(important.memories.map((memory) => memory.significance)), new Set([4, 5]));
  });
});

test('memory: with the runtime\'s word vectors, recall ranks by meaning too: "Have I met the innkeeper?" finds the memory of the inn', async () => {
  assert.ok(vectors, 'the runtime bundles word vectors');
  await withDataDir(async (dir) => {
    await seed(dir);
    const inn = await storeOne(dir, { summary: 'Mira, who runs the inn, poured you a drink', characters: ['Mira'] });
    await storeOne(dir, { summary: 'The blacksmith forged you a new sword' });
    const dusk = await storeOne(dir, { summary: 'At dusk the chapel bells rang' });
    const withVectors = { NARRATORIA_WORD_VECTORS: vectors };

    const byMeaning = await recallQuery(dir, { query: 'Have I met the innkeeper?' }, undefined, withVectors);
    assert.equal(byMeaning.method, 'lexical+vectors');
    assert.equal(byMeaning.mode, 'relevance');
    assert.equal(byMeaning.memories[0]?.id, inn.id, JSON.stringify(byMeaning.memories));
    assert.equal(byMeaning.memories[0]!.summary, 'Mira, who runs the inn, poured you a drink');
    // Words alone do not find it: no word of the query is in the memory.
    const byWords = await recallQuery(dir, { query: 'Have I met the innkeeper?' });
    assert.equal(byWords.method, 'lexical');
    assert.ok(!byWords.memories.some((memory) => memory.id === inn.id));

    const tavern = await recallQuery(dir, { query: 'Have I been to the tavern?' }, undefined, withVectors);
    assert.equal(tavern.memories[0]?.id, inn.id, JSON.stringify(tavern.memories));
    // Words still lead where they match, and nothing is made up for words no memory is near.
    const byMap = await recallQuery(dir, { query: 'Who stole the map?' }, undefined, withVectors);
    assert.match(byMap.memories[0]!.summary, /stole the harbour map/);
    const unknown = await recallQuery(dir, { query: 'elephants juggling' }, undefined, withVectors);
    assert.deepEqual(unknown.memories, []);
    // A name is never cut into words: Duskmere is no dusk.
    const place = await recallQuery(dir, { query: 'Have I been to Duskmere before?' }, undefined, withVectors);
    assert.ok(!place.memories.some((memory) => memory.id === dusk.id), JSON.stringify(place.memories));
    const recap = await recallQuery(dir, { query: 'What happened so far?', limit: 3 }, undefined, withVectors);
    assert.equal(recap.mode, 'recent');

    // A vectors file that cannot be read: a warning, and words alone.
    const missing = await recallQuery(dir, { query: 'Have I met the innkeeper?' }, undefined, { NARRATORIA_WORD_VECTORS: path.join(dir, 'no-vectors.bin') });
    assert.equal(missing.method, 'lexical');
    assert.ok(missing.logs.some((entry) => entry.level === 'warn' && /word vectors/.test(entry.message)));
  });
});

test('memory: memories an older version stored in the first person are told back in the second person', async () => {
  await withDataDir(async (dir) => {
    const old = [
      {
        id: 'mem-old-1',
        timestamp: '2025-05-01T18:22:03.120Z',
        summary: 'Remember that Mira gave me a silver key',
        characters: ['Mira'],
        location: null,
        significance: 3,
        tags: [],
      },
      {
        id: 'mem-old-2',
        timestamp: '2025-05-01T18:25:00.000Z',
        summary: 'I promised Mira that we would find her brother',
        characters: ['Mira'],
        location: 'the Rusty Anchor',
        significance: 4,
        tags: ['promise'],
      },
      {
        id: 'mem-old-3',
        timestamp: '2025-05-01T18:30:00.000Z',
        summary: 'Note that my sword is mine and I keep it in our room',
        characters: [],
        location: null,
        significance: 2,
        tags: [],
      },
    ];
    await fs.writeFile(path.join(dir, 'memories.jsonl'), old.map((memory) => JSON.stringify(memory)).join('\n') + '\n', 'utf8');
    for (const env of [{}, { NARRATORIA_WORD_VECTORS: vectors }]) {
      for (const query of ['Mira', 'silver key', 'the sword', 'What happened so far?']) {
        const result = await recallQuery(dir, { query }, undefined, env);
        assert.ok(result.memories.length > 0, query);
        const told = [
          result.summary,
          ...result.memories.map((memory) => memory.summary),
          ...((result.ui?.['memories'] as { summary: string }[]) ?? []).map((memory) => memory.summary),
        ];
        for (const text of told) assert.doesNotMatch(text, FIRST_PERSON, `${query}: ${text}`);
      }
    }
    const all = await recallQuery(dir, { query: 'Mira' });
    assert.deepEqual(all.memories.map((memory) => memory.summary).sort(), ['Mira gave you a silver key', 'You promised Mira that you would find her brother']);
    const sword = await recallQuery(dir, { query: 'sword' });
    assert.equal(sword.memories[0]!.summary, 'Your sword is yours and you keep it in your room');
    // The store itself is left as it was: recall only reads.
    assert.equal((await storedRecords(dir))[0]!['summary'], 'Remember that Mira gave me a silver key');
  });
});

const badRuns: [string, string, unknown, string][] = [
  ['store', store, '', 'INVALID_STDIN'],
  ['store', store, '{"input": {', 'INVALID_STDIN'],
  ['store', store, '[1]', 'INVALID_STDIN'],
  ['store', store, { input: 'remember this' }, 'INVALID_INPUT'],
  ['store', store, { input: {} }, 'INVALID_INPUT'],
  ['store', store, { input: { summary: '   ' } }, 'INVALID_INPUT'],
  ['store', store, { input: { summary: 'x', significance: 7 } }, 'INVALID_INPUT'],
  ['store', store, { input: { summary: 'x', significance: 2.5 } }, 'INVALID_INPUT'],
  ['store', store, { input: { summary: 'x', significance: 'huge' } }, 'INVALID_INPUT'],
  ['store', store, { input: { summary: 'x', characters: 'Mira' } }, 'INVALID_INPUT'],
  ['store', store, { input: { summary: 'x', location: 5 } }, 'INVALID_INPUT'],
  ['recall', recall, 'not json', 'INVALID_STDIN'],
  ['recall', recall, { input: {} }, 'INVALID_INPUT'],
  ['recall', recall, { input: { query: 'x', limit: 0 } }, 'INVALID_INPUT'],
  ['recall', recall, { input: { query: 'x', filters: [] } }, 'INVALID_INPUT'],
  ['recall', recall, { input: { query: 'x', filters: { minSignificance: 0 } } }, 'INVALID_INPUT'],
  ['recall', recall, { input: { query: 'x', filters: { minSignificance: 'vital' } } }, 'INVALID_INPUT'],
];

test('memory: bad stdin or input gives one error event and done ok:false, never a stack trace', async () => {
  await withDataDir(async (dir) => {
    await mapLimit(badRuns, parallel, async ([name, script, stdin, code]) => {
      const run = await runScript(script, stdin, options(dir));
      const { events, done } = assertProtocol(run);
      assert.equal(done.ok, false, `${name} ${JSON.stringify(stdin)}`);
      const errors = eventsOfType(events, 'error');
      assert.equal(errors.length, 1);
      assert.equal(errors[0]!.errorCode, code, `${name} ${JSON.stringify(stdin)}`);
      assert.equal(eventsOfType(events, 'state_patch').length, 0);
      assert.doesNotMatch(run.stdout, /\n\s+at /);
    });
    await assert.rejects(fs.access(path.join(dir, 'memories.jsonl')), 'nothing was stored');
  });
});
