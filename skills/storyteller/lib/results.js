// storyteller/results: what any skill's result tells the player (its done.output.narration, else its done.summary in the second person where that is safe) and whether its outcome was a refusal.
'use strict';

const { isObject } = require('./narratoria-skill-sdk.js');
const { secondPersonWords } = require('./voice.js');


/** Output flags that say the act did not happen when false (a counter-offer is not a sale). */
const OUTCOME_FLAGS = ['accepted', 'success', 'succeeded', 'approved', 'allowed', 'granted', 'ok', 'done', 'completed', 'possible', 'agreed', 'sold', 'bought', 'paid', 'lent', 'given', 'issued', 'served', 'hired', 'delivered', 'repaired', 'fitted', 'crossed', 'moved', 'opened', 'unlocked', 'cast', 'brewed', 'crafted', 'forged', 'learned', 'borrowed', 'traded', 'won'];
/** Output fields whose words say the act did not happen. */
const OUTCOME_WORDS = ['result', 'outcome', 'status', 'verdict'];
const REFUSAL = /^(?:refused|refuse|rejected|reject|declined|decline|denied|deny|failed|fail|failure|fizzled|fizzle|countered|counter|counter-?offer|no|blocked|impossible|missed|miss|lost|insufficient|unavailable|closed|not[ _-]?allowed|not[ _-]?enough|too[ _-]?expensive)$/i;

/** Irregular past participles of verbs scripts are named after. */
const IRREGULAR = { pay: 'paid', buy: 'bought', sell: 'sold', set: 'set', cast: 'cast', lend: 'lent', give: 'given', take: 'taken', make: 'made', send: 'sent', build: 'built', win: 'won', forge: 'forged', ride: 'ridden', draw: 'drawn', steal: 'stolen', hold: 'held', bring: 'brought', find: 'found', sing: 'sung', feed: 'fed', fight: 'fought', hide: 'hidden', keep: 'kept', leave: 'left', lead: 'led', run: 'run', sit: 'sat', teach: 'taught', tell: 'told', throw: 'thrown', write: 'written' };

/** The flags a script's name gives its outcome ("cross" -> crossed, "issue" -> issued, "set-course" -> set, "pay" -> paid). */
function participlesOf(toolId) {
  const verb = String(toolId || '').toLowerCase().split(/[^a-z]/)[0] || '';
  if (verb === '') return [];
  const regular = verb.endsWith('e') ? `${verb}d` : /[^aeiou]y$/.test(verb) ? `${verb.slice(0, -1)}ied` : `${verb}ed`;
  return [verb, regular, `${verb}${verb.slice(-1)}ed`, ...(IRREGULAR[verb] ? [IRREGULAR[verb]] : [])];
}

/**
 * True when a skill's output says its act was refused or failed ({ accepted: false }, { result: "refused" }, or the
 * script's own verb as a flag: { crossed: false } from "cross").
 */
function isRefusal(result, toolId) {
  if (!isObject(result)) return false;
  if (OUTCOME_FLAGS.some((key) => result[key] === false)) return true;
  if (participlesOf(toolId).some((key) => result[key] === false)) return true;
  return OUTCOME_WORDS.some((key) => typeof result[key] === 'string' && REFUSAL.test(result[key].trim()));
}

