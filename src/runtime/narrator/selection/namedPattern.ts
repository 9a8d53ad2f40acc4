// A named pattern of skill selection as data (what it is for, words it must find and words it must not, which a test checks), and the small builders that keep long patterns readable.

/** A regular expression with its reason and its examples (test/runtime/narrator/selection/namedPatterns.test.ts checks them). */
export interface NamedPattern {
  readonly name: string;
  /** What the pattern is for, in a sentence. */
  readonly purpose: string;
  readonly pattern: RegExp;
  /** Text the pattern must find. */
  readonly examples: readonly string[];
  /** Text it must not find: the mistakes it is written to avoid. */
  readonly counterExamples: readonly string[];
}

/** One of the alternatives (regular-expression texts): `anyOf('a', 'b\\s+c')` -> `(?:a|b\s+c)`. */
export function anyOf(...alternatives: readonly string[]): string {
  return `(?:${alternatives.join('|')})`;
}

/** One of the space-separated words (each a regular-expression text): `anyWord('coins? gold')` -> `(?:coins?|gold)`. */
export function anyWord(words: string): string {
  return anyOf(...words.split(' '));
}

/**
 * A pattern that finds one of `alternatives` from a word boundary on, and to a word boundary with `wholeWords`; case
 * aside unless `caseMatters`.
 */
export function phrasePattern(alternatives: readonly string[], options: { readonly wholeWords?: boolean; readonly caseMatters?: boolean } = {}): RegExp {
  return new RegExp(String.raw`\b${anyOf(...alternatives)}${options.wholeWords ? String.raw`\b` : ''}`, options.caseMatters ? '' : 'i');
}

/** Words of an alternation with their first letter in either case ("help|give" -> "[hH]elp|[gG]ive"), for a pattern where case matters elsewhere. */
export function eitherCase(words: string): string {
  return words
    .split('|')
    .map((word) => `[${word[0]}${word[0]!.toUpperCase()}]${word.slice(1)}`)
    .join('|');
}

/** The entry of `table` named `name` (a programming error when there is none). */
export function patternNamed(table: readonly NamedPattern[], name: string): RegExp {
  const found = table.find((entry) => entry.name === name);
  if (!found) throw new Error(`no pattern named ${name}`);
  return found.pattern;
}
