// The enum value of a script's input field that the player's words name, by stem and synonyms folded ("rusty" names "rust").
import { termsOf } from './textTerms.js';

const enumTerms = new Map<string, readonly string[]>();

/** The terms of an enum value, once per value (a few thousand kept). */
function enumTermsOf(value: string): readonly string[] {
  let terms = enumTerms.get(value);
  if (!terms) {
    if (enumTerms.size >= 4096) enumTerms.clear();
    terms = termsOf(value);
    enumTerms.set(value, terms);
  }
  return terms;
}

/** What an inflection adds to a stem ("rusti" for "rust"): never a new word ("window" is not "wind"). */
const INFLECTION = /^(?:i|s|e|es|ed|ing|y|ier|iest)$/;

/** The enum value the words name (by stem, synonyms folded: "thunderstorm" names "storm"), else undefined. */
export function enumValue(values: readonly unknown[], words: ReadonlySet<string>): unknown {
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const terms = enumTermsOf(value);
    if (terms.length > 0 && terms.every((term) => words.has(term))) return value;
  }
  // "rusty" names "rust": a value's stem that starts a word of the player's (four letters at least).
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const terms = enumTermsOf(value);
    if (
      terms.length > 0 &&
      terms.every((term) => term.length >= 4 && [...words].some((word) => word.startsWith(term) && INFLECTION.test(word.slice(term.length))))
    )
      return value;
  }
  return undefined;
}
