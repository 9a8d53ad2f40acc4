#!/usr/bin/env node
// player-choices/offer: builds 3-5 contextual options for the player's next move (with consequence hints) from the situation, the action and dependency results such as a dice roll, as Narratoria protocol v0 NDJSON.
'use strict';

const { cleanText, emit, fail, isObject, readConfig, runTool, stableHash } = require('../lib/narratoria-skill-sdk.js');

const MIN_COUNT = 3;
const MAX_COUNT = 5;
const MAX_TEXT = 4000;

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Scenes recognised in the situation and action. `nouns` are words that can fill the {x} slot of the
// options (the first one found in the text is used, else `fallback`); `cues` only recognise the scene.
// Options: [approach, choice, consequence hint]. Approaches: bold, cautious, social, cunning, curious, retreat.
const SCENES = [
  {
    scene: 'combat',
    nouns: 'bandits bandit goblins goblin orcs orc wolves wolf skeletons skeleton trolls troll monsters monster beasts beast soldiers soldier assassins assassin cultists cultist dragon raiders raider thugs thug enemies enemy attackers attacker',
    cues: 'fight fighting attack attacks attacking attacked battle ambush ambushed sword swords blade duel combat charge hostile',
    fallback: 'enemy',
    options: [
      ['bold', 'Charge the {x} head-on', 'Fast and dangerous: an attack roll; winning ends it quickly, losing means taking a hit.'],
      ['cautious', 'Take cover and watch the {x} for an opening', 'Safer: may reveal a weakness (Perception), but you give up the initiative.'],
      ['social', 'Call on the {x} to stand down and talk', 'A Charisma check; it could end the fight without blood, or be taken as weakness.'],
      ['cunning', 'Circle around and strike the {x} from the shadows', 'A Stealth check first; success gives you the advantage, failure leaves you exposed.'],
      ['retreat', 'Fall back to safer ground', 'Avoids the fight for now; the {x} may follow, or the chance may be lost.'],
    ],
  },
  {
    scene: 'barrier',
    nouns: 'door doors gate gates chest chests vault hatch portcullis strongbox safe cell coffer lockbox trapdoor',
    cues: 'lock locked lockpick keyhole bolted barred sealed',
    fallback: 'door',
    options: [
      ['cunning', 'Pick the lock on the {x}', 'A Dexterity check with tools (around DC 15); quiet, but slow.'],
      ['bold', 'Force the {x} open', 'A Strength check (around DC 15); quick, but loud, and it may break what is inside.'],
      ['cautious', 'Search the {x} for traps first', 'Takes a moment; may reveal a trap or a hidden catch before it bites.'],
      ['curious', 'Listen at the {x} for any sound', 'Tells you what waits beyond, at no risk; costs a little time.'],
      ['social', 'Look for whoever holds the key to the {x}', 'No roll to start; finding and convincing the keyholder is its own challenge.'],
    ],
  },
  {
    scene: 'stealth',
    nouns: 'patrol patrols sentry sentries watchman lookout guards guard',
    cues: 'sneak sneaking hide hiding hidden shadow shadows steal stealing pickpocket unseen quietly stealth spotted',
    fallback: 'patrol',
    options: [
      ['cunning', 'Slip past the {x} in the shadows', 'A Stealth check; success gets you through unseen, failure raises the alarm.'],
      ['cautious', 'Wait and learn the {x}\'s pattern', 'Costs time, but makes the next Stealth check easier.'],
      ['bold', 'Create a distraction and make a run for it', 'Loud but fast: draws attention away from where you are going.'],
      ['social', 'Bluff your way past the {x} as if you belong', 'A Deception check; a good story beats a good hiding place.'],
      ['retreat', 'Find another way around the {x}', 'Avoids the risk; the detour may cost time or lead somewhere new.'],
    ],
  },
  {
    scene: 'conversation',
    nouns: 'merchant innkeeper barkeep bartender king queen noble lord lady captain priest priestess stranger villager shopkeeper trader mayor elder guard sage witch hermit smith blacksmith sailor beggar child',
    cues: 'talk talking ask asking persuade negotiate bargain haggle bribe convince says said speak speaks speaking conversation greet greets',
    fallback: 'stranger',
    options: [
      ['social', 'Ask the {x} what they know', 'Safe; you learn something, and how they answer shows how they feel about you.'],
      ['bold', 'Press the {x} for answers with a threat', 'An Intimidation check; quick results, but their opinion of you will drop.'],
      ['cunning', 'Offer the {x} a bribe', 'Costs coin; a Persuasion check if they are honest, nearly certain if they are not.'],
      ['curious', 'Watch the {x} closely for signs of a lie', 'An Insight check; tells you whether they can be trusted.'],
      ['retreat', 'Thank the {x} and take your leave', 'Ends the conversation on good terms; you can come back later.'],
    ],
  },
  {
    scene: 'magic',
    nouns: 'rune runes altar glyph glyphs sigil circle portal amulet orb wand scroll statue idol artifact potion tome mirror crystal',
    cues: 'spell spells arcane ritual magic magical enchanted enchantment curse cursed glowing glows shimmering',
    fallback: 'strange magic',
    options: [
      ['curious', 'Study the {x} closely', 'An Arcana check; knowledge without the risk of touching it.'],
      ['bold', 'Touch the {x}', 'Unpredictable: it may grant power, or unleash something.'],
      ['cautious', 'Test the {x} from a distance with a tossed coin', 'Safe and cheap; shows whether it reacts, not what it does.'],
      ['cunning', 'Try to turn the power of the {x} to your advantage', 'A hard Arcana check; great reward if it works, a backlash if it does not.'],
      ['retreat', 'Leave the {x} alone', 'Safe; whatever power it holds stays unclaimed.'],
    ],
  },
  {
    scene: 'hazard',
    nouns: 'river chasm bridge rapids swamp lake stream cliff cliffs wall walls ledge mountain pass ravine pit',
    cues: 'climb climbing cross crossing jump fall falling slippery steep flood flooded',
    fallback: 'obstacle',
    options: [
      ['bold', '{cross} the {x} directly', 'An Athletics check; the fastest way, and a fall or a soaking if it fails.'],
      ['cunning', 'Rig a rope to make the {x} safer', 'Takes time and gear; makes every check here much easier.'],
      ['cautious', 'Look for a safer way past the {x}', 'A Survival check; a longer route, but fewer risks.'],
      ['curious', 'Study the {x} for the best place to try', 'A Perception check; the next attempt is easier if you find it.'],
      ['retreat', 'Make camp and wait for better conditions', 'Safe, but time passes and others may get ahead.'],
    ],
  },
  {
    scene: 'exploration',
    nouns: 'cave caves cavern forest woods ruin ruins path crossroads corridor tunnel tunnels dungeon room chamber hall cellar crypt tomb road passage stairs library camp village town city market tower temple',
    cues: 'explore exploring search searching map dark darkness wander arrive arrives enter enters',
    fallback: 'area',
    options: [
      ['curious', 'Search the {x} carefully', 'An Investigation check; may turn up hidden items or clues, but takes time.'],
      ['bold', 'Press on deeper into the {x}', 'Gains ground quickly, but you may walk into danger unprepared.'],
      ['cautious', 'Light a torch and look around the {x} before moving', 'Safer; shows the way ahead, though light can be seen from afar.'],
      ['cunning', 'Look for tracks of whoever passed through the {x}', 'A Survival check; tells you what you are following, or what follows you.'],
      ['retreat', 'Go back the way you came', 'Safe, but the {x} keeps its secrets.'],
    ],
  },
];

