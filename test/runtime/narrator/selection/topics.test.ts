// Unit tests of the bundled topics of story-game English (topics.txt): the file parses whole, a word relates to its topics and a topic to its words (never words of one topic to each other), a missing or malformed file is no topics; selection finds a skill through them and says so.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadTopics, topics, topicsFile } from '../../../../src/runtime/narrator/selection/relatedness/topics.js';
import { selectSkills } from '../../../../src/runtime/narrator/selection/skillSelection.js';
import { DEFAULT_TUNING, useTuning } from '../../../../src/runtime/narrator/selection/selectionTuning.js';
import { buildPatternPlan } from '../../../../src/runtime/narrator/patternNarrator.js';
import { explanationLines } from '../../../../src/runtime/narrator/planExplanation.js';
import type { NarratorSkill } from '../../../../src/runtime/skills/skillTypes.js';
import { seedOnlySkill as skill } from './seedOnlySkill.js';

test('the bundled topics load once, from beside the sources, every line well formed: hundreds of topics', () => {
  const loaded = topics();
  assert.ok(loaded, `topics at ${topicsFile()} (null: missing, or a malformed or repeated line)`);
  assert.ok(loaded.size > 300, `${loaded.size} topics`);
  assert.equal(topics(), loaded, 'loaded once per process');
  assert.ok(loaded.relatedTo('o2').includes('oxygen'), 'o2 → oxygen');
  assert.ok(loaded.relatedTo('oxygen').includes('o2'), 'oxygen → o2');
  assert.ok(loaded.relatedTo('safecracker').includes('heist'), 'safecracker → heist');
  // A WordNet word of its own is not taken apart into a base form that a topic has.
  for (const word of ['caring', 'coping', 'bared']) assert.deepEqual(loaded.relatedTo(word), [], word);
});

test('a word relates to its topics, a topic to its words, words of one topic not to each other; base forms reach their word', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-topics-'));
  try {
    const file = path.join(folder, 'topics.txt');
    writeFileSync(file, '\uFEFF# a comment\r\nrumour: gossip, whisper, news \r\n\r\nnews: herald, gazette\r\npotion: elixir, potions\r\n');
    const tiny = loadTopics(file)!;
    assert.equal(tiny.size, 3);
    assert.deepEqual(tiny.relatedTo('potions'), ['potion'], "a plural listed as its topic's word relates to the topic only");
    assert.deepEqual(tiny.relatedTo('whisper'), ['rumour'], 'a word → its topic, not "news" or "gossip"');
    assert.deepEqual(tiny.relatedTo('whispers'), ['rumour'], 'a plural reaches its word');
    assert.deepEqual([...tiny.relatedTo('rumour')].sort(), ['gossip', 'news', 'whisper'], 'a topic → its words');
    assert.deepEqual([...tiny.relatedTo('news')].sort(), ['gazette', 'herald', 'rumour'], 'a word that is also a topic: both ways');
    assert.deepEqual(tiny.relatedTo('weather'), [], 'an unknown word relates to nothing');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('a missing, malformed or repeated-topic file is no topics: selection goes on without them', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-topics-'));
  try {
    assert.equal(loadTopics(path.join(folder, 'missing.txt')), null);
    const malformed = path.join(folder, 'malformed.txt');
    writeFileSync(malformed, 'rumour: gossip, Whisper\n');
    assert.equal(loadTopics(malformed), null, 'capitals are not allowed');
    const repeated = path.join(folder, 'repeated.txt');
    writeFileSync(repeated, 'rumour: gossip\nrumour: whisper\n');
    assert.equal(loadTopics(repeated), null, 'a topic appears once');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

// Seed-only manifests: no keywords, no examples.
const skills: NarratorSkill[] = [
  skill('storyteller', 'Narrates the story.', ['narration'], 'Narrates the outcome.'),
  skill(
    'life-support',
    "Keeps track of the suit's oxygen and power during a spacewalk, and warns before the air runs out.",
    ['oxygen', 'suit power'],
    'Reports how much oxygen is left and how long it will last.',
  ),
  skill('cargo-manifest', 'Lists the crates in the hold, their owners and their weight.', ['cargo', 'crates'], 'Lists what the hold carries.'),
  skill('star-charts', 'Plots courses between the systems and estimates the jump time.', ['navigation', 'courses'], 'Plots a course to a named system.'),
];

test('selection: a word no manifest uses finds a skill through its topic, and the plan says through which word', () => {
  useTuning(DEFAULT_TUNING);
  try {
    const input = 'check my o2';
    const selection = selectSkills(input, skills);
    assert.deepEqual(
      selection.selected.map((each) => each.skill.name),
      ['life-support'],
    );
    assert.ok(
      selection.selected[0]!.evidence.some((each) => each.word === 'o2' && each.related === 'oxygen'),
      JSON.stringify(selection.selected[0]!.evidence),
    );
    const plan = buildPatternPlan({ input, skills, disabledSkills: [], attempt: 1, parentPlanId: null });
    assert.ok(
      explanationLines(plan).some((line) => line.includes('"o2" (as "oxygen")')),
      explanationLines(plan).join('\n'),
    );
    // Without the topics, nothing relates "o2" to the manifest.
    useTuning({ ...DEFAULT_TUNING, topicWeight: 0 });
    assert.ok(!selectSkills(input, skills).selected.some((each) => each.skill.name === 'life-support' && !each.byMeaning));
  } finally {
    useTuning(DEFAULT_TUNING);
  }
});
