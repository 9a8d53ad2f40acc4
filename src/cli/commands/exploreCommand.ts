// `narratoria explore`: plays seeded sessions of simulated players over the story (in parallel up to --jobs), reports problems, and saves each problem session as a playtest under --out.
import * as path from 'node:path';
import { exploreStory, EXPLORE_DEFAULTS } from '../../runtime/explore/explorer.js';
import { formatExploreText } from '../../runtime/explore/exploreReport.js';
import type { ExploreProgress } from '../../runtime/explore/exploreTypes.js';
import type { NarratorChoice } from '../../runtime/playtest/playtestTypes.js';
import { MAX_SEED } from '../../runtime/common/seed.js';
import { ExitCode, parseFormat, parseOptions, parsePositiveInteger, styler, toJson, UsageError, type CliIo } from '../cliSupport.js';
import { plural } from '../../runtime/common/humanText.js';

const NARRATORS: readonly NarratorChoice[] = ['pattern', 'llm', 'auto'];

/** --seed: an integer from 0 to 2^32 - 1. */
function parseSeed(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > MAX_SEED) throw new UsageError(`--seed must be an integer from 0 to ${MAX_SEED}, not "${value}"`);
  return Number(value);
}

/** Progress on stderr: one line redrawn in a terminal, else a line at most every two seconds. */
function progressWriter(io: CliIo): { readonly report: (progress: ExploreProgress) => void; readonly end: () => void } {
  const terminal = Boolean(io.stderr.isTTY);
  let last = 0;
  let drawn = false;
  const text = (progress: ExploreProgress) =>
    `explore: ${progress.sessionsDone}/${progress.sessionsTotal} sessions, ${progress.turnsPlayed} turns, ${plural(progress.problems, 'problem')}`;
  return {
    report: (progress) => {
      const now = Date.now();
      if (now - last < (terminal ? 100 : 2000) && progress.sessionsDone < progress.sessionsTotal) return;
      last = now;
      if (terminal) {
        io.stderr.write(`\r\u001b[2K${text(progress)}`);
        drawn = true;
      } else {
        io.stderr.write(`${text(progress)}\n`);
      }
    },
    end: () => {
      if (drawn) io.stderr.write('\n');
    },
  };
}

/** With --coverage it also measures the skill scripts' coverage. Progress goes to stderr; Ctrl+C stops with a partial report. */
export async function exploreCommand(args: readonly string[], io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, {
    root: { type: 'string' },
    runs: { type: 'string' },
    turns: { type: 'string' },
    seed: { type: 'string' },
    narrator: { type: 'string' },
    jobs: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
    coverage: { type: 'boolean' },
    'no-bundled-skills': { type: 'boolean' },
    keep: { type: 'boolean' },
  });
  if (positionals.length > 0) throw new UsageError(`explore takes no file arguments (got "${positionals[0]}")`);
  const runs = parsePositiveInteger('runs', values.runs) ?? EXPLORE_DEFAULTS.runs;
  const turns = parsePositiveInteger('turns', values.turns) ?? EXPLORE_DEFAULTS.turns;
  const seed = parseSeed(values.seed) ?? EXPLORE_DEFAULTS.seed;
  const jobs = parsePositiveInteger('jobs', values.jobs);
  const format = parseFormat(values.format);
  const narrator = (values.narrator ?? EXPLORE_DEFAULTS.narrator) as NarratorChoice;
  if (!NARRATORS.includes(narrator)) throw new UsageError(`--narrator must be pattern, llm or auto, not "${values.narrator}"`);
  const root = path.resolve(io.cwd, values.root ?? '.');
  const outDirectory = values.out !== undefined ? path.resolve(io.cwd, values.out) : undefined;

  const progress = progressWriter(io);
  const result = await exploreStory({
    root,
    extraSkillRoots: values['no-bundled-skills'] || !io.bundledSkillsDirectory ? [] : [io.bundledSkillsDirectory],
    runs,
    turns,
    seed,
    narrator,
    jobs,
    outDirectory,
    coverage: values.coverage === true,
    keepSessions: values.keep === true,
    environment: io.env as Record<string, string | undefined>,
    ...(io.env['NARRATORIA_MODEL_DIR'] ? { modelDirectory: io.env['NARRATORIA_MODEL_DIR'] } : {}),
    signal,
    onProgress: progress.report,
    onLog: (message) => io.stderr.write(`explore: ${message}\n`),
  });
  progress.end();
  const { report } = result;
  io.stdout.write(format === 'json' ? toJson(report) : formatExploreText(report, styler(io.stdout, io.env), result.coverage));
  if (report.cancelled) io.stderr.write('explore: cancelled; the report covers the sessions played so far.\n');
  return report.problems.total > 0 || report.cancelled ? ExitCode.Failure : ExitCode.Success;
}
