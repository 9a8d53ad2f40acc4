// Phrase cues in a player's words: whether they ask or check, the kinds of move they show (cueRules.ts), and the words each kind of skill describes itself with.
import { CUE_RULES, GROUP_DEED, GROUP_OPINION, HARMFUL } from './cueRules.js';
import { patternNamed, type NamedPattern } from './namedPattern.js';

/** A kind of move the words show, beyond their single terms. */
export type CueKind = 'chance' | 'past' | 'opinion' | 'standing' | 'deed' | 'options' | 'dialogue' | 'appearance' | 'price' | 'distance' | 'time';

export interface Cue {
  readonly kind: CueKind;
  /** The phrase that matched, for the explanation. */
  readonly phrase: string;
  /** Words added to the query: how skills of this kind describe themselves. */
  readonly expansion: string;
}

/** What the words are: a question (asks for information) or an action, with the cues found. */
export interface CueReading {
  readonly question: boolean;
  /** A request to see how something stands ("Check my O2"): not a question, but a reading script fits it as well. */
  readonly checking: boolean;
  readonly cues: readonly Cue[];
  /** +1 for a kind deed (helping, giving), -1 for a harmful one (stealing, insulting), 0 for neither. */
  readonly deedPolarity: -1 | 0 | 1;
}

/** What the words as a whole are: a question, a request for information, a check, about a group. */
export const READING_PATTERNS: readonly NamedPattern[] = [
  {
    name: 'question mark',
    purpose: 'Words that end with a question mark ask for information.',
    pattern: /\?\s*$/,
    examples: ['Mira is here?', 'The pass is open? '],
    counterExamples: ['Is it? No. I leave.'],
  },
  {
    name: 'question word',
    purpose: 'Words that open with a question word ask for information, question mark or not.',
    pattern: /^(?:who|what|when|where|why|how|which|is|are|am|do|does|did|have|has|can|could|will|would|should)\b/i,
    examples: ['Where is the mill', 'Is Mira still angry with me'],
    counterExamples: ['I ask where the mill is.', 'Island hopping, we sail on.'],
  },
  {
    name: 'request for information',
    purpose: 'A request for information, phrased as an order ("Show me your wares", "Tell me about kelpies"): a question.',
    pattern: /^(?:show|tell|list|describe|remind)\s+(?:me|us)\b/i,
    examples: ['Show me your wares', 'Tell us about kelpies.'],
    counterExamples: ['Show the guard your pass.', 'I tell Mira the news.'],
  },
  {
    name: 'checking',
    purpose: 'A request to see how something stands, in one clause ("Check my O2", "I look over the map"): a reading script fits, as for a question.',
    pattern: /^(?:(?:i|we|let's)\s+)?(?:check|inspect|examine|count|read|study|review|look\s+(?:at|over))\b(?![^.!?]*\b(?:and|then)\b)/i,
    examples: ['Check my O2', "Let's check the map", 'I look over the ledger', 'I read the wanted posters in the tavern.'],
    counterExamples: ['I examine the wound and bandage it.', 'The guard checks my papers.'],
  },
  {
    name: 'group',
    purpose: "A group named or implied: an opinion or a deed is about standing with it, not one person's attitude.",
    pattern: /\b(?:factions?|elves|dwarves|guards|guilds?|people|folk|townsfolk|villagers|they|them)\b/i,
    examples: ['Do the villagers trust us?', 'I help the elves.'],
    counterExamples: ['I help the old woman.', 'The guard is angry with me.'],
  },
];

const QUESTION_MARK = patternNamed(READING_PATTERNS, 'question mark');
const QUESTION_WORD = patternNamed(READING_PATTERNS, 'question word');
const REQUEST_FOR_INFORMATION = patternNamed(READING_PATTERNS, 'request for information');
const CHECKING = patternNamed(READING_PATTERNS, 'checking');
const GROUPS = patternNamed(READING_PATTERNS, 'group');
const HARMFUL_DEED = HARMFUL.pattern;

/** Reads the cues of `input`. Deterministic; a cue never names a skill, only the words its kind of skill uses. */
export function readCues(input: string): CueReading {
  // Curly apostrophes as straight ones ("I\u2019ll help"), so every pattern sees one kind.
  const text = input.trim().replace(/[\u2018\u2019]/g, "'");
  // A question, or a request for information ("Show me your wares", "Tell me about kelpies").
  const question = QUESTION_MARK.test(text) || QUESTION_WORD.test(text) || REQUEST_FOR_INFORMATION.test(text);
  const cues: Cue[] = [];
  for (const rule of CUE_RULES) {
    // A deed is a statement of what the player does; a question about a deed ("Did I help...?") is about the past.
    // (Known before its pattern is tried: the patterns have no state, so it is not tried at all.)
    if (rule.kind === 'deed' && (question || cues.some((cue) => cue.kind === 'deed'))) continue;
    const match = rule.pattern.exec(text);
    if (!match) continue;
    cues.push({ kind: rule.kind, phrase: match[0], expansion: rule.expansion });
  }
  // The deed's own phrase says whether it is kind or harmful; another person's deed ("the old man helps me up") is neither.
  const deed = cues.find((cue) => cue.kind === 'deed');
  const deedPolarity = deed ? (HARMFUL_DEED.test(deed.phrase) ? -1 : 1) : 0;
  // A group named or implied: opinions and deeds are about standing with it, not one person's attitude.
  const aboutGroup = cues.some((cue) => cue.kind === 'standing') || GROUPS.test(text);
  const grouped = aboutGroup
    ? cues.map((cue) => (cue.kind === 'opinion' ? { ...cue, expansion: GROUP_OPINION } : cue.kind === 'deed' ? { ...cue, expansion: GROUP_DEED } : cue))
    : cues;
  return { question, checking: CHECKING.test(text), cues: grouped, deedPolarity };
}
