// Unit tests of the streaming NDJSON line splitter: chunk boundaries, multi-byte characters, CRLF, size limit, partial lines.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineSplitter } from '../../../src/runtime/skillProtocol/lineSplitter.js';
import { seedPropertyTests } from '../../support/propertySeed.js';

// Deterministic: a fixed fast-check seed (test/support/propertySeed.ts), so every run checks the same cases.
seedPropertyTests();

function split(chunks: readonly Buffer[], maxLineBytes?: number) {
  const lines: { line: string; lineNumber: number; partial: boolean }[] = [];
  const oversized: { lineNumber: number; byteLength: number }[] = [];
  const splitter = new LineSplitter(
    {
      onLine: (line, lineNumber, partial) => lines.push({ line, lineNumber, partial }),
      onOversizedLine: (lineNumber, byteLength) => oversized.push({ lineNumber, byteLength }),
    },
    maxLineBytes,
  );
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { lines, oversized };
}

test('lines arrive whole whatever the chunking, including split multi-byte characters', () => {
  const text = 'first é line\nsecond 🐉 line\nthird\n';
  const bytes = Buffer.from(text);
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 10 }), (cuts) => {
      const points = [...new Set(cuts)].sort((a, b) => a - b);
      const chunks: Buffer[] = [];
      let previous = 0;
      for (const point of points) {
        chunks.push(bytes.subarray(previous, point));
        previous = point;
      }
      chunks.push(bytes.subarray(previous));
      const { lines } = split(chunks);
      assert.deepEqual(
        lines.map((entry) => entry.line),
        ['first é line', 'second 🐉 line', 'third'],
      );
      assert.deepEqual(
        lines.map((entry) => entry.lineNumber),
        [1, 2, 3],
      );
    }),
  );
});

test('CRLF endings are stripped; a last line without newline is flagged partial', () => {
  const { lines } = split([Buffer.from('a\r\nb\r\nc')]);
  assert.deepEqual(lines, [
    { line: 'a', lineNumber: 1, partial: false },
    { line: 'b', lineNumber: 2, partial: false },
    { line: 'c', lineNumber: 3, partial: true },
  ]);
});

test('a line over the limit is dropped and reported with its size; the next line is intact', () => {
  const big = 'x'.repeat(100);
  const { lines, oversized } = split([Buffer.from(`ok\n${big.slice(0, 40)}`), Buffer.from(`${big.slice(40)}\nafter\n`)], 64);
  assert.deepEqual(
    lines.map((entry) => entry.line),
    ['ok', 'after'],
  );
  assert.deepEqual(oversized, [{ lineNumber: 2, byteLength: 100 }]);
});

test('the limit counts bytes, not characters', () => {
  const { lines, oversized } = split([Buffer.from('é'.repeat(32) + '\n' + 'é'.repeat(33) + '\n')], 64);
  assert.equal(lines.length, 1, 'exactly 64 bytes fits');
  assert.deepEqual(oversized, [{ lineNumber: 2, byteLength: 66 }]);
});

test('invalid UTF-8 never throws; bytes become U+FFFD', () => {
  const { lines } = split([Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])]);
  assert.equal(lines[0]!.line, '{\uFFFD\uFFFD}');
});

test('an oversized last line without newline is still reported', () => {
  const { oversized } = split([Buffer.from('y'.repeat(200))], 64);
  assert.deepEqual(oversized, [{ lineNumber: 1, byteLength: 200 }]);
});