/** Hazards that are climbed rather than crossed. */
const CLIMBED = new Set(['cliff', 'cliffs', 'wall', 'walls', 'ledge', 'mountain']);

const GENERIC = [
  ['curious', 'Look around carefully', 'A Perception check; the surest way to learn what is going on.'],
  ['bold', 'Press on ahead', 'Keeps the story moving; you may miss details or meet trouble head-first.'],
  ['social', 'Call out to anyone nearby', 'Someone may answer, friend or foe.'],
  ['cautious', 'Check your gear and supplies', 'Safe; you will be ready for what comes, and it costs only a moment.'],
  ['cunning', 'Think through what you already know', 'A moment of reflection may reveal a connection you missed.'],
  ['retreat', 'Step back and rest for a moment', 'Recovers your strength; the world does not wait, though.'],
];

/** The approach a tone asks for (tone words outside this table are ignored). */
const TONES = {
  bold: 'bold', brave: 'bold', heroic: 'bold', aggressive: 'bold', reckless: 'bold', action: 'bold', combat: 'bold',
  cautious: 'cautious', careful: 'cautious', tense: 'cautious', safe: 'cautious', defensive: 'cautious', wary: 'cautious',
  social: 'social', diplomatic: 'social', friendly: 'social', lighthearted: 'social', polite: 'social', peaceful: 'social',
  cunning: 'cunning', sneaky: 'cunning', clever: 'cunning', stealthy: 'cunning', dark: 'cunning', sly: 'cunning',
  curious: 'curious', mysterious: 'curious', eerie: 'curious', investigative: 'curious', inquisitive: 'curious',
};

