// Lore chunking rules (spec 007, FR-022, FR-023) with the real cl100k_base counter: paragraphs on blank lines, the 512-token cap, sentence and token-boundary cuts, CRLF, headings and text ranges.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { chunkLoreText, MAX_LORE_CHUNK_TOKENS } from '../../../../src/runtime/campaign/lore/loreChunking.js';
import { loadTokenCounter } from '../../../../src/runtime/campaign/lore/tokenCounter.js';
import type { LoreChunk } from '../../../../src/runtime/campaign/lore/loreTypes.js';

const count = await loadTokenCounter();
const FILE = 'lore/test.md';

/** Every chunk's text is its range's text (line endings as \n), its range's lines and columns are right, and it fits. */
function assertConsistent(text: string, chunks: readonly LoreChunk[], maxTokens = MAX_LORE_CHUNK_TOKENS): void {
  const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((match) => match.index + 1)];
  const position = (offset: number) => {
    const line = lineStarts.filter((start) => start <= offset).length;
    return { line, column: offset - lineStarts[line - 1]! + 1 };
  };
  let previousEnd = 0;
  chunks.forEach((chunk, index) => {
    assert.equal(chunk.chunkIndex, index);
    assert.equal(chunk.id, `${FILE}#${index}`);
    assert.equal(chunk.text, text.slice(chunk.start, chunk.end).replace(/\r\n/g, '\n'), `chunk ${index}: text is its range`);
    assert.equal(chunk.text, chunk.text.trim(), `chunk ${index}: no blank space around it`);
    assert.ok(chunk.text.length > 0);
    assert.ok(chunk.start >= previousEnd, `chunk ${index} starts after the one before`);
    previousEnd = chunk.end;
    assert.deepEqual({ line: chunk.line, column: chunk.column }, position(chunk.start), `chunk ${index}: start position`);
    assert.deepEqual({ line: chunk.endLine, column: chunk.endColumn }, position(chunk.end), `chunk ${index}: end position`);
    assert.equal(chunk.tokenCount, count(chunk.text), `chunk ${index}: its token count`);
    assert.ok(chunk.tokenCount <= maxTokens, `chunk ${index}: ${chunk.tokenCount} tokens`);
  });
}

test('cl100k_base counts as tiktoken does', () => {
  // OpenAI's documented example: "tiktoken is great!" is 6 tokens in cl100k_base.
  assert.equal(count('tiktoken is great!'), 6);
  assert.equal(count('hello world'), 2);
  assert.equal(count(''), 0);
  // A special-token marker in lore is plain text, counted, never refused.
  assert.equal(count('x <|endoftext|> y'), 8);
});

test('a chunk per paragraph: split on blank lines (spaces and tabs count as blank), runs of blank lines are one break', () => {
  const text = 'The harbour never sleeps.\nShips come at night.\n\n\n   \t\nThe Iron Guild rules it.\n\nMara Vey leads the Guild.';
  const { chunks, summary } = chunkLoreText(text, FILE, count);
  assert.deepEqual(
    chunks.map((chunk) => [chunk.paragraphId, chunk.method, chunk.text]),
    [
      [0, 'paragraph', 'The harbour never sleeps.\nShips come at night.'],
      [1, 'paragraph', 'The Iron Guild rules it.'],
      [2, 'paragraph', 'Mara Vey leads the Guild.'],
    ],
  );
  assert.deepEqual(summary, {
    file: FILE,
    paragraphs: 3,
    chunks: 3,
    tokens: summary.tokens,
    largestChunk: chunks[0]!.tokenCount,
    sentenceSplit: 0,
    tokenSplit: 0,
  });
  assert.equal(
    summary.tokens,
    chunks.reduce((sum, chunk) => sum + chunk.tokenCount, 0),
  );
  assertConsistent(text, chunks);
  assert.deepEqual([chunks[1]!.line, chunks[1]!.column, chunks[1]!.endLine, chunks[1]!.endColumn], [6, 1, 6, 25]);
});

test('empty and blank files give no chunks', () => {
  for (const text of ['', '\n\n', '   \n\t\n', '\r\n\r\n']) {
    const { chunks, summary } = chunkLoreText(text, FILE, count);
    assert.deepEqual(chunks, []);
    assert.deepEqual(summary, { file: FILE, paragraphs: 0, chunks: 0, tokens: 0, largestChunk: 0, sentenceSplit: 0, tokenSplit: 0 });
  }
});

