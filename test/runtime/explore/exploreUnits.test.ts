// Units of explore: the simulated player (the same seed, the same inputs; every source used), manifest actions, entities, the problem detector's categories, and the saved playtest's expectations.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';
import { explorePlaytest } from '../../../src/runtime/explore/explorePlaytest.js';
import { failureCategory } from '../../../src/runtime/explore/problemDetector.js';
import { actionFromDescription, manifestActions, SeenEntities } from '../../../src/runtime/explore/playerActions.js';
import { SimulatedPlayer } from '../../../src/runtime/explore/simulatedPlayer.js';
import { sessionSeed } from '../../../src/runtime/explore/exploreSession.js';
import type { NarratorSkill } from '../../../src/runtime/skills/skillTypes.js';

const skill: NarratorSkill = {
  name: 'dice-roller',
  displayName: 'Dice',
  description: 'Rolls dice',
  capabilities: ['dice'],
  priority: 50,
  health: 'healthy',
  keywords: ['roll'],
  scripts: [
    {
      name: 'roll',
      toolPath: 'skills/dice-roller/scripts/roll.js',
      description: 'Roll a dice formula, optionally against a DC.',
      examples: ['I roll to pick the lock'],
    },
  ],
};

function play(seed: number, turns: number): string[] {
  const player = new SimulatedPlayer(seed, manifestActions([skill]));
  const inputs: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const move = player.next();
    inputs.push(`${move.source}:${move.choice ?? ''}:${move.input}`);
    player.observe({
      choices: ['Charge the orc', 'Flee to the gate'],
      narration: 'Mira of the Thieves Guild hands you the silver dagger.',
      state: { npcs: { Mira: { attitude: 'wary' } } },
    });
  }
  return inputs;
}

describe('simulated players', () => {
  it('play the same inputs for the same seed, and other inputs for another', () => {
    assert.deepEqual(play(7, 40), play(7, 40));
    assert.notDeepEqual(play(7, 40), play(8, 40));
  });
  it('use every source: choices, manifest actions, the vocabulary and entities', () => {
    const sources = new Set(play(3, 200).map((line) => line.split(':')[0]));
    assert.deepEqual([...sources].sort(), ['choice', 'entity', 'manifest', 'vocabulary']);
    assert.ok(
      play(3, 200).some((line) => line.includes('Mira')),
      'entities of the narration and state are named',
    );
  });
  it('derive session seeds from the exploration seed', () => {
    assert.equal(sessionSeed(1, 1), sessionSeed(1, 1));
    assert.notEqual(sessionSeed(1, 1), sessionSeed(1, 2));
    assert.notEqual(sessionSeed(1, 1), sessionSeed(2, 1));
  });
});

describe('manifest actions and entities', () => {
  it('turn a description into words a player says', () => {
    assert.equal(actionFromDescription('Roll a dice formula, optionally against a DC.'), 'I roll a dice formula');
    assert.equal(actionFromDescription('Offer { count? (3-5) } choices for the player'), 'I offer choices for the player');
  });
  it('include examples, descriptions, capabilities and keywords', () => {
    const actions = manifestActions([skill]);
    for (const expected of ['I roll to pick the lock', 'I roll a dice formula', 'I try some dice', 'What about the roll?'])
      assert.ok(actions.includes(expected), expected);
  });
  it('keep a bounded list of people and things', () => {
    const seen = new SeenEntities();
    for (let index = 0; index < 100; index++) seen.addText(`Captain Vey${String.fromCharCode(65 + (index % 26))}${index} gives you the lantern.`);
    assert.ok(seen.people.length <= 24);
  });
});

describe('problem detector', () => {
  it('names tool failures by category', () => {
    assert.equal(failureCategory({ state: 'timeout' }), 'timeout');
    assert.equal(failureCategory({ state: 'failed', error: { code: 'x', message: 'x', category: 'invalid_json' } }), 'protocol_error');
    assert.equal(failureCategory({ state: 'failed', error: { code: 'x', message: 'x', category: 'protocol_violation' } }), 'protocol_error');
    assert.equal(failureCategory({ state: 'failed', error: { code: 'x', message: 'x', category: 'process_error' } }), 'non_zero_exit');
    assert.equal(failureCategory({ state: 'failed', error: { code: 'x', message: 'x', category: 'tool_failure' } }), 'done_not_ok');
    assert.equal(failureCategory({ state: 'skipped' }), undefined);
  });
});

describe('the saved playtest', () => {
  it('stops at the last problem turn, plays choices by number, and expects what a turn without the problem does', () => {
    const value = explorePlaytest(
      {
        index: 3,
        seed: 42,
        inputs: [
          { turn: 1, input: 'I look around', source: 'vocabulary' },
          { turn: 2, input: 'Flee', choice: 2, source: 'choice' },
          { turn: 3, input: 'I go north', source: 'vocabulary' },
        ],
        problems: [
          { kind: 'tool_failure', turn: 2, category: 'done_not_ok', toolId: 'read', message: 'failed' },
          { kind: 'over_time_budget', turn: 2, message: 'slow', durationMs: 12_000 },
        ],
      },
      1,
      'pattern',
      10_000,
    );
    assert.deepEqual(validateAgainst('playtest.schema.json', value), []);
    assert.deepEqual(value['turns'], [
      { input: 'I look around' },
      { choice: 2, expect: { outcome: 'success', maxAttempts: 1, events: [{ type: 'done', ok: true, toolId: 'read' }], maxDurationMs: 10_000 } },
    ]);
    assert.equal(value['seed'], 42);
  });
});
