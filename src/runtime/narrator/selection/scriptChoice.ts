// The script of a chosen skill: its examples, then its own words; a question or a look never runs a script that acts. Whether a script reads or acts.
import type { CueReading } from './cues.js';
import { patternNamed } from './namedPattern.js';
import { INPUT_PATTERNS, SCRIPT_PATTERNS } from './selectionPatterns.js';
import { round, type Script } from './selectionTypes.js';
import type { IndexedSkill, Query, RelatedTerm, SkillIndex } from './skillIndex.js';
import { termOf, wordsOf } from './textTerms.js';
import { ACTING_VERBS, READING_VERBS } from './verbs.js';

/** The scripts of a chosen skill, best first, and why the first beat the others (for --explain). */
export interface ScriptChoice {
  readonly scripts: readonly Script[];
  readonly reason?: string;
}

/** Whether a script reads or acts, and whether its name says so. */
export interface ScriptKind {
  readonly kind?: 'reads' | 'acts';
  readonly sure: boolean;
}

const LOOKING = patternNamed(INPUT_PATTERNS, 'looking');
const POLITE_REQUEST = patternNamed(INPUT_PATTERNS, 'polite request');
const READS = patternNamed(SCRIPT_PATTERNS, 'reading script name');
const ACTS = patternNamed(SCRIPT_PATTERNS, 'acting script name');
const READING_DESCRIPTION = patternNamed(SCRIPT_PATTERNS, 'reading description');
const ACTING_DESCRIPTION = patternNamed(SCRIPT_PATTERNS, 'acting description');
const NOT_A_VERB = patternNamed(SCRIPT_PATTERNS, 'not a verb');
const NO_RELATED: ReadonlyMap<string, readonly RelatedTerm[]> = new Map();

/** A script of the skill as ranked: its kind, the score of its own words, and that score with its kind weighed in. */
interface RankedScript {
  readonly script: Script;
  readonly position: number;
  readonly kind: ScriptKind['kind'];
  readonly own: number;
  readonly terms: readonly string[];
  readonly score: number;
}

/**
 * The skill's scripts, best first, with the reason the first won:
 * - a script whose `examples` hold the player's very words comes first;
 * - otherwise the one whose own words (name, description, examples) match best, a question preferring a script that
 *   reads and an action one that acts;
 * - a question or a look never runs a script that acts (moves, buys, attacks, stores...) when the skill has another
 *   script: such scripts are left out (a skill whose scripts all act was chosen by selection, and keeps its best);
 * - a script that acts is never the fallback of one that reads, for words that do not ask for an act.
 */
export function scriptsOf(index: SkillIndex, entry: IndexedSkill, query: Query, reading: CueReading, input = ''): ScriptChoice {
  const scripts = entry.skill.scripts;
  // (The player's words made plain only when some script has examples to compare them with.)
  const words = scripts.some((script) => plainExamplesOf(script).size > 0) ? plainWords(input) : '';
  const onlyAsking = (reading.question && !POLITE_REQUEST.test(input.trim())) || LOOKING.test(input) || reading.checking;
  const exampled = words === '' ? -1 : scripts.findIndex((script) => plainExamplesOf(script).has(words));
  if (exampled >= 0 && !(onlyAsking && scriptKind(scripts[exampled]!).kind === 'acts')) {
    const script = scripts[exampled]!;
    const others = scripts.filter((other) => other !== script);
    const example = (script.examples ?? []).find((each) => plainWords(each) === words);
    return { scripts: [script, ...others], ...(others.length > 0 ? { reason: `its example "${example}" is the player's words` } : {}) };
  }
  // A polite request ("Would you take 32 for the longsword?") asks for the act, like a command.
  const acting = !onlyAsking || reading.deedPolarity !== 0;

  // Only the player's own words choose among a skill's scripts: a related word ("coming" ~ "changes") is too loose here.
  const ownWords: Query = { terms: query.terms, related: NO_RELATED };
  let ranked: RankedScript[] = scripts
    .map((script, position) => {
      // A script's name says what it does more surely than its description's first verb, which counts half.
      const { kind, sure } = scriptKind(script);
      const verb = (kind === 'reads' ? (acting ? -0.5 : 1.5) : kind === 'acts' ? (acting ? 1.5 : -0.5) : 0) * (sure ? 1 : 0.5);
      const own = index.score(entry.scripts[position]!, ownWords);
      return { script, position, kind, own: own.score, terms: own.terms, score: own.score + verb };
    })
    // (Only where the skill has a script that does not act: otherwise choosing the skill at all was selection's call.)
    .filter((candidate, _, all) => !(onlyAsking && candidate.kind === 'acts' && all.some((other) => other.kind !== 'acts')))
    .sort((left, right) => right.score - left.score || left.position - right.position);
  // A script that acts runs only when the words ask for an act: never as the fallback of one that reads.
  if (ranked[0] && ranked[0].kind !== 'acts' && !acting) ranked = ranked.filter((candidate, position) => position === 0 || candidate.kind !== 'acts');
  const [first, second] = ranked;
  if (!first)
    return {
      scripts: [],
      reason: `a ${reading.question ? 'question' : 'look'} never runs a script that acts (${scripts.map((script) => script.name).join(', ')})`,
    };
  const left = scripts.length - ranked.length;
  const reasons: string[] = [];
  if (scripts.length > 1 && second) reasons.push(first.own > 0 ? matchedReason(first, second, input) : unmatchedReason(first, acting));
  if (scripts.length > 1 && left > 0) {
    reasons.push(
      `${left === 1 ? 'one script that acts was' : `${left} scripts that act were`} left out: a ${reading.question ? 'question' : 'look'} never runs them`,
    );
  }
  const reason = reasons.join('; ') || undefined;
  return { scripts: ranked.map(({ script }) => script), ...(reason ? { reason } : {}) };
}

