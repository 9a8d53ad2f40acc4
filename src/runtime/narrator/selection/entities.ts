// What a player's words name: the action in story words, the people, places and groups (capitalised names, "the innkeeper"), an item, a destination, a dice formula and a DC.
import { isOrderVerb } from './verbs.js';

/** The values script inputs are filled from. */
export interface Entities {
  /** The player's words without "I try to" and end punctuation: "pick the lock on the chest". */
  readonly action: string;
  /** Capitalised names in order of appearance ("Captain Vey", "the Thieves Guild" → "Thieves Guild"). */
  readonly names: readonly string[];
  /** Names that look like groups: "Thieves Guild", "Town Guard", "Forest Elves". */
  readonly groups: readonly string[];
  /** Common-noun people and things after the/my/a ("innkeeper", "old hermit", "silver dagger"). */
  readonly nounPhrases: readonly string[];
  /** A place the player heads for: "Greyharbour", "the Ashen Pass". */
  readonly destination?: string;
  /** A place the player leaves or comes from: "out of Millbrook", "from Duskmere". */
  readonly origin?: string;
  /** What is bought, sold, priced or traded. */
  readonly item?: string;
  /** An explicit dice formula, normalised ("a d20" → "1d20", "2d6 + 1" → "2d6+1"). */
  readonly formula?: string;
  readonly dc?: number;
}

/** Capitalised words that start questions and sentences (pronouns, determiners, openers), not names. */
const NOT_NAMES = new Set(
  [
    "I I'd I'm I'll I've I\u2019d I\u2019m I\u2019ll I\u2019ve A An The My Our Your What Who Whom Whose When Where Why How Which Is Are Am Was Were Do Does " +
      "Did Have Has Had Can Could Will Would Should Shall May Might Must Let Lets Let's Show Tell Give Check Draw Describe Roll Remind Ask Bring Take Call " +
      'Hand Send Fetch Pour Any Please Then And But Or So If Yes No Maybe',
    // Narration starts sentences with these ("You look around carefully.", "There is a door."): explore reads names from it.
    "One Two Three Four Five Six Seven Eight Nine Ten Eleven Twelve Twenty Thirty Forty Fifty Hundred Let's Here's There's What's Where's Who's How's",
    'You He She It We They Me Him Us Them Its His Their This That These Those There Here Now Still Just Only Even Perhaps Nothing Something Someone ' +
      'Somebody Everyone Everybody Everything Nobody Not All Some Every Each Both Neither Either',
  ]
    .join(' ')
    .split(' '),
);
const GROUP_WORDS =
  /\b(?:Guild|League|Circle|Guard|Order|Brotherhood|Clan|Company|Council|Elves|Dwarves|Folk|Temple|Church|Crown|Navy|Army|Watch|Syndicate|Cult)\b/;
const ORGANISATION_NOUNS = /^(?:elves|dwarves|guards?|guild|watch|priests|merchants|thieves|factions)$/i;

export function extractEntities(input: string): Entities {
  const text = input.trim();
  const action = actionPhrase(text);
  const names = capitalisedNames(text);
  const nounPhrases = commonNounPhrases(text);
  const groups = [...names.filter((name) => GROUP_WORDS.test(name)), ...nounPhrases.filter((phrase) => ORGANISATION_NOUNS.test(phrase))];
  const formula = /\b(\d*)\s*d\s*(\d+|%)((?:\s*[+-]\s*\d+(?!\s*d))*)/i.exec(text);
  const dc = /\bdc\s*(\d{1,3})\b/i.exec(text);
  const destination = placeAfter(text, DESTINATION);
  const origin = placeAfter(text, ORIGIN);
  const item = itemOf(text);
  return {
    action,
    names,
    groups,
    nounPhrases,
    ...(destination ? { destination } : {}),
    ...(origin ? { origin } : {}),
    ...(item ? { item } : {}),
    ...(formula ? { formula: `${formula[1] || '1'}d${formula[2]}${(formula[3] ?? '').replace(/\s+/g, '')}` } : {}),
    ...(dc ? { dc: Number(dc[1]) } : {}),
  };
}

