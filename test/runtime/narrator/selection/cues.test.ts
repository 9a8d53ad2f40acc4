// Phrase cues: what kind of move a player's words show (recall, opinion, a roll, the player's own deed, a request to check), and what they must not read into ordinary sentences.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readCues, type CueKind } from '../../../../src/runtime/narrator/selection/cues.js';

function kinds(input: string): CueKind[] {
  return readCues(input).cues.map((cue) => cue.kind);
}

test('recall: what someone said, who someone was, how long ago; not the way back to camp', () => {
  for (const input of [
    'What did the old miner tell us about the collapsed shaft?',
    'Who was that woman I met at the crossroads?',
    'The peddler we saw two nights ago, what was his name?',
    'It was a while back, in the mountains.',
  ]) {
    assert.ok(kinds(input).includes('past'), input);
  }
  for (const input of ['We make our way back to camp.', 'I find my way back to the inn.']) assert.ok(!kinds(input).includes('past'), input);
});

test('opinion: sore with me, thinks better of me', () => {
  for (const input of ['Is the sheriff still sore at me after last night?', 'Does the foreman think any better of me now?'])
    assert.ok(kinds(input).includes('opinion'), input);
});

test('a roll asked for, not a roll of the eyes, diced onions or a one-sided deal', () => {
  for (const input of ['I roll three six-sided dice.', 'Make a percentile roll.', 'Roll the dice', 'Roll a d20 against DC 15.', 'I roll for initiative']) {
    assert.ok(kinds(input).includes('chance'), input);
  }
  for (const input of ['I roll my eyes', 'I roll my sleeves up', 'We roll some barrels onto the cart', 'I dice the onions', 'That was a one-sided deal']) {
    assert.ok(!kinds(input).includes('chance'), input);
  }
});

test("a deed is the player's own verb, or an order about someone; never a noun, nor someone else's deed", () => {
  const deeds: [string, -1 | 1][] = [
    ['I give Marta the innkeeper a bunch of wildflowers.', 1],
    ['I quickly help the old woman across the street.', 1],
    ['I’ll help the miner', 1],
    ['I count out ten coins and hand them to Mara.', 1],
    ['Give Jory the coin.', 1],
    ['Help her up.', 1],
    ['I spit at Captain Vey’s feet.', -1],
    ['I call the toll keeper Jory a cheat to his face.', -1],
  ];
  for (const [input, polarity] of deeds) {
    const reading = readCues(input);
    assert.ok(kinds(input).includes('deed'), input);
    assert.equal(reading.deedPolarity, polarity, input);
  }
  for (const input of [
    'I craft a bandage.',
    'I play a hand of poker.',
    'I need a hand with the crate.',
    'I file a status report with the captain.',
    'The old man helps me up.',
    'Give the engines more juice.',
    'Save the bartender’s number.',
    'Give me a few choices.',
    'I call out to a thief in the crowd.',
    'I call the guards to arrest a thief.',
    'The guard calls me a liar.',
  ]) {
    assert.ok(!kinds(input).includes('deed'), input);
    assert.equal(readCues(input).deedPolarity, 0, input);
  }
  // A question about a deed is about the past.
  assert.ok(!kinds('Did I help the miner?').includes('deed'));
});

test('a request to check how something stands, in one clause, reads like a question without being one', () => {
  for (const input of ['Check my O2', 'Let’s check the map', 'I look over the ledger', 'I read the wanted posters in the tavern.']) {
    const reading = readCues(input);
    assert.ok(reading.checking && !reading.question, input);
  }
  const compound = readCues('I examine the wound and bandage it.');
  assert.ok(!compound.checking, 'a second clause acts');
  assert.equal(compound.deedPolarity, 1);
});
