// Turns text into the terms skill selection and lore retrieval compare: lowercase words, stop words dropped, Porter stems (the `stemmer` package), synonyms folded to one term.
import { stemmer } from 'stemmer';
import { SYNONYM_GROUPS } from './synonyms.js';

/** English function words: they carry no meaning of their own, in a manifest, a player's words or lore. */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have having he her here hers him his how i if in into is it its ' +
    'itself let me mine my myself no nor not of off on once only or other our ours out over own same she should so some such than that the their theirs them ' +
    'then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours ' +
    'am ll s t d re ve m just also any each every all again about above after before below between both few more most now like toward towards ' +
    'around across along within without upon onto us anything something everything nothing anyone anybody someone somebody everyone everybody ' +
    'many much still yet ever even though although whether'
  ).split(/\s+/),
);

/** The protocol's own jargon in manifests: how a script reports, not what it is about. */
const MANIFEST_JARGON =
  'emits emit event events records record returns return session state tool tools script scripts ' +
  'input output json object string integer optional optionally default ui';

/** Words that carry no choice of skill: English function words and the manifests' jargon. */
const STOP_WORDS = new Set([...ENGLISH_STOP_WORDS, ...MANIFEST_JARGON.split(' ')]);

const stemCache = new Map<string, string>();

/** The Porter stem of a lowercase word, cached. */
export function stemOf(word: string): string {
  let stem = stemCache.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    if (stemCache.size < 50_000) stemCache.set(word, stem);
  }
  return stem;
}

/** Stem → the group's canonical stem (the first word of its synonym group). */
const canonical = new Map<string, string>();
for (const group of SYNONYM_GROUPS) {
  const head = stemOf(group[0]!);
  for (const word of group) {
    const stem = stemOf(word);
    if (!canonical.has(stem)) canonical.set(stem, head);
  }
}

/** The lowercase words of `text` (letters and digits; apostrophes split contractions). */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** Each word's term (null: none), as {@link termOf} works it out: one lookup where it takes three. */
const termCache = new Map<string, string | null>();

/** The term of one lowercase word: undefined for a stop word, else its stem folded to its synonym group's. */
export function termOf(word: string): string | undefined {
  const cached = termCache.get(word);
  if (cached !== undefined) return cached ?? undefined;
  let term: string | undefined;
  if (!STOP_WORDS.has(word) && word.length >= 2) {
    const stem = stemOf(word);
    term = canonical.get(stem) ?? stem;
  }
  if (termCache.size < 50_000) termCache.set(word, term ?? null);
  return term;
}

/**
 * The term of one lowercase word of prose (lore, a scene): as {@link termOf}, but the manifests' jargon keeps its
 * meaning (in lore, "the return of the king" and "the state of the realm" are about a return and a state).
 */
export function proseTermOf(word: string): string | undefined {
  if (ENGLISH_STOP_WORDS.has(word) || word.length < 2) return undefined;
  const stem = stemOf(word);
  return canonical.get(stem) ?? stem;
}

/** The terms of `text`, in order, repeats kept. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const word of wordsOf(text)) {
    const term = termOf(word);
    if (term !== undefined) terms.push(term);
  }
  return terms;
}
