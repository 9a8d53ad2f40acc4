// Phrase cues in a player's words: what kind of move it is (a question about the past, how someone sees the player, a risky attempt, a request for options…) and the words that kind of skill describes itself with.

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

interface CueRule {
  readonly kind: CueKind;
  readonly pattern: RegExp;
  readonly expansion: string;
}

const RISKY =
  'attack|attacks|strike|stab|slash|swing|shoot|fight|punch|hit|sneak|creep|tiptoe|persuade|convince|coax|intimidate|threaten|bluff|deceive|trick|' +
  'haggle|bargain|negotiate|climb|scale|clamber|jump|leap|vault|dodge|evade|disarm|swim|pick\\s+(?:the\\s+|a\\s+|its\\s+)?lock|lockpick|force\\s+(?:open|the|it)|' +
  'break\\s+(?:down|open|through)|steal|rob|pickpocket|win\\s+back|escape|balance|wrestle|grapple|parry|block';

/** Deeds toward someone, kind and harmful. */
const KIND_DEEDS = String.raw`help|helps|helped|assist|aid|rescue|save|give|gives|hand|return|bandage|heal|protect|defend|report|apologi[sz]e|thank`;
const HARMFUL_DEEDS = String.raw`rob|steal|betray|insult|spit|burn|cheat|lie\s+to`;
/**
 * The player as the doer: "I" or "we" ("I'll", "we'd"), with at most an adverb or a "try to" between ("I quickly
 * help", "I agree to help"), or "and"/"then" after such a clause; never a noun ("a hand of cards", "craft a bandage").
 */
const PLAYER_DOES = String.raw`\b(?:(?:i|we)(?:'ll|'d)?(?:\s+(?:\w+ly|will|would|also|then|(?:try|agree|want|decide|offer|promise|going|have)\s+to))?\s+|(?:and|then)\s+)`;
/** An order given to the narrator about someone named or pointed at ("Give Jory the coin", "Help her up"): case matters for the name. */
const ORDER = new RegExp(String.raw`^(?:${either(KIND_DEEDS)}|${either(HARMFUL_DEEDS)})\s+(?:him|her|them|[A-Z][\w'-]+)\b`);
/** The player calling someone names ("I call Jory a cheat", "we called the toll keeper a liar"). */
const NAME_CALLING = String.raw`\b(?:i|we)\s+call(?:ed)?(?!\s+(?:out|for|on|up|over|back|to)\b)(?:\s+(?!to\b)[\w'-]+){1,4}?\s+an?\s+(?:cheat|liar|thief|coward|fool|idiot|crook|traitor|fraud)\b`;
const DEED = new RegExp(String.raw`${PLAYER_DOES}(?:${KIND_DEEDS}|${HARMFUL_DEEDS})\b(?!\s+(?:me|us|myself|ourselves|yourself)\b)|${NAME_CALLING}`, 'i');
const HARMFUL = new RegExp(String.raw`\b(?:${HARMFUL_DEEDS})\b|${NAME_CALLING}`, 'i');

/** How someone sees the player, and what changes it: for one person, or for a group (a faction, "the elves"). */
const PERSON_OPINION = 'attitude perception opinion npc';
const GROUP_OPINION = 'reputation standing faction';
const PERSON_DEED = 'attitude perception npc adjust change';
const GROUP_DEED = 'reputation standing faction update change';
/** Words that make an opinion or a deed about a group. */
const GROUPS = /\b(?:factions?|elves|dwarves|guards|guilds?|people|folk|townsfolk|villagers|they|them)\b/i;

