#!/usr/bin/env node
// storyteller/narrate: template narration of the player's action or of a dice roll from the dependencies, as Narratoria protocol v0 NDJSON.
'use strict';

const { cleanText, emit, fail, isObject, readConfig, runTool, stableHash } = require('../lib/narratoria-skill-sdk.js');
const { tellingOf } = require('../lib/results.js');
const { campaignTelling, readCampaign } = require('../lib/campaign.js');
const { NUMBER_WORD, addresseePhrase, playerWordsInSecondPerson, pronounsOf, reportedQuestion, reportedRequest, speaksToSomeone, vocativeOf } = require('../lib/voice.js');

const STYLES = ['terse', 'vivid', 'poetic'];
const PROVIDERS = ['template', 'local'];


/**
 * Turns the player's words into a second-person verb phrase ("I try to pick my lock." -> "pick your lock").
 * When the words do not read as an action, the player simply presses on: their words are never quoted back.
 */
function actionPhrase(action) {
  let text = action.replace(/^["'“”‘’]+|["'“”‘’]+$/g, '').trim();
  const said = text;
  text = text.replace(/[.!?…]+$/u, '').replace(/,?\s+please$/i, '').replace(/^please,?\s+/i, '').trim();
  // "I'd like one flask of lamp oil", "I want the history of Spirewell": the player asks for a thing.
  const wanting = /^(?:(?:(?:i|we)(?:\s+would|'d|’d)|would)\s+(?:like|love)|(?:(?:i|we)\s+)?(?:want|need)|(?:can|could|may)\s+(?:i|we)\s+(?:have|get))\s+(?!to\b)(\S.*)$/i.exec(text);
  // "Five camels for 70 silver, deal?": a number first is an offer.
  if (new RegExp(`^${NUMBER_WORD}\\s+[a-z]`, 'i').test(text) && /\b(?:for|coins?|gold|silver|copper|dollars?|bucks|credits?|chits?|crowns?|caps)\b/i.test(text)) {
    return { act: `offer ${playerWordsInSecondPerson(text.charAt(0).toLowerCase() + text.slice(1))}`, said, paraphrased: true };
  }
  if (wanting) return { act: `ask for ${playerWordsInSecondPerson(wanting[1])}`, said, paraphrased: true };
  let firstPerson = false;
  const leads = [
    /^(?:then|and|so|now|ok|okay|well|alright),?\s+/i,
    /^(?:i\s+am|i'm|i’m)\s+(?:going\s+to|gonna)\s+/i,
    /^(?:i'll|i’ll|i'd\s+like\s+to|i’d\s+like\s+to|let\s+me|let's|let’s|let\s+us)\s+/i,
    /^(?:i|we|you)\s+/i,
    // "roll to pick the lock": the roll is told by its own sentence; the action is picking the lock.
    /^roll(?:s|ing)?\s+to\s+(?=[a-z])/i,
  ];
  const modals = /^(?:will|shall|would\s+like\s+to|want\s+to|wanna|decide\s+to|try\s+to|try\s+and|attempt\s+to|am\s+going\s+to|am\s+gonna|carefully\s+try\s+to)\s+/i;
  for (let changed = true; changed; ) {
    changed = false;
    for (const lead of leads) {
      if (lead.test(text)) {
        text = text.replace(lead, '');
        firstPerson = true;
        changed = true;
      }
    }
    if (firstPerson && modals.test(text)) {
      text = text.replace(modals, '');
      changed = true;
    }
  }
  const firstWord = (text.split(/\s+/)[0] || '').toLowerCase();
  const stative = /^(?:am|was|have|had|'m|’m|do|did|can|could|should|must)$/.test(firstWord);
  // The narrator hands over the action already stripped of "I" ("head north toward the mill"): anything that is
  // not a statement of being reads as an action.
  const determiner = /^(?:a|an|the|this|that|these|those|some|my|your|his|her|its|our|their)$/.test(firstWord) || new RegExp(`^${NUMBER_WORD}$`, 'i').test(firstWord);
  // "Hey you, stop!", "Sorry, …": words said aloud, not an act to retell.
  if (/^(?:hey|oi|sorry|thanks|thank|hello|hi|yes|no|oh|ah|well|okay|ok|please)\b/i.test(text)) return { act: 'speak up', said, paraphrased: false };
  const confident = text !== '' && !stative && !determiner;
  if (!confident) return { act: 'press on', said, paraphrased: false };
  // "I ask you to wait": the player speaks to someone, who is "them" in the narration.
  text = playerWordsInSecondPerson(text);
  text = text.charAt(0).toLowerCase() + text.slice(1);
  // A second sentence starts with a capital ("…, Madame Orla. You only have two candles").
  text = text.replace(/([.!?]\s+)([a-z])/g, (match, stop, letter) => `${stop}${letter.toUpperCase()}`);
  return { act: text, said, paraphrased: true };
}

/** "mysterious_door" -> "the mysterious door"; keeps articles, possessives and proper nouns. */
/** Acts done to a person by talking (the dice decide whether they are won over), as the act's first words. */
const SOCIAL_ACT =
  /^(?:try to\s+)?(?:haggle|bargain|barter|negotiate|persuade|convince|charm|bribe|plead|beg|flatter|intimidate|threaten|lie|deceive|bluff|talk|argue|reason|ask|sweet-talk)\b/i;

function nounPhrase(target) {
  let text = target.replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
  if (text === '') return '';
  // An action ("pick the lock", "open a chest") names its object after the verb: "the lock".
  const action = /^[a-z]+\s+((?:the|a|an|this|that|his|her|its|their|your|my|our)\s.+)$/i.exec(text);
  if (action && !/^(?:the|a|an|this|that|these|those|his|her|its|their|your|my|our|some|every|each)$/i.test(text.split(' ')[0])) text = action[1];
  if (/^(?:the|a|an|this|that|these|those|his|her|its|their|your|my|our|some|every|each)\s/i.test(text)) {
    return text.replace(/^my\s/i, 'your ').replace(/^our\s/i, 'your ');
  }
  if (/^[A-Z]/.test(text)) return text;
  return `the ${text}`;
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Reads the dependencies' results in plan order, by what they are. The sample skills' shapes keep their own tellings:
 * a roll (formula, rolls, total), a memory recall (memories), an NPC's attitude (npc, attitude), a faction's standing
 * (faction, rank), a portrait (assetId, features). Any other skill tells its `output.narration`, else its summary
 * (docs/writing-skills.md#what-the-narration-tells). A dependency that did not succeed is `missing`.
 */
function inspectDependencies(dependencies, playerWords) {
  let dice;
  const facts = [];
  const missing = [];
  for (const [toolId, output] of Object.entries(isObject(dependencies) ? dependencies : {})) {
    if (output === null || output === undefined || (isObject(output) && output.ok === false)) {
      missing.push(toolId);
      continue;
    }
    if (!isObject(output)) continue;
    const r = isObject(output.result) ? output.result : {};
    if (typeof r.narration === 'string') {
      const told = tellingOf(output, playerWords, toolId);
      if (told) facts.push({ kind: 'told', toolId, ...told });
    } else if (!dice && typeof r.total === 'number' && typeof r.formula === 'string' && Array.isArray(r.rolls)) {
      const dc = typeof r.dc === 'number' ? r.dc : undefined;
      dice = {
        toolId,
        total: r.total,
        formula: r.formula,
        dc,
        success: typeof r.success === 'boolean' ? r.success : dc !== undefined ? r.total >= dc : undefined,
        critical: r.critical === 'success' || r.critical === 'failure' ? r.critical : undefined,
        reason: typeof r.reason === 'string' ? r.reason : undefined,
        // A campaign's bands (2d6: 7-9) make a roll a partial success: it works, at a cost.
        partial: r.outcome === 'partial',
      };
    } else if (Array.isArray(r.memories)) {
      facts.push({ kind: 'memories', memories: r.memories.filter((memory) => isObject(memory) && typeof memory.summary === 'string').map((memory) => cleanText(memory.summary, 200)) });
    } else if (typeof r.npc === 'string' && typeof r.attitude === 'string') {
      const npc = cleanText(r.npc, 80);
      const attitude = cleanText(r.attitude, 40).toLowerCase();
      if (npc && attitude) facts.push({ kind: 'attitude', npc, attitude, known: r.known !== false });
    } else if (typeof r.faction === 'string' && typeof r.rank === 'string') {
      const faction = cleanText(r.faction, 80);
      const rank = cleanText(r.rank, 40).toLowerCase();
      if (faction && rank) facts.push({ kind: 'standing', faction, rank });
    } else if (typeof r.assetId === 'string' && (Array.isArray(r.features) || r.placeholder !== undefined)) {
      const features = Array.isArray(r.features) ? r.features.filter((feature) => typeof feature === 'string').map((feature) => cleanText(feature, 40)).filter((feature) => feature !== '') : [];
      facts.push({ kind: 'portrait', name: cleanText(typeof r.name === 'string' ? r.name : '', 80), features, placeholder: r.placeholder === true });
    } else {
      const told = tellingOf(output, playerWords, toolId);
      if (told) facts.push({ kind: 'told', toolId, ...told });
    }
  }
  return { dice, facts, missing };
}

/** What an attitude means for the moment (npc-perception's names, hostile to devoted). */
const ATTITUDE_MEANING = {
  hostile: 'there is no forgiveness in that look',
  unfriendly: 'the welcome is thin and cold',
  wary: 'every word you say is weighed',
  neutral: 'you are neither friend nor foe yet',
  cordial: 'you are welcome enough',
  friendly: 'the welcome is warm',
  trusting: 'your word is taken as given',
  devoted: 'you could ask almost anything',
};

/** A person as a sentence names them: "Mira", or "the old fisherman" for a common noun. */
function personOf(name) {
  return /^[A-Z]/.test(name) || /^(?:the|a|an)\s/i.test(name) ? name : `the ${name}`;
}

/** "a, b and c". */
function listOf(items) {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * One sentence per fact the skills found this turn, in plan order (a recall that found nothing says so). Each sample
 * shape has a few phrasings; the first one the last turns did not say is used. Other skills' tellings stand as written.
 */
function factSentences(facts, subject, recent) {
  const pick = (variants) => variants.find((variant) => !recent.some((sentence) => sentence.includes(variant))) || variants[0];
  const sentences = [];
  for (const fact of facts) {
    switch (fact.kind) {
      case 'memories': {
        const memory = fact.memories[0] && fact.memories[0].replace(/[.!?]+$/, '');
        if (memory) sentences.push(pick([`You remember: ${memory}.`, `It comes back to you: ${memory}.`, `You recall it now: ${memory}.`]));
        else sentences.push(pick([`Nothing${subject ? ` about ${subject}` : ''} comes to mind.`, `You search your memory${subject ? ` for ${subject}` : ''}, but nothing comes to mind.`, `No memory${subject ? ` of ${subject}` : ''} comes to mind.`]));
        break;
      }
      case 'attitude': {
        const npc = personOf(fact.npc);
        const Npc = capitalize(npc);
        if (!fact.known) sentences.push(pick([`${Npc} does not know you: you are neither friend nor foe to them.`, `To ${npc} you are a stranger still.`, `${Npc} does not know you yet, and it shows.`]));
        else {
          const meaning = Object.prototype.hasOwnProperty.call(ATTITUDE_MEANING, fact.attitude) ? ATTITUDE_MEANING[fact.attitude] : 'that much is plain';
          sentences.push(pick([`${Npc} is ${fact.attitude} toward you: ${meaning}.`, `${Npc} seems ${fact.attitude} toward you; ${meaning}.`, `You read it in ${npc}'s face: ${fact.attitude}. ${capitalize(meaning)}.`]));
        }
        break;
      }
      case 'standing': {
        // "Thieves Guild" is an organisation: "the Thieves Guild".
        const group = /^(?:the|a|an)\s/i.test(fact.faction) || !/\s/.test(fact.faction) ? fact.faction : `the ${fact.faction}`;
        sentences.push(pick([`Your standing with ${group} is ${fact.rank}.`, `${capitalize(group)} sees you as ${fact.rank}.`, `In the eyes of ${group}, you are ${fact.rank}.`]));
        break;
      }
      case 'portrait': {
        const person = fact.name ? personOf(fact.name) : 'the figure';
        const who = capitalize(person);
        if (fact.placeholder || fact.features.length === 0) sentences.push(pick([`${who} is hard to make out; only a silhouette takes shape.`, `Only a silhouette of ${person} takes shape: there is little to draw from.`]));
        else sentences.push(pick([`${who}: ${listOf(fact.features.slice(0, 5))}.`, `You picture ${person}: ${listOf(fact.features.slice(0, 5))}.`]));
        break;
      }
      case 'told':
        if (fact.text) sentences.push(fact.text);
        break;
    }
  }
  return sentences;
}

/** Sentences remembered: about five turns' worth. */
const RECENT_SENTENCES = 15;

/** The sentences of a text (split after . ! ? or a closing parenthesis followed by a space). */
function sentencesOf(text) {
  return text.split(/(?<=[.!?)])\s+/).map((sentence) => sentence.trim()).filter((sentence) => sentence !== '');
}

/** The phrases of a text a reader would notice said twice: its sentences' clauses of two words or more ("without hesitating", "taking in everything around you"). */
function phrasesOf(text) {
  return sentencesOf(text)
    .flatMap((sentence) => sentence.split(/\s*[,;:—–]\s*|[.!?]+$/))
    .map((phrase) => phrase.trim())
    .filter((phrase) => phrase.split(/\s+/).length >= 2);
}

/** A question asks for information ("Is Mira still angry with me?"): it gets an answer, not a deed. */
function isQuestion(text) {
  return /\?\s*$/.test(text) || /^(?:who|what|when|where|why|how|which|is|are|am|do|does|did|have|has|can|could|will|would|should)\b/i.test(text.trim());
}

// Templates: TEMPLATES[style][outcome] is a list of (c) => text, where c holds
// You (sentence start "You pick the lock"), act, target (noun phrase or ''), Target, mood, total, dc, vs (" against 15" or '').
const TEMPLATES = {
  terse: {
    criticalSuccess: [
      (c) => `Natural 20. You ${c.act}, flawlessly.${c.target ? ` ${c.Target} is yours.` : ''}`,
      (c) => `A perfect roll: ${c.total}${c.vs}. You ${c.act} without a hitch.`,
      (c) => `Critical success. You ${c.act}, better than you hoped.`,
    ],
    criticalFailure: [
      (c) => `Natural 1. You try to ${c.act} and it goes badly wrong.`,
      (c) => `A fumble: ${c.total}${c.vs}. Your attempt to ${c.act} backfires.`,
      (c) => `Critical failure. You ${c.act}, or try to, and make things worse.`,
    ],
    success: [
      (c) => `${c.total}${c.vs}: success. You ${c.act}.`,
      (c) => `You ${c.act}. It works (${c.total}${c.vs}).`,
      (c) => `Success, ${c.total}${c.vs}. You manage to ${c.act}.${c.target ? ` ${c.Target} yields.` : ''}`,
    ],
    failure: [
      (c) => `${c.total}${c.vs}: failure. You try to ${c.act}, but it doesn't work.`,
      (c) => `You try to ${c.act}. Not this time (${c.total}${c.vs}).`,
      (c) => `Failure, ${c.total}${c.vs}. Your attempt to ${c.act} falls short.${c.target ? ` ${c.Target} resists.` : ''}`,
    ],
    rolled: [
      (c) => `You roll ${c.total} as you ${c.act}.`,
      (c) => `The dice say ${c.total}. You ${c.act}.`,
      (c) => `Rolled ${c.total}. You ${c.act} and see what happens.`,
    ],
    lost: [
      (c) => `The dice clatter away unseen. You ${c.act}; the outcome is unclear.`,
      (c) => `You try to ${c.act}. The dice clatter away unseen, and nothing is settled yet.`,
      (c) => `The dice clatter away unseen. For now you ${c.act} and wait.`,
    ],
    action: [
      (c) => `You ${c.act}.${c.mood ? ` The air is ${c.mood}.` : ''}`,
      (c) => `You ${c.act}.${c.target ? ` ${c.Target} is before you.` : ''}`,
      (c) => `You ${c.act}. Nothing stops you.`,
    ],
    scene: [
      (c) => `${c.target ? `${c.Target} waits.` : 'You wait.'}${c.mood ? ` The air is ${c.mood}.` : ''} What do you do?`,
      (c) => `${c.target ? `You consider ${c.target}.` : 'You take stock.'} What next?`,
      (c) => `A quiet moment${c.mood ? `, ${c.mood}` : ''}. What do you do?`,
    ],
  },
  vivid: {
    criticalSuccess: [
      (c) => `The die comes up a natural 20! You ${c.act} with a grace that surprises even you${c.target ? `, and ${c.target} gives way as if it had been waiting for you` : ''}.`,
      (c) => `Everything lines up at once. You ${c.act}, and the result (${c.total}${c.vs}) is nothing short of spectacular.${c.moodLine}`,
      (c) => `A critical success! Your hands move before doubt can catch them: you ${c.act}, cleanly and completely.${c.target ? ` ${c.Target} is yours to command.` : ''}`,
    ],
    criticalFailure: [
      (c) => `The die shows a single pip. You try to ${c.act}, and it goes wrong in the loudest possible way${c.target ? `; ${c.target} seems almost to mock you` : ''}.`,
      (c) => `A natural 1. Your attempt to ${c.act} unravels: something slips, something snaps, and every eye turns toward the noise.${c.moodLine}`,
      (c) => `Disaster. You set out to ${c.act}, but your footing betrays you (${c.total}${c.vs}) and you are left worse off than before.`,
    ],
    success: [
      (c) => `You ${c.act}. The dice settle on ${c.total}${c.vs} — success!${c.target ? ` ${c.Target} gives way.` : ''}`,
      (c) => `Steady breath, steady hands: you ${c.act}, and it works. (${c.total}${c.vs})${c.moodLine}`,
      (c) => `It takes a moment, and then it is done — you ${c.act}. The roll of ${c.total}${c.vs} carries you through.`,
    ],
    failure: [
      (c) => `You try to ${c.act}, but the dice settle on ${c.total}${c.vs}. It isn't enough${c.target ? `, and ${c.target} holds firm` : ''}.`,
      (c) => `Sweat stings your eyes as you try to ${c.act}. Close, but not close enough (${c.total}${c.vs}).${c.moodLine}`,
      (c) => `Your attempt to ${c.act} falls short — ${c.total}${c.vs}. You will need another way.`,
    ],
    rolled: [
      (c) => `You ${c.act}, and the dice tumble to a ${c.total}.${c.moodLine}`,
      (c) => `The dice rattle and stop on ${c.total} as you ${c.act}.${c.target ? ` ${c.Target} looms ahead.` : ''}`,
      (c) => `A roll of ${c.total}. You ${c.act}, and the world answers in its own time.`,
    ],
    lost: [
      (c) => `You ${c.act}, but the dice clatter away unseen into the shadows; for now, fate keeps its verdict to itself.${c.moodLine}`,
      (c) => `The dice clatter away unseen beneath a loose board. You try to ${c.act}, and the outcome hangs in the air, undecided.`,
      (c) => `Somewhere the dice clatter away unseen. You ${c.act}${c.target ? `, eyes fixed on ${c.target}` : ''}, and wait for the world to decide.`,
    ],
    action: [
      (c) => `You ${c.act}.${c.moodLine}`,
      (c) => `Without hesitating, you ${c.act}.${c.moodLine}`,
      (c) => `You ${c.act}, taking in everything around you.${c.moodLine}`,
    ],
    scene: [
      (c) => `${c.target ? `${c.Target} waits before you.` : 'The path ahead waits.'} Lantern light wavers on the walls.${c.moodLine} What do you do?`,
      (c) => `You pause and take in your surroundings${c.target ? `, your gaze settling on ${c.target}` : ''}.${c.moodLine} What now?`,
      (c) => `Somewhere water drips, slow and patient.${c.moodLine} The next move is yours.`,
    ],
  },
  poetic: {
    criticalSuccess: [
      (c) => `The die turns its brightest face to the sky — twenty. You ${c.act}, and the world bends, willing, to your hand.`,
      (c) => `As if the stars had leaned close to help, you ${c.act}${c.target ? `, and ${c.target} opens like a flower at dawn` : ''}.${c.moodLine}`,
      (c) => `Fortune sings (${c.total}${c.vs}): you ${c.act}, and for one bright breath nothing in all the world could stop you.`,
    ],
    criticalFailure: [
      (c) => `The die shows its single lonely eye. You reach to ${c.act}, and fortune turns her face away.`,
      (c) => `Ill-starred is the hour: you would ${c.act}, but the moment shatters like thin ice underfoot (${c.total}${c.vs}).${c.moodLine}`,
      (c) => `A one, pale as bone. Your wish to ${c.act} falls like a bird with a broken wing${c.target ? `, far from ${c.target}` : ''}.`,
    ],
    success: [
      (c) => `The bones fall kindly — ${c.total}${c.vs}. You ${c.act}, and the moment opens to you like a door in spring.`,
      (c) => `Quiet as snowfall, sure as tide, you ${c.act}${c.target ? `, and ${c.target} yields its secret` : ''}. (${c.total}${c.vs})`,
      (c) => `Fate nods (${c.total}${c.vs}). You ${c.act}, and the story leans gently in your favour.${c.moodLine}`,
    ],
    failure: [
      (c) => `The bones fall cold — ${c.total}${c.vs}. You reach to ${c.act}, but the moment slips like water through your fingers.`,
      (c) => `You would ${c.act}, yet the hour says no (${c.total}${c.vs})${c.target ? `, and ${c.target} keeps its silence` : ''}.${c.moodLine}`,
      (c) => `Like a song that loses its tune, your attempt to ${c.act} fades (${c.total}${c.vs}). Another verse must follow.`,
    ],
    rolled: [
      (c) => `The dice sing ${c.total} as you ${c.act}, and the night listens.${c.moodLine}`,
      (c) => `Chance speaks a number — ${c.total} — and you ${c.act}, carried on its quiet current.`,
      (c) => `${c.total}, whisper the tumbling dice, and you ${c.act}${c.target ? ` toward ${c.target}` : ''}.`,
    ],
    lost: [
      (c) => `The dice clatter away unseen, lost to the dark like pebbles in a well. You ${c.act}, and fate keeps its own counsel.`,
      (c) => `You ${c.act} — but the dice clatter away unseen, and the answer is folded away for another hour.${c.moodLine}`,
      (c) => `Somewhere beyond the candle's reach the dice clatter away unseen; you ${c.act}${c.target ? `, ${c.target} before you like a held breath` : ''}, and wait.`,
    ],
    action: [
      (c) => `You ${c.act}, and the moment gathers around you like a cloak.${c.moodLine}`,
      (c) => `Softly, as a story turns its page, you ${c.act}${c.target ? `, and ${c.target} draws near` : ''}.`,
      (c) => `The hour is yours: you ${c.act}, and the world holds still to watch.${c.moodLine}`,
    ],
    scene: [
      (c) => `${c.target ? `${c.Target} waits in the hush` : 'The world waits in the hush'}, patient as old stone.${c.moodLine} What will you do?`,
      (c) => `Time pools like moonlight at your feet${c.target ? `, and ${c.target} glimmers at its edge` : ''}.${c.moodLine} The next word is yours.`,
      (c) => `A breath between verses; the story listens for you.${c.moodLine}`,
    ],
  },
};

/** The outcomes every style tells alike: a partial success, an act the skill refused, and an act whose skill did not succeed. */
const OUTCOME_TEMPLATES = {
  partial: [
    (c) => `A partial success (${c.total}): you ${c.act}, but at a cost.`,
    (c) => `You ${c.act}, though not cleanly: ${c.total}, it works at a price.`,
    (c) => `${c.total}: you manage to ${c.act}, and something is lost along the way.`,
  ],
  attempt: [(c) => `You try to ${c.act}.`, (c) => `You do your best to ${c.act}.`, (c) => `You set out to ${c.act}.`],
  thwarted: [
    (c) => `You try to ${c.act}, but it comes to nothing for now.`,
    (c) => `You set out to ${c.act}, but nothing comes of it yet.`,
    (c) => `Your attempt to ${c.act} goes nowhere this time.`,
  ],
};

/**
 * Words said to a character, told as reported speech: a question ("What are you selling, old woman?" -> "ask the old
 * woman what she is selling") or a request ("Take me across, ferryman." -> "ask the ferryman to take you across").
 * `act` is undefined where reporting is not safe (the answer is then told alone). `kind: 'action'` is the player's
 * own act with a name said to someone ("I'll take the rope, merchant."). Undefined for words said to no one.
 */
function spokenWords(text) {
  const plain = text.replace(/^["'“”‘’]+|["'“”‘’]+$/g, '').trim();
  const vocative = vocativeOf(plain.replace(/[.!?…]+$/u, '').trim());
  const body = vocative ? vocative.rest : plain;
  if (/^(?:(?:then|and|so|now|ok|okay|well|alright),?\s+)?(?:i|we|i'm|i’m|i'll|i’ll|i'd|i’d|let\s+me)\b/i.test(body)) return vocative ? { kind: 'action', rest: body } : undefined;
  const pronouns = pronounsOf(vocative && vocative.addressee);
  const who = vocative ? addresseePhrase(vocative.addressee) : undefined;
  if (isQuestion(body) || /\?\s*$/.test(plain)) {
    if (!vocative && !/\byou\b/i.test(body)) return undefined;
    const reported = reportedQuestion(body, pronouns);
    return { kind: 'question', act: who ? (reported ? `ask ${who} ${reported}` : `put your question to ${who}`) : undefined };
  }
  if (!vocative && !speaksToSomeone(body)) return undefined;
  const reported = reportedRequest(body, pronouns);
  if (!reported) return who ? { kind: 'request', act: `speak to ${who}` } : undefined;
  // "ask for three cups of tea" needs no one to ask; "ask to take you across" does.
  if (reported.asking.startsWith('for ')) return { kind: 'request', act: `ask ${who ? `${who} ` : ''}${reported.asking}` };
  return { kind: 'request', act: `ask ${who || 'them'} ${reported.asking}` };
}

const MOOD_LINES = {
  terse: (mood) => ` The air is ${mood}.`,
  vivid: (mood) => ` Everything around you feels ${mood}.`,
  poetic: (mood) => ` All the world is ${mood}, and holds its breath.`,
};

async function main({ request, input }) {
  if (input.tried !== undefined && typeof input.tried !== 'boolean') {
    fail('INVALID_INPUT', 'input.tried must be true or false');
    return;
  }
  if (input.acts !== undefined && (!Array.isArray(input.acts) || !input.acts.every((id) => typeof id === 'string'))) {
    fail('INVALID_INPUT', 'input.acts must be a list of toolIds');
    return;
  }
  for (const key of ['action', 'target', 'mood']) {
    if (input[key] !== undefined && input[key] !== null && typeof input[key] !== 'string') {
      fail('INVALID_INPUT', `input.${key} must be a string`);
      return;
    }
  }
  if (input.campaign !== undefined && input.campaign !== null && (typeof input.campaign !== 'object' || Array.isArray(input.campaign))) {
    fail('INVALID_INPUT', 'input.campaign must be an object (the scene of a campaign: beats, npcs, facts, ending)');
    return;
  }

  const config = readConfig({ style: 'vivid', provider: 'template' });
  let style = config.style;
  if (!STYLES.includes(style)) {
    emit({ type: 'log', level: 'warn', message: `Unknown style ${JSON.stringify(style)}; using vivid` });
    style = 'vivid';
  }
  let provider = config.provider;
  if (!PROVIDERS.includes(provider)) {
    emit({ type: 'log', level: 'warn', message: `Unknown provider ${JSON.stringify(provider)}; using template` });
    provider = 'template';
  } else if (provider === 'local' && !process.env.NARRATORIA_MODEL_ENDPOINT && !(process.env.NARRATORIA_MODEL_PATH && process.env.NARRATORIA_MODEL_WORKER)) {
    emit({
      type: 'log',
      level: 'warn',
      message: 'The "local" provider needs a local model (narratoria model pull, or play --model FILE); using the templates.',
    });
    provider = 'template';
  }

  // "I choose \"Look around carefully\"": the choice is the action.
  const chosen = /^(?:i\s+)?choose:?\s+["“](.+?)["”]\s*[.!]?$/i.exec(cleanText(input.action, 2000));
  const typed = chosen ? chosen[1] : cleanText(input.action, 2000);
  const { dice, facts, missing } = inspectDependencies(request.dependencies, typed);
  const rawAction = typed || (dice && cleanText(dice.reason, 2000)) || '';
  const target = nounPhrase(cleanText(input.target, 200));
  const mood = cleanText(input.mood, 100).replace(/[.!?]+$/, '').toLowerCase();
  // Words said to a character are told as reported speech ("You ask the ferryman to take you across").
  const spoken = rawAction ? spokenWords(rawAction) : undefined;
  const actionWords = spoken && spoken.kind === 'action' ? spoken.rest : rawAction;
  const phrase = spoken && spoken.act ? { act: spoken.act, said: rawAction, paraphrased: true } : actionWords ? actionPhrase(actionWords) : { act: 'press on', said: '', paraphrased: false };

  const question = spoken ? spoken.kind === 'question' : rawAction !== '' && isQuestion(rawAction);
  const requested = spoken !== undefined && spoken.kind === 'request';
  const previous = isObject(request.state) && isObject(request.state.story) && Array.isArray(request.state.story.recentSentences) ? request.state.story.recentSentences : [];
  const recent = previous.filter((sentence) => typeof sentence === 'string');
  const found = factSentences(facts, target, recent);
  const told = facts.filter((fact) => fact.kind === 'told');
  // The tools that do the player's act (input.acts, from the plan): one that did not succeed means the act did not happen.
  const acts = Array.isArray(input.acts) ? input.acts.filter((id) => typeof id === 'string') : [];
  const actFailed = acts.some((toolId) => missing.includes(toolId));
  // A skill that did not succeed, and no other skill's result told: what the player tried did not happen.
  const failedOnly = actFailed || (missing.some((toolId) => !/roll|dice/i.test(toolId)) && !told.some((fact) => fact.text));
  // A counter-offer is not a sale, nor a skill's other script the act the words asked for.
  const refused = told.some((fact) => fact.refused) || input.tried === true;
  // Asking for something happened, whatever the answer: only a deed is told as tried.
  const asking = /^(?:ask|put your question|speak to)\b/.test(phrase.act);
  let outcome;
  if (dice) {
    if (dice.partial) outcome = 'partial';
    else if (dice.critical === 'success') outcome = 'criticalSuccess';
    else if (dice.critical === 'failure') outcome = 'criticalFailure';
    else if (dice.success === true) outcome = 'success';
    else if (dice.success === false) outcome = 'failure';
    else outcome = 'rolled';
  } else if (missing.some((toolId) => /roll|dice/i.test(toolId))) {
    // Only a roll that did not come back leaves the outcome open; a missing picture or recall is just not told.
    outcome = 'lost';
  } else if (question) {
    outcome = 'answer';
  } else if (rawAction && (requested || asking)) {
    outcome = failedOnly ? 'unanswered' : 'action';
  } else if (rawAction && failedOnly) {
    outcome = 'thwarted';
  } else if (rawAction && refused) {
    outcome = 'attempt';
  } else if (rawAction) {
    outcome = 'action';
  } else {
    outcome = 'scene';
  }
  // With a roll, the act did not happen when its own tools failed or refused (a missing picture or recall beside a
  // roll is just not told): the roll is told as it fell, the act as tried ("You try to haggle…; 17 against 12").
  const triedAct = dice && (actFailed || refused) && !asking && ['success', 'criticalSuccess', 'rolled'].includes(outcome) ? `try to ${phrase.act}` : phrase.act;

  // A roll for a social act (haggling over the rope, persuading the guard) is about a person, not the thing named:
  // "the rope holds firm" or "gives way" would be told of the wrong one, so its target is left to the act's own words.
  const toldTarget = dice && SOCIAL_ACT.test(phrase.act) ? '' : target;
  const context = {
    act: triedAct,
    target: toldTarget,
    Target: capitalize(toldTarget),
    mood,
    moodLine: mood ? MOOD_LINES[style](mood) : '',
    total: dice ? dice.total : undefined,
    dc: dice ? dice.dc : undefined,
    vs: dice && dice.dc !== undefined ? ` against ${dice.dc}` : '',
  };
  // The turn's seed (NARRATORIA_SEED) picks the phrasing, so a replayed turn reads the same.
  const key = JSON.stringify([outcome, rawAction, target, mood, context.total, context.dc, process.env.NARRATORIA_SEED || '']);
  let narration;
  if (outcome === 'answer') {
    // A question is answered with what the skills found, or honestly left open; a question about what to do leads
    // into the choices that follow the narration. A question put to someone is told first, as reported speech.
    const options = /\b(?:options?|choices?|ideas?|what\s+(?:can|could|should|shall|might)\s+(?:i|we)\s+(?:do|try)|stuck)\b/i.test(rawAction);
    const asked = spoken && spoken.act ? `You ${spoken.act}.` : undefined;
    if (found.length > 0) narration = [asked, ...found].filter(Boolean).join(' ');
    else if (asked) narration = `${asked.slice(0, -1)}, but no answer comes yet.`;
    else narration = options ? 'You weigh the ways open to you.' : 'No answer comes to you yet.';
  } else if (outcome === 'unanswered') {
    narration = `You ${context.act}, but nothing comes of it yet.`;
  } else {
    // The seed picks the first variant; one whose sentences the last five turns already said is passed over.
    // A roll that succeeded at an act the skill then refused: the roll is told ("the dice tumble to a 17"), not "it works".
    const template = triedAct !== phrase.act && (outcome === 'success' || outcome === 'criticalSuccess') ? 'rolled' : outcome;
    const choices = TEMPLATES[style][template] || OUTCOME_TEMPLATES[template];
    const start = stableHash(key) % choices.length;
    const variants = choices.map((_, offset) => choices[(start + offset) % choices.length](context).replace(/\s+/g, ' ').trim());
    // A whole sentence said again, or a phrase of the template's own ("taking in everything around you"); the
    // player's own action said again ("you walk into the tavern") is not a repetition of the narrator's.
    const own = context.act.toLowerCase();
    const repeats = (text) =>
      sentencesOf(text).some((sentence) => recent.some((said) => said.includes(sentence))) ||
      phrasesOf(text).some((phrase) => !phrase.toLowerCase().includes(own) && recent.some((said) => said.includes(phrase)));
    const fresh = variants.find((text) => !repeats(text)) || variants[0];
    narration = [fresh, ...found].join(' ');
  }
  // A campaign's scene: the beats triggered, the NPCs present speaking as their profiles say, a lore fact, the ending.
  const campaign = campaignTelling(readCampaign(input.campaign), recent);
  narration = [narration, ...campaign.before, ...campaign.after].join(' ');
  if (provider === 'local') {
    const written = await narrateLocally({ narration, action: rawAction, target, mood, style, outcome, total: context.total, dc: context.dc }, stableHash(key));
    if (written.text) narration = written.text;
    else {
      emit({ type: 'log', level: 'warn', message: `The local model gave no narration (${written.reason}); using the templates.` });
      provider = 'template';
    }
  }

  const state = isObject(request.state) ? request.state : {};
  const previousTurns = isObject(state.story) && Number.isFinite(state.story.turns) ? state.story.turns : 0;
  const turns = Math.max(0, Math.floor(previousTurns)) + 1;

  emit({
    type: 'log',
    level: 'info',
    message: `Narrated ${outcome === 'action' || outcome === 'scene' ? `the ${outcome}` : `a ${outcome} roll`} in the ${style} style`,
    fields: {
      style,
      provider,
      outcome,
      ...(dice ? { diceFrom: dice.toolId } : {}),
      ...(missing.length > 0 ? { missingDependencies: missing } : {}),
    },
  });
  // The sentences of the last five turns, so the next turns say something else.
  const recentSentences = [...sentencesOf(narration), ...recent].slice(0, RECENT_SENTENCES);
  emit({ type: 'state_patch', patch: { story: { lastNarration: narration, turns, recentSentences } } });
  emit({ type: 'ui_event', event: 'narration', payload: { text: narration, style, provider } });
  emit({
    type: 'done',
    ok: true,
    summary: narration.length > 80 ? `${narration.slice(0, 77)}...` : narration,
    output: { narration, style, outcome, provider, ...(campaign.told ? { campaign: campaign.told } : {}) },
  });
}

/** What a model worker of the storyteller's own is asked: a system prompt per style, and the turn's facts. */
function retellingPrompts(scene) {
  return {
    systemPrompt: `You narrate an interactive story in a ${scene.style} voice, in the second person, in as few sentences as the draft's facts need. Keep every fact, name and number of the draft, and never tell an act the draft says was refused or failed as done. Answer with the narration only.`,
    prompt: `Player: ${scene.action || 'waits'}\nOutcome: ${scene.outcome}${scene.total !== undefined ? ` (roll ${scene.total}${scene.dc !== undefined ? ` vs ${scene.dc}` : ''})` : ''}\nDraft: ${scene.narration}\nRetell the draft.`,
  };
}

/** The model's free text as one paragraph of narration: its first paragraph, quotes and spaces tidied, at most 400 characters. */
function tidyRetelling(text) {
  const paragraph = String(text).trim().split(/\n\s*\n/)[0].replace(/\s+/g, ' ').replace(/^["“]|["”]$/g, '').trim();
  return paragraph.length > 400 ? `${paragraph.slice(0, 397)}...` : paragraph;
}

/**
 * Asks the local model to retell the template narration in the chosen style: through the runtime's endpoint
 * (NARRATORIA_MODEL_ENDPOINT, the narrator's model already loaded), streaming each piece of text as a
 * `narration_chunk` ui_event as it is written; else through a model worker of its own (NARRATORIA_MODEL_WORKER,
 * which loads the model first). With a deadline; resolves { text } or { reason } and never throws.
 */
function narrateLocally(scene, seed) {
  return process.env.NARRATORIA_MODEL_ENDPOINT ? narrateThroughEndpoint(scene, seed) : narrateInOwnWorker(scene, seed);
}

function narrateThroughEndpoint(scene, seed) {
  return new Promise((resolve) => {
    const net = require('node:net');
    const socket = net.createConnection(process.env.NARRATORIA_MODEL_ENDPOINT);
    let settled = false;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ reason: 'timeout' }), Number(process.env.NARRATORIA_MODEL_TIMEOUT_MS) || 20000);
    socket.on('error', (error) => finish({ reason: `the model endpoint: ${error.message}` }));
    socket.on('close', () => finish({ reason: 'the model endpoint closed the connection' }));
    // The runtime writes the model's prompt around the voice and the draft (its fixed part is evaluated once a session).
    socket.on('connect', () => socket.write(`${JSON.stringify({ type: 'retell', style: scene.style, draft: scene.narration, maxTokens: 120, seed: seed % 100000, temperature: 0.7 })}\n`));
    let buffered = '';
    socket.setEncoding('utf8').on('data', (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.type === 'chunk' && typeof message.text === 'string' && message.text !== '') {
          emit({ type: 'ui_event', event: 'narration_chunk', payload: { text: message.text } });
        } else if (message.type === 'done') {
          const text = tidyRetelling(message.text || '');
          finish(text ? { text } : { reason: 'an empty narration' });
        } else if (message.type === 'error') {
          finish({ reason: String(message.reason) });
        }
      }
    });
  });
}

function narrateInOwnWorker(scene, seed) {
  return new Promise((resolve) => {
    let command;
    try {
      command = JSON.parse(process.env.NARRATORIA_MODEL_WORKER);
      if (!Array.isArray(command) || command.length === 0 || !command.every((part) => typeof part === 'string')) throw new Error('not a command');
    } catch {
      resolve({ reason: 'NARRATORIA_MODEL_WORKER is not a JSON array of strings' });
      return;
    }
    const { spawn } = require('node:child_process');
    // ELECTRON_RUN_AS_NODE: inside VS Code the worker command starts Electron, which must act as Node.
    const worker = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
    let settled = false;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.kill('SIGKILL');
      resolve(result);
    };
    const timer = setTimeout(() => finish({ reason: 'timeout' }), Number(process.env.NARRATORIA_MODEL_TIMEOUT_MS) || 20000);
    worker.on('error', (error) => finish({ reason: error.message }));
    worker.on('exit', () => finish({ reason: 'the model worker stopped' }));
    const send = (message) => worker.stdin.write(`${JSON.stringify(message)}\n`);
    let buffered = '';
    worker.stdout.setEncoding('utf8').on('data', (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.type === 'loaded') {
          send({
            type: 'generate',
            id: 2,
            ...retellingPrompts(scene),
            grammarSchema: { type: 'object', properties: { narration: { type: 'string', maxLength: 400 } }, required: ['narration'] },
            maxTokens: 160,
            seed: seed % 100000,
            temperature: 0.7,
          });
        } else if (message.type === 'generated') {
          const text = message.value && typeof message.value.narration === 'string' ? message.value.narration.replace(/\s+/g, ' ').trim() : '';
          finish(text ? { text } : { reason: 'an empty narration' });
        } else if (message.type === 'error') {
          finish({ reason: `${message.code}: ${message.message}` });
        }
      }
    });
    send({ type: 'load', id: 1, modelPath: process.env.NARRATORIA_MODEL_PATH, contextSize: Number(process.env.NARRATORIA_MODEL_CONTEXT) || 2048, threads: 1 });
  });
}

runTool({ name: 'storyteller', example: '{"input":{"action":"I open the door"}}', inputExample: '{"action":"I open the door","target":"the door"}' }, main);
