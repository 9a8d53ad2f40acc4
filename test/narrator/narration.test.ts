// The narration suite (issues 26 and 38): scripted sessions over every sample skill and one in an author's own story (a merchant and a ferryman), played through the real runtime with the pattern narrator; each turn's narration is checked against its own tool results: no echo, no number without a roll, every roll resolved, recalls and attitudes told, no sentence repeated within five turns.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PatternNarrator } from '../../src/runtime/narrator/patternNarrator.js';
import { runTurn } from '../../src/runtime/session/turnRunner.js';
import type { TurnResult } from '../../src/runtime/session/turnTypes.js';
import { SkillRegistry } from '../../src/runtime/skills/skillRegistry.js';
import { repoRoot } from './corpusKit.js';

/** Sessions of turns a new player types; state carries from turn to turn within a session. */
const SESSIONS: readonly (readonly string[])[] = [
  [
    'I walk into the Rusty Anchor tavern',
    'Have I met Mira before?',
    'Is Mira still angry with me?',
    'I try to persuade Mira to give me a free room',
    'I attack the drunk orc with my sword',
    'What does Mira look like?',
    'I head north toward the old mill',
    'What can I do now?',
    'I choose "Look around carefully"',
    'I sneak past the sleeping guard',
  ],
  [
    'I help the old fisherman mend his net',
    'How does the old fisherman feel about me?',
    'What is my standing with the Thieves Guild?',
    'I steal a purse from the Thieves Guild fence',
    'Does the Thieves Guild trust me now?',
    'Do I remember anything about the lighthouse?',
    'I climb the slick harbour wall',
    'Roll a d20 for perception',
    'I walk along the quay',
    'What should I try next?',
  ],
  [
    'I greet the innkeeper',
    'What does the innkeeper look like?',
    'I try to pick the lock on the cellar door',
    'I open the cellar door',
    'I go down the stairs',
    'Who gave me this silver key?',
    'I try to bluff my way past the cellar guard',
    'I insult the cellar guard',
    'Is the cellar guard angry with me?',
    'I leave the cellar',
  ],
  [
    'I roll 2d6 for damage',
    'I jump across the collapsed bridge',
    'Have I been to Duskmere before?',
    'I rest by the fire',
    'What are my options?',
    'I thank the ferryman for the ride',
    'How does the ferryman see me?',
    'I swing my sword at the bandit',
    'Draw a portrait of the ferryman',
    'I head toward the city gate',
  ],
];

/** A session in an author's own story (issue 38): a merchant in Node with the SDK, a ferryman in Python and shell. */
const AUTHOR_SESSION: readonly string[] = [
  'What are you selling, old woman?',
  'I try to talk the price of the silver compass down to 20.',
  'Take me over to the other side, ferryman.',
  'How much to get across the river to the mill?',
  'I haggle over the rope.',
  'Is the water too high to cross today?',
  'I walk along the riverbank looking for tracks.',
];

let story: string;
let authorStory: string;
let registry: SkillRegistry;
const played: { session: number; turn: TurnResult }[] = [];

before(async () => {
  story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-narration-'));
  registry = await SkillRegistry.load({ root: story, extraSkillRoots: [path.join(repoRoot, 'skills')] });
  const narrator = new PatternNarrator();
  for (const [session, inputs] of SESSIONS.entries()) {
    let state: Record<string, unknown> = {};
    for (const [index, input] of inputs.entries()) {
      // A seed per turn (NARRATORIA_SEED): the dice and the phrasing are the same on every run of the suite.
      const extraEnv = { NARRATORIA_SEED: String(1000 + 100 * session + index) };
      const turn = await runTurn(input, {
        narrator,
        skills: registry,
        state,
        execution: { root: story, extraSkillRoots: [path.join(repoRoot, 'skills')], skillContext: registry, extraEnv },
      });
      state = turn.state;
      played.push({ session, turn });
    }
  }
  // The author's story: its own skills beside the bundled ones, state carried from turn to turn.
  authorStory = mkdtempSync(path.join(os.tmpdir(), 'narratoria-narration-author-'));
  cpSync(path.join(repoRoot, 'test', 'fixtures', 'first-story'), authorStory, { recursive: true });
  const authorRegistry = await SkillRegistry.load({ root: authorStory, extraSkillRoots: [path.join(repoRoot, 'skills')] });
  try {
    let state: Record<string, unknown> = {};
    for (const [index, input] of AUTHOR_SESSION.entries()) {
      const extraEnv = { NARRATORIA_SEED: String(1900 + index) };
      const turn = await runTurn(input, {
        narrator,
        skills: authorRegistry,
        state,
        execution: { root: authorStory, extraSkillRoots: [path.join(repoRoot, 'skills')], skillContext: authorRegistry, extraEnv },
      });
      state = turn.state;
      played.push({ session: SESSIONS.length, turn });
    }
  } finally {
    authorRegistry.dispose();
  }
});
after(() => {
  registry?.dispose();
  rmSync(story, { recursive: true, force: true });
  if (authorStory) rmSync(authorStory, { recursive: true, force: true });
});

