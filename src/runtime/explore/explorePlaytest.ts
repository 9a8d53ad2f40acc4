// Saves a session that hit a problem as a playtest that reproduces it: its seed, its inputs up to the last turn with a problem, and expectations on each turn that had one.
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { writeFileAtomic } from '../common/atomicWrite.js';
import { validateAgainst } from '../contracts/schemas.js';
import type { NarratorChoice } from '../playtest/playtestTypes.js';
import { PLAYTEST_SUFFIX } from '../playtest/playtestDocument.js';
import type { ExploreProblem, PlayedInput } from './exploreTypes.js';

export interface ProblemSession {
  readonly index: number;
  readonly seed: number;
  readonly inputs: readonly PlayedInput[];
  readonly problems: readonly ExploreProblem[];
}

/** The file a session's playtest is saved to: the same exploration writes the same names. */
export function explorePlaytestFile(outDirectory: string, seed: number, index: number): string {
  return path.join(outDirectory, `explore-seed-${seed}-session-${index}${PLAYTEST_SUFFIX}`);
}

/** What a turn with these problems should have done instead (each expectation fails while the problem is there). */
function expectationsFor(problems: readonly ExploreProblem[], turnBudgetMs: number): Record<string, unknown> {
  const expect: Record<string, unknown> = {};
  if (problems.some((problem) => problem.kind !== 'exception' && problem.kind !== 'over_time_budget')) {
    expect['outcome'] = 'success';
    expect['maxAttempts'] = 1;
  }
  const failedTools = [...new Set(problems.filter((problem) => problem.kind === 'tool_failure' && problem.toolId).map((problem) => problem.toolId!))];
  // A tool that fails without failing its plan (it was not required) still shows: its `done` was not ok, or never came.
  if (failedTools.length > 0) expect['events'] = failedTools.map((toolId) => ({ type: 'done', ok: true, toolId }));
  if (problems.some((problem) => problem.kind === 'over_time_budget')) expect['maxDurationMs'] = Math.max(1, Math.round(turnBudgetMs));
  return expect;
}

/**
 * The playtest's JSON value: offered choices are played by number, and each turn with a problem expects what a turn
 * without one does, so `narratoria test` shows the same problem.
 */
export function explorePlaytest(session: ProblemSession, explorationSeed: number, narrator: NarratorChoice, turnBudgetMs: number): Record<string, unknown> {
  const last = Math.max(...session.problems.map((problem) => problem.turn), 1);
  const turns = session.inputs
    .filter((input) => input.turn <= last)
    .map((input) => {
      const played = input.choice !== undefined ? { choice: input.choice } : { input: input.input };
      const problems = session.problems.filter((problem) => problem.turn === input.turn);
      return problems.length > 0 ? { ...played, expect: expectationsFor(problems, turnBudgetMs) } : played;
    });
  const kinds = [...new Set(session.problems.map((problem) => problem.kind))].join(', ');
  return { name: `explore --seed ${explorationSeed}: session ${session.index} (${kinds})`, narrator, seed: session.seed, state: {}, turns };
}

/** Writes the session's playtest under `outDirectory` (checked against contracts/playtest.schema.json first); its path. */
export async function saveExplorePlaytest(
  session: ProblemSession,
  explorationSeed: number,
  narrator: NarratorChoice,
  turnBudgetMs: number,
  outDirectory: string,
): Promise<string> {
  const value = explorePlaytest(session, explorationSeed, narrator, turnBudgetMs);
  const errors = validateAgainst('playtest.schema.json', value);
  if (errors.length > 0)
    throw new Error(`the playtest of session ${session.index} does not match its schema: ${errors[0]!.instancePath} ${errors[0]!.message ?? ''}`);
  const file = explorePlaytestFile(outDirectory, explorationSeed, session.index);
  await mkdir(outDirectory, { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
  return file;
}
