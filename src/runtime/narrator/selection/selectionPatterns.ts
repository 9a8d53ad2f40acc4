// Selection's patterns as data: a skill's role by capability, whether a script reads or acts, words that only look or politely ask; each with its examples.
import { anyWord, type NamedPattern } from './namedPattern.js';

/** A skill's role from one of its capabilities (skillRoles.ts); a skill with none of these gives context. */
export const CAPABILITY_PATTERNS: readonly NamedPattern[] = [
  {
    name: 'narration',
    purpose: 'A skill that narrates: the storyteller every plan ends with, never chosen by the words.',
    pattern: new RegExp(`^${anyWord('narration narrate narrator storytelling story storyteller')}$`, 'i'),
    examples: ['narration', 'Storyteller'],
    counterExamples: ['narrative', 'history'],
  },
  {
    name: 'chance',
    purpose: 'A skill that rolls: the one roll of a plan, before the narration that tells its outcome.',
    pattern: new RegExp(`^${anyWord('dice chance check random roll luck')}$`, 'i'),
    examples: ['dice', 'luck'],
    counterExamples: ['dice-roller', 'checks'],
  },
  {
    name: 'options',
    // "dialogue" alone is a character who talks: context, told by the narration.
    purpose: 'A skill that offers the player choices: it runs after the narration.',
    pattern: new RegExp(`^${anyWord('choices choice options decision decisions')}$`, 'i'),
    examples: ['choices', 'decision'],
    counterExamples: ['dialogue', 'optional'],
  },
  {
    name: 'visual',
    purpose: 'A skill that draws: the one picture of a plan, only when the words ask about a likeness.',
    pattern: new RegExp(`^${anyWord('portrait image images art picture illustration visual')}$`, 'i'),
    examples: ['portrait', 'illustration'],
    counterExamples: ['artist', 'pictures'],
  },
];

/** The verbs that open a description of a script that reads. */
const READING_OPENINGS =
  'lists shows checks reports tells says reads finds counts looks searches reviews scans describes displays estimates reveals explains predicts ' +
  'forecasts answers recalls identifies examines inspects measures gets fetches queries returns';

/** Whether a script reads (a question wants it) or acts (a deed wants it): by its name first, else by its description's first verb. */
export const SCRIPT_PATTERNS: readonly NamedPattern[] = [
  {
    name: 'reading script name',
    purpose: 'A script whose name starts by reading (query, recall, status...): chosen for questions.',
    pattern: new RegExp(
      `^${anyWord('query get report lookup look-?up recall list show status wares routes forecast find search info describe check read')}`,
      'i',
    ),
    examples: ['query', 'get-status', 'recall', 'look-up', 'forecast'],
    counterExamples: ['update', 'store', 'roll'],
  },
  {
    name: 'acting script name',
    purpose: 'A script whose name is a verb that acts (update, store, buy...), alone or before a separator: chosen for deeds and actions.',
    pattern: new RegExp(
      `^${anyWord('update adjust change set store save record add buy sell journey travel go move apply give take write roll draw offer')}(?:$|[-_ .])`,
      'i',
    ),
    examples: ['update', 'adjust-attitude', 'store', 'buy_item', 'roll'],
    counterExamples: ['settle', 'rollcall', 'query'],
  },
  {
    name: 'reading description',
    purpose: 'A script description that starts by reading ("Reports how much oxygen is left", "Lists the crew").',
    pattern: new RegExp(`^${anyWord(READING_OPENINGS)}\\b`, 'i'),
    examples: ['Lists the crew', 'Reports how much oxygen is left', 'returns the weather'],
    counterExamples: ['Adds a note', 'Listens for footsteps'],
  },
  {
    name: 'acting description',
    purpose: 'A description that opens with a verb of the third person ("Swaps", "Adds"): the script acts (unless "not a verb" says otherwise).',
    pattern: /^[A-Z][a-z]*[^s\W]s\b/,
    examples: ['Swaps two items', 'Adds a note'],
    counterExamples: ['Roll a die', 'Glass of water', 'tracks the weather'],
  },
  {
    name: 'not a verb',
    purpose: 'A description opening with a word that merely ends in s ("This", "Status", "Always"): not a verb that acts.',
    pattern: new RegExp(
      `^${anyWord('this is was has does its his hers yes status details stats notes always perhaps news series plus thus towards afterwards sometimes nowadays')}\\b`,
      'i',
    ),
    examples: ['This skill adds', 'Status of the ship'],
    counterExamples: ['Swaps two items', 'Thistle grows here'],
  },
  {
    name: 'narrating script',
    purpose: "The narrating skill's script that narrates (else its first script).",
    pattern: /narrat|tell|describe/i,
    examples: ['narrate', 'tell-story', 'describe-scene'],
    counterExamples: ['offer', 'roll'],
  },
];

/** What the player's words do besides asking: only look (never an act), or politely ask for an act. */
export const INPUT_PATTERNS: readonly NamedPattern[] = [
  {
    name: 'looking',
    purpose: 'Words that only look ("I walk along the bank looking for tracks"): a look never runs a script that acts.',
    pattern: new RegExp(
      String.raw`\b(?:look(?:s|ing)?\s+(?:at|for|around|over|into|about)|search(?:es|ing)?\s+for|peer(?:s|ing)?\s+(?:at|into|through|over|around)|` +
        String.raw`watch(?:es|ing)?\s+(?:for|over|out)|observ(?:e|es|ing)\s+(?:the|a|an|how)|glanc(?:e|es|ing)\s+(?:at|around|over)|` +
        String.raw`scan(?:s|ning)?\s+(?:the|for)|survey(?:s|ing)?\s+the)\b`,
      'i',
    ),
    examples: ['I walk along the bank looking for tracks', 'I glance around the room', 'We survey the valley'],
    counterExamples: ['I walk to the bank', 'I look Mira in the eye'],
  },
  {
    name: 'polite request',
    purpose: 'A question that is a polite request ("Can you take me across?"): it asks for the act, as a command would.',
    pattern: new RegExp(
      String.raw`^(?:(?:please|so|and|ok|okay),?\s+|[A-Za-z]+,\s+)?` +
        String.raw`(?:(?:can|could|will|would)\s+you|(?:can|could|may)\s+(?:i|we)\s+(?:have|take|get|borrow|buy|hire|rent|use|book|order)|` +
        String.raw`(?:i\s+)?(?:want|need)\s+(?:you\s+)?to|i(?:'d|\u2019d|\s+would)\s+like)\b`,
      'i',
    ),
    examples: ['Can you take me across?', 'Would you take 32 for the longsword?', "I'd like a room", 'Please, could you help?', 'Mira, can I borrow a horse?'],
    counterExamples: ['Can I see the map?', 'Could the guard see me?'],
  },
];
