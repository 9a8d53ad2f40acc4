// The report of an exploration: built from the counts and the failed sessions (contracts/explore-report.schema.json), and printed as text.
import type { TextStyle } from '../common/textStyle.js';
import { formatCoverageText, percent } from '../coverage/coverageOutput.js';
import type { CoverageResult } from '../coverage/coverageTypes.js';
import { PROTOCOL_EVENT_TYPES, type KnownScript, type SkillUsage } from '../coverage/skillUsage.js';
import type { BrokenSkillReport, ExploreReport, ExploreStoryReport, FailedSession, ProblemKind, ToolFailureCategory } from './exploreTypes.js';
import { storyText } from './exploreBeatsText.js';
import { plural } from '../common/humanText.js';

export interface ReportParts {
  readonly root: string;
  readonly options: ExploreReport['options'];
  readonly cancelled: boolean;
  readonly played: number;
  readonly turnsPlayed: number;
  readonly failed: readonly FailedSession[];
  readonly byKind: Readonly<Record<ProblemKind, number>>;
  readonly toolFailures: Readonly<Record<ToolFailureCategory, number>>;
  readonly brokenSkills: readonly BrokenSkillReport[];
  readonly skills: readonly string[];
  readonly known: readonly KnownScript[];
  readonly usage: SkillUsage;
  readonly coverage: CoverageResult | undefined;
  readonly outDirectory: string;
  readonly story?: ExploreStoryReport;
  readonly durationMs: number;
}

export function buildExploreReport(parts: ReportParts): ExploreReport {
  const declared = parts.known.filter((script) => script.declared).sort((left, right) => left.id.localeCompare(right.id));
  const scripts = declared.map((script) => {
    const usage = parts.usage.scriptUsage(script.id);
    return {
      script: script.id,
      skill: script.skill,
      toolPath: script.toolPath,
      runs: usage.runs,
      failures: usage.failures,
      p50Ms: usage.p50Ms,
      p95Ms: usage.p95Ms,
      eventTypes: usage.eventTypes,
      uiEvents: usage.uiEvents,
    };
  });
  const total = Object.values(parts.byKind).reduce((sum, count) => sum + count, 0);
  return {
    formatVersion: 1,
    root: parts.root,
    options: parts.options,
    cancelled: parts.cancelled,
    sessions: { played: parts.played, turns: parts.turnsPlayed, withProblems: parts.failed.length },
    problems: { total, byKind: parts.byKind, toolFailures: parts.toolFailures, brokenSkills: parts.brokenSkills },
    failedSessions: parts.failed,
    neverSelectedSkills: [...parts.skills].filter((skill) => parts.usage.timesSelected(skill) === 0).sort(),
    neverRunScripts: scripts.filter((script) => script.runs === 0).map((script) => script.script),
    eventTypesNeverEmitted: Object.fromEntries(
      scripts.map((script) => [script.script, PROTOCOL_EVENT_TYPES.filter((type) => !script.eventTypes.includes(type))]),
    ),
    stateKeysBySkill: parts.usage.stateKeysBySkill(),
    scripts,
    ...(parts.coverage
      ? {
          coverage: {
            totals: parts.coverage.totals,
            files: parts.coverage.files.map(({ details: _details, file: _file, ...file }) => file),
            skills: parts.coverage.skills,
            skillCoverageOnly: parts.coverage.skillCoverageOnly,
            ...(parts.coverage.lcovFile ? { lcovFile: parts.coverage.lcovFile } : {}),
            ...(parts.coverage.summaryFile ? { summaryFile: parts.coverage.summaryFile } : {}),
          },
        }
      : {}),
    ...(parts.story ? { story: parts.story } : {}),
    outDirectory: parts.outDirectory,
    durationMs: parts.durationMs,
  };
}

/** The report for a terminal: what was played, the problems and their playtests, the skills and scripts left unexercised, per-script figures, coverage. */
export function formatExploreText(report: ExploreReport, style: TextStyle, coverage?: CoverageResult): string {
  const lines: string[] = [];
  const { options, sessions, problems } = report;
  const cancelled = report.cancelled ? style.yellow(' — cancelled, partial report') : '';
  const played = `Explored ${plural(sessions.played, 'session')} (${sessions.turns} turns) of up to ${options.turns} turns`;
  lines.push(style.bold(`${played}, seed ${options.seed}, ${options.narrator} narrator${cancelled}`));
  if (problems.total === 0) {
    lines.push(style.green('✔ no problem found'));
  } else {
    const where = sessions.withProblems > 0 ? ` in ${plural(sessions.withProblems, 'session')}` : '';
    lines.push(style.red(`✖ ${plural(problems.total, 'problem')}${where}`));
    for (const [kind, count] of Object.entries(problems.byKind)) if (count > 0) lines.push(`  ${kind.replace(/_/g, ' ')}: ${count}`);
    for (const broken of problems.brokenSkills ?? []) {
      for (const problem of broken.problems) {
        const at = problem.line !== undefined ? `${broken.file}:${problem.line}:${problem.column ?? 1}` : broken.file;
        lines.push(`    ${at}: ${style.red('error')} ${problem.code}: ${problem.message}`);
      }
    }
    for (const [category, count] of Object.entries(problems.toolFailures))
      if (count > 0) lines.push(`    tool failures, ${category.replace(/_/g, ' ')}: ${count}`);
    for (const session of report.failedSessions) {
      lines.push(`  session ${session.index} (seed ${session.seed}, ${plural(session.turns, 'turn')})${session.playtest ? ` → ${session.playtest}` : ''}`);
      for (const problem of session.problems) {
        const input = session.inputs.find((played) => played.turn === problem.turn);
        lines.push(`    ${style.red(problem.kind)} turn ${problem.turn}${input ? ` ${style.dim(JSON.stringify(input.input))}` : ''}: ${problem.message}`);
      }
      if (session.droppedProblems > 0) lines.push(style.dim(`    … and ${session.droppedProblems} more`));
    }
  }
  if (report.story) lines.push(...storyText(report.story, style));
  lines.push(`skills never selected: ${report.neverSelectedSkills.join(', ') || 'none'}`);
  lines.push(`scripts never run: ${report.neverRunScripts.join(', ') || 'none'}`);
  const silent = Object.entries(report.eventTypesNeverEmitted).filter(([script]) => !report.neverRunScripts.includes(script));
  if (silent.length > 0) {
    lines.push('event types never emitted:');
    for (const [script, types] of silent) lines.push(`  ${script}: ${types.join(', ') || 'none'}`);
  }
  const written = Object.entries(report.stateKeysBySkill);
  if (written.length > 0) {
    lines.push('state keys written:');
    for (const [skill, keys] of written) lines.push(`  ${skill}: ${keys.join(', ')}`);
  }
  lines.push(`${'script'.padEnd(34)} ${'runs'.padStart(6)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'failures'.padStart(8)}`);
  for (const script of report.scripts) {
    lines.push(
      `${script.script.padEnd(34)} ${String(script.runs).padStart(6)} ${`${script.p50Ms} ms`.padStart(8)} ${`${script.p95Ms} ms`.padStart(8)} ${String(script.failures).padStart(8)}`,
    );
  }
  if (coverage) lines.push(formatCoverageText(coverage, style).trimEnd());
  else if (report.coverage)
    lines.push(
      `coverage: lines ${percent(report.coverage.totals.lines)}, branches ${percent(report.coverage.totals.branches)}, functions ${percent(report.coverage.totals.functions)}`,
    );
  lines.push(style.dim(`${(report.durationMs / 1000).toFixed(1)} s`));
  return `${lines.join('\n')}\n`;
}
