// Explores a story (`narratoria explore`, VS Code's Explore Story): plays seeded sessions of simulated players in parallel up to `jobs` and reports the problems they find.
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { availableParallelism } from 'node:os';
import { CoverageSession } from '../coverage/coverageSession.js';
import type { CoverageResult } from '../coverage/coverageTypes.js';
import { SkillUsage, knownScripts } from '../coverage/skillUsage.js';
import { createNarrator, type NarratorChoice as CreatedNarrator } from '../narrator/narratorFactory.js';
import { SkillRegistry } from '../skills/skillRegistry.js';
import type { NarratorChoice } from '../playtest/playtestTypes.js';
import { shownPath } from '../coverage/istanbulConversion.js';
import { buildExploreReport } from './exploreReport.js';
import { saveExplorePlaytest } from './explorePlaytest.js';
import { playExploreSession, type SessionOutcome } from './exploreSession.js';
import { manifestActions } from './playerActions.js';
import {
  PROBLEM_KINDS,
  TOOL_FAILURE_CATEGORIES,
  type BrokenSkillReport,
  type ExploreProgress,
  type ExploreResult,
  type FailedSession,
  type ProblemKind,
  type ToolFailureCategory,
} from './exploreTypes.js';
import type { SkillProblem } from '../skills/skillTypes.js';
import { loadCampaignStory } from '../campaign/play/index.js';
import { saveClosestPlaytests, storyReport, type ExploredStorySession } from './exploreBeats.js';

export const EXPLORE_DEFAULTS = { runs: 20, turns: 10, seed: 1, narrator: 'pattern', turnBudgetMs: 10_000 } as const;

export interface ExploreOptions {
  readonly root: string;
  /** Further skills roots (the bundled sample skills). */
  readonly extraSkillRoots?: readonly string[] | undefined;
  /** Sessions (default 20). */
  readonly runs?: number | undefined;
  /** Keep each session and its skills' data in the story's .narratoria/sessions (explore-SEED) instead of deleting it. */
  readonly keepSessions?: boolean | undefined;
  /** Turns per session at most (default 10). */
  readonly turns?: number | undefined;
  /** Session k plays with a seed derived from this one (default 1). */
  readonly seed?: number | undefined;
  readonly narrator?: NarratorChoice | undefined;
  /** Sessions at once (default: the CPU cores, at most the sessions). */
  readonly jobs?: number | undefined;
  /** Where problem sessions are saved as playtests, and coverage/ written (default `<root>/.narratoria/explore`). */
  readonly outDirectory?: string | undefined;
  /** Measures the line, branch and function coverage of the JavaScript and TypeScript skill scripts. */
  readonly coverage?: boolean | undefined;
  /** A turn longer than this is a problem (default 10 s). */
  readonly turnBudgetMs?: number | undefined;
  readonly environment?: Readonly<Record<string, string | undefined>> | undefined;
  readonly modelPath?: string | undefined;
  readonly modelDirectory?: string | undefined;
  /** Cancels: running turns stop (their processes are killed) and the report covers what was played. */
  readonly signal?: AbortSignal | undefined;
  /** After each turn and each session. */
  readonly onProgress?: ((progress: ExploreProgress) => void) | undefined;
  /** Each session that hit a problem, once its playtest is saved. */
  readonly onProblemSession?: ((session: FailedSession) => void) | undefined;
  readonly onLog?: ((message: string) => void) | undefined;
  /** The narrator, when the host already has one (VS Code's loaded model); not disposed here. */
  readonly narratorFor?: ((kind: NarratorChoice) => Promise<Pick<CreatedNarrator, 'narrator' | 'scriptEnvironment'> | undefined>) | undefined;
}

/**
 * Plays the exploration and reports: each problem session is saved as a playtest, what the skills did is counted, and
 * with `coverage` the skill scripts' coverage is measured. Never throws for a failing story: failures are problems in the report.
 */
