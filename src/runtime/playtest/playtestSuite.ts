// Runs a set of playtests, up to `jobs` at a time, each with skills of its own and narrators shared by kind; every run recorded; one report.
import { availableParallelism } from 'node:os';
import type { TextStyle } from '../common/textStyle.js';
import type { PlanRun } from '../executor/planExecutor.js';
import { createNarrator, type NarratorChoice as CreatedNarrator } from '../narrator/narratorFactory.js';
import { isNarrator } from '../narrator/selection/skillRoles.js';
import { FileRunStore, runsDirectory } from '../persistence/runStore.js';
import { SkillRegistry } from '../skills/skillRegistry.js';
import { buildRunReport } from './playtestReport.js';
import { playPlaytest } from './playtestRunner.js';
import type { TurnResult } from '../session/turnTypes.js';
import type { NarratorChoice, Playtest, PlaytestReport, RunReport, TurnReport } from './playtestTypes.js';

export interface PlaytestSuiteOptions {
  readonly root: string;
  /** Further skills roots (the bundled sample skills). */
  readonly extraSkillRoots?: readonly string[];
  /** Overrides every playtest's own narrator. */
  readonly narrator?: NarratorChoice;
  /** Playtests at once (default: the CPU cores). */
  readonly jobs?: number;
  /** A local model file for the llm and auto narrators (default: the model cache). */
  readonly modelPath?: string;
  readonly modelDirectory?: string;
  readonly environment?: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
  /** Keeps each turn's transcript (as `narratoria run` prints it). */
  readonly transcriptStyle?: TextStyle;
  readonly onPlaytestStarted?: (playtest: Playtest) => void;
  readonly onTurnStarted?: (playtest: Playtest, index: number) => void;
  readonly onTurnFinished?: (playtest: Playtest, report: TurnReport) => void;
  readonly onPlaytestFinished?: (playtest: Playtest, report: PlaytestReport) => void;
  readonly onPlanRun?: (playtest: Playtest, run: PlanRun, turn: number, attempt: number) => void;
  readonly onLog?: (message: string) => void;
  /** Variables added to every skill script's environment (coverage's NODE_V8_COVERAGE). */
  readonly scriptEnvironment?: Readonly<Record<string, string>>;
  /** Keep each playtest's session (its file and its skills' data) in the story's .narratoria/sessions instead of deleting it. */
  readonly keepSessions?: boolean;
  /** Each turn's result as played (coverage counts what the skills did). */
  readonly onTurnPlayed?: (playtest: Playtest, result: TurnResult) => void;
  /**
   * The narrator of a kind, when the host already has one (the extension's loaded model); the suite then neither
   * creates nor disposes it. Default: each kind is created once for the run and disposed after.
   */
  readonly narratorFor?: (kind: NarratorChoice) => Promise<Pick<CreatedNarrator, 'narrator' | 'scriptEnvironment'> | undefined>;
}

/** Plays every playtest and reports. Narrators are created once per kind and disposed at the end. */
export async function runPlaytestSuite(playtests: readonly Playtest[], options: PlaytestSuiteOptions): Promise<RunReport> {
  const started = performance.now();
  /** Narrators this run created (and disposes), by kind. */
  const narrators = new Map<NarratorChoice, Promise<Pick<CreatedNarrator, 'narrator' | 'scriptEnvironment'>>>();
  const owned: Promise<CreatedNarrator>[] = [];
  const narratorFor = (kind: NarratorChoice) => {
    let found = narrators.get(kind);
    if (!found) {
      found = (async () => {
        const given = await options.narratorFor?.(kind);
        if (given) return given;
        const created = createNarrator({
          mode: kind,
          root: options.root,
          modelPath: options.modelPath,
          modelDirectory: options.modelDirectory,
          onLog: options.onLog,
        });
        owned.push(created);
        return created;
      })();
      narrators.set(kind, found);
    }
    return found;
  };
  const runStore = new FileRunStore(runsDirectory(options.root));
  const reports: PlaytestReport[] = new Array(playtests.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    // Skills of the worker's own, their health reset before each playtest (playPlaytest restarts the session): a skill
    // that fails in one playtest is not disabled in another, and the manifests are read once per worker, not per playtest.
    let registry: SkillRegistry | undefined;
    try {
      while (next < playtests.length && !options.signal?.aborted) {
        const position = next++;
        const playtest = playtests[position]!;
        options.onPlaytestStarted?.(playtest);
        registry ??= await SkillRegistry.load({ root: options.root, extraSkillRoots: options.extraSkillRoots, environment: options.environment });
        const choice = await narratorFor(options.narrator ?? playtest.narrator);
        const narratorNames = new Set(
          registry
            .narratorSkills()
            .filter(isNarrator)
            .map((skill) => skill.name),
        );
        reports[position] = await playPlaytest(playtest, {
          root: options.root,
          narrator: choice.narrator,
          skills: registry,
          narrators: narratorNames,
          execution: {
            extraSkillRoots: options.extraSkillRoots,
            skillContext: registry,
            extraEnv: { ...choice.scriptEnvironment, ...options.scriptEnvironment },
            runStore,
          },
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.transcriptStyle ? { transcriptStyle: options.transcriptStyle } : {}),
          ...(options.keepSessions ? { keepSession: true } : {}),
          onTurnStarted: (index) => options.onTurnStarted?.(playtest, index),
          onTurnFinished: (report) => options.onTurnFinished?.(playtest, report),
          onPlanRun: (run, turn, attempt) => options.onPlanRun?.(playtest, run, turn, attempt),
          ...(options.onTurnPlayed ? { onTurnPlayed: (result: TurnResult) => options.onTurnPlayed!(playtest, result) } : {}),
        });
        options.onPlaytestFinished?.(playtest, reports[position]!);
      }
    } finally {
      registry?.dispose();
    }
  };
  try {
    const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), playtests.length));
    await Promise.all(Array.from({ length: jobs }, () => worker()));
  } finally {
    await Promise.all(owned.map(async (choice) => (await choice.catch(() => undefined))?.narrator.dispose()));
  }
  const played = reports.filter((report): report is PlaytestReport => report !== undefined);
  return buildRunReport(playtests, played, Math.round(performance.now() - started));
}
