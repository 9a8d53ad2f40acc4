// A campaign's dice rules: 2d6 with failure, partial and success bands by default (spec 008, FR-017), or what world/rules.md states (FR-019). Pure.
import { numberOf as wordsNumberOf } from '../../narrator/selection/amounts.js';

/** What a roll's total means. */
export type RollOutcome = 'success' | 'partial' | 'failure';

/** A range of totals (inclusive; an open end is absent) and what it means. */
export interface RollBand {
  readonly min?: number;
  readonly max?: number;
  readonly outcome: RollOutcome;
}

export interface Ruleset {
  /** The dice formula of an uncertain action, e.g. 2d6. */
  readonly formula: string;
  readonly bands: readonly RollBand[];
  /** Where the rules come from. */
  readonly source: 'default' | 'world/rules.md';
  /** Why world/rules.md was not used, when it exists but states no formula and bands. */
  readonly note?: string;
}

/** FR-017: 2d6 + modifiers; 2-6 failure, 7-9 partial, 10-12 success. */
export const DEFAULT_RULES: Ruleset = {
  formula: '2d6',
  bands: [
    { max: 6, outcome: 'failure' },
    { min: 7, max: 9, outcome: 'partial' },
    { min: 10, outcome: 'success' },
  ],
  source: 'default',
};

/** A count of dice in words: "a"/"an" die, else what amounts.ts reads ("two", "12", "twenty"). */
function numberOf(word: string): number | undefined {
  return /^an?$/i.test(word) ? 1 : wordsNumberOf(word);
}

/** The first dice formula the text states: `2d6`, `1d20+1`, or "two six-sided dice". */
export function statedFormula(text: string): string | undefined {
  const written = /\b(\d*)d(\d+)(\s*[+-]\s*\d+)?\b/i.exec(text);
  if (written) return `${written[1] || '1'}d${written[2]}${(written[3] ?? '').replace(/\s+/g, '')}`;
  const words = /\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+(\d+|[a-z]+)[- ]sided\s+(?:dice|die)\b/i.exec(text);
  if (!words) return undefined;
  const count = numberOf(words[1]!);
  const sides = numberOf(words[2]!);
  return count !== undefined && sides !== undefined && sides >= 2 ? `${count}d${sides}` : undefined;
}

/** A range at the start of a rules line: "10 or more", "7 to 9", "7-9", "6 or less", "up to 6", "10+". */
function rangeOf(text: string): { min?: number; max?: number } | undefined {
  const between = /\b(\d+)\s*(?:to|through|-|\u2013|\u2014)\s*(\d+)\b/i.exec(text);
  if (between) return { min: Number(between[1]), max: Number(between[2]) };
  const above = /\b(\d+)\s*(?:\+|or\s+(?:more|higher|above|better))/i.exec(text);
  if (above) return { min: Number(above[1]) };
  const below = /\b(\d+)\s*(?:or\s+(?:less|lower|below|fewer|under))|\bup\s+to\s+(\d+)\b/i.exec(text);
  if (below) return { max: Number(below[1] ?? below[2]) };
  return undefined;
}

/** What a rules line says a band means: partial ("at a cost", "mixed") before failure before success. */
function outcomeOf(text: string): RollOutcome | undefined {
  if (/\b(?:partial|at\s+a\s+cost|with\s+a\s+cost|mixed|complication|weak\s+hit)\b/i.test(text)) return 'partial';
  if (/\b(?:fail|fails|failure|goes\s+wrong|go\s+wrong|miss|misses)\b/i.test(text)) return 'failure';
  if (/\b(?:success|succeeds?|works|full|strong\s+hit)\b/i.test(text)) return 'success';
  return undefined;
}

/**
 * The rules world/rules.md states: its first dice formula, and each line (a list item or a sentence) that starts with
 * a range and says what it means. Both are needed (two bands at least); else the default rules, with the reason.
 */
export function parseRules(markdown: string): Ruleset {
  if (markdown.trim() === '') return DEFAULT_RULES;
  const formula = statedFormula(markdown);
  const bands: RollBand[] = [];
  for (const line of markdown.split(/\r?\n|(?<=[.!?])\s+(?=\d)/)) {
    const plain = line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').replace(/[*_`]/g, '');
    const range = rangeOf(plain.slice(0, 40));
    const outcome = range ? outcomeOf(plain) : undefined;
    if (range && outcome) bands.push({ ...range, outcome });
  }
  if (formula && bands.length >= 2) return { formula, bands, source: 'world/rules.md' };
  const missing = !formula ? 'no dice formula' : 'fewer than two bands (a range and what it means)';
  return { ...DEFAULT_RULES, note: `world/rules.md states ${missing}; the default rules apply (2d6: 2-6 failure, 7-9 partial, 10-12 success)` };
}

/** What a total means under the rules (the first band that holds it); undefined when no band does. */
export function outcomeOfTotal(rules: Pick<Ruleset, 'bands'>, total: number): RollOutcome | undefined {
  return rules.bands.find((band) => (band.min === undefined || total >= band.min) && (band.max === undefined || total <= band.max))?.outcome;
}

/** A band as people read it: "7-9", "10+", "6 or less". */
export function bandLabel(band: RollBand): string {
  if (band.min !== undefined && band.max !== undefined) return `${band.min}-${band.max}`;
  if (band.min !== undefined) return `${band.min}+`;
  return `${band.max} or less`;
}