test('CRLF files chunk as LF files do: same texts and counts, offsets into the file as it is', () => {
  const lf = '# Ports\n\nThe harbour never sleeps.\nShips come at night.\n\nThe Guild rules it.\n';
  const crlf = lf.replace(/\n/g, '\r\n');
  const fromLf = chunkLoreText(lf, FILE, count).chunks;
  const fromCrlf = chunkLoreText(crlf, FILE, count).chunks;
  assert.deepEqual(
    fromCrlf.map((chunk) => [chunk.text, chunk.tokenCount, chunk.line, chunk.endLine]),
    fromLf.map((chunk) => [chunk.text, chunk.tokenCount, chunk.line, chunk.endLine]),
  );
  assert.equal(fromCrlf[1]!.start, '# Ports\r\n\r\n'.length);
  assert.equal(fromCrlf[1]!.endColumn, 'Ships come at night.'.length + 1, 'the \\r is not part of the chunk');
  assertConsistent(crlf, fromCrlf);
});

test('a paragraph over 512 tokens is cut at sentence ends, sentences packed while they fit', () => {
  const sentences = Array.from({ length: 120 }, (_, index) => `Captain ${index} sailed the northern sea and came home with silver!`);
  const paragraph = sentences.join(' ');
  assert.ok(count(paragraph) > MAX_LORE_CHUNK_TOKENS);
  const text = `Before.\n\n${paragraph}\n\nAfter?`;
  const { chunks, summary } = chunkLoreText(text, FILE, count);
  assertConsistent(text, chunks);
  assert.equal(summary.sentenceSplit, 1);
  assert.equal(summary.tokenSplit, 0);
  const middle = chunks.filter((chunk) => chunk.paragraphId === 1);
  assert.ok(middle.length >= 2);
  assert.ok(middle.every((chunk) => chunk.method === 'sentence'));
  // Each cut falls after a sentence end, and the pieces put together are the paragraph.
  assert.ok(middle.every((chunk) => chunk.text.startsWith('Captain ') && chunk.text.endsWith('silver!')));
  assert.equal(middle.map((chunk) => chunk.text).join(' '), paragraph);
  // Packed: no two neighbours would have fitted together.
  for (let index = 1; index < middle.length; index++) assert.ok(middle[index - 1]!.tokenCount + middle[index]!.tokenCount > MAX_LORE_CHUNK_TOKENS - 20);
  assert.deepEqual(
    chunks.map((chunk) => chunk.paragraphId),
    [0, ...middle.map(() => 1), 2],
  );
  assert.equal(chunks.at(-1)!.text, 'After?');
});

