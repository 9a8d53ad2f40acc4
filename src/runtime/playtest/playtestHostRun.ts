// Playtests run for a host's test view (VS Code's Testing): one at a time with coloured transcripts, the host's own narrators, coverage when asked, and the replays of failed turns for its debugger.
import * as path from 'node:path';
import { ansiTextStyle } from '../common/textStyle.js';
import { CoverageSession } from '../coverage/coverageSession.js';
import type { CoverageResult } from '../coverage/coverageTypes.js';
import { LlamaNarrator } from '../narrator/llamaNarrator.js';
import type { NarratorChoice as CreatedNarrator } from '../narrator/narratorFactory.js';
import { PatternNarrator } from '../narrator/patternNarrator.js';
import type { TurnResult } from '../session/turnTypes.js';
import type { Skill } from '../skills/skillTypes.js';
import { runPlaytestSuite, type PlaytestSuiteOptions } from './playtestSuite.js';
import type { NarratorChoice, Playtest, RunReport } from './playtestTypes.js';
import { writeTurnReplays, type TurnReplay } from './turnReplays.js';

/** A narrator as the suite takes it from a host. */
type HostNarrator = Pick<CreatedNarrator, 'narrator' | 'scriptEnvironment'>;

/** How a host runs its playtests, and what it hears while they play. */
export interface HostRunOptions extends Pick<PlaytestSuiteOptions, 'onPlaytestStarted' | 'onTurnStarted' | 'onTurnFinished' | 'onPlaytestFinished' | 'onLog'> {
  readonly root: string;
  readonly extraSkillRoots: readonly string[];
  /** Overrides every playtest's own narrator. */
  readonly narrator?: NarratorChoice;
  /** The narrator the host holds now (its settings' choice; a local model loaded once): see {@link hostNarrators}. */
  readonly hostNarrator: () => Promise<CreatedNarrator>;
  /** The story's skills, to measure their scripts' coverage (written under `<root>/.narratoria/coverage/`); none: no coverage. */
  readonly coverageOf?: readonly Skill[];
  /** Write the replay of each failed turn (turnReplays.ts) for the host's debugger. */
  readonly replayFailedTurns?: boolean;
  readonly signal?: AbortSignal;
}

/** What a host run gives: the report, the coverage measured, and the failed turns' replays. */
export interface HostRunResult {
  readonly report: RunReport;
  readonly coverage?: CoverageResult;
  readonly replays: readonly TurnReplay[];
}

/** Plays the playtests for a host's test view and reports; the coverage session is always disposed. */
export async function runPlaytestsForHost(playtests: readonly Playtest[], options: HostRunOptions): Promise<HostRunResult> {
  const coverage = options.coverageOf ? new CoverageSession(options.root, options.coverageOf) : undefined;
  try {
    const report = await runPlaytestSuite(playtests, {
      ...(coverage
        ? { scriptEnvironment: coverage.environment(), onTurnPlayed: (_playtest: Playtest, result: TurnResult) => coverage.recordTurn(result) }
        : {}),
      root: options.root,
      extraSkillRoots: options.extraSkillRoots,
      // One at a time, as the test view shows a run; its output terminal shows the transcripts' colours.
      jobs: 1,
      transcriptStyle: ansiTextStyle(true),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.narrator ? { narrator: options.narrator } : {}),
      narratorFor: hostNarrators(options.hostNarrator),
      ...(options.onLog ? { onLog: options.onLog } : {}),
      ...(options.onPlaytestStarted ? { onPlaytestStarted: options.onPlaytestStarted } : {}),
      ...(options.onTurnStarted ? { onTurnStarted: options.onTurnStarted } : {}),
      ...(options.onTurnFinished ? { onTurnFinished: options.onTurnFinished } : {}),
      ...(options.onPlaytestFinished ? { onPlaytestFinished: options.onPlaytestFinished } : {}),
    });
    const measured = coverage ? await coverage.finish(path.join(options.root, '.narratoria')) : undefined;
    const replays = options.replayFailedTurns ? await writeTurnReplays(report.playtests, options.root) : [];
    return { report, ...(measured ? { coverage: measured } : {}), replays };
  } finally {
    coverage?.dispose();
  }
}

/**
 * The narrator of each kind from a host that holds its own: a new pattern narrator, else the host's current narrator
 * (never a second copy of its model). `llm` asks for the local model and fails when the host's narrator is not one.
 */
export function hostNarrators(current: () => Promise<CreatedNarrator>): (kind: NarratorChoice) => Promise<HostNarrator> {
  return async (kind) => {
    if (kind === 'pattern') return { narrator: new PatternNarrator(), scriptEnvironment: {} };
    const choice = await current();
    if (choice.narrator instanceof LlamaNarrator || kind === 'auto') return { narrator: choice.narrator, scriptEnvironment: choice.scriptEnvironment };
    throw new Error(`no local model: ${choice.reason}`);
  };
}

/** A run's summary as one log line. */
export function summaryLine(report: RunReport): string {
  return `playtests: ${report.summary.passed} passed, ${report.summary.failed + report.summary.errors} failed`;
}

/** A coverage result as one log line: lines covered, the lcov file, and the scripts measured by skill coverage only. */
export function coverageLine(result: CoverageResult): string {
  const { lines } = result.totals;
  const lcov = result.lcovFile ? `; ${result.lcovFile}` : '';
  const skillOnly = result.skillCoverageOnly.length > 0 ? `; skill coverage only for ${result.skillCoverageOnly.join(', ')}` : '';
  return `playtest coverage: ${lines.covered}/${lines.total} lines of ${result.files.length} script file(s)${lcov}${skillOnly}`;
}
