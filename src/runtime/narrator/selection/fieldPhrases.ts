// The things and places a player names in lower case ("to the old mill") and which of them fills a script's string field.
import { termsOf } from './textTerms.js';

/** A thing or place the words name, with the word before it. */
export interface NamedPhrase {
  /** Without its article: "silver compass", "old mill". */
  readonly value: string;
  /** As written: "the silver compass". */
  readonly words: string;
  /** The preposition or verb before it ("to", "over", "buy"), lowercased. */
  readonly lead?: string;
  /** Its terms (stems), computed once per plan. */
  readonly terms: readonly string[];
}

/** A phrase after an article or a possessive, with the word before it. */
const PHRASE =
  /(?:\b([a-z]+(?:\s+(?:to|over|for|into|across))?)\s+)?\b(the|a|an|my|your|some|any|this|that|those|these|his|her|their)\s+((?:[a-z][\w'-]*\s+){0,3}[a-z][\w'-]*)/gi;
/** Words that end a phrase: prepositions, conjunctions and verbs that follow a subject. */
const ENDS = new RegExp(
  String.raw`^(?:to|for|from|with|at|on|in|of|about|around|through|under|behind|beside|between|toward|towards|without|during|since|until|and|or|but|` +
    String.raw`before|after|again|now|down|back|up|over|across|into|onto|off|out|away|today|tonight|tomorrow|please|is|are|was|were|has|have|had|` +
    String.raw`do|does|did|can|could|will|would|should|look|looks|feel|feels|like|likes|near|by|while|when|if|so|then|because|than|as|that|which|` +
    String.raw`who|where|i|you|we|he|she|they|it|me|him|her|them|us)$`,
  'i',
);
/** Nouns that name no thing or place a script wants ("the price of", "the other side", "the way"). */
const VAGUE = new RegExp(
  String.raw`^(?:price|cost|side|way|thing|things|one|ones|lot|bit|rest|time|moment|day|night|morning|evening|end|top|bottom|other|same|best|most|` +
    String.raw`kind|sort|chance|deal|matter|question|answer|truth|idea|world|place|set|pair|couple|handful|dozen|number|amount|wares|goods|items|` +
    String.raw`stuff|things|everything|anything|something|merchandise|inventory|stock|selection)$`,
  'i',
);
/** Prepositions: a phrase after one is not a verb's object. */
const PREPOSITIONS =
  /^(?:to|towards?|into|onto|in|inside|at|on|under|behind|near|beside|by|within|from|with|for|of|about|over|across|through|around|after|before|without|against|along|up|down|off|out|than|like|as)$/;
/** Words before a question's subject. */
const AUXILIARIES = /^(?:does|do|did|is|are|was|were|can|could|will|would|should|has|have)$/i;
/** Prepositions that lead to a place. */
const TOWARD = /^(?:to|towards?|into|onto|reach|across to|over to|up to|down to|at|visit|enter|for)$/;
/** Verbs and prepositions that lead to a thing traded or handled. */
const HANDLED =
  /^(?:buy|sell|trade|take|get|want|need|fetch|find|use|haggle over|bargain for|haggle|over|for|of|about|on|with|repair|fix|mend|forge|craft|brew|cast|give|show|pay for|afford)$/;

const NUMBER_WORD = String.raw`(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|a\s+dozen|a\s+few|several|some|a|an)`;
/** "8 barrels of water", "a set of horseshoes": the thing is after "of". */
const MEASURED = new RegExp(
  String.raw`\b${NUMBER_WORD}\s+(?:[a-z]+\s+)?(?:barrels?|casks?|kegs?|coils?|sacks?|flasks?|bottles?|jars?|sets?|pairs?|loaves|loaf|` +
    String.raw`pieces?|cups?|bowls?|skins?|crates?|boxes|box|bags?|bundles?|rolls?|sheets?|bolts?|yards?|feet|pounds?|ounces?|measures?|` +
    String.raw`doses?|vials?|cans?|tins?|packs?|rounds?|units?|portions?|handfuls?|strings?|bunch(?:es)?)\s+of\s+((?:[a-z][\w'-]*\s+){0,2}[a-z][\w'-]*)`,
  'gi',
);
/** "three arrows", "10 shovels": a counted thing without an article. */
const COUNTED = new RegExp(
  String.raw`\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty)\s+((?:[a-z][\w'-]*\s+){0,1}[a-z][\w'-]*)\b(?!\s+of\b)`,
  'gi',
);
/** "how much lamp oil", "books on dragons", "about necromancy": a thing without an article. */
const BARE = new RegExp(
  String.raw`\b(how\s+much|how\s+many|about|on|regarding|concerning|of)\s+(?!the\b|a\b|an\b|my\b|your\b|his\b|her\b|their\b|this\b|that\b|` +
    String.raw`it\b|them\b|me\b|you\b|us\b|\d)((?:[a-z][\w'-]*\s+){0,2}[a-z][\w'-]*)`,
  'gi',
);

/** Words after which a number counts things ("three arrows"): a quick test before {@link COUNTED}. */
const COUNTING = /\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty)\b/i;
/** The leads of {@link BARE}, as a quick test before it. */
const BARE_LEADS = /\b(?:how\s+much|how\s+many|about|on|regarding|concerning|of)\s/i;
/** Last words that name no thing: money, time, amounts. */
const NOT_THINGS =
  /^(?:coins?|gold|silver|copper|dollars?|bucks?|credits?|chits?|crowns?|marks?|pounds?|shillings?|pence|cents?|days?|hours?|times?|more|less|much|many|left|it|them)$/i;

