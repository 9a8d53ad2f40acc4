// Unit tests of entity extraction from a player's words: names, noun phrases that end where their verb, preposition or next determiner begins, places, items, dice formulas.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { extractEntities } from '../../../../src/runtime/narrator/selection/entities.js';

const phrases = (input: string) => extractEntities(input).nounPhrases;

test('a noun phrase ends at its preposition, its verb, or the next determiner', () => {
  assert.deepEqual(phrases('I attack the drunk orc with my sword'), ['drunk orc', 'sword']);
  assert.deepEqual(phrases('I give the old man my coin'), ['old man']);
  assert.deepEqual(phrases('I help the old fisherman mend his net'), ['old fisherman', 'net']);
  assert.deepEqual(phrases('How does the innkeeper feel about me?'), ['innkeeper']);
});

test('names, places, items and dice come from the words', () => {
  const entities = extractEntities('I travel from Hollowmere to the Ashen Pass and roll 2d6+1 at DC 14');
  assert.deepEqual(entities.names.includes('Hollowmere'), true);
  assert.equal(entities.destination, 'Ashen Pass');
  assert.equal(entities.origin, 'Hollowmere');
  assert.equal(entities.formula, '2d6+1');
  assert.equal(entities.dc, 14);
  assert.equal(extractEntities('I want to buy a healing potion from Mira').item, 'healing potion');
});

test('pronouns and openers that start a sentence are not names (explore read "You" as a faction from the narration)', () => {
  assert.deepEqual(extractEntities('You look around carefully. There is a door, and nothing moves.').names, []);
  assert.deepEqual(extractEntities('Mira smiles. They say the Town Guard is watching.').names, ['Mira', 'Town Guard']);
});