const WORDS = (text) => text.toLowerCase().match(/[a-z]+(?:'[a-z]+)?/g) || [];

/** Scenes found in `text`, most keyword hits first (ties: mentioned first, then table order), each with its {x} word. */
function detectScenes(text) {
  const words = WORDS(text);
  const found = [];
  SCENES.forEach((scene, order) => {
    const nouns = scene.nouns.split(' ');
    const cues = scene.cues.split(' ');
    let hits = 0;
    let first = Infinity;
    let noun;
    words.forEach((word, index) => {
      const isNoun = nouns.includes(word);
      if (!isNoun && !cues.includes(word)) return;
      hits += 1;
      first = Math.min(first, index);
      if (isNoun && noun === undefined) noun = word;
    });
    if (hits > 0) found.push({ scene, hits, first, order, x: noun || scene.fallback });
  });
  return found.sort((a, b) => b.hits - a.hits || a.first - b.first || a.order - b.order);
}

/** What the dependencies tell: the first dice result (result.total is a number, read like storyteller does), NPC attitudes, faction ranks, a recalled memory and narration text. */
function readDependencies(dependencies) {
  const facts = { dice: undefined, npcs: [], factions: [], memory: undefined, narration: '' };
  for (const [toolId, output] of Object.entries(isObject(dependencies) ? dependencies : {})) {
    if (!isObject(output) || output.ok === false || !isObject(output.result)) continue;
    const r = output.result;
    if (!facts.dice && typeof r.total === 'number') {
      const dc = typeof r.dc === 'number' ? r.dc : undefined;
      facts.dice = {
        toolId,
        total: r.total,
        dc,
        success: typeof r.success === 'boolean' ? r.success : dc !== undefined ? r.total >= dc : undefined,
        critical: r.critical === 'success' || r.critical === 'failure' ? r.critical : undefined,
        reason: cleanText(r.reason, 200),
      };
    }
    if (typeof r.npc === 'string' && typeof r.attitude === 'string') {
      facts.npcs.push({ npc: cleanText(r.npc, 100), attitude: r.attitude, modifier: typeof r.modifier === 'number' ? r.modifier : 0 });
    }
    if (typeof r.faction === 'string' && typeof r.rank === 'string') facts.factions.push({ faction: cleanText(r.faction, 100), rank: r.rank });
    if (!facts.memory && Array.isArray(r.memories) && isObject(r.memories[0]) && typeof r.memories[0].summary === 'string') {
      const first = r.memories[0];
      const characters = Array.isArray(first.characters) ? first.characters.filter((name) => typeof name === 'string' && name.trim() !== '') : [];
      facts.memory = { summary: cleanText(first.summary, 300), character: characters.length > 0 ? cleanText(characters[0], 100) : undefined };
    }
    if (typeof r.narration === 'string') facts.narration += ` ${cleanText(r.narration, MAX_TEXT)}`;
  }
  return facts;
}

/** Options that follow from the dependencies' results: the roll's outcome first, then NPCs, factions and memories. */
function dependencyOptions(facts) {
  const options = [];
  const dice = facts.dice;
  if (dice) {
    const attempt = dice.reason ? ` (${dice.reason})` : '';
    const score = `${dice.total}${dice.dc !== undefined ? ` against ${dice.dc}` : ''}`;
    if (dice.critical === 'success') {
      options.push(['bold', 'Seize the moment and push your luck further', `A natural 20${attempt}: fortune is with you; a bold follow-up is likely to pay off.`, 'dice']);
      options.push(['cautious', 'Secure what you have won before moving on', `Locks in the triumph${attempt} (${score}) with no new risk.`, 'dice']);
    } else if (dice.critical === 'failure') {
      options.push(['bold', 'Scramble to undo the damage', `A natural 1${attempt}: things went badly wrong; acting fast may save something, or make it worse.`, 'dice']);
      options.push(['retreat', 'Get out before things get worse', `Cuts your losses after the fumble${attempt}.`, 'dice']);
    } else if (dice.success === true) {
      options.push(['bold', 'Press the advantage while it lasts', `The attempt${attempt} succeeded (${score}); build on it before the moment passes.`, 'dice']);
      options.push(['cautious', 'Secure what you have gained', `Makes the success${attempt} stick; no new risk.`, 'dice']);
    } else if (dice.success === false) {
      options.push(['cunning', 'Try again with a different approach', `The attempt${attempt} failed (${score}); the same way is unlikely to work, another might.`, 'dice']);
      options.push(['retreat', 'Cut your losses and fall back', `Limits the fallout of the failure${attempt}; you can return better prepared.`, 'dice']);
    }
  }
  for (const { npc, attitude, modifier } of facts.npcs.slice(0, 2)) {
    const bonus = `${modifier > 0 ? '+' : ''}${modifier}`;
    if (['hostile', 'unfriendly', 'wary'].includes(attitude)) {
      options.push(['social', `Try to win back ${npc}'s trust`, `${npc} is ${attitude} (${bonus} on social rolls); an apology, a gift or a favour may soften them.`, 'npc']);
    } else if (['friendly', 'devoted', 'cordial'].includes(attitude)) {
      options.push(['social', `Ask ${npc} for a favour`, `${npc} is ${attitude} (${bonus} on social rolls) and likely to help.`, 'npc']);
    }
  }
  for (const { faction, rank } of facts.factions.slice(0, 2)) {
    if (rank === 'hostile' || rank === 'unfriendly') {
      options.push(['retreat', `Keep out of sight of the ${faction}`, `The ${faction} is ${rank} toward you; meeting its people now invites trouble.`, 'reputation']);
    } else if (rank === 'friendly' || rank === 'honored' || rank === 'exalted') {
      options.push(['social', `Call on the ${faction} for help`, `The ${faction} regards you as ${rank} and may lend aid.`, 'reputation']);
    }
  }
  if (facts.memory && facts.memory.character) {
    options.push(['curious', `Ask around about ${facts.memory.character}`, `You remember: ${facts.memory.summary}`, 'memory']);
  }
  return options;
}

/** Rotates `list` by `by` places (deterministic variety). */
function rotate(list, by) {
  const shift = list.length === 0 ? 0 : by % list.length;
  return [...list.slice(shift), ...list.slice(0, shift)];
}

async function main({ request, input }) {
  for (const key of ['situation', 'action', 'tone']) {
    if (input[key] !== undefined && input[key] !== null && typeof input[key] !== 'string') {
      fail('INVALID_INPUT', `input.${key} must be a string`);
      return;
    }
  }
  if (input.count !== undefined && input.count !== null && !Number.isInteger(input.count)) {
    fail('INVALID_INPUT', `input.count must be an integer from ${MIN_COUNT} to ${MAX_COUNT}`);
    return;
  }

  const config = readConfig({ defaultCount: 3, showHints: true });
  let defaultCount = config.defaultCount;
  if (!Number.isInteger(defaultCount) || defaultCount < MIN_COUNT || defaultCount > MAX_COUNT) {
    emit({ type: 'log', level: 'warn', message: `Invalid defaultCount ${JSON.stringify(defaultCount)}; using 3` });
    defaultCount = 3;
  }
  let count = Number.isInteger(input.count) ? input.count : defaultCount;
  if (count < MIN_COUNT || count > MAX_COUNT) {
    const clamped = Math.max(MIN_COUNT, Math.min(MAX_COUNT, count));
    emit({ type: 'log', level: 'warn', message: `count ${count} is outside ${MIN_COUNT}-${MAX_COUNT}; offering ${clamped} choices` });
    count = clamped;
  }

  const facts = readDependencies(request.dependencies);
  const situation = cleanText(input.situation, MAX_TEXT);
  const action = cleanText(input.action, MAX_TEXT);
  const tone = cleanText(input.tone, 100).toLowerCase();
  let context = `${situation} ${action} ${facts.narration}`.trim();
  const state = isObject(request.state) ? request.state : {};
  if (context === '' && isObject(state.story) && typeof state.story.lastNarration === 'string') {
    context = cleanText(state.story.lastNarration, MAX_TEXT);
  }
  const scenes = detectScenes(context);
  const seed = stableHash(JSON.stringify([situation, action, tone, facts.dice ? [facts.dice.total, facts.dice.dc, facts.dice.success, facts.dice.critical] : null]));

  // The pool, best first: dependency options; two options of the strongest scene; the first of the second
  // scene (rotated by the input for variety); the rest of both scenes; then generic options.
  const sceneOptions = scenes.slice(0, 2).map((found, rank) =>
    rotate(found.scene.options, rank === 0 ? 0 : seed).map(([approach, choice, consequence]) => ({
      approach,
      choice: choice.replace(/\{x\}/g, found.x).replace(/\{cross\}/g, CLIMBED.has(found.x) ? 'climb' : 'cross'),
      consequence: consequence.replace(/\{x\}/g, found.x),
      source: found.scene.scene,
    })),
  );
  const [primary = [], secondary = []] = sceneOptions;
  const pool = [
    ...dependencyOptions(facts).map(([approach, choice, consequence, source]) => ({ approach, choice, consequence, source, fromDependency: true })),
    ...primary.slice(0, 2),
    ...secondary.slice(0, 1),
    ...primary.slice(2),
    ...secondary.slice(1),
    ...GENERIC.map(([approach, choice, consequence]) => ({ approach, choice, consequence, source: 'generic' })),
  ];

  const toneApproach = TONES[tone.split(/\s+/)[0]] || TONES[tone];
  if (tone !== '' && !toneApproach) emit({ type: 'log', level: 'debug', message: `Tone ${JSON.stringify(tone)} has no matching approach; ignored` });

  // Pick: the tone's approach first; then the dependency options (they answer what just happened), leaving
  // room for at least one more; then one option per approach while possible; then whatever is left.
  const picked = [];
  const taken = new Set();
  const seen = new Set(action ? [action.toLowerCase().replace(/[.!?]+$/, '')] : []);
  const take = (option) => {
    picked.push(option);
    taken.add(option.approach);
    seen.add(option.choice.toLowerCase());
  };
  if (toneApproach) {
    const first = pool.find((option) => option.approach === toneApproach);
    if (first) take(first);
  }
  for (const option of pool) {
    if (picked.length >= count - 1) break;
    if (option.fromDependency && !seen.has(option.choice.toLowerCase())) take(option);
  }
  for (const option of pool) {
    if (picked.length >= count) break;
    if (!taken.has(option.approach) && !seen.has(option.choice.toLowerCase())) take(option);
  }
  for (const option of pool) {
    if (picked.length >= count) break;
    if (!seen.has(option.choice.toLowerCase())) take(option);
  }

  const choices = picked.map((option) => capitalize(option.choice));
  const hints = picked.map((option, index) => ({ choice: choices[index], consequence: option.consequence, approach: option.approach }));
  const showHints = config.showHints !== false;

  emit({
    type: 'log',
    level: 'info',
    message: `Offered ${choices.length} choices${scenes.length > 0 ? ` for a ${scenes[0].scene.scene} scene` : ''}${facts.dice ? ` after a roll of ${facts.dice.total}` : ''}`,
    fields: {
      scenes: scenes.map((found) => found.scene.scene),
      sources: picked.map((option) => option.source),
      ...(toneApproach ? { tone: toneApproach } : {}),
    },
  });
  emit({ type: 'state_patch', patch: { choices: { offered: choices } } });
  emit({ type: 'ui_event', event: 'narrative_choice', payload: { choices, ...(showHints ? { hints } : {}) } });
  emit({
    type: 'done',
    ok: true,
    summary: `Choices: ${choices.join(' | ')}`,
    output: { choices, hints },
  });
}

runTool({ name: 'player-choices', example: '{"input":{"situation":"A locked door blocks the corridor"}}', inputExample: '{"situation":"A locked door blocks the corridor","count":3}' }, main);
