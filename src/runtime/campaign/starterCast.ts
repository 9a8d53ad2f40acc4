// The complete starter campaign's characters: three NPC profiles (one with a secrets file) and the player template. Our own writing; text only.
import type { StarterFile } from './starterCampaigns.js';

const ODILE = {
  name: 'Odile Marrow',
  role: 'Mentor - the vanished keeper of the Lantern',
  age: 'Sixty-eight, looks older in lamplight',
  personality: {
    traits: ['exacting', 'dry-humoured', 'private', 'stubbornly kind'],
    flaws: ['trusts no one with the whole truth', 'mistakes silence for protection'],
    virtues: ['keeps every promise', 'patient with beginners'],
  },
  motivations: [
    'Pass the saltlight recipe on before her hands fail her',
    'Find out why the drowned grew restless this year',
    'Keep Tamsin out of trouble she does not know she is in',
  ],
  speech_patterns: {
    style: 'Short sentences, weather metaphors, never raises her voice',
    examples: ['Fog is only water that has forgotten to fall.', 'Trim the wick, then tell me what frightened you.'],
    catchphrases: ['Light first, questions after.'],
  },
  relationships: {
    tamsin: 'Took her in as a girl after her father drowned; loves her and lies to her',
    alder: 'Old friend turned rival; she pities him more than she fears him',
  },
  secrets: 'secrets.md',
  appearance: "Small and weathered, white hair in a seaman's plait, burn scars on both palms from forty years of lamps",
  portrait: 'art/characters/odile.png',
  background: 'Keeper of the Lantern for forty years, the last to know the whole saltlight recipe.',
  goals: [{ description: 'Teach the player the recipe', priority: 'primary', status: 'active' }],
  inventory: ['the tower key', 'a logbook in her own cipher', 'a jar of saltlight, half full'],
  metadata: { importance: 'major', first_appearance: "Her logbook, in the keeper's cottage", tags: ['keeper', 'mentor', 'missing'] },
};

const ODILE_SECRETS = `# What Odile hides

Odile went down to Saltmere, the drowned village under the north cove, on purpose. The drowned there are
not angry: they are waiting for someone they were promised, Odile's own mother, who was keeper before her and
who broke a bargain with them sixty years ago.

Odile means to keep that bargain herself. She did not tell Tamsin because Tamsin would have followed her.
She sent for the player because a keeper must be someone the island has not yet decided about.
`;

const TAMSIN = {
  name: 'Tamsin Reed',
  role: "Ally - ferrywoman, smuggler, the keeper's ward",
  age: 'Late twenties',
  personality: {
    traits: ['quick', 'wary', 'loyal', 'funny when frightened'],
    flaws: ['owes money to the wrong people', 'hates being protected'],
    virtues: ['brave on the water', 'never abandons a passenger'],
  },
  motivations: ['Find Odile before the fog season closes the harbour', 'Pay off her debt without Odile learning of it'],
  speech_patterns: {
    style: 'Harbour slang, teasing, goes quiet when she means something',
    examples: ['Hold the gunwale, not my arm, I need that arm.', 'She raised me. That makes it my business.'],
  },
  relationships: {
    odile: 'The only family she has; furious with her for vanishing',
    alder: 'Sold him contraband candles for years; knows what he buys them for',
  },
  secrets: 'The saltlight Odile was missing was sold by Tamsin, a jar at a time, to pay her debt.',
  portrait: 'art/characters/tamsin.png',
  inventory: ['a ferry with a patched sail', "a smuggler's lantern with a shutter"],
  metadata: { importance: 'major', first_appearance: 'At the tiller of the last ferry', tags: ['ferry', 'ally', 'smuggler'] },
};

const ALDER = {
  name: 'Brother Alder',
  role: 'Antagonist - priest of the Tide',
  age: 'Fifty',
  personality: {
    traits: ['eloquent', 'grieving', 'certain', 'tender with children'],
    flaws: ["confuses his loss with the island's sin", 'cannot admit doubt aloud'],
    virtues: ['genuinely wants no one else to drown'],
  },
  motivations: ['Give the sea an offering so it takes no more lives', "Learn the saltlight recipe and end the keepers' hold on the island"],
  speech_patterns: {
    style: 'Sermon cadences, second person, scripture of his own making',
    examples: ['You think the light keeps them out. I think it keeps them waiting.', 'The tide forgives what it is given.'],
  },
  relationships: {
    odile: 'They were novices together; he believes she stole his calling',
    tamsin: 'Buys her candles and her silence',
  },
  secrets: 'His brother drowned off Saltmere in the year Odile refused to light the lantern for a boat out past curfew.',
  faction: 'The Chapel of the Tide',
  portrait: 'characters/npcs/alder/portrait.png',
  metadata: { importance: 'major', first_appearance: 'Preaching in the square at dusk', tags: ['priest', 'antagonist'] },
};

const PLAYER_TEMPLATE = {
  character_creation: {
    mode: 'guided',
    guidance: 'You are a stranger the keeper sent for. Decide who you were before her letter found you, and why you came.',
  },
  allowed_backgrounds: [
    {
      name: 'Lamplighter',
      description: "You kept a city's street lamps; you know oil, wicks and long nights",
      starting_items: ['a wick-trimmer', 'a tin of matches'],
    },
    {
      name: "Drowned sailor's child",
      description: 'Your mother was lost at sea; the drowned may know your face',
      starting_items: ["your mother's compass"],
      starting_relationships: { tamsin: 'Recognises a fellow orphan of the sea' },
    },
    {
      name: 'Mainland clerk',
      description: 'You copied ledgers for a shipping company and read ciphers for fun',
      starting_items: ['a pocket ledger', 'spectacles'],
    },
  ],
  required_attributes: ['name', 'why you answered the letter'],
  optional_attributes: ['what you left behind', 'a fear you have not told anyone'],
  starting_location: 'The deck of the last ferry, in sight of the dark Lantern',
  starting_items: ["Odile's letter", 'a travelling coat', 'a small lantern with no oil'],
  constraints: {
    no_magic: true,
    custom: ['You arrive knowing no one on the island', 'You cannot swim well enough to reach Saltmere unaided'],
  },
  themes: ['inheritance', 'trust', 'keeping a light for others'],
  prompts: [
    { question: 'What did the letter make you feel when you opened it?', examples: ['Chosen', 'Suspicious', 'Relieved to have a reason to leave'] },
    { question: 'Who would miss you if the fog took you?', guidance: 'One name is enough.' },
  ],
};

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The NPC profiles, Odile's secrets and the player template. */
export function castFiles(): StarterFile[] {
  return [
    { path: 'characters/npcs/odile/profile.json', text: json(ODILE) },
    { path: 'characters/npcs/odile/secrets.md', text: ODILE_SECRETS },
    { path: 'characters/npcs/tamsin/profile.json', text: json(TAMSIN) },
    { path: 'characters/npcs/alder/profile.json', text: json(ALDER) },
    { path: 'characters/player/template.json', text: json(PLAYER_TEMPLATE) },
  ];
}
