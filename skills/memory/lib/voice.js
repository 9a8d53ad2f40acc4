// voice (skills/storyteller/lib/voice.js; the build copies it into skills/memory/lib/, so edit this one): the player's words in the second person, quoted words left as said, and words spoken to a character as reported speech ("Take me across, ferryman." -> "ask the ferryman to take you across"); never guesses where a change is unsafe.
'use strict';

/** Nouns that say a character is a woman or a man, for "she" and "he"; anyone else is "they". */
const FEMININE = /^(?:woman|lady|girl|lass|mother|mom|mum|grandmother|granny|grandma|queen|princess|duchess|wife|sister|daughter|aunt|madam|ma'am|miss|mistress|witch|nun|priestess|abbess|maid|maiden|hag|crone|matron|widow|empress|baroness|countess|heroine|waitress|hostess|seamstress|sorceress|enchantress|huntress|goddess)$/i;
const MASCULINE = /^(?:man|sir|lad|boy|father|dad|grandfather|grandpa|king|prince|duke|husband|brother|son|uncle|lord|monk|priest|abbot|baron|count|emperor|master|mister|gentleman|fellow|old-timer|[a-z]+man)$/i;

/** Words that never end a vocative (an adverb, a pronoun, a plain filler). */
const NOT_ADDRESSED = /^(?:please|then|now|quickly|slowly|again|too|also|here|there|today|tonight|instead|anyway|though|first|already|carefully|quietly|right|ok|okay|yes|no|sure|thanks|thank|me|you|him|her|them|us|it|this|that)$/i;

/** Leading words that are never a name or a title said to someone ("Then, ..."). */
const NOT_A_NAME = /^(?:then|so|well|now|okay|ok|alright|and|but|yes|no|please|look|listen|hey|oh|ah|right|fine|first|next|i|we|you)$/i;

/**
 * Who the words are said to: a short noun phrase set off by a comma at the end ("…, old woman?") or the start
 * ("Ferryman, take me across."). Undefined when nobody is addressed.
 */
function vocativeOf(text) {
  const trailing = /^(.+?),\s*((?:(?:my|good|dear|old|young|kind|noble|fair)\s+)?[A-Za-z][A-Za-z'-]*(?:\s+[A-Za-z][A-Za-z'-]*){0,2})\s*$/.exec(text);
  if (trailing && isAddressee(trailing[2])) return { rest: trailing[1].trim(), addressee: trailing[2].trim() };
  const leading = /^(?:(?:hey|oi|hello|excuse me|listen|look)\s*,?\s+)?((?:(?:good|dear|old|young|kind|noble|fair)\s+)?[A-Za-z][A-Za-z'-]*(?:\s+[A-Za-z][A-Za-z'-]*){0,1}),\s+(.+)$/i.exec(text);
  if (leading && isAddressee(leading[1]) && !NOT_A_NAME.test(leading[1].split(/\s+/)[0])) return { rest: leading[2].trim(), addressee: leading[1].trim() };
  return undefined;
}

