// The verbs that say what a script does (it reads, or it acts on the story's state), and whether a word is an order's verb ("Levitate the cauldron"), not a name.

/** Verbs that read: a script whose description starts its work with one answers questions. */
export const READING_VERBS = new Set(
  (
    'list lists show shows check checks report reports tell tells say says read reads find finds count counts look looks search searches review reviews ' +
    'scan scans describe describes display displays estimate estimates reveal reveals explain explains predict predicts forecast forecasts answer answers ' +
    'recall recalls identify identifies examine examines inspect inspects measure measures get gets fetch fetches query queries return returns quote quotes ' +
    'price prices name names sense senses gauge gauges'
  ).split(' '),
);
/** Verbs that change the story's state (move, buy, attack, store…): a question or a look never runs a script that starts with one. */
export const ACTING_VERBS = new Set(
  (
    'move moves buy buys sell sells attack attacks store stores take takes give gives pay pays cast casts brew brews craft crafts forge forges repair ' +
    'repairs mend mends fit fits unlock unlocks lock locks open opens close closes cycle cycles vent vents hire hires bribe bribes ride rides borrow ' +
    'borrows lend lends raise raises lower lowers set sets change changes cross crosses travel travels go goes fight fights steal steals spend spends ' +
    'deposit deposits withdraw withdraws transfer transfers summon summons heal heals use uses equip equips build builds destroy destroys fire fires launch ' +
    'launches dock docks sail sails steer steers row rows ferry ferries carry carries deliver delivers send sends trade trades haggle haggles accept ' +
    'accepts record records save saves write writes update updates adjust adjusts add adds remove removes issue issues draw draws stoke stokes perform ' +
    'performs grow grows raise raises plant plants harvest harvests drink drinks eat eats learn learns train trains hand hands rob robs kill kills ' +
    'wield wields pour pours serve serves conduct conducts charge charges jump jumps climb climbs swim swims enter enters leave leaves drop drops throw throws'
  ).split(' '),
);

/** Verbs players start an order with, besides those above. */
const ORDER_VERBS = new Set(
  (
    'ask call light levitate summon strike walk run head follow wait listen speak talk search tell bring fetch pick push pull kick knock climb hide sneak ' +
    'follow read play sing dance rest sleep wake stop start try let help greet thank'
  ).split(' '),
);

/** True for a word that opens an order ("Raise the jib", "Ask Sal…"): a verb's base form. */
export function isOrderVerb(word: string): boolean {
  const lower = word.toLowerCase();
  return ORDER_VERBS.has(lower) || ((READING_VERBS.has(lower) || ACTING_VERBS.has(lower)) && !/[^s]s$/.test(lower));
}
