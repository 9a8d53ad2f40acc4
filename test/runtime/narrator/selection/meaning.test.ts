// Unit tests of the bundled word vectors (GloVe, trimmed by buildVectors.mjs) and of selection's fallback on meaning: the data loads once, known pairs are alike, a foreign file is no data; when no skill's words match, the skill closest in meaning is chosen only when it stands out, and the plan says so.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadVectors, vectorsFile, wordVectors } from '../../../../src/runtime/narrator/selection/relatedness/vectors.js';
import { selectSkills } from '../../../../src/runtime/narrator/selection/skillSelection.js';
import { SkillTopics } from '../../../../src/runtime/narrator/selection/topicSimilarity.js';
import { DEFAULT_TUNING, useTuning } from '../../../../src/runtime/narrator/selection/selectionTuning.js';
import { buildPatternPlan } from '../../../../src/runtime/narrator/patternNarrator.js';
import { explanationLines, selectionOf } from '../../../../src/runtime/narrator/planExplanation.js';
import type { NarratorSkill } from '../../../../src/runtime/skills/skillTypes.js';
import { seedOnlySkill as skill } from './seedOnlySkill.js';
import { SkillRegistry } from '../../../../src/runtime/skills/skillRegistry.js';

test('the bundled word vectors load once, from beside the sources: tens of thousands of words, 100 dimensions', () => {
  const vectors = wordVectors();
  assert.ok(vectors, `vectors at ${vectorsFile()}`);
  assert.ok(vectors.size > 30_000, `${vectors.size} words`);
  assert.equal(vectors.dimensions, 100);
  assert.equal(wordVectors(), vectors, 'loaded once per process');
});

test('known pairs are alike, unrelated ones are not; a plural reaches its word; the most frequent words rank first', () => {
  const vectors = wordVectors()!;
  assert.ok(vectors.similarity('owe', 'debt') > 0.4, 'owe ~ debt');
  assert.ok(vectors.similarity('rain', 'weather') > 0.6, 'rain ~ weather');
  assert.ok(vectors.similarity('sword', 'tuesday') < 0.2, 'sword is not tuesday');
  assert.ok(Math.abs(vectors.similarity('sword', 'sword') - 1) < 1e-3, 'a word is itself');
  assert.equal(vectors.similarity('sword', 'qzxv'), 0, 'an unknown word is like nothing');
  assert.ok(vectors.rankOf('honeycomb') !== undefined, 'honeycomb is known');
  assert.equal(vectors.rankOf('honeycombs'), vectors.rankOf('honeycomb'));
  assert.ok(vectors.rankOf('water')! < vectors.rankOf('honey')!);
});

