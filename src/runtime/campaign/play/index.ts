// Public API of campaign play: loading a campaign for a session, the scene-by-scene story, its context and records, lore retrieval and the rules.
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { loadCampaign } from '../index.js';
import { MANIFEST_FILE } from '../folderLayout.js';
import { chunkCampaignLore } from '../lore/loreFiles.js';
import { CampaignStory } from './campaignStory.js';

/** The campaign in `folder` (a story root holding a manifest.json) read for play, with its lore chunked; undefined when it holds none. */
export async function loadCampaignStory(folder: string): Promise<CampaignStory | undefined> {
  const manifest = await stat(path.join(folder, MANIFEST_FILE)).catch(() => undefined);
  if (!manifest?.isFile()) return undefined;
  const campaign = await loadCampaign(folder);
  if (!campaign?.manifest) return undefined;
  const lore = await chunkCampaignLore(folder);
  return CampaignStory.of(campaign, lore.chunks);
}

export { CampaignStory, type OpeningScene, type SceneEnd, type SceneInput, type SceneStart, type TurnTelling } from './campaignStory.js';
export type { LoreFact, NpcVoice, RecordedJudgement, StoryContext, StoryTurn, ToldBeat } from './storyContext.js';
export { campaignStateOf, CAMPAIGN_STATE_KEY, type BeatRecord, type BeatStatus, type CampaignState, type OfferedChoice } from './storyState.js';
export { DEFAULT_RULES, outcomeOfTotal, parseRules, type RollBand, type RollOutcome, type Ruleset } from './rules.js';
export { loreFacts, retrieveLore, scoreLoreChunks, LORE_FACTS, type ScoredChunk } from './loreRetrieval.js';
export type { StoryBeat, StoryCampaign, StoryEnding, StoryNpc } from './storyCampaign.js';
