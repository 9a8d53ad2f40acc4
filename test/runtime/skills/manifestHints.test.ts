// Unit tests of the hints for skill authors: a short description, no capabilities, undescribed scripts; positions; suggested keywords and the edit that adds them.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyTextEdits } from '../../../src/runtime/authoring/textSpan.js';
import { addKeywordsEdit, manifestHints, manifestHintsOfText, suggestedKeywords } from '../../../src/runtime/skills/manifestHints.js';

const thin = `{
  "name": "tides",
  "version": "1.0.0",
  "description": "Tide tables.",
  "scripts": [{ "name": "tide", "path": "scripts/tide.js" }]
}
`;

test('a manifest that gives the narrator little to go on gets one hint per lack, at the key it is about', () => {
  const hints = manifestHintsOfText(thin);
  assert.deepEqual(
    hints.map((hint) => [hint.code, hint.pointer, hint.range?.start.line]),
    [
      ['SKILL_DESCRIPTION_SHORT', '/description', 4],
      ['SKILL_NO_CAPABILITIES', '/name', 2],
      ['SKILL_SCRIPT_UNDESCRIBED', '/scripts/0', 5],
    ],
  );
  assert.match(hints[0]!.message, /2 words/);
  assert.match(hints[2]!.message, /Script "tide"/);
});

test('a good manifest gets no hint; keywords make up for a short description and no capabilities, not for an undescribed script', () => {
  const good = {
    name: 'tides',
    version: '1.0.0',
    description: 'Tells when the water in the harbour is high or low, how strong the currents are, and when it is safe to sail.',
    capabilities: ['tides'],
    scripts: [{ name: 'tide', path: 'scripts/tide.js', description: 'The tide today.' }],
  };
  assert.deepEqual(manifestHints(good), []);
  const keyworded = { ...JSON.parse(thin), keywords: ['tide', 'current'] };
  assert.deepEqual(
    manifestHints(keyworded).map((hint) => hint.code),
    ['SKILL_SCRIPT_UNDESCRIBED'],
  );
  assert.deepEqual(manifestHints('not an object'), []);
  assert.deepEqual(manifestHintsOfText('{ "name": '), [], 'text that does not parse has its own problems');
});

test("suggested keywords: the lexicon's synonyms of the name and capabilities, then the description's words, never one the name already says", () => {
  const keywords = suggestedKeywords(JSON.parse(thin));
  assert.ok(keywords.includes('tidal'), keywords.join(', '));
  assert.ok(!keywords.includes('tides') && !keywords.includes('tide'));
  assert.ok(keywords.length <= 8);
  const weather = suggestedKeywords({
    name: 'weather',
    capabilities: ['weather'],
    description: 'Decides what the weather is like each day, and lets it change.',
  });
  assert.ok(!weather.includes('lets') && !weather.includes('decides'), weather.join(', '));
});

test('the quick fix adds "keywords" after the capabilities (else the description), in the file\'s indentation, and never twice', () => {
  const added = applyTextEdits(thin, [addKeywordsEdit(thin, ['tidal', 'harbour'])!]);
  assert.deepEqual(JSON.parse(added).keywords, ['tidal', 'harbour']);
  assert.match(added, /"description": "Tide tables\.",\n  "keywords": \["tidal", "harbour"\],\n  "scripts"/);
  const withCapabilities = '{\n    "name": "x",\n    "capabilities": ["a"],\n    "version": "1.0.0"\n}';
  assert.match(
    applyTextEdits(withCapabilities, [addKeywordsEdit(withCapabilities, ['b'])!]),
    /"capabilities": \["a"\],\n    "keywords": \["b"\],\n    "version"/,
  );
  assert.equal(addKeywordsEdit(applyTextEdits(thin, [addKeywordsEdit(thin, ['x'])!]), ['y']), undefined);
  assert.equal(addKeywordsEdit('{ broken', ['y']), undefined);
});