/** The lower-case things and places the words name, in order ("the silver compass", "to the mill", "8 barrels of water"). */
export function namedPhrases(text: string): readonly NamedPhrase[] {
  const phrases: NamedPhrase[] = [];
  for (let match = PHRASE.exec(text); match; match = PHRASE.exec(text)) {
    const used = addPhrase(phrases, match[3]!, match[2], match[1]);
    // Let the next match start inside this one's unused words ("the price of the silver compass").
    PHRASE.lastIndex = match.index + (match[0].length - match[3]!.length) + Math.max(used, 1);
  }
  if (/\sof\s/i.test(text)) for (const match of text.matchAll(MEASURED)) addPhrase(phrases, match[1]!, undefined, 'of');
  if (BARE_LEADS.test(text)) for (const match of text.matchAll(BARE)) addPhrase(phrases, match[2]!, undefined, match[1]);
  if (COUNTING.test(text)) for (const match of text.matchAll(COUNTED)) addPhrase(phrases, match[1]!, undefined, undefined);
  return phrases;
}

/** Adds the thing `raw` names (up to the word that ends it) to `phrases`, once; returns how many of its characters were read. */
function addPhrase(phrases: NamedPhrase[], raw: string, article: string | undefined, lead: string | undefined): number {
  const words = raw.split(/\s+/);
  let end = -1;
  for (let position = 0; position < words.length; position++) {
    if (ENDS.test(words[position]!)) {
      end = position;
      break;
    }
  }
  let kept = (end < 0 ? words : words.slice(0, end)).map((word) => (word.endsWith("'s") ? word.slice(0, -2) : word));
  // The subject of a question ends before its verb: "does the library hold about…" names the library.
  if (lead !== undefined && AUXILIARIES.test(lead) && kept.length > 1 && end > 0) kept = kept.slice(0, -1);
  // A name is not a lower-case thing ("the Kraken Deep" is the narrator's names' business).
  if (kept.length === 0 || kept.some(startsUpperCase)) return 0;
  const written = kept.join(' ');
  const last = kept[kept.length - 1]!;
  if (VAGUE.test(last) || NOT_THINGS.test(last)) return written.length;
  const value = written.toLowerCase();
  if (!phrases.some((phrase) => phrase.value === value))
    phrases.push({
      value,
      words: article ? `${article} ${written}` : written,
      ...(lead ? { lead: lead.toLowerCase().replace(/\s+/g, ' ') } : {}),
      terms: termsOf(value),
    });
  return written.length;
}

function startsUpperCase(word: string): boolean {
  const code = word.charCodeAt(0);
  return code >= 65 && code <= 90;
}

/** What a string field names, by its name and description: a place, a thing, or something else. */
function fieldKind(name: string, description: string): 'place' | 'thing' | 'other' {
  const key = name.toLowerCase().replace(/[^a-z]/g, '');
  if (
    /^(?:destination|to|where|place|location|room|area|region|town|city|goal|site|spot|district|zone|deck|floor|sector|bank|port|harbou?r|station|planet|system|landmark|route)$/.test(
      key,
    ) ||
    /\bwhere\b/i.test(description)
  )
    return 'place';
  if (
    /^(?:item|items|object|thing|goods|good|ware|wares|product|weapon|gear|tool|potion|ingredient|material|artifact|artefact|equipment|cargo|part|piece|book|food|drink|dish|gift)$/.test(
      key,
    )
  )
    return 'thing';
  return 'other';
}

/** What a field's name and schema say, worked out once per schema object (a field keeps its name). */
export interface FieldProfile {
  /** The terms of its description and examples. */
  readonly schemaTerms: ReadonlySet<string>;
  readonly kind: 'place' | 'thing' | 'other';
  /** A mood, a tone or a style: an adjective, never a thing the words name. */
  readonly adjective: boolean;
  /** Named like a target ("target", "title", "spell", "topic"). */
  readonly targetLike: boolean;
  /** About someone: its name or description says who, spirit, witness… */
  readonly personLike: boolean;
  /** The terms of its name, description and title: what an amount's unit or lead is matched against. */
  readonly nameTerms: ReadonlySet<string>;
}

/** Words of a field about someone (besides the person fields the names fill). */
const PERSON_LIKE =
  /\b(?:who|whom|whose|person|people|character|spirit|ghost|soul|contact|suspect|witness|victim|guest|patient|passenger|recruit|prisoner|someone|somebody)\b/i;

const profiles = new WeakMap<object, FieldProfile>();

