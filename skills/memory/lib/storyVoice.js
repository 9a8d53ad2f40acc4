// memory/lib/storyVoice: a memory's summary in the story's voice: the request framing dropped ("Remember that…", "Make a note:"), the player's first person turned to the second ("Mira gave me" -> "Mira gave you"), quoted words, names and facts kept.
'use strict';

const { secondPersonOutsideQuotes } = require('./voice.js');

/** Words that only soften or open a request ("ok, please remember…"). */
const FILLERS = /^(?:(?:ok(?:ay)?|so|and|also|oh|hey|well|please|pls|kindly|just|now)\b[,!]?\s*)+/i;

/** Ways a player asks to have something remembered, at the start of the words; what follows is the memory. */
const REQUEST_FRAMINGS = [
  // "I want to remember that…", "I'd like you to note…", "Let's not forget…", "Help me remember…"
  /^(?:i\s+(?:want|need|would\s+like|wish)|i['’]d\s+like|we\s+(?:want|need)|let['’]s|let\s+(?:us|me)|help\s+(?:me|us))\s+(?:you\s+)?(?:to\s+)?(?:remember|recall|note|keep\s+in\s+mind|bear\s+in\s+mind|memori[sz]e|record|write\s+down|not\s+forget|make\s+(?:a\s+)?note(?:\s+of)?)(?:\s+(?:that|this|how|when))?(?:\s*[:,–—-]\s*|\s+)/i,
  // "I should remember that…", "I must not forget…"
  /^(?:i|we)\s+(?:should|must|need\s+to|have\s+to|will|shall|better|ought\s+to)\s+(?:remember|not\s+forget|note|keep\s+in\s+mind)(?:\s+(?:that|this|how|when))?(?:\s*[:,–—-]\s*|\s+)/i,
  /^(?:i|we)['’]ll\s+(?:remember|note|keep\s+in\s+mind)(?:\s+(?:that|this|how|when))?(?:\s*[:,–—-]\s*|\s+)/i,
  // "Don't forget that…", "Never forget…", "Don't let me forget…"
  /^(?:do\s+not|don['’]?t|never)\s+(?:let\s+(?:me|us)\s+)?forget(?:\s+(?:that|this|how|when|about))?(?:\s*[:,–—-]\s*|\s+)/i,
  // "Make a note: …", "Take a mental note of…"
  /^(?:make|take)\s+(?:a\s+)?(?:mental\s+)?note(?:\s+(?:of|that|about))?(?:\s*[:,–—-]\s*|\s+)/i,
  // "Note to self: …", "For the record, …", "Memo: …"
  /^(?:note\s+to\s+self|for\s+the\s+record|memo|note|n\.?b\.?|reminder)\s*[:,–—-]\s*/i,
  // "Remember that…", "Note that…", "Keep in mind…", "Remember when…", "Remember: …"
  /^(?:remember|recall|note|notice|memori[sz]e|record|jot\s+down|write\s+down|mark\s+down|keep\s+in\s+mind|bear\s+in\s+mind)(?:\s+(?:that|this|how|when))?(?:\s*[:,–—-]\s*|\s+)/i,
];

/** The same requests at the end of the words ("…, remember that.", "…, don't forget!", "…, please."). */
const TRAILING_FRAMING = /[\s,;:–—-]+(?:please|remember(?:\s+(?:that|this|it))?|(?:do\s+not|don['’]?t)\s+forget(?:\s+(?:that|this|it))?|for\s+later|for\s+the\s+record)\s*([.!?]*)\s*$/i;

/** The request framing taken off `text`: the words that say what to remember. */
function withoutRequestFraming(text) {
  let rest = text.trim();
  // A few rounds: "Please, note: don't forget that…".
  for (let round = 0; round < 4; round++) {
    const before = rest;
    rest = rest.replace(FILLERS, '');
    for (const framing of REQUEST_FRAMINGS) rest = rest.replace(framing, '');
    rest = rest.replace(TRAILING_FRAMING, '$1').trim();
    if (rest === before) break;
  }
  // Remember "Mira gave me the key": the player's own note in quotes, not someone else's words.
  const quoted = /^["“]([^"“”]+)["”]([.!?]*)$/.exec(rest);
  if (quoted) rest = `${quoted[1]}${quoted[2]}`;
  // "Remember to ask Mira" is an intention: "You mean to ask Mira".
  if (/^to\s+\S/i.test(rest)) rest = `you mean ${rest}`;
  return rest;
}

/**
 * A memory's summary in the story's voice: "Remember that Mira gave me a silver key" -> "Mira gave you a silver
 * key", "I want to remember: we lost the map" -> "You lost the map". Second-person and third-person summaries come
 * back as they were (so a summary read back again is unchanged); words in quotes are kept as said.
 */
function summaryInStoryVoice(text) {
  const original = String(text).replace(/\s+/g, ' ').trim();
  if (original === '') return original;
  const rest = withoutRequestFraming(original);
  // Nothing left ("Remember this!", "I'll remember that"): the words themselves are all there is.
  const empty = !/[\p{L}\p{N}]/u.test(rest) || /^(?:this|that|it|these|those)\W*$/i.test(rest);
  const voiced = secondPersonOutsideQuotes(empty ? original : rest);
  // A sentence that began with a capital ("I met…", "Remember that the…") still does; "met the ferryman" stays as written.
  const capital = /^\p{Lu}/u.test(original) || (!empty && rest !== original);
  return capital ? voiced.charAt(0).toUpperCase() + voiced.slice(1) : voiced;
}

module.exports = { summaryInStoryVoice, withoutRequestFraming };