/** The results of the turn's last attempt, by the skill that produced them. */
function resultsOf(turn: TurnResult): Map<string, Record<string, unknown>> {
  const results = new Map<string, Record<string, unknown>>();
  for (const tool of turn.attempts.at(-1)?.result.toolResults ?? []) {
    const skill = tool.skill ?? tool.toolPath?.split('/').at(-3);
    const output = tool.output as { result?: Record<string, unknown> } | undefined;
    if (skill && output?.result) results.set(skill, output.result);
  }
  return results;
}

test('the suite plays at least 40 turns over every sample skill, each narrated', () => {
  assert.ok(played.length >= 40, `${played.length} turns`);
  const used = new Set(played.flatMap(({ turn }) => [...resultsOf(turn).keys()]));
  for (const skill of ['dice-roller', 'memory', 'npc-perception', 'reputation', 'character-portraits', 'player-choices', 'storyteller'])
    assert.ok(used.has(skill), `${skill} ran in some turn (${[...used].join(', ')})`);
  for (const { turn } of played) assert.ok(turn.narrative.trim().length > 0, `"${turn.input}" is narrated`);
});

test("no turn echoes the player's words in quotes (a character's own words may be quoted)", () => {
  for (const { turn } of played) {
    const words = turn.input
      .replace(/^I\s+/i, '')
      .replace(/[?.!"“”]/g, '')
      .trim();
    for (const [quoted] of turn.narrative.matchAll(/[“"][^”"]{12,}[”"]/g)) {
      // A quotation is a character speaking (a skill's summary in the first person), never the player's words.
      const said = quoted
        .replace(/[“”"?.!]/g, '')
        .trim()
        .toLowerCase();
      assert.ok(!said.includes(words.toLowerCase().slice(0, 12)) && !words.toLowerCase().includes(said), `"${turn.input}": ${turn.narrative}`);
    }
    assert.ok(!turn.narrative.includes(`“${words}`) && !turn.narrative.includes(`"${words}`), `"${turn.input}": ${turn.narrative}`);
  }
});

test("an author's own skills: each turn tells what the skill returned, a counter-offer as a try, no pronoun error", () => {
  const author = played.filter(({ session }) => session === SESSIONS.length).map(({ turn }) => turn);
  assert.equal(author.length, AUTHOR_SESSION.length);
  const byInput = new Map(author.map((turn) => [turn.input, turn.narrative]));
  assert.match(byInput.get('What are you selling, old woman?')!, /^You ask the old woman what she is selling\. Vessa, cheerful, shows her cart/);
  assert.match(
    byInput.get('I try to talk the price of the silver compass down to 20.')!,
    /^You (?:try|do your best|set out) to talk the price of the silver compass down to 20\. Vessa laughs at 20 coins and counters: 25 coins/,
  );
  assert.match(byInput.get('Take me over to the other side, ferryman.')!, /You ask the ferryman to take you over to the other side.*rows you across/);
  assert.match(byInput.get('How much to get across the river to the mill?')!, /3 coins to the mill/);
  assert.match(byInput.get('Is the water too high to cross today?')!, /river runs high/);
  assert.doesNotMatch(byInput.get('I walk along the riverbank looking for tracks.')!, /rows you across/);
  for (const turn of author) {
    assert.doesNotMatch(turn.narrative.replace(/“[^”]*”/g, ''), /\b(?:I|me|my|we|us|our)\b|\byou\s+[a-z]+\s+you\b/, `"${turn.input}": ${turn.narrative}`);
    assert.doesNotMatch(turn.narrative, /No answer comes/, `"${turn.input}": ${turn.narrative}`);
  }
});

test('no dice or number language without a roll, and every roll against a DC is resolved as a success or a failure', () => {
  for (const { turn } of played) {
    const roll = resultsOf(turn).get('dice-roller');
    if (!roll) {
      assert.doesNotMatch(turn.narrative, /\b(?:dice|die|rolls?|rolled|natural \d+)\b|\b\d+ against \d+\b/i, `"${turn.input}" had no roll: ${turn.narrative}`);
      continue;
    }
    assert.match(
      turn.narrative,
      new RegExp(`\\b${roll['total']}\\b|natural|critical|single pip|one, pale|twenty`, 'i'),
      `"${turn.input}" tells its roll: ${turn.narrative}`,
    );
    if (typeof roll['dc'] === 'number') {
      const narrate = turn.attempts.at(-1)!.result.toolResults.find((tool) => tool.toolPath?.includes('/storyteller/'));
      const outcome = (narrate?.output as { result?: { outcome?: string } } | undefined)?.result?.outcome;
      assert.ok(['success', 'failure', 'criticalSuccess', 'criticalFailure'].includes(outcome ?? ''), `"${turn.input}" resolved its roll: ${outcome}`);
    }
  }
});

test('a recall tells what was remembered, or that nothing comes to mind; an attitude or a rank is named', () => {
  let recalls = 0;
  let attitudes = 0;
  let ranks = 0;
  for (const { turn } of played) {
    const results = resultsOf(turn);
    const recall = results.get('memory');
    if (recall && Array.isArray(recall['memories'])) {
      recalls++;
      const memories = recall['memories'] as { summary: string }[];
      if (memories.length === 0) assert.match(turn.narrative, /comes to mind/, `"${turn.input}": ${turn.narrative}`);
      else assert.ok(turn.narrative.includes(memories[0]!.summary.replace(/[.!?]+$/, '')), `"${turn.input}" tells the memory: ${turn.narrative}`);
    }
    const perception = results.get('npc-perception');
    if (perception && typeof perception['attitude'] === 'string') {
      attitudes++;
      if (perception['known'] !== false) assert.match(turn.narrative, new RegExp(String(perception['attitude']), 'i'), `"${turn.input}": ${turn.narrative}`);
      else assert.match(turn.narrative, /does not know you/, `"${turn.input}": ${turn.narrative}`);
    }
    const reputation = results.get('reputation');
    if (reputation && typeof reputation['rank'] === 'string') {
      ranks++;
      assert.match(turn.narrative, new RegExp(String(reputation['rank']), 'i'), `"${turn.input}": ${turn.narrative}`);
    }
  }
  assert.ok(recalls >= 3 && attitudes >= 3 && ranks >= 1, `recalls ${recalls}, attitudes ${attitudes}, ranks ${ranks}`);
});

test('no sentence of the storyteller repeats within five turns of a session', () => {
  for (let index = 0; index < played.length; index++) {
    const { session, turn } = played[index]!;
    // What a skill returned is told as it came back: the same answer twice is the skill's, not the storyteller's.
    const summaries = (turn.attempts.at(-1)?.result.toolResults ?? [])
      .filter((tool) => !tool.toolPath?.includes('/storyteller/'))
      .map((tool) => tool.output?.summary ?? '');
    const sentences = turn.narrative
      .split(/(?<=[.!?])\s+/)
      .map((sentence) => sentence.trim())
      .filter((sentence) => sentence.length > 20 && !summaries.some((summary) => summary.includes(sentence.replace(/[“”]/g, ''))));
    for (let back = 1; back <= 5 && index - back >= 0; back++) {
      const earlier = played[index - back]!;
      if (earlier.session !== session) break;
      for (const sentence of sentences)
        assert.ok(!earlier.turn.narrative.includes(sentence), `"${turn.input}" repeats "${sentence}" from "${earlier.turn.input}"`);
    }
  }
});
