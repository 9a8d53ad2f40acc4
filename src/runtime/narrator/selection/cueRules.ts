// The phrase cues as data: each kind of move's pattern, what it is for, its skills' words and its examples. Order matters: readCues reads them top to bottom.
import type { CueKind } from './cues.js';
import { anyOf, anyWord, eitherCase, phrasePattern, type NamedPattern } from './namedPattern.js';

/** A phrase cue: a pattern of the words, the kind of move it shows, and the words that kind of skill uses. */
export interface CueRule extends NamedPattern {
  readonly kind: CueKind;
  /** Words added to the query: how skills of this kind describe themselves. */
  readonly expansion: string;
}

/** How someone sees the player, and what changes it: for one person, or for a group (a faction, "the elves"). */
export const PERSON_OPINION = 'attitude perception opinion npc';
export const GROUP_OPINION = 'reputation standing faction';
export const PERSON_DEED = 'attitude perception npc adjust change';
export const GROUP_DEED = 'reputation standing faction update change';

/** An amount of money: a number or a number word, "a few", "some". */
const AMOUNT = anyOf(
  String.raw`\d+`,
  ...'one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty'.split(' '),
  String.raw`a\s+hundred`,
  String.raw`a\s+few`,
  'some',
);
const MONEY = anyWord('coins? gold silver copper crowns? credits? dollars? bucks');

/** Moves whose outcome is in doubt, in groups: fighting, stealth, words, trade, the body, locks and doors, theft, the rest. */
const RISKY = [
  'attack|attacks|strike|stab|slash|swing|shoot|fight|punch|hit',
  'sneak|creep|tiptoe',
  'persuade|convince|coax|intimidate|threaten|bluff|deceive|trick',
  'haggle|bargain|negotiate',
  'climb|scale|clamber|jump|leap|vault|dodge|evade|disarm|swim',
  String.raw`pick\s+(?:the\s+|a\s+|its\s+)?lock|lockpick|force\s+(?:open|the|it)|break\s+(?:down|open|through)`,
  String.raw`steal|rob|pickpocket|win\s+back`,
  'escape|balance|wrestle|grapple|parry|block',
].join('|');

/** Deeds toward someone, kind and harmful. */
const KIND_DEEDS = 'help|helps|helped|assist|aid|rescue|save|give|gives|hand|return|bandage|heal|protect|defend|report|apologi[sz]e|thank';
const HARMFUL_DEEDS = String.raw`rob|steal|betray|insult|spit|burn|cheat|lie\s+to`;
/**
 * The player as the doer: "I" or "we" ("I'll", "we'd"), with at most an adverb or a "try to" between ("I quickly
 * help", "I agree to help"), or "and"/"then" after such a clause; never a noun ("a hand of cards", "craft a bandage").
 */
const PLAYER_DOES = String.raw`\b(?:(?:i|we)(?:'ll|'d)?(?:\s+(?:\w+ly|will|would|also|then|(?:try|agree|want|decide|offer|promise|going|have)\s+to))?\s+|(?:and|then)\s+)`;
/** The player calling someone names ("I call Jory a cheat", "we called the toll keeper a liar"). */
const NAME_CALLING = [
  String.raw`\b(?:i|we)\s+call(?:ed)?(?!\s+(?:out|for|on|up|over|back|to)\b)`,
  String.raw`(?:\s+(?!to\b)[\w'-]+){1,4}?\s+an?\s+(?:cheat|liar|thief|coward|fool|idiot|crook|traitor|fraud)\b`,
].join('');

/** A deed of the player's own words that does harm (its polarity): a harmful verb, or name-calling. */
export const HARMFUL: NamedPattern = {
  name: 'harmful deed',
  purpose: "Says a deed's phrase does harm (its polarity is -1, else +1): a harmful verb or name-calling.",
  pattern: new RegExp(String.raw`\b(?:${HARMFUL_DEEDS})\b|${NAME_CALLING}`, 'i'),
  examples: ['I spit', 'we lie to', 'I call the toll keeper Jory a cheat'],
  counterExamples: ['I help', 'I give', 'I call out to a thief'],
};

