// storyteller/results: what any skill's result tells the player (its done.output.narration, else its done.summary in the second person where that is safe) and whether its outcome was a refusal.
'use strict';

const { thirdPersonVerb } = require('./voice.js');

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Output flags that say the act did not happen when false (a counter-offer is not a sale). */
const OUTCOME_FLAGS = ['accepted', 'success', 'succeeded', 'approved', 'allowed', 'granted', 'ok', 'done', 'completed', 'possible', 'agreed', 'sold', 'bought', 'paid', 'lent', 'given', 'issued', 'served', 'hired', 'delivered', 'repaired', 'fitted', 'crossed', 'moved', 'opened', 'unlocked', 'cast', 'brewed', 'crafted', 'forged', 'learned', 'borrowed', 'traded', 'won'];
/** Output fields whose words say the act did not happen. */
const OUTCOME_WORDS = ['result', 'outcome', 'status', 'verdict', 'answer'];
const REFUSAL = /^(?:refused|refuse|rejected|reject|declined|decline|denied|deny|failed|fail|failure|fizzled|fizzle|countered|counter|counter-?offer|no|blocked|impossible|missed|miss|lost|insufficient|unavailable|closed|not[ _-]?allowed|not[ _-]?enough|too[ _-]?expensive)$/i;

/** The past participles of a script's name ("cross" -> crossed, "issue" -> issued, "set-course" -> set): its own outcome flag. */
function participlesOf(toolId) {
  const verb = String(toolId || '').toLowerCase().split(/[^a-z]/)[0] || '';
  if (verb === '') return [];
  return [`${verb}ed`, `${verb}d`, verb.endsWith('y') ? `${verb.slice(0, -1)}ied` : `${verb}ed`, `${verb}${verb.slice(-1)}ed`];
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

/** "pays" -> "pay", "carries" -> "carry", "has" -> "have", "is" -> "are": a verb after "the player" said of "you". */
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
    return sentence
      .replace(/\bthe\s+player(?:\s+character)?'s\b/gi, (match) => (/^T/.test(match) ? 'Your' : 'your'))
      .replace(/\b(the\s+player(?:\s+character)?)\s+([a-z]+)\b/gi, (match, who, verb) => `${/^T/.test(who) ? 'You' : 'you'} ${/(?:ed|ly)$/.test(verb) || !/s$/.test(verb) ? verb : baseVerb(verb)}`)
      .replace(/\bthe\s+player(?:\s+character)?\b/gi, (match) => (/^T/.test(match) ? 'You' : 'you'));
  }
  if (!FIRST_PERSON.test(sentence)) return sentence;
  const lead = /^I\s+([a-z]+)\b(.*)$/.exec(sentence);
  if (lead && !/\byou(?:r|rs|rself)?\b/i.test(sentence) && new RegExp(`\\b${lead[1]}\\b`, 'i').test(playerWords || '')) {
    return `You ${lead[1]}${lead[2]
      .replace(/\bmy\b/g, 'your')
      .replace(/\bme\b/g, 'you')
      .replace(/\bmyself\b/g, 'yourself')}`;
  }
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

/**
 * What one dependency's output tells: `output.narration` as written ("" for nothing), else its summary.
 * Undefined when the output has neither.
 */
function tellingOf(output, playerWords, toolId) {
  const result = isObject(output.result) ? output.result : {};
  const refused = isRefusal(result, toolId);
  if (typeof result.narration === 'string') {
    const text = result.narration.replace(/\s+/g, ' ').trim();
    return { text, refused };
  }
  if (typeof output.summary === 'string' && output.summary.trim() !== '') {
    return { text: tellSummary(output.summary.slice(0, 600), playerWords), refused };
  }
  return undefined;
}

module.exports = { isRefusal, tellingOf, tellSummary, inSecondPerson, baseVerb, thirdPersonVerb };