/** Nouns for people one speaks to, besides the gendered ones: a role, a trade or a title. */
const PERSON_NOUN = /^(?:[a-z]+(?:smith|keeper|master|wright|monger|herd|man|woman|men|women))$|^(?:guard|captain|sergeant|doctor|priest|monk|nun|witch|wizard|sir|madam|friend|stranger|child|kid|pal|buddy|chief|boss|mister|miss|ma'am|sheriff|deputy|marshal|bosun|cook|chef|clerk|scribe|sage|seer|oracle|medium|healer|nurse|guide|pilot|bard|knight|squire|page|thief|rogue|mage|elder|chieftain|matron|nanny|maid|butler|valet|steward|colonel|major|general|admiral|officer|detective|inspector|constable|warden|jailer|judge|mayor|governor|agent|boy|girl|lad|lass|folks|everyone|traveler|traveller|old-timer|grandpa|granny|gramps|cap|doc|sarge|chap|fellow|mate|dude|ladies|gentlemen|team|crew|everybody|merchant|trader|dealer|driver|bartender|barkeep|barmaid|archivist|alchemist|sailor|soldier|teacher|hunter|farmer|miner|baker|butcher|brewer|ranger|warrior|fighter|innkeeper|shopkeeper|vendor|peddler|fence|informant|broker|banker|clerk|courier|messenger|herald|sentry|lookout|navigator|helmsman|quartermaster|surgeon|apothecary|librarian|professor|student|apprentice|master|mistress|lady|lord|prince|princess|king|queen|ferryman|boatman|fisherman|stableboy|smuggler|pirate|captain|commander|lieutenant|corporal|private|tech|engineer|mechanic|medic|ripperdoc|runner|netrunner|fixer|bouncer|stranger|partner|darling|sweetheart|honey|son|kiddo)$/i;

function isAddressee(phrase) {
  const words = phrase.trim().split(/\s+/);
  const last = words[words.length - 1];
  if (NOT_ADDRESSED.test(last) || /ly$/i.test(last) || /^(?:the|a|an|to|of|in|on|at|for|with|and|or|but)$/i.test(words[0])) return false;
  // "…, then the tower", "…, toward the river": a phrase with an article or a preposition inside is no one's name.
  if (words.slice(1).some((word) => /^(?:the|a|an|to|toward|towards|then|of|in|on|at|for|with|and|or|but|into|from)$/i.test(word))) return false;
  // A name, or a noun for a person ("old woman", "ferryman", "quartermaster"): never "deal", "please", "then".
  return /^[A-Z]/.test(last) || FEMININE.test(last) || MASCULINE.test(last) || PERSON_NOUN.test(last);
}

/** The pronouns of an addressee: "the old woman" -> she, "ferryman" -> he, "Harlan" -> they. */
function pronounsOf(addressee) {
  const head = addressee ? addressee.trim().split(/\s+/).pop() : '';
  if (FEMININE.test(head)) return { subject: 'she', object: 'her', possessive: 'her', reflexive: 'herself', singular: true };
  if (MASCULINE.test(head)) return { subject: 'he', object: 'him', possessive: 'his', reflexive: 'himself', singular: true };
  return { subject: 'they', object: 'them', possessive: 'their', reflexive: 'themselves', singular: false };
}

/** "ferryman" -> "the ferryman", "old woman" -> "the old woman"; names and titled names stay ("Harlan", "Captain Vey"). */
function addresseePhrase(addressee) {
  const words = addressee.trim().split(/\s+/);
  if (/^(?:my|good|dear)$/i.test(words[0]) && words.length > 1) words.shift();
  const phrase = words.join(' ');
  if (/^[A-Z]/.test(words[0]) && !/^(?:Old|Young|Kind|Noble|Fair)$/.test(words[0])) {
    // "Ferryman" at the start of a sentence is a title, not a name, when it is a known noun.
    return FEMININE.test(words[words.length - 1]) || MASCULINE.test(words[words.length - 1]) || /^(?:Merchant|Guard|Captain|Innkeeper|Shopkeeper|Stranger|Traveller|Traveler|Boatman|Friend|Keeper|Smith|Healer|Doctor)$/.test(phrase)
      ? `the ${phrase.toLowerCase()}`
      : phrase;
  }
  return `the ${phrase.toLowerCase()}`;
}

/**
 * The player's own words put in the second person: I -> you, my -> your, me -> you. Words addressed to someone
 * else (you, your) become that person (them, their) when `other` is given.
 */
function secondPersonWords(text, other) {
  let result = text;
  if (other) {
    // "what you know" -> "what they know" (she knows): "you" after a wh-word or a conjunction is its clause's subject.
    result = result.replace(/\b(what|where|when|why|how|who|whom|whether|if|that|because|which)\s+you\s+([a-z']+)/gi, (match, lead, verb) => `${lead} ${other.subject} ${other.singular ? singularVerb(verb.toLowerCase()) : verb.toLowerCase()}`);
    result = result
      .replace(/\byourself\b/gi, other.reflexive)
      .replace(/\byours\b/gi, `${other.possessive === 'her' ? 'hers' : other.possessive === 'his' ? 'his' : 'theirs'}`)
      .replace(/\byour\b/gi, other.possessive)
      .replace(/\byou\b/gi, other.object);
  }
  return result
    .replace(/\b(?:I\s+am|I'm|I’m)\b/g, 'you are')
    .replace(/\bI\s+wasn(['’])t\b/g, 'you weren$1t')
    .replace(/\bI\s+was\b/g, 'you were')
    .replace(/\bI(?:'ve|’ve)\b/g, "you've")
    .replace(/\bI(?:'ll|’ll)\b/g, "you'll")
    .replace(/\bI(?:'d|’d)\b/g, "you'd")
    .replace(/\bI\b/g, 'you')
    .replace(/\b(?:myself|ourselves)\b/gi, 'yourself')
    .replace(/\b(?:my|our)\b/gi, 'your')
    // "the old mine", "a gold mine" is a pit, not a possessive.
    .replace(/(?<!\b(?:the|a|an|this|that|its|his|her|their|our|my|your|old|gold|silver|coal|iron|copper|tin|salt|abandoned|flooded|deep|disused|dwarven)\s+)\b(?:mine|ours)\b/gi, 'yours')
    .replace(/\b(?:me|us)\b/gi, 'you')
    .replace(/\bwe\b/gi, 'you');
}

/** Quoted words ("…", “…”): said by someone, so kept as they are. */
const QUOTED = /("[^"\n]*"|“[^”\n]*”)/;

/**
 * The player's own words in the second person (I -> you, my -> your, mine -> yours, we -> you), words in quotes
 * kept as said: `Mira told me "I will wait"` -> `Mira told you "I will wait"`. Already second-person words are
 * unchanged, so applying it twice changes nothing.
 */
function secondPersonOutsideQuotes(text) {
  return String(text)
    .split(QUOTED)
    .map((part, index) => (index % 2 === 1 ? part : secondPersonWords(part)))
    .join('');
}

/** A verb after "he" or "she": are -> is, were -> was, have -> has; a past tense or a modal as it is; a present in the third person. */
function singularVerb(verb) {
  const irregular = { are: 'is', were: 'was', have: 'has', do: 'does', "don't": "doesn't", "aren't": "isn't", "weren't": "wasn't" };
  if (irregular[verb]) return irregular[verb];
  if (/(?:ed|'d|’d)$|^(?:did|can|could|will|would|should|shall|might|must|may|saw|heard|found|went|got|made|said|told|knew|thought|took|gave|came|left|kept|sold|bought|brought|ran|sat|stood|met|lost|won|paid|meant|felt|had|was|is)$/.test(verb)) return verb;
  return thirdPersonVerb(verb);
}

/** The third person singular of a verb: sell -> sells, carry -> carries, go -> goes, have -> has. */
function thirdPersonVerb(verb) {
  const lower = verb.toLowerCase();
  if (lower === 'have') return 'has';
  if (lower === 'be') return 'is';
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${verb}es`;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

const AUXILIARY = /^(are|were|is|was|do|does|can|could|will|would|should|shall|have|has|might|may)$/i;

/**
 * A question said to someone as reported speech: "What are you selling" -> "what she is selling", "Can you take
 * me across" -> "whether he can take you across". Undefined where the change is not safe ("Where did you find it").
 */
function reportedQuestion(question, pronouns) {
  const words = question.trim().replace(/[?!.]+$/, '').split(/\s+/);
  let lead = [];
  let index = 0;
  const wh = /^(?:what|where|who|whom|why|how|when|which|whose)$/i;
  if (wh.test(words[0] || '')) {
    lead.push(words[0].toLowerCase());
    index = 1;
    // "how much", "how many", "how long", "which road": one more word before the auxiliary.
    if (words[index] && !AUXILIARY.test(words[index]) && index < words.length - 2) lead.push(words[index++]);
  }
  const auxiliary = words[index];
  if (!auxiliary || !AUXILIARY.test(auxiliary) || !/^you$/i.test(words[index + 1] || '')) return undefined;
  const rest = words.slice(index + 2);
  const single = pronouns.singular;
  let verbPhrase;
  switch (auxiliary.toLowerCase()) {
    case 'are':
      verbPhrase = [single ? 'is' : 'are', ...rest];
      break;
    case 'were':
      verbPhrase = [single ? 'was' : 'were', ...rest];
      break;
    case 'do':
      if (rest.length === 0 || !/^[a-z]+$/.test(rest[0])) return undefined;
      verbPhrase = [single ? thirdPersonVerb(rest[0]) : rest[0], ...rest.slice(1)];
      break;
    case 'have':
      // "Have you seen…" (a perfect) against "have you any rope" (possession).
      verbPhrase = [single ? 'has' : 'have', ...rest];
      break;
    case 'is':
    case 'was':
    case 'does':
    case 'has':
      return undefined;
    default:
      verbPhrase = [auxiliary.toLowerCase(), ...rest];
  }
  const clause = `${pronouns.subject} ${secondPersonWords(verbPhrase.join(' '), pronouns)}`;
  return lead.length > 0 ? `${lead.join(' ')} ${clause}` : `whether ${clause}`;
}

/** A request to someone as reported speech: "take me across" -> { asking: "to take you across" } (with their pronouns); "three cups of tea" -> { asking: "for three cups of tea" }. */
function reportedRequest(command, pronouns) {
  const text = command.trim().replace(/[.!?]+$/, '').replace(/^please,?\s+/i, '').replace(/,?\s+please$/i, '');
  if (!/^[a-z]+\b/i.test(text)) return undefined;
  const verb = text.split(/\s+/)[0];
  // "Hey you, stop!", "Sorry, I did not mean it", "No, you cannot": an interjection or a word set off by a comma is no order.
  if (/,$/.test(verb) || /^(?:hey|oi|yes|no|sorry|thanks|thank|please|hello|hi|ok|okay|well|oh|ah|look|listen|wait)$/i.test(verb.replace(/,$/, ''))) return undefined;
  // "Three cups of tea, please": a thing asked for, not an order.
  if (new RegExp(`^(?:${NUMBER_WORD}|an?|some|another|more|the)$`, 'i').test(verb)) return { asking: `for ${secondPersonWords(text.charAt(0).toLowerCase() + text.slice(1), pronouns)}` };
  if (/^(?:i|we|you|he|she|they|it|the|a|an|this|that|my|your)$/i.test(verb)) return undefined;
  return { asking: `to ${secondPersonWords(text.charAt(0).toLowerCase() + text.slice(1), pronouns)}` };
}

/**
 * True when bare words address someone else: the order's object is me ("Show me", "Take us across"), they speak of
 * your things ("your wares"), or they say please. "Remember that Mira gave me a key" is the player's own act.
 */
function speaksToSomeone(text) {
  return /^[a-z]+\s+(?:[a-z]+\s+)?(?:me|us)\b/i.test(text.trim()) || /\b(?:you|your|yours|yourself)\b/i.test(text) || /\bplease\b/i.test(text);
}

/** A number in words or digits, as a regular expression's source. */
const NUMBER_WORD = String.raw`(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|a\s+hundred|a\s+dozen|hundred|dozen)`;

/** The player's own words in the second person; someone they speak to ("I ask you to wait") is "them". */
function playerWordsInSecondPerson(text) {
  return secondPersonWords(text, /\byou(?:r|rs|rself)?\b/i.test(text) ? pronounsOf(undefined) : undefined);
}

module.exports = { NUMBER_WORD, playerWordsInSecondPerson, vocativeOf, pronounsOf, addresseePhrase, secondPersonWords, secondPersonOutsideQuotes, reportedQuestion, reportedRequest, speaksToSomeone };
