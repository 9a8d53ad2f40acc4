// Tests of the strict-JSON fast path of parseJsonDocument: JSON.parse's value, the tree built on demand, and the nesting limit.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MAX_NESTING_DEPTH, parseJsonDocument } from '../../../src/runtime/validation/jsonLocator.js';
import { deeperThan, strictValue } from '../../../src/runtime/validation/strictJson.js';

test("strict JSON: the value is JSON.parse's, and ranges still come from the (lazily built) tree", () => {
  const text = '{\n  "a": [1, {"b": "x"}],\n  "__proto__": {"c": 2},\n  "a": [3]\n}';
  const document = parseJsonDocument(text);
  assert.deepEqual(document.syntaxProblems, []);
  assert.deepEqual(document.extensions, []);
  assert.deepEqual(document.value, JSON.parse(text));
  assert.equal(Object.hasOwn(document.value as object, '__proto__'), true);
  assert.deepEqual(document.rangeOfPointer('/a/0')?.start, { line: 4, column: 9 }, 'the last duplicate key wins, as in the value');
  assert.equal(document.root?.type, 'object');
  assert.equal(document.nodeAtPointer('/__proto__/c')?.value, 2);
});

test('strict JSON nested deeper than the limit is still refused, at the first bracket past it', () => {
  const deep = '['.repeat(MAX_NESTING_DEPTH + 1) + ']'.repeat(MAX_NESTING_DEPTH + 1);
  const document = parseJsonDocument(deep);
  assert.equal(document.value, undefined);
  assert.equal(document.syntaxProblems.length, 1);
  assert.equal(document.syntaxProblems[0]!.offset, MAX_NESTING_DEPTH);
  const objects = '{"a":'.repeat(MAX_NESTING_DEPTH) + '1' + '}'.repeat(MAX_NESTING_DEPTH);
  assert.deepEqual(parseJsonDocument(objects).syntaxProblems, [], 'objects right at the limit are fine');
});

test('a deep value hidden by a duplicate key: the value is used, the tree is not built (no stack overflow)', () => {
  const depth = 100_000;
  const text = `{"a": ${'['.repeat(depth)}${']'.repeat(depth)}, "a": 1}`;
  const document = parseJsonDocument(text);
  assert.deepEqual(document.value, { a: 1 });
  assert.equal(document.root, undefined);
  assert.equal(document.rangeOfPointer('/a'), undefined);
});

test('strictValue and deeperThan', () => {
  assert.deepEqual(strictValue('{"a": 1}'), { value: { a: 1 } });
  assert.equal(strictValue('{"a": 1,}'), undefined);
  assert.equal(strictValue('// c\n{}'), undefined);
  assert.equal(deeperThan(3, 0), false);
  assert.equal(deeperThan({ a: [{}] }, 3), false);
  assert.equal(deeperThan({ a: [{}] }, 2), true);
});
