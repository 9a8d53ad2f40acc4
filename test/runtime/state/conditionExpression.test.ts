// Unit tests of the safe condition language: parsing, errors with offsets, evaluation semantics, no code execution.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { evaluateCondition, parseCondition } from '../../../src/runtime/state/conditionExpression.js';

const scope = {
  state: { dice: { lastRoll: { total: 17, success: true, rolls: [{ sides: 20, value: 14 }] } }, flags: { alarm: false }, name: 'Ayla' },
  dependencies: { roll: { ok: true, result: { total: 17, critical: null } }, soft: null },
};

function holds(text: string): boolean {
  const parsed = parseCondition(text);
  assert.ok(parsed.ok, `${text} should parse: ${parsed.ok ? '' : parsed.message}`);
  return evaluateCondition(parsed.expression, scope);
}

test('paths, literals and comparisons', () => {
  assert.equal(holds('state.dice.lastRoll.success'), true);
  assert.equal(holds('state.dice.lastRoll.success == true'), true);
  assert.equal(holds('state.dice.lastRoll.total >= 15'), true);
  assert.equal(holds('state.dice.lastRoll.total < 15'), false);
  assert.equal(holds("state.name == 'Ayla'"), true);
  assert.equal(holds('state.name != "Bren"'), true);
  assert.equal(holds('state.dice.lastRoll.rolls[0].value == 14'), true);
  assert.equal(holds('dependencies.roll.result.total > 16.5'), true);
  assert.equal(holds('dependencies["roll"].ok'), true);
});

test('logic, negation and grouping', () => {
  assert.equal(holds('state.dice.lastRoll.success && !state.flags.alarm'), true);
  assert.equal(holds('state.flags.alarm || state.dice.lastRoll.total == 17'), true);
  assert.equal(holds('!(state.flags.alarm || false)'), true);
  assert.equal(holds('true && (false || !false)'), true);
});

test('missing paths are null; ordering needs two numbers or two strings', () => {
  assert.equal(holds('state.nothing.here'), false);
  assert.equal(holds('state.nothing == null'), true);
  assert.equal(holds('dependencies.soft == null'), true);
  assert.equal(holds('dependencies.roll.result.critical == null'), true);
  assert.equal(holds('state.nothing < 3'), false);
  assert.equal(holds('state.name > 3'), false);
  assert.equal(holds('state.flags'), true, 'a non-empty object is truthy');
});

test('prototype properties are never read', () => {
  assert.equal(holds('state.constructor'), false);
  assert.equal(holds('state.__proto__ == null'), true);
  assert.equal(holds('state.dice.toString'), false);
});

test('syntax errors give a message and an offset', () => {
  for (const [text, offset] of [
    ['state.a ==', 10],
    ['process.exit(1)', 0],
    ['state.a = 1', 8],
    ['(state.a', 8],
    ['state.a && ', 11],
    ["state.a == 'open", 11],
    ['state.[1]', 6],
  ] as const) {
    const parsed = parseCondition(text);
    assert.equal(parsed.ok, false, text);
    if (!parsed.ok) assert.equal(parsed.offset, offset, `${text}: ${parsed.message}`);
  }
  assert.equal(parseCondition('!'.repeat(100) + 'true').ok, false, 'nesting is bounded');
  assert.equal(parseCondition('state.a == 1 '.repeat(60)).ok, false, 'length is bounded');
});
