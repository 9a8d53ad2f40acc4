// The rules grammar (2d6 bands by default, world/rules.md's own), the campaign's choices (ids as acts, ids a move takes) and the meaning judge.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { DEFAULT_RULES, outcomeOfTotal, parseRules, statedFormula } from '../../../../src/runtime/campaign/play/rules.js';
import { mergedChoices, takenIds } from '../../../../src/runtime/campaign/play/storyChoices.js';
import { idAsAct, plainParagraphs } from '../../../../src/runtime/campaign/play/storyText.js';
import { ENDING_THRESHOLD, judgeByMeaning } from '../../../../src/runtime/campaign/play/meaningJudge.js';
import { storyEnding } from '../../../../src/runtime/campaign/play/storyCampaign.js';

test('the default rules are 2d6: 2-6 failure, 7-9 partial, 10-12 success', () => {
  assert.equal(DEFAULT_RULES.formula, '2d6');
  assert.deepEqual(
    [2, 6, 7, 9, 10, 12].map((total) => outcomeOfTotal(DEFAULT_RULES, total)),
    ['failure', 'failure', 'partial', 'partial', 'success', 'success'],
  );
  assert.equal(parseRules('').source, 'default');
});

test('world/rules.md states its own formula and bands, in words or in notation', () => {
  const starter = parseRules(
    `# Rules\n\nRoll two six-sided dice and add the bonus.\n\n- **10 or more**: it works.\n- **7 to 9**: it works at a cost.\n- **6 or less**: it goes wrong.\n`,
  );
  assert.equal(starter.source, 'world/rules.md');
  assert.equal(starter.formula, '2d6');
  assert.equal(outcomeOfTotal(starter, 8), 'partial');
  const d20 = parseRules('Roll 1d20+1 for anything risky.\n\n* 15+: full success\n* 8-14: partial, with a complication\n* up to 7: failure\n');
  assert.equal(d20.formula, '1d20+1');
  assert.deepEqual(d20.bands, [
    { min: 15, outcome: 'success' },
    { min: 8, max: 14, outcome: 'partial' },
    { max: 7, outcome: 'failure' },
  ]);
  const vague = parseRules('The narrator decides what happens. Be generous.');
  assert.equal(vague.source, 'default');
  assert.match(vague.note ?? '', /states no dice formula; the default rules apply/);
  assert.equal(statedFormula('roll three ten-sided dice'), '3d10');
});

test('a player_choice id as an act, and the ids a move takes by text or by words', () => {
  const isName = (word: string) => ['tamsin', 'alder'].includes(word);
  assert.equal(idAsAct('asked_tamsin_for_help', isName), 'Ask Tamsin for help');
  assert.equal(idAsAct('followed_alder', isName), 'Follow Alder');
  assert.equal(idAsAct('stayed_out_after_dark', isName), 'Stay out after dark');
  assert.equal(idAsAct('trusted_morgana', isName), 'Trust morgana');
  const ids = ['asked_tamsin_for_help', 'followed_alder', 'stayed_out_after_dark'];
  const offered = [{ id: 'ending:rekindled', text: 'Bring the story to its end: The lantern rekindled' }];
  assert.deepEqual(takenIds('I ask Tamsin to help me with the boat', offered, ids), ['asked_tamsin_for_help']);
  assert.deepEqual(takenIds('bring the story to its end: the lantern rekindled', offered, ids), ['ending:rekindled']);
  assert.deepEqual(takenIds('I follow the priest', offered, ids), []);
  assert.deepEqual(mergedChoices([{ id: 'a', text: 'Ask Tamsin for help' }], ['ask tamsin for help', 'Look around', 'x', 'y', 'z', 'w']), [
    'Ask Tamsin for help',
    'Look around',
    'x',
    'y',
    'z',
  ]);
});

test('a free-text judgement needs the names and most of the meaning, in one piece of evidence', () => {
  const evidence = [
    { source: 'memory 1', text: 'Tamsin is frightened for the keeper.' },
    { source: 'memory 2', text: 'Odile left at dawn.' },
  ];
  const scattered = judgeByMeaning('worried about Odile', evidence);
  assert.equal(scattered.holds, false, scattered.reason);
  assert.match(scattered.reason, /"odile" is not named|does not hold/);
  const together = judgeByMeaning('worried about Odile', [{ source: 'profile', text: 'Wary and loyal; wants to find Odile.' }]);
  assert.equal(together.holds, true, together.reason);
  assert.match(together.reason, /worried~wary/);
  const either = judgeByMeaning('the fog reaches drowning twice, or the player gives Alder the recipe', [
    { source: 'a memory', text: 'You give Alder the recipe.' },
  ]);
  assert.equal(either.holds, true, either.reason);
  // An ending asks for more: asking Alder about the recipe does not give it to him.
  const asked = [{ source: 'a memory', text: 'You ask Brother Alder about the recipe.' }];
  assert.equal(judgeByMeaning('the player gives Alder the recipe', asked).holds, true);
  const ending = judgeByMeaning('the player gives Alder the recipe', asked, undefined, ENDING_THRESHOLD);
  assert.equal(ending.holds, false);
  assert.match(ending.reason, /does not hold \(best 0\.\d+ < 0\.9/);
});

test('Markdown read as play reads it: paragraphs, and an ending with its beats and when it is reached', () => {
  assert.deepEqual(plainParagraphs('# Premise\n\nYou come *at once*,\nwith **nothing**.\n\n- a list item\n'), [
    'You come at once, with nothing.',
    'a list item',
  ]);
  const ending = storyEnding(
    'plot/endings/rekindled.md',
    '# Ending: The lantern rekindled\n\nOdile lives.\n\n**Reached when** beat_006 happens. **Tone**: warm.\n',
  );
  assert.equal(ending.title, 'The lantern rekindled');
  assert.equal(ending.telling, 'Odile lives.');
  assert.deepEqual(ending.beats, ['beat_006']);
  assert.equal(ending.reachedWhen, 'beat_006 happens.');
});
