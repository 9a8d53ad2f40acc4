// A campaign session's turn around the replan loop: the profiles seeded once, the scene begun (beats, NPCs, lore), the turn played, the scene finished and its summary stored by the memory skill.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ToolInvocation } from '../contractTypes/plan.js';
import { startPlanRun, type ExecutePlanOptions } from '../executor/planExecutor.js';
import { deriveSeed } from '../common/seed.js';
import type { CampaignStory } from '../campaign/play/campaignStory.js';
import type { Evidence } from '../campaign/play/meaningJudge.js';
import { factionsOf, perceptionSeed } from '../campaign/play/npcVoices.js';
import type { StoryContext } from '../campaign/play/storyContext.js';
import { campaignStateOf, withCampaignState } from '../campaign/play/storyState.js';
import { changedKeys } from '../state/deepMerge.js';
import { skillFolders, type SkillDataScope } from '../skills/skillDataScope.js';
import type { NarratorSkill } from '../skills/skillTypes.js';
import type { SkillSource } from './turnRunner.js';
import type { TurnResult } from './turnTypes.js';

/** What a campaign turn needs from its session. */
export interface StoryTurnOptions {
  readonly input: string;
  readonly state: Record<string, unknown>;
  /** The scene summaries of the turns played so far, oldest first. */
  readonly summaries: readonly string[];
  readonly seed: number;
  readonly index: number;
  readonly skills: SkillSource;
  readonly execution: ExecutePlanOptions & { readonly dataScope: SkillDataScope };
  readonly signal?: AbortSignal | undefined;
  /** Plays the turn from `state` with the scene's context (the replan loop). */
  readonly play: (state: Record<string, unknown>, story: StoryContext) => Promise<TurnResult>;
}

/** The toolPath of a skill's script the story may use now (enabled and not failed), if it has it. */
function scriptOf(skills: SkillSource, skill: string, script: string): string | undefined {
  if (skills.disabledSkills().includes(skill)) return undefined;
  const found: NarratorSkill | undefined = skills.narratorSkills().find((each) => each.name === skill);
  return found?.scripts.find((each) => each.name === script)?.toolPath;
}

/** Runs housekeeping tools (seeds, the scene summary) as one plan in the session's data scope; the state after it (unchanged if it failed). */
async function housekeeping(
  label: string,
  tools: readonly ToolInvocation[],
  state: Record<string, unknown>,
  options: StoryTurnOptions,
): Promise<Record<string, unknown>> {
  if (tools.length === 0) return state;
  const run = startPlanRun(
    { requestId: randomUUID(), tools: [...tools], parallel: true, metadata: { purpose: label } },
    {
      ...options.execution,
      runStore: undefined,
      rePlanner: undefined,
      initialState: state,
      seed: deriveSeed(options.seed, label, options.index),
      signal: options.signal,
    },
  );
  const result = await run.result;
  // A plan refused before it ran (a tool of a skill that moved away) leaves the state as it was.
  return result.toolResults.length === 0 ? state : result.aggregatedState;
}

/** The session start's seeds: how each NPC sees the player (npc-perception) and each faction the profiles name (reputation). */
function seedTools(story: CampaignStory, options: StoryTurnOptions): ToolInvocation[] {
  const tools: ToolInvocation[] = [];
  const adjust = scriptOf(options.skills, 'npc-perception', 'adjust');
  if (adjust)
    story.campaign.npcs.forEach((npc, index) => {
      const seed = perceptionSeed(npc);
      tools.push({
        toolId: `perception-${index + 1}`,
        toolPath: adjust,
        input: { npc: npc.name, delta: seed.delta, reason: seed.reason },
        required: false,
        async: true,
      });
    });
  const update = scriptOf(options.skills, 'reputation', 'update');
  if (update)
    factionsOf(story.campaign).forEach(({ faction, npcs }, index) => {
      const reason = `the campaign's faction of ${npcs.join(', ')}`;
      tools.push({ toolId: `faction-${index + 1}`, toolPath: update, input: { faction, delta: 0, reason, register: true }, required: false, async: true });
    });
  return tools;
}

/** The memories a judgement reads, newest first: the memory skill's store in the session's scope, then the scene summaries. */
async function memoriesOf(options: StoryTurnOptions): Promise<Evidence[]> {
  const evidence: Evidence[] = [];
  const seen = new Set<string>();
  const file = path.join(skillFolders(options.execution.dataScope, 'memory').data, 'memories.jsonl');
  const text = await readFile(file, 'utf8').catch(() => '');
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  for (const line of lines.reverse()) {
    try {
      const summary = (JSON.parse(line) as { summary?: unknown }).summary;
      if (typeof summary === 'string' && !seen.has(summary)) {
        seen.add(summary);
        evidence.push({ source: 'a memory', text: summary });
      }
    } catch {
      // A damaged line is the memory skill's to report.
    }
  }
  options.summaries.forEach((summary, at) => {
    if (!seen.has(summary)) evidence.push({ source: `the summary of scene ${at}`, text: summary });
  });
  return evidence;
}

/** What the storyteller said it told: its `output.campaign` (beats, ending) in the turn's last attempt. */
function toldOf(result: TurnResult): { beats: string[]; ending?: string } | undefined {
  const tools = result.attempts.at(-1)?.result.toolResults ?? [];
  for (const tool of tools) {
    const told = tool.output?.result?.['campaign'];
    if (told === null || typeof told !== 'object') continue;
    const record = told as Record<string, unknown>;
    const beats = Array.isArray(record['beats']) ? record['beats'].filter((id): id is string => typeof id === 'string') : [];
    return { beats, ...(typeof record['ending'] === 'string' ? { ending: record['ending'] } : {}) };
  }
  return undefined;
}

/** Plays one turn of a campaign: seeds (once), the scene's beats and context, the turn, what it told, the next choices, the summary in memory. */
export async function playStoryTurn(story: CampaignStory, options: StoryTurnOptions): Promise<TurnResult> {
  let state = options.state;
  if (!campaignStateOf(state, story.title).seeded) {
    state = await housekeeping('campaign-seeds', seedTools(story, options), state, options);
    state = withCampaignState(state, { ...campaignStateOf(state, story.title), seeded: true });
  }
  const start = story.beginScene({ state, input: options.input, memories: await memoriesOf(options), seed: options.seed });
  const result = await options.play(start.state, start.context);
  // A cancelled turn leaves the story as it was: no scene played.
  if (result.cancelled) return { ...result, state: options.state, changedKeys: [] };
  const end = story.finishScene(start, { state: result.state, narrative: result.narrative, choices: result.choices, told: toldOf(result) });
  const store = scriptOf(options.skills, 'memory', 'store');
  const after = store
    ? await housekeeping('scene-summary', [{ toolId: 'scene-summary', toolPath: store, input: { ...end.memory }, required: false }], end.state, options)
    : end.state;
  return { ...result, narrative: end.narrative, choices: end.choices, state: after, changedKeys: changedKeys(options.state, after), story: end.story };
}
