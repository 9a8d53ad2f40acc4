// checkScriptInput: the Inspector's input check before a run (JSON, object, the script's inputSchema).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { checkScriptInput, isRunnable } from '../../../src/runtime/inspect/scriptInput.js';

const roll = {
  label: 'dice-roller/roll',
  inputSchema: {
    type: 'object',
    required: ['formula'],
    properties: { formula: { type: 'string' }, reason: { type: 'string' }, advantage: { enum: ['none', 'advantage', 'disadvantage'] } },
    additionalProperties: false,
  },
};

test('a valid input runs and keeps its parsed value', () => {
  const checked = checkScriptInput('{"formula": "1d20+3", "reason": "sneak"}', roll);
  assert.deepEqual(checked.problems, []);
  assert.ok(isRunnable(checked));
  assert.deepEqual(checked.input, { formula: '1d20+3', reason: 'sneak' });
});

test('text that is not JSON, or not an object, is refused with the reason', () => {
  const broken = checkScriptInput('{"formula": ', roll);
  assert.equal(broken.input, undefined);
  assert.equal(isRunnable(broken), false);
  assert.match(broken.problems[0]!.message, /not valid JSON/);
  const array = checkScriptInput('[1, 2]', roll);
  assert.equal(isRunnable(array), false);
  assert.match(array.problems[0]!.message, /must be a JSON object.*an array/);
});

test('schema violations name the property by its JSON pointer, relative to the input', () => {
  const checked = checkScriptInput('{"formula": 20, "advantage": "maybe"}', roll);
  assert.equal(isRunnable(checked), false);
  const byPointer = new Map(checked.problems.map((problem) => [problem.pointer, problem]));
  assert.match(byPointer.get('/formula')!.message, /^input\.formula must be a string .*got number/);
  assert.equal(byPointer.get('/advantage')!.severity, 'error');
  const missing = checkScriptInput('{}', roll);
  assert.match(missing.problems[0]!.message, /missing the required property "formula"/);
});

test('an unknown property suggests the closest one', () => {
  const checked = checkScriptInput('{"formula": "1d6", "reasn": "x"}', roll);
  assert.ok(
    checked.problems.some((problem) => problem.pointer === '/reasn' && /did you mean "reason"/.test(problem.message)),
    JSON.stringify(checked.problems),
  );
});

test('a script with no inputSchema takes any object', () => {
  const checked = checkScriptInput('{"anything": [1, {"deep": true}]}', { label: 'free/script' });
  assert.ok(isRunnable(checked));
});
