// storyteller/lib/campaign: what a campaign scene adds to the narration (input.campaign): the beats triggered, the NPCs present speaking as their profiles say, one lore fact, the ending.
'use strict';

const { cleanText, isObject } = require('./narratoria-skill-sdk.js');

function strings(value, max) {
  return Array.isArray(value) ? value.filter((item) => typeof item === 'string').map((item) => cleanText(item, max)).filter(Boolean) : [];
}

/** input.campaign read leniently: unknown or malformed parts are left out. */
function readCampaign(value) {
  if (!isObject(value)) return undefined;
  const beats = (Array.isArray(value.beats) ? value.beats : []).filter((beat) => isObject(beat) && typeof beat.id === 'string').map((beat) => ({
    id: cleanText(beat.id, 100),
    title: cleanText(beat.title, 200),
    description: cleanText(beat.description, 1000),
    dialogue: (Array.isArray(beat.dialogue) ? beat.dialogue : [])
      .filter((line) => isObject(line) && typeof line.speaker === 'string' && typeof line.line === 'string')
      .map((line) => ({ speaker: cleanText(line.speaker, 100), line: cleanText(line.line, 400), context: cleanText(line.context, 200) })),
  }));
  const npcs = (Array.isArray(value.npcs) ? value.npcs : [])
    .filter((npc) => isObject(npc) && typeof npc.name === 'string' && typeof npc.phrase === 'string')
    .map((npc) => ({
      name: cleanText(npc.name, 100),
      phrase: cleanText(npc.phrase, 300),
      attitude: cleanText(npc.attitude, 40).toLowerCase() || 'neutral',
      trait: cleanText(npc.trait, 60),
      about: isObject(npc.about) && typeof npc.about.name === 'string' ? { name: cleanText(npc.about.name, 100), relationship: cleanText(npc.about.relationship, 300) } : undefined,
    }));
  const facts = (Array.isArray(value.facts) ? value.facts : [])
    .filter((fact) => isObject(fact) && typeof fact.text === 'string' && typeof fact.id === 'string')
    .map((fact) => ({ id: cleanText(fact.id, 300), text: cleanText(fact.text, 600) }));
  const ending = isObject(value.ending) && typeof value.ending.id === 'string' ? { id: cleanText(value.ending.id, 100), title: cleanText(value.ending.title, 200), telling: cleanText(value.ending.telling, 1500) } : undefined;
  return { beats, npcs, facts, ending, names: strings(value.names, 100) };
}

/** A verb of the third person as the second ("lands" -> "land", "watches" -> "watch", "carries" -> "carry", "is" -> "are", "has" -> "have"). */
function secondPersonVerb(verb) {
  const irregular = { is: 'are', has: 'have', does: 'do', goes: 'go', was: 'were' };
  if (irregular[verb.toLowerCase()]) return irregular[verb.toLowerCase()];
  if (/[^aeiou]ies$/.test(verb)) return verb.slice(0, -3) + 'y';
  if (/(?:ss|sh|ch|x|z|o)es$/.test(verb)) return verb.slice(0, -2);
  if (/[^s]s$/.test(verb)) return verb.slice(0, -1);
  return verb;
}

/** "and <verb>s" before what a verb takes (a preposition, an article, a pronoun, a name): the player's second verb. */
const JOINED_VERB = /\band\s+([a-z]+s)\b(?=\s+(?:(?:to|into|the|a|an|her|his|their|its|him|them|it|up|down|out|back|at|on|in)\b|[A-Z]))/g;

/**
 * An author's description told to the player: "the player" becomes "you" (its verb and a verb joined by "and" in the
 * same clause turned to the second person: "and finds Odile" becomes "and find Odile"), "the player's" becomes "your".
 */
function toPlayer(text) {
  return text
    .split(/(?<=[.;!?])\s+/)
    .map((sentence) => {
      let told = sentence.replace(/\b(the player|the stranger)'s\b/gi, 'your');
      let turned = false;
      told = told.replace(/\b(The player|the player)\s+([a-z]+)\b/g, (match, subject, verb) => {
        turned = true;
        return `${subject === 'The player' ? 'You' : 'you'} ${secondPersonVerb(verb)}`;
      });
      if (turned) told = told.replace(JOINED_VERB, (match, verb) => `and ${secondPersonVerb(verb)}`);
      told = told.replace(/\bthe player\b/g, 'you').replace(/\bThe player\b/g, 'You');
      return told;
    })
    .join(' ');
}

function lowerFirst(text) {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** A line said aloud, closed with its speaker: "She never lets it go dark." Tamsin Reed says, looking up at the tower. */
function spoken(line, speaker, context) {
  const said = line.replace(/^["“]|["”]$/g, '');
  return `"${said}" ${speaker} says${context ? `, ${lowerFirst(context.replace(/[.!]+$/, ''))}` : ''}.`;
}

/** The beats' sentences: the title, the description told to the player, the beat's lines. */
function beatSentences(beats) {
  const sentences = [];
  for (const beat of beats) {
    sentences.push(`${beat.title}. ${toPlayer(beat.description)}`.replace(/\s+/g, ' ').trim());
    for (const line of beat.dialogue) sentences.push(spoken(line.line, line.speaker, line.context));
  }
  return sentences;
}

/**
 * Each NPC present speaks as its profile says (docs/campaigns.md#npcs-in-play): its name, a speech-pattern phrase, its
 * attitude (and a trait); what it feels for someone the scene names. An NPC who already spoke a beat's line is not voiced again.
 */
function voiceSentences(npcs, spokeAlready) {
  const sentences = [];
  for (const npc of npcs) {
    if (spokeAlready.includes(npc.name)) continue;
    const manner = npc.trait ? `${npc.trait} and ${npc.attitude} toward you` : `${npc.attitude} toward you`;
    sentences.push(`${npc.name}, ${manner}, says: "${npc.phrase.replace(/^["“]|["”]$/g, '')}"`);
    if (npc.about) sentences.push(`What ${npc.name} feels for ${npc.about.name} shows: ${lowerFirst(npc.about.relationship.replace(/[.!]+$/, ''))}.`);
  }
  return sentences;
}

/** One lore fact the last narrations did not tell: its first sentence, with its id. */
function factSentence(facts, recent) {
  for (const fact of facts) {
    const sentence = (fact.text.split(/(?<=[.!?])\s+/)[0] || '').trim();
    if (sentence && !recent.some((said) => said.includes(sentence))) return { id: fact.id, sentence };
  }
  return undefined;
}

/** Everything the campaign adds to the narration, and what was told (the output's `campaign`). */
function campaignTelling(campaign, recent) {
  if (!campaign) return { before: [], after: [], told: undefined };
  const before = beatSentences(campaign.beats);
  const speakers = campaign.beats.flatMap((beat) => beat.dialogue.map((line) => line.speaker));
  const voices = voiceSentences(campaign.npcs, speakers);
  const fact = factSentence(campaign.facts, recent);
  const after = [...voices, ...(fact ? [fact.sentence] : []), ...(campaign.ending ? [`${campaign.ending.title}. ${toPlayer(campaign.ending.telling)}`] : [])];
  return {
    before,
    after,
    told: {
      beats: campaign.beats.map((beat) => beat.id),
      npcs: campaign.npcs.filter((npc) => !speakers.includes(npc.name)).map((npc) => npc.name),
      facts: fact ? [fact.id] : [],
      ...(campaign.ending ? { ending: campaign.ending.id } : {}),
    },
  };
}

module.exports = { campaignTelling, readCampaign, toPlayer };
