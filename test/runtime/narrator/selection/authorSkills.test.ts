// Unit tests of skill selection for an author's skill with only the standard manifest fields (docs/design-rules.md#skill-manifests): description evidence on its own, related words, near misses explained, and no portrait for a walk.
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildPatternPlan } from '../../../../src/runtime/narrator/patternNarrator.js';
import { explanationLines, nearMissesOf, nearMissLine, selectionOf } from '../../../../src/runtime/narrator/planExplanation.js';
import { SkillRegistry } from '../../../../src/runtime/skills/skillRegistry.js';
import type { NarratorSkill } from '../../../../src/runtime/skills/skillTypes.js';

/** Two skills as a new author writes them: the standard manifest fields only, no keywords, no examples, no prompt.md. */
const tides: NarratorSkill = {
  name: 'tides',
  displayName: 'Tides',
  description: 'Tells when the water in the harbour is high or low, the strength of the currents, and when it is safe to sail out.',
  capabilities: ['tides', 'sea'],
  priority: 50,
  health: 'healthy',
  scripts: [
    {
      name: 'tide',
      toolPath: 'skills/tides/scripts/tide.js',
      description: 'Reports the tide and the currents at { harbour } today.',
      inputSchema: { type: 'object', properties: { harbour: { type: 'string' } } },
    },
  ],
};
const roads: NarratorSkill = {
  name: 'roads',
  displayName: 'Roads',
  description: 'Knows the roads of the realm and the distances between its towns, in miles and in days on foot.',
  capabilities: ['roads', 'journeys'],
  priority: 50,
  health: 'healthy',
  scripts: [
    {
      name: 'distance',
      toolPath: 'skills/roads/scripts/distance.js',
      description: 'Gives the distance to { town } from where the player is.',
      inputSchema: { type: 'object', properties: { town: { type: 'string' } }, required: ['town'] },
    },
  ],
};

let skills: NarratorSkill[];
before(async () => {
  const story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-author-skills-'));
  try {
    const registry = await SkillRegistry.load({ root: story, extraSkillRoots: [path.resolve(import.meta.dirname, '..', '..', '..', '..', 'skills')] });
    skills = [...registry.narratorSkills(), tides, roads];
    registry.dispose();
  } finally {
    rmSync(story, { recursive: true, force: true });
  }
});

const plan = (input: string) => buildPatternPlan({ input, skills, disabledSkills: [], attempt: 1, parentPlanId: null });
const chosen = (input: string) => [...new Set(plan(input).tools.map((tool) => tool.toolPath.split('/').at(-3)))];

test('a word only one skill\'s description says is enough: "current" finds the tides skill (the issue\'s example)', () => {
  assert.deepEqual(chosen('How strong is the current in the bay?'), ['tides', 'storyteller']);
});

test('a word related by meaning, with no word in common: "far" finds the skill that knows distances', () => {
  const found = plan('How far is it to Greyhaven?');
  assert.ok(
    found.tools.some((tool) => tool.toolPath.includes('/roads/')),
    JSON.stringify(found.tools.map((tool) => tool.toolPath)),
  );
  const why = selectionOf(found)!.find((entry) => entry.skill === 'roads')!;
  assert.ok(
    why.evidence!.some((each) => each.word === 'far'),
    JSON.stringify(why.evidence),
  );
  // The required town is filled from the words.
  assert.equal(found.tools.find((tool) => tool.toolPath.includes('/roads/'))!.input?.['town'], 'Greyhaven');
});

test('near misses: a skill that matched some words and stayed out is in metadata.nearMisses and in the explanation, with where it matched', () => {
  // "water" is said by the tides skill's description alone: chosen. "watch" reaches the dice roller's description
  // only as a related word ("view"): not enough.
  const found = plan('I watch the water.');
  assert.deepEqual(chosen('I watch the water.'), ['tides', 'storyteller']);
  const misses = nearMissesOf(found);
  const dice = misses.find((miss) => miss.skill === 'dice-roller');
  assert.ok(dice, JSON.stringify(misses));
  assert.equal(dice.reason, 'below-threshold');
  assert.ok(dice.score < dice.threshold);
  assert.deepEqual(
    dice.evidence.map((each) => [each.word, each.related, each.fields]),
    [['watch', 'view', ['description']]],
  );
  assert.match(nearMissLine(dice), /^dice-roller stayed out: [\d.]+ < [\d.]+ \(matched "watch" \(as "view"\) in the description only\)$/);
  assert.ok(explanationLines(found).some((line) => line.startsWith('dice-roller stayed out')));
});

test('a related word is shown with the manifest word it stands for', () => {
  const why = selectionOf(plan('How far is it to Greyhaven?'))!.find((entry) => entry.skill === 'roads')!;
  const line = explanationLines(plan('How far is it to Greyhaven?')).find((each) => each.includes('roads/distance'))!;
  assert.ok(why.evidence!.length > 0);
  assert.match(line, /"far"/);
});