/** The sentences of a text (split after . ! ? followed by a space). */
function sentences(text) {
  return text.split(/(?<=[.!?])\s+(?=["“A-Z0-9])/).map((sentence) => sentence.trim()).filter((sentence) => sentence !== '');
}

/** "pays" -> "pay", "carries" -> "carry", "has" -> "have", "is" -> "are": a verb after "The player" said of "You". */
function baseVerb(verb) {
  const lower = verb.toLowerCase();
  const irregular = { is: 'are', was: 'were', has: 'have', does: 'do', goes: 'go' };
  if (irregular[lower]) return irregular[lower];
  if (/[^aeiou]ies$/.test(lower)) return `${verb.slice(0, -3)}y`;
  if (/(?:sses|shes|ches|xes|zes)$/.test(lower)) return verb.slice(0, -2);
  if (/[^s]s$/.test(lower)) return verb.slice(0, -1);
  return verb;
}

const PLAYER = /\b(?:the\s+player(?:\s+character)?|the\s+pc)\b/i;
const FIRST_PERSON = /\b(?:I|I'm|I’m|I've|I’ve|I'll|I’ll|I'd|I’d|me|my|mine|myself|we|us|our|ours|ourselves)\b/i;

/**
 * One sentence of a summary in the player's second person, where that is safe:
 * - about "the player" ("The player pays 4 coins.") -> "You pay 4 coins.";
 * - in the first person with "you" in it, a character speaking to the player ("I will take you over.") -> quoted;
 * - in the first person doing what the player asked ("I pay the toll." after "I pay the toll") -> "You pay the toll.";
 *   any other first person is a character's own words -> quoted;
 * - in the second person or about the world: as it stands.
 */
function inSecondPerson(sentence, playerWords) {
  if (/["“”]/.test(sentence)) return sentence;
  if (PLAYER.test(sentence)) {
    // "The player (always) pays the toll." -> "You (always) pay the toll."; elsewhere "the player" is "you".
    return sentence
      .replace(/^the\s+player(?:\s+character)?('s)?(\s+(?:[a-z]+ly|always|never|often|sometimes|also|still|just|then|now|again|soon))?(\s+[a-z]+)?/i, (match, possessive, adverb, verb) => possessive ? `Your${adverb ?? ''}${verb ?? ''}` : `You${adverb ?? ''}${verb ? ` ${/[^s]s$/.test(verb.trim()) ? baseVerb(verb.trim()) : verb.trim()}` : ''}`)
      .replace(/\bthe\s+player(?:\s+character)?'s\b/gi, 'your')
      .replace(/\bthe\s+player(?:\s+character)?\b/gi, 'you');
  }
  if (!FIRST_PERSON.test(sentence)) return sentence;
  // The player's own act in the first person ("I pay the toll." after "I pay the toll"): the second person.
  const lead = /^I\s+([a-z]+)\b(.*)$/.exec(sentence);
  if (lead && !/\b(?:you|your|yours|yourself|we|us|our)\b/i.test(sentence) && new RegExp(`\\b${lead[1]}\\b`, 'i').test(playerWords || '')) {
    const verb = { am: 'are', was: 'were' }[lead[1]] || lead[1];
    return `You ${verb}${secondPersonWords(lead[2])}`;
  }
  // Any other first person is a character's own words.
  return `“${sentence}”`;
}

/** A summary told to the player: each sentence in the second person where safe, ending with a stop. */
function tellSummary(summary, playerWords) {
  const text = String(summary).replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (text === '') return '';
  return sentences(text)
    .map((sentence) => {
      const told = inSecondPerson(sentence, playerWords);
      const stopped = /[.!?…”"')]$/.test(told) ? told : `${told}.`;
      return stopped.charAt(0).toUpperCase() + stopped.slice(1);
    })
    .join(' ');
}

/** What one dependency's output tells: `output.narration` as written ("" for nothing), else its summary, else nothing; and whether it refused. */
function tellingOf(output, playerWords, toolId) {
  const result = isObject(output.result) ? output.result : {};
  const refused = isRefusal(result, toolId);
  if (typeof result.narration === 'string') {
    // As written, but as a sentence: no control characters, a capital, a stop, at most 600 characters.
    const text = result.narration.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 600);
    return { text: text === '' ? '' : `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?…”"')]$/.test(text) ? '' : '.'}`, refused };
  }
  if (typeof output.summary === 'string' && output.summary.trim() !== '') {
    return { text: tellSummary(output.summary.slice(0, 600), playerWords), refused };
  }
  // Nothing to tell, but a refusal still says the act did not happen.
  return { text: '', refused };
}

module.exports = { isRefusal, tellingOf };