test('a missing, foreign or truncated file is no vectors: selection goes on without them', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-vectors-'));
  try {
    assert.equal(loadVectors(path.join(folder, 'missing.bin')), null);
    const foreign = path.join(folder, 'foreign.bin');
    writeFileSync(foreign, 'not vectors\n');
    assert.equal(loadVectors(foreign), null);
    const tiny = path.join(folder, 'tiny.bin');
    writeFileSync(tiny, Buffer.concat([Buffer.from('vectors 2 3\ncat\ncats\n', 'latin1'), Buffer.from(new Int8Array([127, 0, 0, 64, 64, 0]).buffer)]));
    const vectors = loadVectors(tiny)!;
    assert.equal(vectors.size, 2);
    assert.ok(Math.abs(vectors.similarity('cat', 'cats') - Math.SQRT1_2) < 1e-6);
    const truncated = path.join(folder, 'truncated.bin');
    writeFileSync(truncated, Buffer.from('vectors 2 3\ncat\ncats\n\x7f', 'latin1'));
    assert.equal(loadVectors(truncated), null);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

const skills: NarratorSkill[] = [
  skill('storyteller', 'Narrates the story.', ['narration'], 'Narrates the outcome.'),
  skill(
    'moneylender',
    'Lends coin at interest and keeps the ledger of what the player must repay.',
    ['loans', 'ledger'],
    'Shows the balance of the loan and when it is due.',
  ),
  skill(
    'stargazing',
    'Reads the constellations and the phases of the moon to tell omens, and finds the way north at night.',
    ['stars', 'omens'],
    'Tells what the night sky shows and what it foretells.',
  ),
  skill('smithy', 'Forges and mends blades, armour and horseshoes at the anvil.', ['forge', 'repairs'], 'Forges or mends an item and says what it costs.'),
];

test("topics: each of the player's words against its closest word of each skill, relative to the skills' mean", () => {
  const topics = new SkillTopics(skills, wordVectors()!, { rarity: 1000, commonRank: 0, centroidShare: 0 });
  const ranking = topics.rank('How much do I still owe?', [1, 2, 3]);
  assert.equal(ranking[0]!.position, 1, JSON.stringify(ranking));
  assert.ok(ranking[0]!.score > 0 && ranking.at(-1)!.score < 0, 'scores are above and below the mean');
  assert.ok(Math.abs(ranking.reduce((sum, each) => sum + each.score, 0)) < 1e-9, 'relative to the mean');
  const [match] = topics.matches('How much do I still owe?', 1);
  assert.equal(match!.word, 'owe');
  assert.match(match!.closest, /^(?:repay|loan|loans|ledger|coin|interest|balance)$/);
  assert.deepEqual(topics.rank('qzxv blorp', [1, 2, 3]), [], 'no word with a vector: no ranking');
  assert.deepEqual(topics.rank('How much do I still owe?', [1]), [], 'one skill alone is compared with nothing');
});

test('topics: closestTwo is the first two of rank, ties kept in the order rank keeps them, for text or its words', () => {
  const topics = new SkillTopics(skills, wordVectors()!, { rarity: 1000, commonRank: 0, centroidShare: 0 });
  const inputs = ['How much do I still owe?', 'Which way is north tonight?', 'Mend my blade', 'qzxv blorp', 'the the the'];
  for (const input of inputs) {
    for (const positions of [[0, 1, 2, 3], [3, 2, 1], [1, 1, 2], [2, 2], [1]]) {
      assert.deepEqual(topics.closestTwo(input, positions), topics.rank(input, positions).slice(0, 2), `${input} ${positions.join(',')}`);
      assert.deepEqual(topics.closestTwo(input.toLowerCase().split(/\W+/).filter(Boolean), positions), topics.closestTwo(input, positions));
    }
  }
});

test("selection: when no skill's words match, the skill closest in meaning is chosen, and the plan says why", () => {
  useTuning(DEFAULT_TUNING);
  const selection = selectSkills('How much do I still owe?', skills);
  assert.deepEqual(
    selection.selected.map((each) => [each.skill.name, each.byMeaning]),
    [['moneylender', true]],
  );
  const plan = buildPatternPlan({ input: 'How much do I still owe?', skills, disabledSkills: [], attempt: 1, parentPlanId: null });
  assert.deepEqual(
    plan.tools.map((tool) => tool.toolPath),
    ['skills/moneylender/scripts/main.js', 'skills/storyteller/scripts/main.js'],
  );
  const explained = selectionOf(plan)!.find((entry) => entry.skill === 'moneylender')!;
  assert.equal(explained.by, 'meaning');
  assert.ok(
    explanationLines(plan).some((line) =>
      /moneylender\/main: no skill's words matched; closest in meaning: "owe" ~ "\w+".* above the compared skills' mean/.test(line),
    ),
    explanationLines(plan).join('\n'),
  );
});

test('selection: two skills of the same content but different names are told apart; a skill alone is compared with nothing', () => {
  useTuning(DEFAULT_TUNING);
  // The comparison is cached by what the skills say: a second set with the same words but other names and paths must get its own skill back.
  const renamed = skills.map((each) =>
    each.name === 'moneylender'
      ? { ...each, name: 'usurer', scripts: each.scripts.map((script) => ({ ...script, toolPath: 'skills/usurer/scripts/main.js' })) }
      : each,
  );
  assert.deepEqual(
    selectSkills('How much do I still owe?', skills).selected.map((each) => each.skill.name),
    ['moneylender'],
  );
  assert.deepEqual(
    selectSkills('How much do I still owe?', renamed).selected.map((each) => [each.skill.name, each.script.toolPath]),
    [['usurer', 'skills/usurer/scripts/main.js']],
  );
  const alone = skills.filter((each) => each.name === 'storyteller' || each.name === 'moneylender');
  assert.deepEqual(selectSkills('How much do I still owe?', alone).selected, [], 'one context skill: nothing to stand out from');
});

test('selection: with the sample skills, plain moves stay narration only; turned off, the fallback chooses nothing', async () => {
  const story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-meaning-'));
  try {
    const registry = await SkillRegistry.load({ root: story, extraSkillRoots: [path.resolve(import.meta.dirname, '..', '..', '..', '..', 'skills')] });
    const samples = registry.narratorSkills();
    registry.dispose();
    useTuning(DEFAULT_TUNING);
    const moves = [
      'I open the door.',
      'I sit by the fire.',
      'I look around.',
      'I knock on the door.',
      'I eat some bread.',
      'I sleep until dawn.',
      'I hide behind the barrels.',
      'I wait for nightfall.',
      'I head north toward the old mill.',
    ];
    for (const input of moves)
      assert.deepEqual(
        selectSkills(input, samples).selected.map((each) => each.skill.name),
        [],
        input,
      );
    useTuning({ ...DEFAULT_TUNING, meaningThreshold: Infinity });
    assert.deepEqual(selectSkills('How much do I still owe?', skills).selected, []);
  } finally {
    useTuning(DEFAULT_TUNING);
    rmSync(story, { recursive: true, force: true });
  }
});

test('selection: a skill chosen on its own words is never second-guessed by meaning', () => {
  useTuning(DEFAULT_TUNING);
  const selection = selectSkills('I take my dented sword to the anvil to be mended.', skills);
  assert.deepEqual(
    selection.selected.map((each) => [each.skill.name, each.byMeaning ?? false]),
    [['smithy', false]],
  );
});
