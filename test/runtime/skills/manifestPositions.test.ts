// Where a skill.json's problems are: 1-based line and column of JSON syntax errors (line endings, comments, trailing commas, UTF-16 columns) and of the properties a schema violation names.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { jsonSyntaxError, rangeFields, rangeIn, rangeOfPointerIn } from '../../../src/runtime/skills/manifestPositions.js';

/** JSON.parse's message for a text it rejects. */
function parseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`JSON.parse accepted ${JSON.stringify(text)}`);
}

/** The start of the first syntax error as [line, column, message]. */
function startOf(text: string): [number, number, string] {
  const found = jsonSyntaxError(text, parseMessage(text));
  assert.ok(found, `a syntax error in ${JSON.stringify(text)}`);
  return [found.range.start.line, found.range.start.column, found.message];
}

test('a syntax error is placed at its line and column (1-based), whatever the line endings', () => {
  const manifest = [
    '{',
    '  "name": "ferryman",',
    '  "scripts": [',
    '    { "name": "cross", "path": "scripts/cross.js"',
    '      "description": "Crosses." }',
    '  ]',
    '}',
  ];
  assert.deepEqual(startOf(manifest.join('\n')), [5, 7, "expected ',' between values"], 'the token after the missing comma');
  assert.deepEqual(startOf(manifest.join('\r\n')), [5, 7, "expected ',' between values"], 'CRLF counts as one line break');
  assert.deepEqual(startOf(manifest.join('\r')), [5, 7, "expected ',' between values"], 'a lone CR too');
  const range = jsonSyntaxError(manifest.join('\n'))!.range;
  assert.deepEqual(rangeFields(range), { line: 5, column: 7, endLine: 5, endColumn: 20 }, 'the range covers the unexpected token "description"');
});

test('what JSON.parse refuses and a JSONC reader would accept is an error at its place: comments, trailing commas', () => {
  assert.deepEqual(startOf('{\n  // the ferry\n  "name": "ferryman"\n}'), [2, 3, 'invalid comment']);
  assert.deepEqual(startOf('{\n  "name": "ferryman",\n}'), [3, 1, 'expected a property name in double quotes']);
  assert.deepEqual(startOf('{ "capabilities": ["boat", ] }'), [1, 28, 'expected a value'], 'at the bracket after the comma');
});

test('other syntax errors: an empty file, an unterminated string, a missing value', () => {
  assert.deepEqual(startOf(''), [1, 1, 'expected a value']);
  assert.deepEqual(startOf('{ "name": "ferry'), [1, 11, 'unterminated string']);
  assert.deepEqual(startOf('{\n  "name":\n}'), [3, 1, 'expected a value']);
});

test('columns count UTF-16 code units, as VS Code does', () => {
  // "é" is one unit, the die two (a surrogate pair): the "b" after them starts at column 12.
  assert.deepEqual(startOf('{ "é🎲": 1 "b": 2 }'), [1, 12, "expected ',' between values"]);
});

test("strict JSON has no syntax error; when jsonc-parser finds none, JSON.parse's own position is used", () => {
  assert.equal(jsonSyntaxError('{"name":"ferryman"}'), undefined);
  const fallback = jsonSyntaxError('{\n"a":1}', 'Unexpected token in JSON at position 3');
  assert.deepEqual(fallback, { message: 'Unexpected token in JSON at position 3', range: { start: { line: 2, column: 2 }, end: { line: 2, column: 2 } } });
  assert.deepEqual(jsonSyntaxError('{"a":1}', 'no position here')?.range.start, { line: 1, column: 1 });
});

test('a schema violation points at the property: its value, its key, or the object missing it', () => {
  const text = ['{', '  "name": "ferryman",', '  "scripts": [', '    { "name": "cross", "timeout": "fast" }', '  ]', '}'].join('\n');
  assert.deepEqual(rangeOfPointerIn(text, '/scripts/0/timeout'), { start: { line: 4, column: 35 }, end: { line: 4, column: 41 } });
  assert.deepEqual(rangeOfPointerIn(text, '/scripts/0/name', 'key'), { start: { line: 4, column: 7 }, end: { line: 4, column: 13 } });
  assert.deepEqual(
    rangeOfPointerIn(text, '/scripts/0/path'),
    { start: { line: 4, column: 5 }, end: { line: 4, column: 6 } },
    'a missing property: the brace of its object',
  );
  assert.deepEqual(rangeOfPointerIn(text, ''), { start: { line: 1, column: 1 }, end: { line: 6, column: 2 } }, 'the root');
});

test('rangeIn clamps offsets to the text', () => {
  assert.deepEqual(rangeIn('ab\ncd', 4, 10), { start: { line: 2, column: 2 }, end: { line: 2, column: 3 } });
  assert.deepEqual(rangeIn('ab', -3, 1), { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } });
});