export const CUE_RULES: readonly CueRule[] = [
  // Questions a game master answers from the world's facts: what a thing costs, how far a place is, what time it is.
  {
    name: 'price',
    kind: 'price',
    purpose: 'A question about what a thing costs, or an offer of an amount of money: a shop or trade skill answers it.',
    pattern: phrasePattern(
      [
        String.raw`how\s+much\b[^?.!]*\b(?:for|cost|costs|charge|charges|worth|pay|sell|ask|asking|want)`,
        String.raw`what\s+(?:is|does|would|will)\b[^?.!]*\b(?:cost|worth|charge|pay)`,
        String.raw`(?:can|could)\s+(?:i|we)\s+afford`,
        String.raw`price\s+of`,
        String.raw`(?:pay|offer|give|bid)\s+${AMOUNT}\s+(?:\w+\s+)?${MONEY}`,
      ],
      { wholeWords: true },
    ),
    expansion: 'price cost buy sell trade',
    examples: ['How much for the rope?', 'What does a room cost?', 'Can we afford the horse?', 'the price of bread', 'I offer twenty gold coins.'],
    counterExamples: ['How much rope is left?', 'I give the beggar a silver coin.'],
  },
  {
    name: 'distance',
    kind: 'distance',
    purpose: 'A question about how far a place is or how long the way takes: a travel or map skill answers it.',
    pattern: phrasePattern([
      String.raw`how\s+far`,
      String.raw`(?:close|near)\s+(?:to|by)\b`,
      String.raw`how\s+long\s+(?:is\s+the\s+|does\s+it\s+take\s+to\s+|to\s+)(?:ride|walk|journey|trip|travel|get|reach|sail)`,
      String.raw`distance\s+(?:to|from|between)`,
    ]),
    expansion: 'distance far travel route journey',
    examples: ['How far is Riverton?', 'Is the mill close to the river?', 'How long does it take to ride to the coast?', 'the distance to the pass'],
    counterExamples: ['How long is the rope?', 'I walk to the mill.'],
  },
  {
    name: 'time of day',
    kind: 'time',
    purpose: 'A question about the time, the day or the season: a calendar or clock skill answers it.',
    pattern: phrasePattern(
      [
        String.raw`what\s+(?:time|day|hour|date|month|season)\s+is\s+it`,
        String.raw`what\s+(?:is\s+)?the\s+(?:time|date|hour)`,
        String.raw`(?:still|already)\s+(?:morning|afternoon|evening|night|day)`,
        String.raw`how\s+long\s+(?:until|till|before)\s+(?:dawn|dusk|nightfall|sunrise|sunset|morning|night|noon|midnight)`,
      ],
      { wholeWords: true },
    ),
    expansion: 'time hour day date calendar clock',
    examples: ['What time is it?', 'What is the date today?', 'Is it still night?', 'How long until dawn?'],
    counterExamples: ['It was a long night.', 'I wait for the morning.'],
  },
  {
    name: 'risky move',
    kind: 'chance',
    purpose: 'A move whose outcome is in doubt (a fight, a climb, a lie, a lock): a dice skill rolls for it.',
    pattern: new RegExp(`\\b(?:${RISKY})\\b`, 'i'),
    expansion: 'roll dice chance check',
    examples: ['I attack the bandit with my sword.', 'I try to persuade Mira to give me a free room', 'I pick the lock.', 'We break down the door.'],
    counterExamples: ['I thank the innkeeper.', 'I look at the locket.'],
  },
  {
    name: 'roll asked for',
    kind: 'chance',
    // "roll a...", "roll for...", "roll three six-sided dice", "a percentile roll", "1d20".
    purpose: 'A roll asked for in so many words ("roll a d20", "a percentile roll"): a dice skill rolls it.',
    pattern: phrasePattern([
      String.raw`roll(?:s|ing)?\s+(?:a\s+|for\b|to\b|\d|(?:(?:the|my|our|some|one|two|three|four|five|six|\d+)\s+)?(?:[\w-]+\s+)?(?:dice|die)\b)`,
      String.raw`dice\b(?!\s+(?:the|an?|some|up|it|them)\b)`,
      String.raw`percentile\b`,
      String.raw`(?:\d+|four|six|eight|ten|twelve|twenty)-sided\b`,
      String.raw`\d*d(?:\d+|%)\b`,
      String.raw`saving\s+throw`,
      String.raw`\bdc\s*\d`,
    ]),
    expansion: 'roll dice chance check',
    examples: ['I roll three six-sided dice.', 'Make a percentile roll.', 'Roll the dice', 'Roll a d20 against DC 15.', 'I roll for initiative'],
    counterExamples: ['I roll my eyes', 'We roll some barrels onto the cart', 'I dice the onions', 'That was a one-sided deal'],
  },
  {
    name: 'recall',
    kind: 'past',
    purpose: 'A question about what happened before, or the player trying to remember: a memory skill answers it.',
    pattern: phrasePattern([
      String.raw`have\s+(?:i|we)\s+(?:ever\s+)?(?:met|been|seen|heard|visited)`,
      String.raw`did\s+(?:i|we)\s+(?:ever\s+)?\w+`,
      String.raw`last\s+time`,
      String.raw`remind\s+me`,
      String.raw`what\s+happened`,
      String.raw`so\s+far`,
      String.raw`who\s+gave\s+(?:me|us)`,
      String.raw`where\s+did\s+(?:i|we)`,
      String.raw`when\s+did\s+(?:i|we)`,
      String.raw`do\s+(?:i|we)\s+(?:remember|recall|know\s+about)`,
      String.raw`what\s+do\s+(?:i|we)\s+know\s+about`,
      String.raw`what\s+did\s+(?:the\s+|that\s+|this\s+|my\s+|our\s+)?[\w\s'-]{1,40}?\s+(?:tell|say|said|mention|promise|ask)\b`,
      String.raw`who\s+(?:was|were)\s+(?:that|those|the)\b[^?.!]*\b(?:i|we)\s+(?:met|saw)\b`,
      String.raw`a\s+while\s+back\b`,
      String.raw`way\s+back\s+when\b`,
      String.raw`\b(?:days?|nights?|weeks?|months?|years?)\s+ago\b`,
      String.raw`\b(?:i|we)\s+(?:try\s+to\s+)?(?:remember|recall)\b(?!\s+to\b)`,
      String.raw`before\s*\?`,
      String.raw`again\b`,
    ]),
    expansion: 'remember recall memory past happened',
    examples: [
      'Have I met Mira before?',
      'What did the old miner tell us about the collapsed shaft?',
      'Who was that woman I met at the crossroads?',
      'The peddler we saw two nights ago, what was his name?',
      'It was a while back, in the mountains.',
    ],
    counterExamples: ['We make our way back to camp.', 'I find my way back to the inn.', 'I remember to lock the door.'],
  },
  {
    name: 'opinion of the player',
    kind: 'opinion',
    purpose: 'How someone sees the player (trust, anger, liking): an attitude skill answers it, a reputation one for a group.',
    pattern: phrasePattern([
      String.raw`trusts?\s+(?:me|us)`,
      String.raw`(?:win|earn|gain|regain)\s+(?:back\s+)?[\w\s']*?\btrust`,
      String.raw`(?:feel|feels|think|thinks)\s+(?:about|of)\s+(?:me|us)`,
      String.raw`angry\s+(?:with|at)\s+(?:me|us)`,
      String.raw`(?:on|at)\s+(?:my|our)\s+side`,
      String.raw`(?:like|likes|hate|hates)\s+(?:me|us)`,
      String.raw`(?:mad|upset|furious|sore|cross|annoyed|pleased|happy)\s+(?:with|at)\s+(?:me|us)`,
      String.raw`thinks?\s+(?:any\s+)?(?:better|worse|more|less|well|highly|badly|poorly)\s+of\s+(?:me|us)`,
      String.raw`see[sn]?\s+(?:me|us)`,
      String.raw`(?:me|us)\s+arrested`,
      String.raw`welcome\b`,
    ]),
    expansion: PERSON_OPINION,
    examples: [
      'Is Mira still angry with me?',
      'Is the sheriff still sore at me after last night?',
      'Does the foreman think any better of me now?',
      'Does she trust me?',
    ],
    counterExamples: ['I trust the map.', 'I think about the road ahead.'],
  },
  {
    name: 'standing',
    kind: 'standing',
    purpose: "The player's standing with a group, in so many words: a reputation skill answers it.",
    pattern: /\b(?:reputation|standing|renown|factions?)\b/i,
    expansion: 'reputation standing faction',
    examples: ['What is my reputation in town?', 'How do the factions see us?'],
    counterExamples: ['I stand up.', 'The factory is closed.'],
  },
  {
    name: 'named organisation',
    kind: 'standing',
    // Capitalised, so "the guard at the gate" is not one.
    purpose: 'A named organisation ("the Thieves Guild", "the Town Guard"): standing with a group, a reputation skill.',
    pattern: /\b(?:[A-Z][a-z]+\s+)+(?:Guild|League|Circle|Guard|Order|Brotherhood|Clan|Company|Council|Elves|Dwarves)\b/,
    expansion: 'reputation standing faction',
    examples: ['What do the Thieves Guild think of me?', 'I report to the Town Guard.'],
    counterExamples: ['I talk to the guard at the gate.', 'I order a drink.'],
  },
  {
    name: "player's deed",
    kind: 'deed',
    // The player as the doer (PLAYER_DOES), or name-calling.
    purpose: "The player's own deed toward someone, kind or harmful (helping, giving, stealing, insulting): an attitude skill records it.",
    pattern: new RegExp(String.raw`${PLAYER_DOES}(?:${KIND_DEEDS}|${HARMFUL_DEEDS})\b(?!\s+(?:me|us|myself|ourselves|yourself)\b)|${NAME_CALLING}`, 'i'),
    expansion: PERSON_DEED,
    examples: [
      'I give Marta the innkeeper a bunch of wildflowers.',
      'I quickly help the old woman across the street.',
      "I'll help the miner",
      'I count out ten coins and hand them to Mara.',
      'I call the toll keeper Jory a cheat to his face.',
    ],
    counterExamples: [
      'I craft a bandage.',
      'I play a hand of poker.',
      'The old man helps me up.',
      'I call out to a thief in the crowd.',
      'The guard calls me a liar.',
    ],
  },
  {
    name: 'order about someone',
    kind: 'deed',
    // Case matters for the name.
    purpose: 'An order to the narrator about someone named or pointed at ("Give Jory the coin", "Help her up"): a deed, as the player\'s own.',
    pattern: new RegExp(String.raw`^(?:${eitherCase(KIND_DEEDS)}|${eitherCase(HARMFUL_DEEDS)})\s+(?:him|her|them|[A-Z][\w'-]+)\b`),
    expansion: PERSON_DEED,
    examples: ['Give Jory the coin.', 'Help her up.', 'Rob them blind.'],
    counterExamples: ['Give the engines more juice.', 'Save the bartender\u2019s number.', 'Give me a few choices.'],
  },
  {
    name: 'options asked for',
    kind: 'options',
    purpose: 'A request for options ("What can I do?", "I\'m stuck"): a choices skill offers them.',
    pattern: phrasePattern([
      String.raw`what\s+(?:can|could|should|shall|might)\s+(?:i|we)\s+(?:do|try)`,
      String.raw`what\s+are\s+(?:my|our)\s+(?:options|choices)`,
      String.raw`(?:give|show)\s+me\s+(?:some\s+|a\s+few\s+)?(?:choices|options|ideas)`,
      String.raw`any\s+ideas`,
      String.raw`i'?m\s+stuck`,
      String.raw`what\s+now\b`,
      String.raw`options\b`,
      String.raw`choices\b`,
    ]),
    expansion: 'choices options',
    examples: ['What can I do now?', 'What are my options?', 'Give me a few choices.', "I'm stuck", 'What now?'],
    counterExamples: ['What can you tell me?', 'I choose the left door.'],
  },
  {
    name: 'conversation',
    kind: 'dialogue',
    // The player will want lines to choose from.
    purpose: 'The start of a conversation: a choices skill offers lines to say.',
    pattern: phrasePattern([String.raw`(?:talk|speak|chat)\s+(?:to|with)`, 'greet', String.raw`strike\s+up\s+a\s+conversation`], { wholeWords: true }),
    expansion: 'dialogue choices options',
    examples: ['I talk to the innkeeper.', 'I greet the stranger.', 'I strike up a conversation with the bard.'],
    counterExamples: ['I talked my way out.', 'The greeting card is old.'],
  },
  {
    name: 'appearance',
    kind: 'appearance',
    purpose: 'A question about how someone looks, or a picture asked for: a portrait skill draws it.',
    pattern: phrasePattern(
      [
        String.raw`look(?:s)?\s+like`,
        String.raw`how\s+(?:does|do|did)\s+(?:he|she|they|it|[A-Z][\w'-]*)\s+look\b`,
        'portrait',
        String.raw`picture\s+of`,
        String.raw`sketch\s+of`,
        String.raw`draw\s+(?:me\s+)?(?:a\s+|the\s+)?(?:portrait|picture|likeness)`,
        String.raw`(?:describe|see)\s+[\w\s']*?\b(?:face|appearance)`,
        String.raw`what\s+\w+\s+looks?\s+like`,
      ],
      { wholeWords: true },
    ),
    expansion: 'portrait appearance likeness',
    examples: ['What does Mira look like?', 'How does she look?', 'Draw me a portrait of the captain.', "I try to see the stranger's face."],
    counterExamples: ['I look around the room.', 'I draw my sword.'],
  },
];
