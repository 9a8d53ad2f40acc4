// The bundled lexicon (lexicon.txt, built from WordNet 3.1 by buildLexicon.mjs): the words related by meaning to an English word, with weights; loaded once per process on first use.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { bundledOrSourceFile, loadedOnce } from '../../../common/bundledFile.js';

/** A word related to another: by the same meaning (steps 0) or that many steps up the hypernyms, through the word's first sense or a rarer one. */
export interface RelatedWord {
  readonly word: string;
  readonly steps: number;
  readonly minorSense: boolean;
}

export interface Lexicon {
  readonly size: number;
  /** How long loading took, in milliseconds (reported by bench d). */
  readonly loadMs: number;
  /** Whether the word is one of WordNet's own ("caring", "coping"), not only an inflection of one. */
  has(word: string): boolean;
  /** How often WordNet's sense-tagged corpora use the word (0 for a rare one): how common, so how vague, it is. */
  frequencyOf(word: string): number;
  /** The words related to `word`, or to its base forms (plural, past, -ing) when the lexicon lacks it, closest first. */
  relatedTo(word: string): readonly RelatedWord[];
}

/** The process's lexicon, loaded on first call; null when the data file is missing (selection then works on shared words alone). */
export const lexicon: () => Lexicon | null = loadedOnce(
  () => lexiconFile(),
  (file) => loadLexicon(file),
);

/** dist/data/lexicon.txt beside a bundle, or the file beside this source when run from sources. */
export function lexiconFile(): string {
  return bundledOrSourceFile(path.join('data', 'lexicon.txt'), './lexicon.txt', import.meta.url);
}

const NONE: readonly RelatedWord[] = [];

/** Reads lexicon.txt: one line per word, `word<TAB>frequency<TAB>other0 other6 …` (the digit: steps, plus 5 for a rarer sense). */
export function loadLexicon(file: string): Lexicon | null {
  const started = performance.now();
  let text: string;
  try {
    // A checkout with CRLF line endings would leave a \r on each line's last entry.
    text = readFileSync(file, 'latin1').replace(/\r/g, '');
  } catch {
    return null;
  }
  // Word → where its line's frequency starts; the list is parsed when first asked for.
  const spans = new Map<string, number>();
  let start = 0;
  while (start < text.length) {
    const tab = text.indexOf('\t', start);
    const end = text.indexOf('\n', start);
    if (tab < 0 || end < 0) break;
    spans.set(text.slice(start, tab), tab + 1);
    start = end + 1;
  }
  const parsed = new Map<string, readonly RelatedWord[]>();
  const listOf = (word: string): readonly RelatedWord[] => {
    let list = parsed.get(word);
    if (list) return list;
    const at = spans.get(word);
    if (at === undefined) return NONE;
    list = text
      .slice(text.indexOf('\t', at) + 1, text.indexOf('\n', at))
      .split(' ')
      .map((entry) => {
        const code = Number(entry.slice(-1));
        return { word: entry.slice(0, -1), steps: code % 5, minorSense: code >= 5 };
      });
    parsed.set(word, list);
    return list;
  };
  const loadMs = performance.now() - started;
  return {
    size: spans.size,
    loadMs,
    has(word) {
      return spans.has(word);
    },
    frequencyOf(word) {
      const at = spans.get(word) ?? spans.get(baseForms(word).find((base) => spans.has(base)) ?? '');
      return at === undefined ? 0 : Number(text.slice(at, text.indexOf('\t', at)));
    },
    relatedTo(word) {
      // The word itself when the lexicon has it ("flower" is not "flow" + "er"), else its base forms.
      const forms = spans.has(word) ? [word] : baseForms(word);
      if (forms.length === 1) return listOf(forms[0]!);
      const best = new Map<string, RelatedWord>();
      const order = (related: RelatedWord) => related.steps * 2 + (related.minorSense ? 1 : 0);
      for (const base of forms)
        for (const related of listOf(base)) if (!best.has(related.word) || order(best.get(related.word)!) > order(related)) best.set(related.word, related);
      return [...best.values()].sort((left, right) => order(left) - order(right));
    },
  };
}

/** The word and the base forms its English endings suggest (WordNet's detachment rules): berries → berry, goblins → goblin, wolves → wolf. */
export function baseForms(word: string): string[] {
  const forms = [word];
  const rules: readonly [RegExp, string][] = [
    [/ies$/, 'y'],
    [/ves$/, 'f'],
    [/(s|x|z|ch|sh)es$/, '$1'],
    [/es$/, 'e'],
    [/s$/, ''],
    [/men$/, 'man'],
    [/ied$/, 'y'],
    [/ed$/, 'e'],
    [/ed$/, ''],
    [/ing$/, 'e'],
    [/ing$/, ''],
    [/([bdgklmnprt])\1(?:ed|ing)$/, '$1'],
    [/est$/, ''],
    [/er$/, ''],
  ];
  for (const [pattern, replacement] of rules) {
    if (!pattern.test(word)) continue;
    const base = word.replace(pattern, replacement);
    if (base.length >= 2 && !forms.includes(base)) forms.push(base);
  }
  return forms;
}