export async function exploreStory(options: ExploreOptions): Promise<ExploreResult> {
  const started = performance.now();
  const runs = options.runs ?? EXPLORE_DEFAULTS.runs;
  const turns = options.turns ?? EXPLORE_DEFAULTS.turns;
  const seed = (options.seed ?? EXPLORE_DEFAULTS.seed) >>> 0;
  const narratorKind = options.narrator ?? EXPLORE_DEFAULTS.narrator;
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), runs));
  const turnBudgetMs = options.turnBudgetMs ?? EXPLORE_DEFAULTS.turnBudgetMs;
  const outDirectory = path.resolve(options.outDirectory ?? path.join(options.root, '.narratoria', 'explore'));
  const registryOptions = { root: options.root, extraSkillRoots: options.extraSkillRoots, environment: options.environment };

  const catalog = await SkillRegistry.load(registryOptions);
  const skills = catalog.skills;
  const brokenSkills = catalog.brokenSkills.map(
    (broken): BrokenSkillReport => ({
      skill: broken.name,
      file: shownPath(options.root, broken.manifestPath),
      problems: broken.problems.map((problem) => ({ code: problem.code, message: problem.message, ...positionOf(problem) })),
    }),
  );
  const actions = manifestActions(catalog.narratorSkills());
  catalog.dispose();
  const known = knownScripts(skills);
  const usage = new SkillUsage(known);
  const collector = options.coverage ? new CoverageSession(options.root, skills, usage) : undefined;

  const given = await options.narratorFor?.(narratorKind);
  const created = given
    ? undefined
    : createNarrator({ mode: narratorKind, root: options.root, modelPath: options.modelPath, modelDirectory: options.modelDirectory, onLog: options.onLog });
  const choice = given ?? (await created!);
  const extraEnv = { ...choice.scriptEnvironment, ...collector?.environment() };
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-explore-'));
  // A campaign is read once; every session plays it from its opening.
  const story = await loadCampaignStory(options.root);
  const storySessions: ExploredStorySession[] = [];

  const failed: FailedSession[] = [];
  const byKind = Object.fromEntries(PROBLEM_KINDS.map((kind) => [kind, 0])) as Record<ProblemKind, number>;
  // A broken skill is a problem of the story: counted once, whatever the sessions do.
  byKind.broken_skill = brokenSkills.length;
  const toolFailures = Object.fromEntries(TOOL_FAILURE_CATEGORIES.map((category) => [category, 0])) as Record<ToolFailureCategory, number>;
  let played = 0;
  let turnsPlayed = 0;
  let problemCount = brokenSkills.length;
  let sessionsWithProblems = 0;
  const progress = () => options.onProgress?.({ sessionsDone: played, sessionsTotal: runs, turnsPlayed, problems: problemCount, sessionsWithProblems });

  const finishSession = async (outcome: SessionOutcome) => {
    played++;
    if (outcome.story) storySessions.push({ index: outcome.index, seed: outcome.seed, inputs: outcome.inputs, story: outcome.story });
    collector?.drain();
    for (const kind of PROBLEM_KINDS) byKind[kind] += outcome.byKind[kind] ?? 0;
    for (const category of TOOL_FAILURE_CATEGORIES) toolFailures[category] += outcome.toolFailures[category] ?? 0;
    if (outcome.problemCount > 0) {
      sessionsWithProblems++;
      let playtest: string | undefined;
      try {
        playtest = shownPath(options.root, await saveExplorePlaytest(outcome, seed, narratorKind, turnBudgetMs, outDirectory));
      } catch (error) {
        options.onLog?.(`session ${outcome.index}: its playtest could not be saved: ${error instanceof Error ? error.message : String(error)}`);
      }
      const session: FailedSession = {
        index: outcome.index,
        seed: outcome.seed,
        turns: outcome.turns,
        inputs: outcome.inputs,
        problems: outcome.problems,
        droppedProblems: outcome.problemCount - outcome.problems.length,
        ...(playtest ? { playtest } : {}),
      };
      failed.push(session);
      options.onProblemSession?.(session);
    }
    progress();
  };

  let next = 1;
  const worker = async () => {
    const registry = await SkillRegistry.load(registryOptions);
    try {
      while (next <= runs && !options.signal?.aborted) {
        const index = next++;
        const outcome = await playExploreSession(index, seed, {
          root: options.root,
          narrator: choice.narrator,
          skills: registry,
          execution: { extraSkillRoots: options.extraSkillRoots, skillContext: registry, extraEnv },
          turns,
          turnBudgetMs,
          keepSessions: options.keepSessions,
          story,
          manifestActions: actions,
          usage,
          folder,
          signal: options.signal,
          onTurnPlayed: (problems) => {
            turnsPlayed++;
            problemCount += problems;
            progress();
          },
        });
        if (outcome.cancelled && outcome.turns === 0) break;
        await finishSession(outcome);
      }
    } finally {
      registry.dispose();
    }
  };

  let coverage: CoverageResult | undefined;
  try {
    await Promise.all(Array.from({ length: jobs }, () => worker()));
    if (collector) coverage = await collector.finish(outDirectory);
  } finally {
    collector?.dispose();
    rmSync(folder, { recursive: true, force: true });
    if (created) await (await created).narrator.dispose();
  }
  failed.sort((left, right) => left.index - right.index);
  storySessions.sort((left, right) => left.index - right.index);
  // A beat no session reached is a problem of the story, counted once; the session that came closest is saved as a playtest.
  const beats = story
    ? await saveClosestPlaytests(storyReport(story, storySessions), storySessions, {
        seed,
        narrator: narratorKind,
        outDirectory,
        shown: (file) => shownPath(options.root, file),
      })
    : undefined;
  if (beats) byKind.unreached_beat = beats.neverTriggered.length;
  const report = buildExploreReport({
    root: options.root,
    options: { runs, turns, seed, narrator: narratorKind, jobs, coverage: options.coverage === true, turnBudgetMs },
    cancelled: options.signal?.aborted === true,
    played,
    turnsPlayed,
    failed,
    byKind,
    toolFailures,
    brokenSkills,
    skills: skills.map((skill) => skill.name),
    known,
    usage,
    coverage,
    outDirectory,
    ...(beats ? { story: beats } : {}),
    durationMs: Math.round(performance.now() - started),
  });
  return { report, ...(coverage ? { coverage } : {}) };
}

/** The 1-based position fields of a problem, those it has. */
function positionOf(problem: SkillProblem): { line?: number; column?: number; endLine?: number; endColumn?: number } {
  return {
    ...(problem.line !== undefined ? { line: problem.line } : {}),
    ...(problem.column !== undefined ? { column: problem.column } : {}),
    ...(problem.endLine !== undefined ? { endLine: problem.endLine } : {}),
    ...(problem.endColumn !== undefined ? { endColumn: problem.endColumn } : {}),
  };
}
