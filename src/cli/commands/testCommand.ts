// `narratoria test`: finds, checks and plays playtest files (in parallel up to --jobs), and reports as text, JSON (contracts/playtest-report.schema.json) or JUnit XML.
import { readFile, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { formatProblem, parsePlaytest } from '../../runtime/playtest/playtestDocument.js';
import { findPlaytests, resolvePlaytestArguments } from '../../runtime/playtest/playtestDiscovery.js';
import { formatJUnitReport, formatTextReport } from '../../runtime/playtest/playtestReport.js';
import { runPlaytestSuite } from '../../runtime/playtest/playtestSuite.js';
import type { NarratorChoice, Playtest, PlaytestProblem } from '../../runtime/playtest/playtestTypes.js';
import { updatedPlaytestText } from '../../runtime/playtest/playtestUpdate.js';
import { SkillRegistry } from '../../runtime/skills/skillRegistry.js';
import { brokenSkillReason } from '../../runtime/skills/skillProblems.js';
import { CoverageSession } from '../../runtime/coverage/coverageSession.js';
import { formatCoverageText } from '../../runtime/coverage/coverageOutput.js';
import type { TurnResult } from '../../runtime/session/turnTypes.js';
import { ExitCode, parseOptions, parsePositiveInteger, styler, toJson, UsageError, type CliIo } from '../cliSupport.js';
import { unusableSkillProblems, writeSkillProblems } from '../skillProblemLines.js';
import { plural } from '../../runtime/common/humanText.js';

const FORMATS = ['text', 'json', 'junit'] as const;
const NARRATORS: readonly NarratorChoice[] = ['pattern', 'llm', 'auto'];

/**
 * --update writes what happened into failed skills and outcome expectations; --coverage measures the skill scripts'
 * coverage (coverage/ under the root, the summary on stderr).
 */
export async function testCommand(args: readonly string[], io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, {
    root: { type: 'string' },
    narrator: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
    jobs: { type: 'string' },
    filter: { type: 'string' },
    update: { type: 'boolean' },
    coverage: { type: 'boolean' },
    'no-bundled-skills': { type: 'boolean' },
    keep: { type: 'boolean' },
  });
  const format = (values.format ?? 'text') as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be text, json or junit, not "${values.format}"`);
  const narrator = values.narrator as NarratorChoice | undefined;
  if (narrator !== undefined && !NARRATORS.includes(narrator)) throw new UsageError(`--narrator must be pattern, llm or auto, not "${values.narrator}"`);
  const jobs = parsePositiveInteger('jobs', values.jobs);
  const root = path.resolve(io.cwd, values.root ?? '.');
  let files: string[];
  try {
    files = positionals.length > 0 ? await resolvePlaytestArguments(positionals.map((given) => path.resolve(io.cwd, given))) : await findPlaytests(root);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const extraSkillRoots = values['no-bundled-skills'] || !io.bundledSkillsDirectory ? [] : [io.bundledSkillsDirectory];
  const environment = io.env as Record<string, string | undefined>;
  const registry = await SkillRegistry.load({ root, extraSkillRoots, environment });
  const skillNames = new Set(registry.skills.map((skill) => skill.name));
  const storySkills = registry.skills;
  // Broken skills are loud: listed before anything runs, and named where a playtest expects them.
  const brokenSkills = new Map(registry.brokenSkills.map((broken) => [broken.name, brokenSkillReason(broken, io.cwd)] as const));
  writeSkillProblems((line) => io.stderr.write(line), unusableSkillProblems(registry), io.cwd, styler(io.stderr, io.env));
  registry.dispose();

  // A campaign's play-through opens on its premise with choices: a first turn may play one of them.
  const opensWithChoices = (await stat(path.join(root, 'manifest.json')).catch(() => undefined))?.isFile() === true;
  // Every file is read and checked before anything runs: one bad file and nothing runs (exit 2).
  const playtests: Playtest[] = [];
  const problems: PlaytestProblem[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      problems.push({ file, code: 'UNREADABLE', message: (error as Error).message, line: 1, column: 1 });
      continue;
    }
    const parsed = parsePlaytest(file, text, skillNames, brokenSkills, opensWithChoices);
    problems.push(...parsed.problems);
    if (parsed.playtest) playtests.push(parsed.playtest);
  }
  if (problems.length > 0) {
    for (const problem of problems) io.stderr.write(`${formatProblem(problem, io.cwd)}\n`);
    io.stderr.write(`${plural(problems.length, 'problem')} in playtest files: nothing was run.\n`);
    return ExitCode.Usage;
  }
  const filter = values.filter?.toLowerCase();
  const selected =
    filter === undefined
      ? playtests
      : playtests.filter((playtest) => playtest.name.toLowerCase().includes(filter) || path.relative(root, playtest.file).toLowerCase().includes(filter));
  if (selected.length === 0)
    io.stderr.write(files.length === 0 ? `No playtest files (*.playtest.json) under ${root}.\n` : `No playtest matches --filter "${values.filter}".\n`);

  const style = styler(io.stdout, io.env);
  // --coverage: the scripts write V8 coverage (NODE_V8_COVERAGE, only now), written to <root>/coverage/ at the end.
  const coverage = values.coverage ? new CoverageSession(root, storySkills) : undefined;
  let report;
  try {
    report = await runPlaytestSuite(selected, {
      ...(coverage
        ? { scriptEnvironment: coverage.environment(), onTurnPlayed: (_playtest: Playtest, result: TurnResult) => coverage.recordTurn(result) }
        : {}),
      root,
      extraSkillRoots,
      environment,
      signal,
      ...(narrator ? { narrator } : {}),
      ...(jobs !== undefined ? { jobs } : {}),
      ...(values.keep ? { keepSessions: true } : {}),
      ...(io.env['NARRATORIA_MODEL_DIR'] ? { modelDirectory: io.env['NARRATORIA_MODEL_DIR'] } : {}),
    });
    if (coverage) io.stderr.write(formatCoverageText(await coverage.finish(root), styler(io.stderr, io.env)));
  } finally {
    coverage?.dispose();
  }

  const text =
    format === 'json'
      ? toJson(report)
      : format === 'junit'
        ? formatJUnitReport(report, io.cwd)
        : formatTextReport(report, values.out ? styler({}, {}) : style, io.cwd);
  if (values.out !== undefined) {
    await writeFile(path.resolve(io.cwd, values.out), text);
    const { passed, failed, errors } = report.summary;
    io.stdout.write(`${passed} passed, ${failed + errors} failed (report in ${values.out})\n`);
  } else {
    io.stdout.write(text);
  }
  if (values.update) {
    for (const playtest of report.playtests) {
      const original = await readFile(playtest.file, 'utf8');
      const updated = updatedPlaytestText(original, playtest);
      if (updated === undefined) continue;
      await writeFile(playtest.file, updated);
      io.stderr.write(`updated ${path.relative(io.cwd, playtest.file) || playtest.file}\n`);
    }
  }
  if (signal.aborted) return ExitCode.Failure;
  return report.summary.failed + report.summary.errors > 0 ? ExitCode.Failure : ExitCode.Success;
}
