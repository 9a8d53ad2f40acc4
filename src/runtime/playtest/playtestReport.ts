// The report of a playtest run: its summary (with the narrator's skill selection over the turns that expect skills), and the report as text or JUnit XML.
import * as path from 'node:path';
import type { TextStyle } from '../common/textStyle.js';
import type { Playtest, PlaytestReport, RunReport, SelectionSummary } from './playtestTypes.js';
import { formatDuration } from '../common/humanText.js';

/** The whole run's report: each playtest's, and the summary. */
export function buildRunReport(playtests: readonly Playtest[], reports: readonly PlaytestReport[], durationMs: number): RunReport {
  return {
    playtests: reports,
    summary: {
      passed: reports.filter((report) => report.status === 'passed').length,
      failed: reports.filter((report) => report.status === 'failed').length,
      errors: reports.filter((report) => report.status === 'error').length,
      durationMs,
      selection: selectionOf(playtests, reports),
    },
  };
}

/** Over the turns that have `expect.skills`: how many held, and per skill how often it was expected, chosen, and both. */
function selectionOf(playtests: readonly Playtest[], reports: readonly PlaytestReport[]): SelectionSummary {
  const bySkill: Record<string, { expected: number; chosen: number; right: number }> = {};
  const count = (skill: string) => (bySkill[skill] ??= { expected: 0, chosen: 0, right: 0 });
  let turns = 0;
  let right = 0;
  for (const report of reports) {
    const playtest = playtests.find((candidate) => candidate.file === report.file);
    for (const turn of report.turns) {
      const expected = playtest?.turns[turn.index - 1]?.expect.skills;
      if (!expected || turn.status === 'skipped' || turn.attempts === 0) continue;
      turns++;
      if (!turn.failures.some((failure) => failure.expectation === 'skills')) right++;
      for (const skill of expected) {
        count(skill).expected++;
        if (turn.skills.includes(skill)) count(skill).right++;
      }
      for (const skill of turn.skills) count(skill).chosen++;
    }
  }
  return { turns, right, bySkill: Object.fromEntries(Object.entries(bySkill).sort(([left], [right]) => left.localeCompare(right))) };
}

/** Each turn ✔/✖ with each failed expectation (expected, actual, file:line:column), then `N passed, N failed`. */
export function formatTextReport(report: RunReport, style: TextStyle, relativeTo: string): string {
  const lines: string[] = [];
  for (const playtest of report.playtests) {
    const file = path.relative(relativeTo, playtest.file) || playtest.file;
    const mark = playtest.status === 'passed' ? style.green('✔') : style.red('✖');
    lines.push(
      `${mark} ${style.bold(playtest.name)} ${style.dim(`${file} · seed ${playtest.seed} · ${playtest.narrator} · ${formatDuration(playtest.durationMs)}`)}`,
    );
    if (playtest.error) lines.push(`  ${style.red('error:')} ${playtest.error}`);
    for (const turn of playtest.turns) {
      const turnMark = turn.status === 'passed' ? style.green('✔') : style.red('✖');
      const input = turn.choice !== undefined ? `choice ${turn.choice}${turn.input ? `: ${turn.input}` : ''}` : turn.input;
      lines.push(`  ${turnMark} turn ${turn.index}: ${input} ${style.dim(`[${turn.skills.join(', ')}]${turn.outcome ? ` ${turn.outcome}` : ''}`)}`);
      for (const failure of turn.failures) {
        lines.push(`      ${style.red(failure.expectation)}: ${failure.message}`);
        if (failure.expected !== undefined) lines.push(`        expected: ${shown(failure.expected)}`);
        if (failure.actual !== undefined) lines.push(`        actual:   ${shown(failure.actual)}`);
        lines.push(`        at ${file}:${failure.line}:${failure.column}`);
      }
    }
  }
  const { passed, failed, errors } = report.summary;
  const selection = report.summary.selection;
  if (selection.turns > 0) lines.push(style.dim(`skill selection: ${selection.right}/${selection.turns} turns as expected`));
  lines.push(`${passed} passed, ${failed + errors} failed${errors > 0 ? ` (${errors} could not be played)` : ''}`);
  return `${lines.join('\n')}\n`;
}

/** JUnit XML: one testsuite per playtest file, one testcase per turn; a failure carries its message and its expected and actual values. */
export function formatJUnitReport(report: RunReport, relativeTo: string): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const { errors } = report.summary;
  const testCount = report.playtests.reduce((sum, playtest) => sum + playtest.turns.length, 0);
  const failureCount = report.playtests.reduce((sum, playtest) => sum + playtest.turns.filter((turn) => turn.status === 'failed').length, 0);
  lines.push(
    `<testsuites name="narratoria playtests" tests="${testCount}" failures="${failureCount}" errors="${errors}" time="${seconds(report.summary.durationMs)}">`,
  );
  for (const playtest of report.playtests) {
    const file = path.relative(relativeTo, playtest.file) || playtest.file;
    const failures = playtest.turns.filter((turn) => turn.status === 'failed').length;
    const counts = `tests="${playtest.turns.length}" failures="${failures}" errors="${playtest.status === 'error' ? 1 : 0}"`;
    lines.push(`  <testsuite name="${xml(playtest.name)}" file="${xml(file)}" ${counts} time="${seconds(playtest.durationMs)}">`);
    if (playtest.error) lines.push(`    <error message="${xml(playtest.error)}"/>`);
    for (const turn of playtest.turns) {
      const name = `turn ${turn.index}: ${turn.choice !== undefined ? `choice ${turn.choice}` : turn.input}`;
      const open = `    <testcase name="${xml(name)}" classname="${xml(playtest.name)}" file="${xml(file)}" time="${seconds(turn.durationMs ?? 0)}"`;
      if (turn.failures.length === 0) {
        lines.push(`${open}/>`);
        continue;
      }
      lines.push(`${open}>`);
      for (const failure of turn.failures) {
        const body = [
          `${failure.message}`,
          `expected: ${shown(failure.expected)}`,
          `actual: ${shown(failure.actual)}`,
          `at ${file}:${failure.line}:${failure.column}`,
        ].join('\n');
        lines.push(`      <failure message="${xml(failure.message)}" type="${xml(failure.expectation)}">${xml(body)}</failure>`);
      }
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? 'undefined');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Text for an XML attribute or element: the five special characters escaped, control characters (not allowed in XML 1.0) dropped. */
function xml(text: string): string {
  return text

    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
