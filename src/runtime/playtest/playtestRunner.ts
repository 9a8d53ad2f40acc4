// Plays a playtest through a real play session (its seed, its state before turn 1, a session file of its own) and checks each turn: the report of one playtest.
import { createSessionFolder, isolatedScope } from '../skills/skillDataScope.js';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DisposableStore } from '../common/disposable.js';
import type { TextStyle } from '../common/textStyle.js';
import type { ExecutePlanOptions, PlanRun } from '../executor/planExecutor.js';
import { formatSummary, reportProgress } from '../executor/runTranscript.js';
import type { Narrator } from '../narrator/index.js';
import { PlaySession } from '../session/playSession.js';
import type { SkillSource } from '../session/turnRunner.js';
import type { TurnResult } from '../session/turnTypes.js';
import { checkTurn } from './playtestExpectations.js';
import { firstAttemptSkills, outcomeOf } from '../session/turnOutcome.js';
import type { Playtest, PlaytestReport, TurnReport } from './playtestTypes.js';
import { plural } from '../common/humanText.js';

/** What playing a playtest needs: its narrator and skills (each playtest its own, so skill health never leaks between them). */
export interface PlaytestEnvironment {
  readonly root: string;
  readonly narrator: Narrator;
  readonly skills: SkillSource & { restartSession(): void };
  /** Skills that narrate (`subset` leaves them aside). */
  readonly narrators: ReadonlySet<string>;
  /** Executor settings; the run store records each turn's runs (`.narratoria/runs`). */
  readonly execution?: Omit<ExecutePlanOptions, 'root'>;
  readonly signal?: AbortSignal;
  /** Keep the playtest's session (file and skills' data) as `.narratoria/sessions/playtest-…` instead of deleting it. */
  readonly keepSession?: boolean;
  /** Writes each turn's transcript as `narratoria run` prints it (a test run's output), when given. */
  readonly transcriptStyle?: TextStyle;
  /** Called when a turn starts and when it ends (for live views such as the Test Explorer). */
  readonly onTurnStarted?: (index: number) => void;
  readonly onTurnFinished?: (report: TurnReport) => void;
  /** Each attempt's plan run as it starts (the debugger's Debug profile attaches here). */
  readonly onPlanRun?: (run: PlanRun, turn: number, attempt: number) => void;
  /** Each turn's result as played (coverage counts what the skills did). */
  readonly onTurnPlayed?: (result: TurnResult) => void;
}

/** Plays every turn in order and checks it. Never throws for a failing story: an exception makes the playtest's status `error`. */
export async function playPlaytest(playtest: Playtest, environment: PlaytestEnvironment): Promise<PlaytestReport> {
  const started = performance.now();
  // Its session and its skills' data: in a temporary folder, deleted after; or, to look at later, in the story's sessions.
  const folder = environment.keepSession ? keptSessionFolder(environment.root, playtest.name) : mkdtempSync(path.join(os.tmpdir(), 'narratoria-playtest-'));
  const turns: TurnReport[] = [];
  let session: PlaySession | undefined;
  const report = (status: PlaytestReport['status'], error?: string): PlaytestReport => ({
    file: playtest.file,
    name: playtest.name,
    status,
    durationMs: Math.round(performance.now() - started),
    seed: playtest.seed,
    narrator: playtest.narrator,
    ...(error !== undefined ? { error } : {}),
    turns,
  });
  try {
    environment.skills.restartSession();
    session = await PlaySession.open({
      root: environment.root,
      file: path.join(folder, 'session.json'),
      narrator: environment.narrator,
      skills: environment.skills,
      execution: environment.execution,
      attemptLogFile: null,
      seed: playtest.seed,
      initialState: playtest.state,
      // Hermetic: the playtest's skill data starts empty in its own folder, removed after (nothing reaches the story).
      dataScope: await isolatedScope(environment.root, path.basename(folder), folder),
    });
    for (const [position, turn] of playtest.turns.entries()) {
      if (environment.signal?.aborted) break;
      const index = position + 1;
      environment.onTurnStarted?.(index);
      const turnStarted = performance.now();
      const input = turn.input ?? (turn.choice !== undefined ? session.lastChoices[turn.choice - 1] : undefined);
      if (input === undefined) {
        const offered = session.lastChoices;
        const at = turn.expectationPositions.get('choice') ?? turn.position;
        const skipped: TurnReport = {
          index,
          input: '',
          ...(turn.choice !== undefined ? { choice: turn.choice } : {}),
          status: 'failed',
          attempts: 0,
          skills: [],
          failures: [
            {
              expectation: 'choice',
              message: `the previous turn offered ${plural(offered.length, 'choice')}, so there is no choice ${turn.choice}`,
              expected: turn.choice,
              actual: offered,
              line: at.line,
              column: at.column,
            },
          ],
          durationMs: Math.round(performance.now() - turnStarted),
        };
        turns.push(skipped);
        environment.onTurnFinished?.(skipped);
        continue;
      }
      const events: Record<string, unknown>[] = [];
      const transcript: string[] = [];
      const subscriptions = new DisposableStore();
      subscriptions.add(
        session.onDidStartPlanRun(({ run, attempt }) => {
          subscriptions.add(run.onDidEmitEvent(({ toolId, event }) => events.push({ ...event, toolId })));
          if (environment.transcriptStyle) {
            transcript.push(`attempt ${attempt}\n`);
            reportProgress(run, (text) => transcript.push(text), environment.transcriptStyle);
          }
          environment.onPlanRun?.(run, index, attempt);
        }),
      );
      let result;
      try {
        result = await session.play(input, environment.signal);
      } finally {
        subscriptions.dispose();
      }
      environment.onTurnPlayed?.(result);
      if (environment.transcriptStyle) for (const attempt of result.attempts) transcript.push(formatSummary(attempt.result, environment.transcriptStyle));
      const failures = checkTurn(turn, { result, events }, environment.narrators);
      const last = result.attempts.at(-1);
      const turnReport: TurnReport = {
        index,
        input,
        ...(turn.choice !== undefined ? { choice: turn.choice } : {}),
        status: failures.length === 0 ? 'passed' : 'failed',
        attempts: result.attempts.length,
        skills: firstAttemptSkills(result),
        outcome: outcomeOf(result),
        narration: result.narrative,
        failures,
        ...(last && last.result.toolResults.length > 0 ? { runId: last.plan.requestId } : {}),
        durationMs: Math.round(performance.now() - turnStarted),
        ...(environment.transcriptStyle ? { transcript: transcript.join('') } : {}),
      };
      turns.push(turnReport);
      environment.onTurnFinished?.(turnReport);
    }
    return report(turns.some((turn) => turn.status === 'failed') ? 'failed' : 'passed');
  } catch (error) {
    return report('error', error instanceof Error ? error.message : String(error));
  } finally {
    session?.dispose();
    if (!environment.keepSession) rmSync(folder, { recursive: true, force: true });
  }
}

/** A new folder in the story's .narratoria/sessions for a kept playtest session: "playtest-the-rusty-anchor-2026-11-28-170312". */
function keptSessionFolder(root: string, name: string): string {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'playtest';
  const stamp = new Date().toISOString().slice(0, 19).replace('T', '-').replace(/:/g, '');
  return createSessionFolder(root, `playtest-${slug}-${stamp}`);
}
