// The numbers a player's words give, with the words around them ("down to 20", "5 coins", "three arrows"), for a script's number and integer fields; never a dice formula or a difficulty class.

/** A number the words give, and what it was said with. */
export interface Amount {
  readonly value: number;
  /** The words it came from, as written ("down to 20", "three arrows"). */
  readonly words: string;
  /** The noun after it ("coins", "arrows"), lowercased. */
  readonly unit?: string;
  /** The words before it that say what it is ("down to", "for", "offer"), lowercased. */
  readonly lead?: string;
}

const UNITS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Readonly<Record<string, number>> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const PHRASES: Readonly<Record<string, number>> = {
  'a dozen': 12,
  dozen: 12,
  'a hundred': 100,
  hundred: 100,
  'a thousand': 1000,
  thousand: 1000,
  'a couple of': 2,
  'a pair of': 2,
  'a score of': 20,
};

const WORD_NUMBER = `(?:(?:${Object.keys(TENS).join('|')})(?:[- ](?:${Object.keys(UNITS).slice(0, 9).join('|')}))?|${Object.keys(UNITS).join('|')}|${Object.keys(
  PHRASES,
)
  .map((phrase) => phrase.replace(/ /g, '\\s+'))
  .join('|')})`;
const LEADS =
  String.raw`down\s+to|up\s+to|no\s+more\s+than|at\s+most|at\s+least|only|just|about|around|for|at|to|offer(?:ing)?|pay(?:ing)?|give|` +
  String.raw`bid|bet|wager|deposit|withdraw|transfer|spend|buy|sell|take|want|need|with`;
/** A number, with what may lead it and the noun that may follow it. */
const AMOUNT = new RegExp(
  String.raw`(?:\b(${LEADS})\s+)?([$\u00a3\u20ac])?\s?\b(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|${WORD_NUMBER})\b(?:\s+([a-z][a-z'-]*))?`,
  'gi',
);
/** Words after a number that are not its unit. */
const NOT_UNITS = new RegExp(
  String.raw`^(?:and|or|to|for|of|in|on|at|the|a|an|but|if|then|times|more|less|instead|now|please|each|apiece|left|more|than|down|up|back|with|` +
    String.raw`from|by|so|is|are|was|were|it|them|me|you|i|we|he|she|they|into|onto|per|across|over|under|through|off|out|away|times|d\d+|dc)$`,
  'i',
);
/** Words that make a number a difficulty, a dice formula or an ordinal, not an amount. */
const NOT_AMOUNTS = /\b\d*d\d+|\bdc\s*\d+/gi;

/** The amounts in the words, in order. */
export function amountsOf(text: string): readonly Amount[] {
  const amounts: Amount[] = [];
  const masked = text.replace(NOT_AMOUNTS, (match) => ' '.repeat(match.length));
  for (let match = AMOUNT.exec(masked); match; match = AMOUNT.exec(masked)) {
    const value = numberOf(match[3]!);
    if (value === undefined) continue;
    const unitWord = match[4];
    const unit = unitWord && !NOT_UNITS.test(unitWord) ? unitWord.toLowerCase() : undefined;
    // "a couple of" must not read "one" of "one of them" as an amount: a bare word number needs a unit or a lead.
    if (!/\d/.test(match[3]!) && !unit && !match[1] && !match[2]) continue;
    const lead = match[1]?.toLowerCase().replace(/\s+/g, ' ');
    let words = text.slice(match.index, match.index + match[0].length).trim();
    if (unitWord && !unit) words = words.slice(0, words.length - unitWord.length).trim();
    amounts.push({ value, words, ...(unit ? { unit } : {}), ...(lead ? { lead } : {}) });
  }
  return amounts;
}

/** The number a word or phrase says: digits ("1,200"), words ("twenty-one", "twelve") or phrases ("a dozen"). */
export function numberOf(text: string): number | undefined {
  const lower = text.toLowerCase().replace(/\s+/g, ' ');
  if (/\d/.test(lower)) {
    const value = Number(lower.replace(/,/g, ''));
    return Number.isFinite(value) ? value : undefined;
  }
  if (PHRASES[lower] !== undefined) return PHRASES[lower];
  if (UNITS[lower] !== undefined) return UNITS[lower];
  const [tens, units] = lower.split(/[- ]/);
  if (tens !== undefined && TENS[tens] !== undefined) return TENS[tens]! + (units !== undefined ? (UNITS[units] ?? 0) : 0);
  return undefined;
}
