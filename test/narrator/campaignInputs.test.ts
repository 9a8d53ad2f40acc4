// The pattern narrator's campaign hook, measured: NPC names in lower case fill inputs with the profile's full name, rolls get the rules' dice; the same words without it.
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildPatternPlan } from '../../src/runtime/narrator/patternNarrator.js';
import { loadCampaignStory } from '../../src/runtime/campaign/play/index.js';
import { SkillRegistry } from '../../src/runtime/skills/skillRegistry.js';
import { removeCampaignFolders, writeStarterCampaign } from '../runtime/campaign/campaignFixture.js';

after(removeCampaignFolders);
const repo = path.resolve(import.meta.dirname, '../..');

/** Words a player of the complete starter campaign types, and the input field each should fill. */
const CASES: readonly { words: string; tool: string; field: string; value: unknown }[] = [
  { words: 'what does tamsin think of me?', tool: 'npc-perception-query', field: 'npc', value: 'Tamsin Reed' },
  { words: 'how does alder feel about me', tool: 'npc-perception-query', field: 'npc', value: 'Brother Alder' },
  { words: 'I insult alder', tool: 'npc-perception-adjust', field: 'npc', value: 'Brother Alder' },
  { words: 'I help tamsin with her boat', tool: 'npc-perception-adjust', field: 'npc', value: 'Tamsin Reed' },
  { words: 'I give tamsin a gift', tool: 'npc-perception-adjust', field: 'npc', value: 'Tamsin Reed' },
  { words: 'remember that tamsin sells saltlight', tool: 'memory-store', field: 'characters', value: ['Tamsin Reed'] },
  { words: 'I try to pick the lock', tool: 'roll', field: 'formula', value: '2d6' },
];

test('with the campaign, every case fills its field; without it, fewer do', async (context) => {
  const root = writeStarterCampaign('complete');
  const registry = await SkillRegistry.load({ root, extraSkillRoots: [path.join(repo, 'skills')] });
  try {
    const story = (await loadCampaignStory(root))!;
    const scene = story.beginScene({ state: story.opening().state, input: 'I look around', memories: [], seed: 1 });
    const filled = (words: string, withStory: boolean) => {
      const plan = buildPatternPlan({
        input: words,
        skills: registry.narratorSkills(),
        disabledSkills: [],
        attempt: 1,
        parentPlanId: null,
        ...(withStory ? { story: scene.context } : {}),
      });
      return plan.tools;
    };
    let plain = 0;
    for (const each of CASES) {
      const tool = filled(each.words, true).find((candidate) => candidate.toolId === each.tool);
      assert.ok(tool, `${each.words}: no ${each.tool}`);
      assert.deepEqual(tool.input?.[each.field], each.value, `${each.words}: ${JSON.stringify(tool.input)}`);
      const without = filled(each.words, false).find((candidate) => candidate.toolId === each.tool);
      if (without && JSON.stringify(without.input?.[each.field]) === JSON.stringify(each.value)) plain++;
    }
    context.diagnostic(`fields filled: ${CASES.length}/${CASES.length} with the campaign, ${plain}/${CASES.length} without`);
    assert.ok(plain < CASES.length);
    // A roll under the campaign's rules carries its bands, and no difficulty the words did not set.
    const roll = filled('I try to pick the lock', true).find((tool) => tool.toolId === 'roll')!;
    assert.equal(roll.input?.['dc'], undefined);
    assert.equal((roll.input?.['bands'] as unknown[]).length, 3);
    assert.equal(filled('I try to pick the lock, DC 15', true).find((tool) => tool.toolId === 'roll')?.input?.['dc'], 15);
  } finally {
    registry.dispose();
  }
});
