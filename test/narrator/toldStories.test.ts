// Issue 38's stories, played through the real runtime with the pattern narrator: the ten inputs of a new author's merchant and ferryman (test/fixtures/first-story) and the fortune teller of docs/writing-skills.md, written out of the guide itself: each narration tells what the skill returned, with the inputs filled from the words and no voice error.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PatternNarrator } from '../../src/runtime/narrator/patternNarrator.js';
import { selectionOf } from '../../src/runtime/narrator/planExplanation.js';
import { runTurn } from '../../src/runtime/session/turnRunner.js';
import type { TurnResult } from '../../src/runtime/session/turnTypes.js';
import { SkillRegistry } from '../../src/runtime/skills/skillRegistry.js';
import { repoRoot } from './corpusKit.js';
import { voiceErrorsOf } from './toldKit.js';

const bundled = path.join(repoRoot, 'skills');
const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Plays each input alone (a fresh session) in a copy of the story. */
async function play(story: string, inputs: readonly string[]): Promise<Map<string, TurnResult>> {
  const registry = await SkillRegistry.load({ root: story, extraSkillRoots: [bundled] });
  const played = new Map<string, TurnResult>();
  try {
    for (const [index, input] of inputs.entries()) {
      played.set(
        input,
        await runTurn(input, {
          narrator: new PatternNarrator(),
          skills: registry,
          state: {},
          execution: { root: story, extraSkillRoots: [bundled], skillContext: registry, extraEnv: { NARRATORIA_SEED: String(700 + index) } },
        }),
      );
    }
  } finally {
    registry.dispose();
  }
  return played;
}

/** The tools of the turn's last attempt as skill/script with their inputs. */
function toolsOf(turn: TurnResult): { script: string; input: Record<string, unknown> }[] {
  const attempt = turn.attempts.at(-1)!;
  return (selectionOf(attempt.plan) ?? []).map((entry) => ({
    script: `${entry.skill}/${entry.script}`,
    input: (attempt.plan.tools.find((tool) => tool.toolId === entry.toolId)?.input ?? {}) as Record<string, unknown>,
  }));
}

/** The issue's ten inputs (the fortune teller's is the guide's story), what must run and what the narration must tell. */
const FIRST_STORY: readonly { input: string; script: string; input_?: Record<string, unknown>; tells: readonly RegExp[]; never?: RegExp }[] = [
  { input: 'What are you selling, old woman?', script: 'merchant/wares', tells: [/^You ask the old woman what she is selling\./, /rope \(4 coins\)/] },
  { input: 'Is the water too high to cross today?', script: 'ferryman/river', tells: [/river runs high/] },
  { input: 'Do you have any rope for sale?', script: 'merchant/wares', tells: [/rope: 4 coins/] },
  {
    input: 'Take me over to the other side, ferryman.',
    script: 'ferryman/cross',
    tells: [/You ask the ferryman to take you over to the other side/, /rows you across/],
  },
  { input: 'Show me your wares, merchant.', script: 'merchant/wares', tells: [/You ask the merchant to show you/, /shows her cart/] },
  {
    input: 'I try to talk the price of the silver compass down to 20.',
    script: 'merchant/haggle',
    input_: { item: 'silver compass', offer: 20 },
    tells: [/counters: 25 coins/],
    never: /^(?:Without hesitating, )?You talk the price/,
  },
  { input: 'How much to get across the river to the mill?', script: 'ferryman/fare', input_: { destination: 'mill' }, tells: [/3 coins to the mill/] },
  { input: 'I haggle over the rope.', script: 'merchant/haggle', input_: { item: 'rope' }, tells: [/rope go for 3 coins/] },
  { input: 'I walk along the riverbank looking for tracks.', script: '', tells: [/You walk along the riverbank/], never: /rows you across/ },
];

let firstStory: Map<string, TurnResult>;
let fortune: Map<string, TurnResult>;

before(async () => {
  const story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-first-story-'));
  folders.push(story);
  cpSync(path.join(repoRoot, 'test', 'fixtures', 'first-story'), story, { recursive: true });
  firstStory = await play(
    story,
    FIRST_STORY.map((turn) => turn.input),
  );

  // The fortune teller, written out of the guide: every `skills/fortune-teller/…` file it shows, and the SDK it says to copy.
  const guide = readFileSync(path.join(repoRoot, 'docs', 'writing-skills.md'), 'utf8');
  const reader = mkdtempSync(path.join(os.tmpdir(), 'narratoria-guide-story-'));
  folders.push(reader);
  for (const match of guide.matchAll(/`(skills\/fortune-teller\/[^`]+)`[^\n]*\n(?:(?!```)[^\n]*\n)*?```[a-z]*\n([\s\S]*?)```/g)) {
    const file = path.join(reader, match[1]!);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, match[2]!);
  }
  mkdirSync(path.join(reader, 'skills', 'fortune-teller', 'lib'), { recursive: true });
  cpSync(path.join(repoRoot, 'packages', 'skill-sdk', 'index.js'), path.join(reader, 'skills', 'fortune-teller', 'lib', 'narratoria-skill-sdk.js'));
  fortune = await play(reader, ['I ask the fortune teller about my future']);
});

for (const turn of FIRST_STORY) {
  test(`first story: "${turn.input}" ${turn.script ? `runs ${turn.script}` : 'runs nothing that moves the player'} and tells what came back`, () => {
    const played = firstStory.get(turn.input)!;
    const tools = toolsOf(played);
    const narration = played.narrative;
    if (turn.script) {
      const tool = tools.find((each) => each.script === turn.script);
      assert.ok(tool, `${turn.script} ran: ${JSON.stringify(tools)}`);
      for (const [field, value] of Object.entries(turn.input_ ?? {})) assert.equal(tool.input[field], value, `${field} of ${JSON.stringify(tool.input)}`);
    } else {
      assert.ok(!tools.some((each) => each.script === 'ferryman/cross'), `no crossing: ${JSON.stringify(tools)}`);
    }
    for (const told of turn.tells) assert.match(narration, told);
    if (turn.never) assert.doesNotMatch(narration, turn.never);
    assert.deepEqual(voiceErrorsOf(narration), [], narration);
    assert.doesNotMatch(narration, /No answer comes/);
  });
}

test("the guide's fortune teller: the card drawn is told after the action, in the second person", () => {
  const played = fortune.get('I ask the fortune teller about my future')!;
  const tools = toolsOf(played);
  assert.ok(
    tools.some((tool) => tool.script === 'fortune-teller/draw' && typeof tool.input['question'] === 'string'),
    JSON.stringify(tools),
  );
  assert.match(played.narrative, /you ask the fortune teller about your future\. The fortune teller turns over (?:The Tower|The Star|Death): /);
  assert.deepEqual(voiceErrorsOf(played.narrative), [], played.narrative);
  assert.ok(
    played.uiEvents.some((event) => event.event === 'tarot_card'),
    'the card event is shown',
  );
});
