// Unit tests of the bundled lexicon (WordNet relations): related words by meaning and by steps up the hypernyms, base forms, frequencies, a missing or foreign file.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { baseForms, lexicon, lexiconFile, loadLexicon } from '../../../../src/runtime/narrator/selection/relatedness/lexicon.js';

const related = (word: string) => lexicon()!.relatedTo(word);
const has = (word: string, other: string) => related(word).find((each) => each.word === other);

test('the bundled lexicon loads once, from beside the sources, with tens of thousands of words', () => {
  const words = lexicon();
  assert.ok(words, `lexicon at ${lexiconFile()}`);
  assert.ok(words.size > 50_000, `${words.size} words`);
  assert.equal(lexicon(), words, 'loaded once per process');
});

test('synonyms and derivations are the same meaning (0 steps); hypernyms count their steps', () => {
  assert.equal(has('far', 'distance')?.steps, 0, 'far → distance (attribute)');
  assert.equal(has('strong', 'strength')?.steps, 0, 'strong → strength (derivation)');
  assert.equal(has('padlock', 'lock')?.steps, 1, 'a padlock is a lock');
  assert.equal(has('sword', 'weapon')?.steps, 1, 'a sword is a weapon');
  assert.ok((has('werewolf', 'monster')?.steps ?? 9) <= 2, 'a werewolf is a monster');
  // Closest first.
  const steps = related('padlock').map((each) => each.steps);
  assert.deepEqual(
    steps,
    [...steps].sort((left, right) => left - right),
  );
});

test('a word\'s dominant sense, by how often the corpora tag it: "still" is not a distillery; a verb relates one step up, never to the top of its hierarchy', () => {
  assert.equal(has('still', 'distillery'), undefined);
  assert.equal(has('swim', 'travel'), undefined, 'a verb does not relate to its general hypernym');
  assert.equal(has('fry', 'cook')?.steps, 1, 'to fry is to cook');
  assert.ok(lexicon()!.frequencyOf('get') > lexicon()!.frequencyOf('padlock'));
});

test('base forms: plurals, past tenses and -ing forms reach their word, and only when the lexicon lacks the word itself', () => {
  assert.ok(baseForms('berries').includes('berry'));
  assert.ok(baseForms('wolves').includes('wolf'));
  assert.ok(baseForms('boxes').includes('box'));
  assert.ok(baseForms('stopped').includes('stop'));
  assert.ok(
    related('padlocks').some((each) => each.word === 'lock'),
    'padlocks → padlock → lock',
  );
  assert.equal(has('flower', 'flow'), undefined, 'flower is a word of its own, not flow + er');
});

test('a missing or foreign file is no lexicon: selection goes on with shared words alone', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-lexicon-'));
  try {
    assert.equal(loadLexicon(path.join(folder, 'missing.txt')), null);
    const file = path.join(folder, 'tiny.txt');
    writeFileSync(file, 'cat\t12\tfeline0 animal2\n');
    const tiny = loadLexicon(file)!;
    assert.equal(tiny.size, 1);
    assert.equal(tiny.frequencyOf('cats'), 12);
    assert.deepEqual(tiny.relatedTo('cats'), [
      { word: 'feline', steps: 0, minorSense: false },
      { word: 'animal', steps: 2, minorSense: false },
    ]);
    assert.deepEqual(tiny.relatedTo('dog'), []);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
