// Lore retrieval ranking (BM25 over stems) on a small corpus with expected orderings: context from headings and paths, accents, synonyms, headings alone left out, limits and determinism.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { chunkLoreText } from '../../../../src/runtime/campaign/lore/loreChunking.js';
import { indexLoreChunks, loreTermsOf, rankLoreChunks } from '../../../../src/runtime/campaign/lore/loreRanking.js';
import type { LoreChunk } from '../../../../src/runtime/campaign/lore/loreTypes.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

const CORPUS: Record<string, string> = {
  'lore/factions/iron-guild.md': '# The Iron Guild\n\nThe Guild controls the docks and taxes every ship.\n\nIts master, Mara Vey, was a smuggler once.',
  'lore/places/harbour.md': '# The Harbour\n\nShips from the south unload spice and silk at the harbour.\n\nAt night the lanterns of the harbour burn green.',
  'lore/history/salt-war.md': 'The Salt War ended when the Guild burned the royal fleet.\n\nKing Aldric never forgave the Guild.',
  'lore/creatures/wyrm.md': 'The sea wyrm sleeps under the harbour. Fire does not harm it; only cold iron wounds the beast.',
  'lore/people/healer.md': '\u00c9owyn the healer lives by the lighthouse and mends sailors.',
  'lore/history/return.md': 'The Return of the King restored the state of the realm.',
};

const chunks: LoreChunk[] = Object.entries(CORPUS).flatMap(([file, text]) => chunkLoreText(text, file, words).chunks);

const ids = (query: string, limit?: number) => rankLoreChunks(query, chunks, limit === undefined ? {} : { limit }).map((result) => result.chunk.id);

test('terms: lowercase stems without common words, accents dropped, synonyms folded, the manifest jargon kept', () => {
  assert.deepEqual(loreTermsOf('Who controls the Harbours?'), ['control', 'harbour']);
  assert.deepEqual(loreTermsOf('\u00c9owyn'), ['eowyn']);
  // "return" and "state" are stop words for skill selection, not for lore.
  assert.deepEqual(loreTermsOf('the return of the state'), ['return', 'state']);
  // The narrator's synonym groups fold on both sides (a beast is a monster).
  assert.deepEqual(loreTermsOf('beast'), loreTermsOf('creature'));
});

test('the expected chunk comes first for each query', () => {
  const expectations: [query: string, best: string][] = [
    ['who is the master of the Iron Guild?', 'lore/factions/iron-guild.md#2'],
    ['what does the guild tax', 'lore/factions/iron-guild.md#1'],
    ['lanterns at night', 'lore/places/harbour.md#2'],
    ['spice and silk', 'lore/places/harbour.md#1'],
    ['how can the wyrm be wounded', 'lore/creatures/wyrm.md#0'],
    ['Eowyn', 'lore/people/healer.md#0'],
    ['Why does Aldric hate the Guild?', 'lore/history/salt-war.md#1'],
    ['the return of the king', 'lore/history/return.md#0'],
  ];
  for (const [query, best] of expectations) assert.equal(ids(query)[0], best, `${query}: ${ids(query).join(', ')}`);
});

test('a full ordering: the chunk holding the rare term and the common one first, then by what it holds', () => {
  const ranked = rankLoreChunks('spice at the harbour', chunks);
  assert.deepEqual(
    ranked.map((result) => [result.chunk.id, result.matchedTerms]),
    [
      ['lore/places/harbour.md#1', ['spice', 'harbour']],
      ['lore/places/harbour.md#2', ['harbour']],
      ['lore/creatures/wyrm.md#0', ['harbour']],
    ],
  );
  assert.ok(ranked[0]!.score > ranked[1]!.score && ranked[1]!.score > ranked[2]!.score);
  // harbour.md#2 holds "harbour" once in its text and once in its context (heading and path); the wyrm chunk once.
});

test('context counts: a chunk about the guild that never names it is found through its heading and file path', () => {
  // "Its master, Mara Vey, was a smuggler once." names neither the guild nor iron.
  assert.deepEqual(ids('iron guild smuggler', 2), ['lore/factions/iron-guild.md#2', 'lore/factions/iron-guild.md#1']);
});

test('a chunk of headings alone is never retrieved; chunks without any query term are left out', () => {
  assert.ok(!ids('harbour', 10).includes('lore/places/harbour.md#0'));
  assert.ok(!ids('iron guild', 10).includes('lore/factions/iron-guild.md#0'));
  assert.deepEqual(ids('lighthouse', 10), ['lore/people/healer.md#0']);
  assert.deepEqual(ids('dragons and unicorns', 10), []);
  assert.deepEqual(ids('the and of', 10), [], 'only common words: nothing to rank on');
  assert.deepEqual(ids('', 10), []);
});

test('limits, determinism, and an index built once give the same results', () => {
  assert.equal(ids('harbour guild', 2).length, 2);
  assert.deepEqual(ids('harbour guild', 2), ids('harbour guild', 10).slice(0, 2));
  assert.deepEqual(ids('harbour guild', 0), []);
  assert.equal(ids('harbour guild').length, 5, 'five by default');
  const first = rankLoreChunks('harbour guild ships', chunks, { limit: 10 });
  assert.deepEqual(rankLoreChunks('harbour guild ships', [...chunks], { limit: 10 }), first);
  assert.deepEqual(rankLoreChunks('harbour guild ships', indexLoreChunks(chunks), { limit: 10 }), first);
  assert.deepEqual(rankLoreChunks('anything', [], {}), []);
});

test('equal scores keep the chunks in their order', () => {
  const twins = ['lore/a.md', 'lore/b.md', 'lore/c.md'].flatMap((file) => chunkLoreText('A silver key opens the vault.', file, words).chunks);
  assert.deepEqual(
    rankLoreChunks('silver key', twins.toReversed()).map((result) => result.chunk.file),
    ['lore/c.md', 'lore/b.md', 'lore/a.md'],
  );
  assert.deepEqual(
    rankLoreChunks('silver key', twins).map((result) => result.chunk.file),
    ['lore/a.md', 'lore/b.md', 'lore/c.md'],
  );
});