/** The words as an action in story words: the leading "I try to" / "We" and the end punctuation dropped. */
function actionPhrase(text: string): string {
  const trimmed = text
    .replace(/^(?:(?:ok|okay|well|so|now|then),?\s+)?/i, '')
    .replace(/^(?:i|we)\s+(?:will\s+|'ll\s+|try\s+to\s+|want\s+to\s+|attempt\s+to\s+|carefully\s+|quickly\s+)*/i, '')
    .replace(/[.!?\s]+$/, '')
    .trim();
  return (trimmed || text).slice(0, 200);
}

function capitalisedNames(text: string): string[] {
  const names: string[] = [];
  // A name may end in a number when nothing follows it but punctuation ("Pier 9, driver", "Bay 12.").
  const pattern = /\b([A-Z][\w'-]*(?:\s+(?:of\s+the\s+|of\s+)?[A-Z][\w'-]*)*(?:\s+\d+(?=\s*(?:[,.!?;:]|$)))?)/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    let words = match[1]!.replace(/'s$/, '').split(/\s+/);
    // An order's first word is its verb, not a name: "Levitate the cauldron", "Raise the jib".
    const sentenceStart = match.index === 0 || /[.!?]\s*$/.test(text.slice(0, match.index));
    if (
      sentenceStart &&
      words.length === 1 &&
      isOrderVerb(words[0]!) &&
      /^\s+(?:the|a|an|my|your|his|her|their|our|this|that|these|those|some|all|it|them|me|us|him|\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)\b/i.test(
        text.slice(match.index + match[0].length),
      )
    )
      continue;
    while (words.length > 0 && NOT_NAMES.has(words[0]!)) words = words.slice(1);
    const name = words.join(' ').replace(/'s$/, '');
    if (name && !NOT_NAMES.has(name) && !names.includes(name)) names.push(name);
  }
  return names;
}

/** "the innkeeper", "my old longsword", "a healing potion" → their words without the article, most specific first. */
function commonNounPhrases(text: string): string[] {
  const phrases: string[] = [];
  const pattern = /\b(?:the|my|our|a|an|this|these|that|his|her|their)\s+((?:[a-z][\w'-]*\s+){0,2}[a-z][\w'-]*)/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const whole = match[1]!.replace(/'s$/, '');
    let phrase = whole.replace(/\s+(?:to|for|from|with|at|on|in|of|and|or|before|after|again|now|down|back|up|over)\b.*$/, '');
    // A noun phrase ends before its verb: a common one ("the innkeeper look like", "the old fisherman feel about"),
    // or a word followed by a determiner ("the old fisherman mend his net").
    const words = phrase.split(/\s+/);
    NEXT_WORD.lastIndex = match.index + match[0].length;
    const after = NEXT_WORD.exec(text)?.[1]?.toLowerCase() ?? '';
    let end = words.findIndex((word, index) => index > 0 && (COMMON_VERBS.test(word) || DETERMINERS.test(word)));
    // (Not when a preposition already ended it: "the drunk orc with my sword" is the drunk orc.)
    if (end < 0 && words.length > 1 && phrase === whole && DETERMINERS.test(after)) end = words.length - 1;
    if (end > 0) phrase = words.slice(0, end).join(' ');
    if (phrase && !phrases.includes(phrase)) phrases.push(phrase);
  }
  return phrases;
}

/** The word after a position (sticky: from `lastIndex`). */
const NEXT_WORD = /\s*(\S*)/y;

/** Verbs that follow a subject in a player's question or action ("Does the innkeeper like me?"). */
const COMMON_VERBS = new RegExp(
  String.raw`^(?:is|are|was|were|has|have|had|do|does|did|can|could|will|would|should|feel|feels|felt|look|looks|looked|like|likes|think|thinks|see|` +
    String.raw`sees|saw|say|says|said|want|wants|know|knows|need|needs|trust|trusts|hate|hates|give|gives|gave|take|takes|took|keep|keeps|get|` +
    String.raw`gets|got)$`,
  'i',
);
const DETERMINERS = /^(?:the|a|an|his|her|its|their|my|our|your|this|that|these|those|some)$/i;

/** A capitalised place name after its lead word ("to the Ashen Pass", "out of Dunmore"). */
const placeNamed = (lead: string) => new RegExp(String.raw`\b(?:${lead})\s+(?:the\s+)?([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)`, 'g');
const DESTINATION = placeNamed(String.raw`to|towards?|reach|into|down\s+to|for`);
const ORIGIN = placeNamed(String.raw`from|out\s+of|leave|leaving`);

/** The capitalised place name right after the lead of `pattern` ("to the Ashen Pass" → "Ashen Pass"). */
function placeAfter(text: string, pattern: RegExp): string | undefined {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const name = match[1]!.replace(/'s$/, '');
    if (!NOT_NAMES.has(name)) return name;
  }
  return undefined;
}

function itemOf(text: string): string | undefined {
  const traded = new RegExp(
    String.raw`\b(?:buy|sell|trade|price\s+of|want\s+for|gold\s+for|pay\s+for|afford)\s+(?:(?:the|a|an|my|these|this|some|that)\s+)?((?:[a-z][\w'-]*\s+){0,5}?[a-z][\w'-]*?)(?=\s+(?:from|` +
      String.raw`to|for|with|at|in|on|i|we|that|which|so|and|down|up|over|back|off|out|again|now|here|there|today|please|but|or|than|instead)\b|` +
      String.raw`[?.!,]|$)`,
    'i',
  ).exec(text);
  return traded?.[1];
}
