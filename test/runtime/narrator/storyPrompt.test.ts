// A campaign in the local model's prompt: its constant part inside the fixed prompt's unchanged size, the scene in one bounded line of the turn's text; both measured in tokens.
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { buildDecisionSystemPrompt, buildDecisionUserPrompt, DEFAULT_DECISION_BUDGET, SYSTEM_CHARS } from '../../../src/runtime/narrator/narratorDecision.js';
import { loadCampaignStory } from '../../../src/runtime/campaign/play/index.js';
import { STORY_TURN_CHARS } from '../../../src/runtime/campaign/play/storyPrompt.js';
import { loadTokenCounter } from '../../../src/runtime/campaign/lore/tokenCounter.js';
import { loadShippedSkills, planRequest } from './narratorFixtures.js';
import { removeCampaignFolders, writeStarterCampaign } from '../campaign/campaignFixture.js';

after(removeCampaignFolders);
const skills = loadShippedSkills(['dice-roller', 'memory', 'npc-perception', 'storyteller', 'player-choices', 'reputation', 'character-portraits']);

test('the complete campaign fits the fixed prompt it always had, and its scene line its own budget; the sizes are reported in tokens', async (context) => {
  const story = (await loadCampaignStory(writeStarterCampaign('complete')))!;
  const opening = story.opening();
  const start = story.beginScene({ state: opening.state, input: 'Go to the Lantern tower', memories: [], seed: 3 });
  const plain = buildDecisionSystemPrompt(skills);
  const withCampaign = buildDecisionSystemPrompt(skills, DEFAULT_DECISION_BUDGET, start.context);
  assert.match(withCampaign, /Campaign: The Salt Lantern\. Gullhaven is a hook of granite/);
  assert.match(withCampaign, /Never break these constraints:\n- The dead do not return to life\./);
  // The campaign takes its share of the fixed prompt's size, which does not grow (the guides give up what it needs).
  assert.ok(withCampaign.length <= SYSTEM_CHARS, `${withCampaign.length} characters`);
  const request = { ...planRequest({ input: 'Go to the Lantern tower', skills }), story: start.context };
  const turn = buildDecisionUserPrompt(request, []);
  const line = turn.split('\n').find((each) => each.startsWith('Story: '))!;
  assert.match(line, /^Story: Scene 1; beat now: The Dark Lantern; present: Tamsin Reed \(cordial\)/);
  assert.ok(line.length <= 'Story: '.length + STORY_TURN_CHARS, line);
  const count = await loadTokenCounter();
  context.diagnostic(
    `fixed prompt: ${count(plain)} cl100k tokens without the campaign, ${count(withCampaign)} with it; ` +
      `the turn's text: ${count(buildDecisionUserPrompt(planRequest({ input: 'Go to the Lantern tower', skills }), []))} without, ${count(turn)} with (story line ${count(line)})`,
  );
});