/** Why the first script beat the second on the player's own words. */
function matchedReason(first: RankedScript, second: RankedScript, input: string): string {
  /** The player's words by their terms, to say which matched. */
  const spoken = new Map<string, string>();
  for (const word of wordsOf(input)) {
    const term = termOf(word);
    if (term !== undefined && !spoken.has(term)) spoken.set(term, word);
  }
  const matched = first.terms
    .filter((term) => spoken.has(term))
    .slice(0, 3)
    .map((term) => `"${spoken.get(term)}"`)
    .join(', ');
  return `"${first.script.name}" matched ${matched} (${round(first.own)} against "${second.script.name}" ${round(second.own)})`;
}

/** Why the first script came first when no script's own words matched: its kind, as the words want. */
function unmatchedReason(first: RankedScript, acting: boolean): string {
  const does = first.kind === 'reads' ? 'reads' : first.kind === 'acts' ? 'acts' : 'comes first';
  return `no script's own words matched; "${first.script.name}" ${does}${first.kind ? `, as ${acting ? 'an action' : 'a question'} wants` : ''}`;
}

const plainExamples = new WeakMap<Script, ReadonlySet<string>>();

/** A script's examples as plain words, once per script. */
function plainExamplesOf(script: Script): ReadonlySet<string> {
  let examples = plainExamples.get(script);
  if (!examples) {
    examples = new Set((script.examples ?? []).map(plainWords));
    plainExamples.set(script, examples);
  }
  return examples;
}

/** The last text made plain, and its words: a plan asks for its input's once per skill it weighs. */
let lastPlain = { text: '', words: '' };

/** The words of an example, to compare with the player's ("I haggle over the rope." -> "i haggle over the rope"). */
function plainWords(text: string): string {
  if (text === lastPlain.text) return lastPlain.words;
  const words = text
    .toLowerCase()
    .replace(/[\u2019\u2018]/g, "'")
    .replace(/[^a-z0-9' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  lastPlain = { text, words };
  return words;
}

/** Whether a script reads (a question wants it) or acts (a deed wants it): by its name, else by the first verb its description says. */
export function scriptKind(script: Script): ScriptKind {
  let known = scriptKinds.get(script);
  if (!known) scriptKinds.set(script, (known = kindOf(script)));
  return known;
}

const scriptKinds = new WeakMap<Script, ScriptKind>();

/** A script's kind, worked out from its name and description. */
function kindOf(script: Script): ScriptKind {
  if (READS.test(script.name)) return { kind: 'reads', sure: true };
  if (ACTS.test(script.name)) return { kind: 'acts', sure: true };
  // "Old Pell hands out { count }", "The bosun's hands raise, lower or reef a sail", "Reports how high the river runs".
  const clause = (script.description?.trim() ?? '').split(/[;:.]/)[0]!.toLowerCase();
  const words = clause.split(/[^a-z'-]+/).filter((word) => word !== '');
  for (const [position, word] of words.entries()) {
    // "hands" is the bosun's hands unless "out" follows ("hands out").
    if (word === 'hands' || word === 'hand') {
      if (words[position + 1] === 'out' || words[position + 1] === 'over') return { kind: 'acts', sure: false };
      continue;
    }
    // A verb's base form only opens a description ("Trade caravans leaving..." is a noun); after a subject, its -s form.
    if (position > 0 && !/[^s]s$/.test(word)) continue;
    if (READING_VERBS.has(word)) return { kind: 'reads', sure: false };
    if (ACTING_VERBS.has(word)) return { kind: 'acts', sure: false };
  }
  const description = script.description?.trim() ?? '';
  if (READING_DESCRIPTION.test(description)) return { kind: 'reads', sure: false };
  if (ACTING_DESCRIPTION.test(description) && !NOT_A_VERB.test(description)) return { kind: 'acts', sure: false };
  return { sure: false };
}