/** A field's profile, once per schema object. */
export function profileOf(name: string, property: Record<string, unknown>): FieldProfile {
  let profile = profiles.get(property);
  if (!profile) {
    const description = typeof property['description'] === 'string' ? property['description'] : '';
    const examples = Array.isArray(property['examples']) ? property['examples'].filter((example): example is string => typeof example === 'string') : [];
    profile = {
      schemaTerms: new Set(termsOf(`${description} ${examples.join(' ')}`)),
      kind: fieldKind(name, description),
      adjective: /\b(?:adjective|mood|atmosphere|tone|style|feeling|emotion)\b/i.test(`${name} ${description}`),
      targetLike: /^(?:target|object|title|book|spell|recipe|potion|subject|topic|query|about|thing|what|which)$/i.test(name.replace(/[^a-z]/gi, '')),
      personLike: PERSON_LIKE.test(`${name} ${description}`),
      nameTerms: new Set(
        termsOf(
          `${name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ')} ${description} ${typeof property['title'] === 'string' ? property['title'] : ''}`,
        ),
      ),
    };
    profiles.set(property, profile);
  }
  return profile;
}

/**
 * The named phrase that fills a string field, and whether the schema itself names it (`confident`): its description,
 * enum or examples hold the phrase's last word (3), the skill's own words do (1), its preposition suits the field
 * (a place after "to": 2; a thing handled: 2), or it is what the words are about or the verb's object (for a required
 * field, or one named like a target). Undefined below 2.
 */
export function fieldPhrase(
  name: string,
  property: Record<string, unknown>,
  phrases: readonly NamedPhrase[],
  skillTerms?: ReadonlySet<string>,
  required = false,
): { value: string; words: string; confident: boolean } | undefined {
  if (phrases.length === 0) return undefined;
  const type = property['type'];
  if (type !== undefined && type !== 'string' && !(Array.isArray(type) && type.includes('string'))) return undefined;
  const profile = profileOf(name, property);
  if (profile.adjective) return undefined;
  const { schemaTerms, kind } = profile;
  // An optional field of no known kind (a label, a note) is filled only when its schema names the thing.
  const objectLike = required || profile.targetLike;
  let best: { phrase: NamedPhrase; score: number; named: boolean } | undefined;
  for (let phrase of phrases) {
    const terms = phrase.terms;
    const head = terms[terms.length - 1];
    if (head === undefined) continue;
    // "the chapel door" names the chapel when the schema does: the phrase up to the word it names.
    const namedAt = terms.findIndex((term) => schemaTerms.has(term));
    if (namedAt >= 0 && namedAt < terms.length - 1 && !schemaTerms.has(head)) {
      const words = phrase.value.split(' ').slice(0, namedAt + 1);
      phrase = {
        ...phrase,
        value: words.join(' '),
        words: phrase.words
          .split(' ')
          .slice(0, phrase.words.split(' ').length - (terms.length - namedAt - 1))
          .join(' '),
        terms: terms.slice(0, namedAt + 1),
      };
    }
    const named = namedAt >= 0;
    let score = named ? 3 : 0;
    if (skillTerms?.has(head)) score += 1;
    // "steer for the kraken deep": the preposition is the lead's last word.
    const preposition = phrase.lead?.split(' ').at(-1);
    const toward = phrase.lead !== undefined && (TOWARD.test(phrase.lead) || TOWARD.test(preposition!));
    const located = preposition !== undefined && /^(?:in|inside|at|on|under|behind|near|beside|by|within|from)$/.test(preposition);
    if (kind === 'place' && toward) score += 2;
    // The verb's object ("open the old nursery", "requisition a grappling hook").
    const object = phrase === phrases[0] && phrase.lead !== undefined && !toward && !located && !PREPOSITIONS.test(preposition!);
    // A place the player is in or at ("a ghost in the stables"); a verb's object only with the schema's or skill's word.
    if (kind === 'place' && located) score += 2;
    if (kind === 'place' && object) score += 1;
    // A thing handled, counted or asked about ("haggle over the rope", "8 barrels of water", "how much is the axe").
    // "in the hold" is where things are, not a thing.
    if (kind === 'thing' && located) continue;
    if (kind === 'thing')
      score +=
        phrase.lead === undefined ||
        object ||
        HANDLED.test(phrase.lead) ||
        HANDLED.test(preposition!) ||
        /^(?:is|are|how much|how many|like|love|want|need|have)$/.test(phrase.lead)
          ? 2
          : toward || located
            ? 0
            : 1;
    // Anything else: what the words are about ("books on dragons"), or the verb's object ("mend the cracked vase").
    if (kind === 'other')
      score +=
        phrase.lead !== undefined && /^(?:about|on|regarding|concerning)$/.test(phrase.lead) && /topic|subject|about|query|question|keyword|search/i.test(name)
          ? 4
          : objectLike && phrase === phrases[0] && !toward && !located && !/^(?:with|for)$/.test(preposition ?? '')
            ? 2
            : 0.5;
    if (!best || score > best.score) best = { phrase, score, named };
  }
  if (!best || best.score < 2) return undefined;
  return { value: best.phrase.value, words: best.phrase.words, confident: best.named || best.score >= 4 };
}
