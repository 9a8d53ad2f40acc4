// Unit tests of the JSON locator: pointer escaping, offset → line/column (CRLF), pointer → range, JSONC extensions.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import {
  MAX_NESTING_DEPTH,
  computeLineStarts,
  parseJsonDocument,
  parsePointer,
  pointerFromPath,
  positionAt,
  valueAtPointer,
} from '../../../src/runtime/validation/jsonLocator.js';
import { seedPropertyTests } from '../../support/propertySeed.js';

// Deterministic: a fixed fast-check seed (test/support/propertySeed.ts), so every run checks the same cases.
seedPropertyTests();

test('pointerFromPath escapes ~ as ~0 and / as ~1', () => {
  assert.equal(pointerFromPath([]), '');
  assert.equal(pointerFromPath(['tools', 0, 'toolId']), '/tools/0/toolId');
  assert.equal(pointerFromPath(['a/b', 'm~n', '~1', '']), '/a~1b/m~0n/~01/');
});

test('parsePointer decodes ~1 before ~0, so "~01" is "~1"', () => {
  assert.deepEqual(parsePointer(''), []);
  assert.deepEqual(parsePointer('/'), ['']);
  assert.deepEqual(parsePointer('/a~1b/m~0n/~01'), ['a/b', 'm~n', '~1']);
  assert.throws(() => parsePointer('tools'), /must be empty or start with/);
  assert.throws(() => parsePointer('/a~2'), /'~' must be followed by 0 or 1/);
});

test('pointers round-trip for any segments', () => {
  fc.assert(
    fc.property(fc.array(fc.string()), (segments) => {
      assert.deepEqual(parsePointer(pointerFromPath(segments)), segments);
    }),
  );
});

test('valueAtPointer reads own properties and array indices only', () => {
  const value = { 'a/b': [10, { c: true }], list: [] };
  assert.equal(valueAtPointer(value, '/a~1b/1/c'), true);
  assert.equal(valueAtPointer(value, '/a~1b/01'), undefined);
  assert.equal(valueAtPointer(value, '/toString'), undefined);
  assert.equal(valueAtPointer(value, ''), value);
});

test('offsets map to 1-based lines and columns with \\n, \\r\\n and lone \\r', () => {
  const text = 'ab\r\ncd\ne\rf';
  const starts = computeLineStarts(text);
  assert.deepEqual(starts, [0, 4, 7, 9]);
  assert.deepEqual(positionAt(starts, 0), { line: 1, column: 1 });
  assert.deepEqual(positionAt(starts, 2), { line: 1, column: 3 }); // the \r of \r\n
  assert.deepEqual(positionAt(starts, 3), { line: 1, column: 4 }); // its \n
  assert.deepEqual(positionAt(starts, 5), { line: 2, column: 2 });
  assert.deepEqual(positionAt(starts, 9), { line: 4, column: 1 });
  assert.deepEqual(positionAt(starts, 10), { line: 4, column: 2 }); // end of text
});

test('rangeOfPointer on a CRLF document: values, keys, and the parent object of a missing property', () => {
  const text = '{\r\n  "a": 1,\r\n  "b": [true, {"c/d": null}]\r\n}\r\n';
  const document = parseJsonDocument(text);
  assert.deepEqual(document.syntaxProblems, []);
  assert.deepEqual(document.value, { a: 1, b: [true, { 'c/d': null }] });
  assert.deepEqual(document.rangeOfPointer('/a'), { start: { line: 2, column: 8 }, end: { line: 2, column: 9 } });
  assert.deepEqual(document.rangeOfPointer('/a', 'key'), { start: { line: 2, column: 3 }, end: { line: 2, column: 6 } });
  assert.deepEqual(document.rangeOfPointer('/b/0'), { start: { line: 3, column: 9 }, end: { line: 3, column: 13 } });
  assert.deepEqual(document.rangeOfPointer('/b/1/c~1d', 'key')?.start, { line: 3, column: 16 });
  // Missing property: the opening brace of its parent object.
  assert.deepEqual(document.rangeOfPointer('/b/1/missing'), { start: { line: 3, column: 15 }, end: { line: 3, column: 16 } });
  assert.deepEqual(document.rangeOfPointer('/requestId'), { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } });
  // The whole document, and an index past the end of an array (points at the array).
  assert.deepEqual(document.rangeOfPointer(''), { start: { line: 1, column: 1 }, end: { line: 4, column: 2 } });
  assert.deepEqual(document.rangeOfPointer('/b/7')?.start, { line: 3, column: 8 });
  assert.equal(document.nodeAtPointer('/b/7'), undefined);
  assert.equal(document.nodeAtPointer('/b/1/c~1d')?.type, 'null');
});

