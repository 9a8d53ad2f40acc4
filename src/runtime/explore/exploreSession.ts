// Plays one exploration session: a fresh play session with its seed, a simulated player choosing each input, every turn counted in the skill usage and checked for problems.
import { createSessionFolder, isolatedScope } from '../skills/skillDataScope.js';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import type { ExecutePlanOptions } from '../executor/planExecutor.js';
import type { Narrator } from '../narrator/index.js';
import { PlaySession } from '../session/playSession.js';
import type { SkillSource } from '../session/turnRunner.js';
import type { SkillUsage } from '../coverage/skillUsage.js';
import { deriveSeed } from '../common/seed.js';
import { detectProblems } from './problemDetector.js';
import { SimulatedPlayer } from './simulatedPlayer.js';
import type { ExploreProblem, PlayedInput, ProblemKind, SessionStory, ToolFailureCategory } from './exploreTypes.js';
import type { CampaignStory } from '../campaign/play/campaignStory.js';
import { campaignStateOf } from '../campaign/play/storyState.js';
import type { StoryTurn } from '../campaign/play/storyContext.js';

/** Problems kept per session (the rest are counted). */
export const MAX_PROBLEMS_KEPT = 50;

export interface ExploreSessionEnvironment {
  readonly root: string;
  readonly narrator: Narrator;
  readonly skills: SkillSource & { restartSession(): void };
  readonly execution: Omit<ExecutePlanOptions, 'root'>;
  readonly turns: number;
  readonly turnBudgetMs: number;
  readonly manifestActions: readonly string[];
  readonly usage: SkillUsage;
  /** A folder for the session's file (removed after). */
  readonly folder: string;
  /** Keep each session (file and skills' data) as the story's `.narratoria/sessions/explore-SEED`, not deleted. */
  readonly keepSessions?: boolean | undefined;
  /** The story's campaign, loaded once for every session (undefined: not a campaign). */
  readonly story?: CampaignStory | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onTurnPlayed?: ((problems: number) => void) | undefined;
}

/** What one session did; its inputs and problems matter only when it had problems. */
export interface SessionOutcome {
  readonly index: number;
  readonly seed: number;
  readonly turns: number;
  readonly inputs: readonly PlayedInput[];
  readonly problems: readonly ExploreProblem[];
  readonly problemCount: number;
  /** Every problem counted by kind, and tool failures by category (the kept list is bounded, these are not). */
  readonly byKind: Readonly<Partial<Record<ProblemKind, number>>>;
  readonly toolFailures: Readonly<Partial<Record<ToolFailureCategory, number>>>;
  readonly cancelled: boolean;
  /** What the session did to a campaign's beats. */
  readonly story?: SessionStory;
}

/** The seed of session `index` (1-based) of an exploration with `seed`. */
export function sessionSeed(seed: number, index: number): number {
  return deriveSeed(seed, 'explore', index);
}