const RULES: readonly CueRule[] = [
  // Questions a game master answers from the world's facts: what a thing costs, how far a place is, what time it is.
  {
    kind: 'price',
    pattern: /\b(?:how\s+much\b[^?.!]*\b(?:for|cost|costs|charge|charges|worth|pay|sell|ask|asking|want)|what\s+(?:is|does|would|will)\b[^?.!]*\b(?:cost|worth|charge|pay)|(?:can|could)\s+(?:i|we)\s+afford|price\s+of|(?:pay|offer|give|bid)\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|a\s+hundred|a\s+few|some)\s+(?:\w+\s+)?(?:coins?|gold|silver|copper|crowns?|credits?|dollars?|bucks))\b/i,
    expansion: 'price cost buy sell trade',
  },
  {
    kind: 'distance',
    pattern: /\b(?:how\s+far|(?:close|near)\s+(?:to|by)\b|how\s+long\s+(?:is\s+the\s+|does\s+it\s+take\s+to\s+|to\s+)(?:ride|walk|journey|trip|travel|get|reach|sail)|distance\s+(?:to|from|between))/i,
    expansion: 'distance far travel route journey',
  },
  {
    kind: 'time',
    pattern: /\b(?:what\s+(?:time|day|hour|date|month|season)\s+is\s+it|what\s+(?:is\s+)?the\s+(?:time|date|hour)|(?:still|already)\s+(?:morning|afternoon|evening|night|day)|how\s+long\s+(?:until|till|before)\s+(?:dawn|dusk|nightfall|sunrise|sunset|morning|night|noon|midnight))\b/i,
    expansion: 'time hour day date calendar clock',
  },
  { kind: 'chance', pattern: new RegExp(`\\b(?:${RISKY})\\b`, 'i'), expansion: 'roll dice chance check' },
  {
    kind: 'chance',
    // A roll asked for: "roll a…", "roll for…", "roll three six-sided dice", "a percentile roll", "1d20"; not "roll my
    // eyes", "dice the onions" or "a one-sided deal".
    pattern:
      /\b(?:roll(?:s|ing)?\s+(?:a\s+|for\b|to\b|\d|(?:(?:the|my|our|some|one|two|three|four|five|six|\d+)\s+)?(?:[\w-]+\s+)?(?:dice|die)\b)|dice\b(?!\s+(?:the|an?|some|up|it|them)\b)|percentile\b|(?:\d+|four|six|eight|ten|twelve|twenty)-sided\b|\d*d(?:\d+|%)\b|saving\s+throw|\bdc\s*\d)/i,
    expansion: 'roll dice chance check',
  },
  {
    kind: 'past',
    pattern:
      /\b(?:have\s+(?:i|we)\s+(?:ever\s+)?(?:met|been|seen|heard|visited)|did\s+(?:i|we)\s+(?:ever\s+)?\w+|last\s+time|remind\s+me|what\s+happened|so\s+far|who\s+gave\s+(?:me|us)|where\s+did\s+(?:i|we)|when\s+did\s+(?:i|we)|do\s+(?:i|we)\s+(?:remember|recall|know\s+about)|what\s+do\s+(?:i|we)\s+know\s+about|what\s+did\s+(?:the\s+|that\s+|this\s+|my\s+|our\s+)?[\w\s'-]{1,40}?\s+(?:tell|say|said|mention|promise|ask)\b|who\s+(?:was|were)\s+(?:that|those|the)\b[^?.!]*\b(?:i|we)\s+(?:met|saw)\b|a\s+while\s+back\b|way\s+back\s+when\b|\b(?:days?|nights?|weeks?|months?|years?)\s+ago\b|\b(?:i|we)\s+(?:try\s+to\s+)?(?:remember|recall)\b(?!\s+to\b)|before\s*\?|again\b)/i,
    expansion: 'remember recall memory past happened',
  },
  {
    kind: 'opinion',
    pattern:
      /\b(?:trusts?\s+(?:me|us)|(?:win|earn|gain|regain)\s+(?:back\s+)?[\w\s']*?\btrust|(?:feel|feels|think|thinks)\s+(?:about|of)\s+(?:me|us)|angry\s+(?:with|at)\s+(?:me|us)|(?:on|at)\s+(?:my|our)\s+side|(?:like|likes|hate|hates)\s+(?:me|us)|(?:mad|upset|furious|sore|cross|annoyed|pleased|happy)\s+(?:with|at)\s+(?:me|us)|thinks?\s+(?:any\s+)?(?:better|worse|more|less|well|highly|badly|poorly)\s+of\s+(?:me|us)|see[sn]?\s+(?:me|us)|(?:me|us)\s+arrested|welcome\b)/i,
    expansion: PERSON_OPINION,
  },
  { kind: 'standing', pattern: /\b(?:reputation|standing|renown|factions?)\b/i, expansion: 'reputation standing faction' },
  // A named organisation ("the Thieves Guild", "the Town Guard"): capitalised, so "the guard at the gate" is not one.
  { kind: 'standing', pattern: /\b(?:[A-Z][a-z]+\s+)+(?:Guild|League|Circle|Guard|Order|Brotherhood|Clan|Company|Council|Elves|Dwarves)\b/, expansion: 'reputation standing faction' },
  {
    kind: 'deed',
    // The player's own deed (see PLAYER_DOES) or name-calling…
    pattern: DEED,
    expansion: PERSON_DEED,
  },
  // …or an order about someone.
  { kind: 'deed', pattern: ORDER, expansion: PERSON_DEED },
  {
    kind: 'options',
    pattern:
      /\b(?:what\s+(?:can|could|should|shall|might)\s+(?:i|we)\s+(?:do|try)|what\s+are\s+(?:my|our)\s+(?:options|choices)|(?:give|show)\s+me\s+(?:some\s+|a\s+few\s+)?(?:choices|options|ideas)|any\s+ideas|i'?m\s+stuck|what\s+now\b|options\b|choices\b)/i,
    expansion: 'choices options',
  },
  // Starting a conversation: the player will want lines to choose from.
  { kind: 'dialogue', pattern: /\b(?:(?:talk|speak|chat)\s+(?:to|with)|greet|strike\s+up\s+a\s+conversation)\b/i, expansion: 'dialogue choices options' },
  {
    kind: 'appearance',
    pattern: /\b(?:look(?:s)?\s+like|how\s+(?:does|do|did)\s+(?:he|she|they|it|[A-Z][\w'-]*)\s+look\b|portrait|picture\s+of|sketch\s+of|draw\s+(?:me\s+)?(?:a\s+|the\s+)?(?:portrait|picture|likeness)|(?:describe|see)\s+[\w\s']*?\b(?:face|appearance)|what\s+\w+\s+looks?\s+like)\b/i,
    expansion: 'portrait appearance likeness',
  },
];

/** A request to see how something stands, in one clause ("Check my O2", "I look over the map"): a reading script fits, as for a question. */
const CHECKING = /^(?:(?:i|we|let's)\s+)?(?:check|inspect|examine|count|read|study|review|look\s+(?:at|over))\b(?![^.!?]*\b(?:and|then)\b)/i;

/** Words of an alternation with their first letter in either case ("help|give" → "[hH]elp|[gG]ive"), for a pattern where case matters elsewhere. */
function either(words: string): string {
  return words
    .split('|')
    .map((word) => `[${word[0]}${word[0]!.toUpperCase()}]${word.slice(1)}`)
    .join('|');
}

/** Reads the cues of `input`. Deterministic; a cue never names a skill, only the words its kind of skill uses. */
export function readCues(input: string): CueReading {
  // Curly apostrophes as straight ones ("I’ll help"), so every pattern sees one kind.
  const text = input.trim().replace(/[\u2018\u2019]/g, "'");
  // A question, or a request for information ("Show me your wares", "Tell me about kelpies").
  const question =
    /\?\s*$/.test(text) || /^(?:who|what|when|where|why|how|which|is|are|am|do|does|did|have|has|can|could|will|would|should)\b/i.test(text) || /^(?:show|tell|list|describe|remind)\s+(?:me|us)\b/i.test(text);
  const cues: Cue[] = [];
  for (const rule of RULES) {
    const match = rule.pattern.exec(text);
    if (!match) continue;
    // A deed is a statement of what the player does; a question about a deed ("Did I help…?") is about the past.
    if (rule.kind === 'deed' && (question || cues.some((cue) => cue.kind === 'deed'))) continue;
    cues.push({ kind: rule.kind, phrase: match[0], expansion: rule.expansion });
  }
  // The deed's own phrase says whether it is kind or harmful; another person's deed ("the old man helps me up") is neither.
  const deed = cues.find((cue) => cue.kind === 'deed');
  const deedPolarity = deed ? (HARMFUL.test(deed.phrase) ? -1 : 1) : 0;
  // A group named or implied: opinions and deeds are about standing with it, not one person's attitude.
  const aboutGroup = cues.some((cue) => cue.kind === 'standing') || GROUPS.test(text);
  const grouped = aboutGroup
    ? cues.map((cue) => (cue.kind === 'opinion' ? { ...cue, expansion: GROUP_OPINION } : cue.kind === 'deed' ? { ...cue, expansion: GROUP_DEED } : cue))
    : cues;
  return { question, checking: CHECKING.test(text), cues: grouped, deedPolarity };
}
