// The lore lens and chunk preview: the lens line, each chunk's label and range, flags on chunks of a paragraph cut at sentence ends or over the limit, and which files are lore.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { chunkLoreText } from '../../../../src/runtime/campaign/lore/loreChunking.js';
import { loadTokenCounter } from '../../../../src/runtime/campaign/lore/tokenCounter.js';
import { loreChunkMarks, loreFileOf, loreLensTitle } from '../../../../src/runtime/campaign/view/loreView.js';

const count = await loadTokenCounter();
const FILE = 'lore/places/harbour.md';

test('the lens says how many chunks and the largest one', () => {
  const { summary } = chunkLoreText('# Harbour\n\nThe harbour never sleeps.\n\nShips come at night, lanterns dark.', FILE, count);
  assert.equal(loreLensTitle(summary), `3 chunks · largest ${summary.largestChunk} tokens`);
  assert.equal(loreLensTitle(chunkLoreText('', FILE, count).summary), 'no text to chunk');
  const one = chunkLoreText('One.', FILE, count).summary;
  assert.equal(loreLensTitle(one), `1 chunk · largest ${one.largestChunk === 1 ? '1 token' : `${one.largestChunk} tokens`}`);
});

test('each chunk gets a label and its range; chunks of a paragraph cut at sentence ends are flagged', () => {
  const sentence = 'The keeper climbs the stair each night and trims the wick before the fog comes in from the sea. ';
  const long = sentence.repeat(40).trim();
  const text = `A short paragraph.\n\n${long}\n\nThe end.`;
  const { chunks, summary } = chunkLoreText(text, FILE, count);
  assert.ok(summary.sentenceSplit === 1 && chunks.length > 3, `${chunks.length} chunks`);
  const marks = loreChunkMarks(chunks);
  assert.equal(marks[0]!.label, `#0 · ${chunks[0]!.tokenCount} tokens`);
  assert.deepEqual(marks[0]!.warnings, []);
  assert.deepEqual([marks[0]!.line, marks[0]!.column, marks[0]!.endLine, marks[0]!.endColumn], [1, 1, 1, 19]);
  const split = marks.filter((mark) => mark.method === 'sentence');
  assert.equal(split.length, chunks.length - 2);
  for (const mark of split) {
    assert.ok(mark.label.endsWith(' · split'), mark.label);
    assert.match(mark.warnings[0]!, /^Paragraph 2 is over 512 tokens and was cut at sentence ends into \d+ chunks/);
    assert.match(mark.hover, /^Lore chunk \d+ of lore\/places\/harbour\.md: \d+ tokens \(cl100k_base\), paragraph 2, cut by sentence\./);
  }
  assert.deepEqual(marks.at(-1)!.warnings, []);
});

test('a chunk over the limit is flagged (a limit lowered below what a paragraph holds)', () => {
  const { chunks } = chunkLoreText('Seven words in this short paragraph here.', FILE, count, 100);
  const marks = loreChunkMarks(chunks, 5);
  assert.match(marks[0]!.warnings[0]!, /^It holds \d+ tokens, over the limit of 5\.$/);
});

test('lore files: Markdown and text under lore/ of the campaign, nested; nothing else', () => {
  const campaign = path.join(path.sep, 'stories', 'salt');
  assert.equal(loreFileOf(campaign, path.join(campaign, 'lore', 'places', 'harbour.md')), 'lore/places/harbour.md');
  assert.equal(loreFileOf(campaign, path.join(campaign, 'lore', 'notes.TXT')), 'lore/notes.TXT');
  assert.equal(loreFileOf(campaign, path.join(campaign, 'lore', 'map.png')), undefined);
  assert.equal(loreFileOf(campaign, path.join(campaign, 'world', 'setting.md')), undefined);
  assert.equal(loreFileOf(campaign, path.join(campaign, 'lore', '.hidden', 'x.md')), undefined);
  assert.equal(loreFileOf(campaign, path.join(path.sep, 'stories', 'other', 'lore', 'x.md')), undefined);
});