test('a duplicate key resolves to its last occurrence, as JSON.parse does', () => {
  const text = '{"a": 1, "a": 2}';
  const document = parseJsonDocument(text);
  assert.deepEqual(document.value, JSON.parse(text));
  assert.deepEqual(document.rangeOfPointer('/a')?.start, { line: 1, column: 15 });
});

test('"__proto__" becomes an own property, not the prototype', () => {
  const document = parseJsonDocument('{"__proto__": {"polluted": true}}');
  const value = document.value as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.ok(Object.hasOwn(value, '__proto__'));
  assert.deepEqual(Object.keys(value), ['__proto__']);
});

test('syntax problems carry an offset, a message and the pointer of the value around them', () => {
  const text = '{\n  "tools": [\n    {"toolId": "a" "toolPath": "x"}\n  ]\n}';
  const document = parseJsonDocument(text);
  assert.equal(document.value, undefined);
  const first = document.syntaxProblems[0]!;
  assert.match(first.message, /expected ','/);
  assert.deepEqual(document.positionAt(first.offset), { line: 3, column: 20 });
  assert.match(first.pointer, /^\/tools\/0/);
});

test('comments and trailing commas are accepted and listed as extensions', () => {
  const text = '{\n  // a comment\n  "a": [1, 2,],\n  /* block */ "b": {"c": 1,},\n}';
  const document = parseJsonDocument(text);
  assert.deepEqual(document.syntaxProblems, []);
  assert.deepEqual(document.value, { a: [1, 2], b: { c: 1 } });
  const found = document.extensions.map((extension) => [extension.kind, document.positionAt(extension.offset)]);
  assert.deepEqual(found, [
    ['lineComment', { line: 2, column: 3 }],
    ['trailingComma', { line: 3, column: 13 }],
    ['blockComment', { line: 4, column: 3 }],
    ['trailingComma', { line: 4, column: 27 }],
    ['trailingComma', { line: 4, column: 29 }],
  ]);
});

test('a byte-order mark is ignored and offsets stay those of the original text', () => {
  const document = parseJsonDocument('\uFEFF{"a": 1}');
  assert.deepEqual(document.syntaxProblems, []);
  assert.deepEqual(document.value, { a: 1 });
  assert.deepEqual(document.rangeOfPointer('/a')?.start, { line: 1, column: 8 });
});

test('hostile nesting is a syntax problem, not a stack overflow', () => {
  const depth = 100_000;
  const document = parseJsonDocument('['.repeat(depth) + ']'.repeat(depth));
  assert.equal(document.value, undefined);
  assert.equal(document.syntaxProblems.length, 1);
  assert.match(document.syntaxProblems[0]!.message, new RegExp(`nested deeper than ${MAX_NESTING_DEPTH}`));
  assert.equal(document.syntaxProblems[0]!.offset, MAX_NESTING_DEPTH);
  // Right at the limit is still fine.
  assert.deepEqual(parseJsonDocument('['.repeat(MAX_NESTING_DEPTH) + ']'.repeat(MAX_NESTING_DEPTH)).syntaxProblems, []);
});

test('empty text is a syntax problem at 1:1', () => {
  const document = parseJsonDocument('');
  assert.equal(document.syntaxProblems.length, 1);
  assert.deepEqual(document.positionAt(document.syntaxProblems[0]!.offset), { line: 1, column: 1 });
});