/** Plays session `index` of an exploration with `seed`; a thrown exception is a problem that ends the session. */
export async function playExploreSession(index: number, seed: number, environment: ExploreSessionEnvironment): Promise<SessionOutcome> {
  const own = sessionSeed(seed, index);
  const player = new SimulatedPlayer(deriveSeed(own, 'player'), environment.manifestActions);
  const inputs: PlayedInput[] = [];
  const problems: ExploreProblem[] = [];
  let problemCount = 0;
  const byKind: Partial<Record<ProblemKind, number>> = {};
  const toolFailures: Partial<Record<ToolFailureCategory, number>> = {};
  const note = (found: readonly ExploreProblem[]) => {
    problemCount += found.length;
    for (const problem of found) {
      byKind[problem.kind] = (byKind[problem.kind] ?? 0) + 1;
      if (problem.category) toolFailures[problem.category] = (toolFailures[problem.category] ?? 0) + 1;
    }
    for (const problem of found) if (problems.length < MAX_PROBLEMS_KEPT) problems.push(problem);
  };
  const scopeFolder = environment.keepSessions ? createSessionFolder(environment.root, `explore-${own}`) : path.join(environment.folder, `session-${index}`);
  const file = environment.keepSessions ? path.join(scopeFolder, 'session.json') : path.join(environment.folder, `session-${index}.json`);
  let session: PlaySession | undefined;
  let turns = 0;
  let story: SessionStory | undefined;
  const closest: Record<string, SessionStory['closest'][string]> = {};
  try {
    environment.skills.restartSession();
    // Hermetic: each explored session's skill data starts empty in the exploration's folder, removed after.
    const dataScope = await isolatedScope(environment.root, path.basename(scopeFolder), scopeFolder);
    session = await PlaySession.open({
      root: environment.root,
      file,
      narrator: environment.narrator,
      skills: environment.skills,
      execution: environment.execution,
      attemptLogFile: null,
      seed: own,
      initialState: {},
      dataScope,
      story: environment.story ?? null,
    });
    // A campaign opens on its premise with choices: the player sees them before its first move.
    const opening = session.turns[0];
    if (opening?.opening) player.observe({ choices: opening.choices, narration: opening.narrative, state: session.state });
    const narratorFailures: string[] = [];
    session.onDidLogAttempt((entry) => {
      if (entry.planId === null && entry.feedback?.startsWith('the narrator failed')) narratorFailures.push(entry.feedback);
    });
    for (let turn = 1; turn <= environment.turns; turn++) {
      if (environment.signal?.aborted) break;
      const move = player.next();
      inputs.push({ turn, input: move.input, ...(move.choice !== undefined ? { choice: move.choice } : {}), source: move.source });
      narratorFailures.length = 0;
      let result;
      try {
        result = await session.play(move.input, environment.signal, move.choice);
      } catch (error) {
        turns = turn;
        note([{ kind: 'exception', turn, message: `the turn threw: ${error instanceof Error ? error.message : String(error)}` }]);
        environment.onTurnPlayed?.(1);
        break;
      }
      if (result.cancelled && environment.signal?.aborted) {
        inputs.pop();
        break;
      }
      turns = turn;
      environment.usage.recordTurn(result);
      const found = [
        ...narratorFailures.map((feedback): ExploreProblem => ({ kind: 'exception', turn, message: feedback })),
        ...detectProblems(turn, result, environment.turnBudgetMs, (toolPath, skill) => environment.usage.scriptOf(toolPath, skill)),
      ];
      note(found);
      environment.onTurnPlayed?.(found.length);
      player.observe({ choices: result.choices, narration: result.narrative, state: result.state });
      if (result.story) noteCloseness(closest, result.story);
      if (session.ending) break;
    }
    if (environment.story) story = sessionStory(session.state, turns, closest);
  } catch (error) {
    note([{ kind: 'exception', turn: turns + 1, message: `the session could not be played: ${error instanceof Error ? error.message : String(error)}` }]);
  } finally {
    session?.dispose();
    if (!environment.keepSessions) {
      rmSync(file, { force: true });
      rmSync(scopeFolder, { recursive: true, force: true });
    }
  }
  return {
    index,
    seed: own,
    turns,
    inputs,
    problems,
    problemCount,
    byKind,
    toolFailures,
    cancelled: environment.signal?.aborted === true,
    ...(story ? { story } : {}),
  };
}

/** Keeps, for each waiting beat, the scene its conditions came closest to holding (the later one on a tie). */
function noteCloseness(closest: Record<string, SessionStory['closest'][string]>, turn: StoryTurn): void {
  for (const beat of turn.waiting) {
    const best = closest[beat.id];
    const share = beat.of === 0 ? 0 : beat.met / beat.of;
    if (!best || share >= (best.of === 0 ? 0 : best.met / best.of)) closest[beat.id] = { met: beat.met, of: beat.of, reason: beat.reason, scene: turn.scene };
  }
}

/** The session's beats from its final state: when each triggered or first held, why one was skipped; the ending. */
function sessionStory(state: Record<string, unknown>, scenes: number, closest: Record<string, SessionStory['closest'][string]>): SessionStory {
  const campaign = campaignStateOf(state);
  const beats: Record<string, SessionStory['beats'][string]> = {};
  for (const [id, record] of Object.entries(campaign.beats)) {
    beats[id] = {
      ...(record.status === 'done' && record.scene !== undefined ? { triggered: record.scene } : {}),
      ...(record.heldSince !== undefined ? { heldSince: record.heldSince } : {}),
      ...(record.status === 'skipped' ? { skipped: record.reason ?? 'skipped' } : {}),
    };
  }
  const open = Object.fromEntries(Object.entries(closest).filter(([id]) => beats[id]?.triggered === undefined));
  return { scenes, beats, ...(campaign.ending ? { ending: campaign.ending.id } : {}), closest: open };
}