test('sentence ends: . ! ? and an ellipsis, with closing quotes and brackets; a decimal point is no end', () => {
  const sentence = (index: number) => `"Ship ${index} costs 3.5 crowns," said the clerk (who lied). Really?! Then "go away..." `;
  const paragraph = Array.from({ length: 60 }, (_, index) => sentence(index))
    .join('')
    .trim();
  const { chunks } = chunkLoreText(paragraph, FILE, count);
  assertConsistent(paragraph, chunks);
  for (const chunk of chunks) assert.match(chunk.text, /(?:\.\.\."|\?!|\(who lied\)\.)$/, chunk.text.slice(-30));
  assert.ok(chunks.every((chunk) => !chunk.text.endsWith('3.')));
});

test('the last resort: a sentence over 512 tokens is cut at token boundaries, at blank space when near, and flagged', () => {
  const words = Array.from({ length: 1600 }, (_, index) => ['storm', 'harbour', 'lantern', 'guild', 'oath'][index % 5]).join(' ');
  const text = `${words} and then the end. A short sentence after it.`;
  const { chunks, summary } = chunkLoreText(text, FILE, count);
  assertConsistent(text, chunks);
  assert.equal(summary.sentenceSplit, 1);
  assert.equal(summary.tokenSplit, 1);
  const cut = chunks.filter((chunk) => chunk.method === 'token');
  assert.ok(cut.length >= 3, `${cut.length} token pieces`);
  // Cut at spaces: every piece starts and ends on a whole word.
  for (const chunk of cut) assert.match(chunk.text, /^(storm|harbour|lantern|guild|oath)\b.*\b(storm|harbour|lantern|guild|oath|end\.)$/s);
  assert.ok(
    cut.slice(0, -1).every((chunk) => chunk.tokenCount > MAX_LORE_CHUNK_TOKENS * 0.7),
    'pieces are filled',
  );
  assert.equal(chunks.at(-1)!.method, 'sentence');
  assert.equal(chunks.at(-1)!.text, 'A short sentence after it.');
});

test('text without blank space is still cut under the cap, never inside a surrogate pair', () => {
  const blob = 'x9Q'.repeat(2000) + '\u{1F409}'.repeat(700);
  const { chunks } = chunkLoreText(blob, FILE, count);
  assertConsistent(blob, chunks);
  assert.ok(chunks.every((chunk) => chunk.method === 'token'));
  assert.equal(chunks.map((chunk) => chunk.text).join(''), blob);
  for (const chunk of chunks) assert.ok(!/[\ud800-\udbff]$/.test(chunk.text) && !/^[\udc00-\udfff]/.test(chunk.text));
});

test('a text too long to fit whatever its tokens (over 128 x 512 characters) is not counted whole: long runs of letters are slow to count', () => {
  const blob = 'abcdefghij'.repeat(7_000);
  const counted: number[] = [];
  const spy = (text: string) => {
    counted.push(text.length);
    return count(text);
  };
  const { chunks } = chunkLoreText(`Short.\n\n${blob}`, FILE, spy);
  assert.ok(Math.max(...counted) < 128 * MAX_LORE_CHUNK_TOKENS, `longest text counted: ${Math.max(...counted)}`);
  assert.equal(
    chunks
      .slice(1)
      .map((chunk) => chunk.text)
      .join(''),
    blob,
  );
  assert.ok(chunks.slice(1).every((chunk) => chunk.method === 'token' && chunk.tokenCount <= MAX_LORE_CHUNK_TOKENS));
  assert.ok(counted.length < chunks.length * 10, `${counted.length} counts for ${chunks.length} chunks`);
});

test('each chunk names the Markdown heading above it', () => {
  const text = 'Intro without heading.\n\n## The Iron Guild ##\n\nIt rules the harbour.\n\n### Its leader\nMara Vey.\n\nStill about her.';
  const { chunks } = chunkLoreText(text, FILE, count);
  assert.deepEqual(
    chunks.map((chunk) => [chunk.text.split('\n')[0], chunk.heading]),
    [
      ['Intro without heading.', undefined],
      ['## The Iron Guild ##', 'The Iron Guild'],
      ['It rules the harbour.', 'The Iron Guild'],
      ['### Its leader', 'Its leader'],
      ['Still about her.', 'Its leader'],
    ],
  );
  assert.ok(!('heading' in chunks[0]!), 'no heading key when there is none');
});

test('a smaller limit and another counter are honoured', () => {
  const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
  const text = 'One two three. Four five six. Seven eight nine ten eleven twelve thirteen.';
  const { chunks } = chunkLoreText(text, FILE, words, 5);
  assert.deepEqual(
    chunks.map((chunk) => [chunk.method, chunk.text]),
    [
      ['sentence', 'One two three.'],
      ['sentence', 'Four five six.'],
      ['token', 'Seven eight nine ten eleven'],
      ['token', 'twelve thirteen.'],
    ],
  );
});

test('property: any text chunks within the cap, in order, each chunk its own range, no text lost', () => {
  const pieces = fc.constantFrom(
    'The',
    'guild',
    'harbour.',
    'Mara!',
    'Why?',
    '3.5',
    '\u00e9t\u00e9',
    '\u{1F409}',
    'word'.repeat(30),
    '\n',
    '\n\n',
    '\r\n',
    '  ',
    '\t',
    '# Title\n',
  );
  fc.assert(
    fc.property(fc.array(pieces, { minLength: 30, maxLength: 400 }), fc.integer({ min: 8, max: 60 }), (parts, limit) => {
      const text = parts.join(' ');
      const { chunks } = chunkLoreText(text, FILE, count, limit);
      assertConsistent(text, chunks, limit);
      // Every non-blank character of the text is in some chunk.
      const covered = chunks.reduce((sum, chunk) => sum + chunk.text.replace(/\s/g, '').length, 0);
      assert.equal(covered, text.replace(/\s/g, '').length);
    }),
    { numRuns: 60, seed: 43 },
  );
});
