// Writes a coverage result: coverage/lcov.info (lines, functions and branches of each file, absolute paths) and coverage/coverage-summary.json, and the summary as text.
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { writeFileAtomic } from '../common/atomicWrite.js';
import type { TextStyle } from '../common/textStyle.js';
import type { CoverageCount, CoverageResult, CoverageTotals, FileCoverageData } from './coverageTypes.js';
import { plural } from '../common/humanText.js';

/** The totals over the files. */
export function coverageTotals(files: readonly FileCoverageData[]): CoverageTotals {
  const sum = (pick: (file: FileCoverageData) => CoverageCount): CoverageCount => ({
    covered: files.reduce((total, file) => total + pick(file).covered, 0),
    total: files.reduce((total, file) => total + pick(file).total, 0),
  });
  return {
    lines: sum((file) => file.lines),
    statements: sum((file) => file.statements),
    branches: sum((file) => file.branches),
    functions: sum((file) => file.functions),
  };
}

/** lcov.info text (the tracefile format genhtml, Codecov and coverage gutters read). */
export function lcovText(files: readonly FileCoverageData[]): string {
  const lines: string[] = [];
  for (const file of files) {
    lines.push('TN:', `SF:${file.file}`);
    for (const fn of file.details.functions) lines.push(`FN:${fn.range.start.line},${fn.name || '(anonymous)'}`);
    for (const fn of file.details.functions) lines.push(`FNDA:${fn.count},${fn.name || '(anonymous)'}`);
    lines.push(`FNF:${file.functions.total}`, `FNH:${file.functions.covered}`);
    const arms = new Map<number, number>();
    for (const branch of file.details.branches) {
      const arm = arms.get(branch.branch) ?? 0;
      arms.set(branch.branch, arm + 1);
      lines.push(`BRDA:${branch.range.start.line},${branch.branch},${arm},${branch.count}`);
    }
    lines.push(`BRF:${file.branches.total}`, `BRH:${file.branches.covered}`);
    const hits = new Map<number, number>();
    for (const statement of file.details.statements) hits.set(statement.range.start.line, Math.max(hits.get(statement.range.start.line) ?? 0, statement.count));
    for (const [line, count] of [...hits].sort(([left], [right]) => left - right)) lines.push(`DA:${line},${count}`);
    lines.push(`LF:${file.lines.total}`, `LH:${file.lines.covered}`, 'end_of_record');
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** The summary written beside lcov.info: totals, each file's counts, skill coverage. */
export function coverageSummary(result: Omit<CoverageResult, 'lcovFile' | 'summaryFile'>): Record<string, unknown> {
  return {
    totals: result.totals,
    files: result.files.map((file) => ({
      file: file.relativePath,
      skill: file.skill,
      lines: file.lines,
      statements: file.statements,
      branches: file.branches,
      functions: file.functions,
    })),
    skills: result.skills,
    skillCoverageOnly: result.skillCoverageOnly,
  };
}

/** Writes `<folder>/coverage/lcov.info` and `<folder>/coverage/coverage-summary.json`; the result with their paths. */
export async function writeCoverage(result: CoverageResult, folder: string): Promise<CoverageResult> {
  const directory = path.join(folder, 'coverage');
  await mkdir(directory, { recursive: true });
  const lcovFile = path.join(directory, 'lcov.info');
  const summaryFile = path.join(directory, 'coverage-summary.json');
  await writeFileAtomic(lcovFile, lcovText(result.files));
  await writeFileAtomic(summaryFile, `${JSON.stringify(coverageSummary(result), null, 2)}\n`);
  return { ...result, lcovFile, summaryFile };
}

export function percent(count: CoverageCount): string {
  return count.total === 0 ? '-' : `${((100 * count.covered) / count.total).toFixed(1)}%`;
}

/** The summary as text: totals, each file, each skill's scripts, and the scripts with skill coverage only. */
export function formatCoverageText(result: CoverageResult, style: TextStyle): string {
  const lines: string[] = [style.bold('Coverage of skill scripts')];
  const cells = (count: CoverageCount) => `${percent(count).padStart(6)} (${count.covered}/${count.total})`;
  lines.push(`  ${'file'.padEnd(48)} ${'lines'.padEnd(16)} ${'branches'.padEnd(16)} functions`);
  for (const file of result.files)
    lines.push(`  ${file.relativePath.padEnd(48)} ${cells(file.lines).padEnd(16)} ${cells(file.branches).padEnd(16)} ${cells(file.functions)}`);
  lines.push(
    `  ${'all files'.padEnd(48)} ${cells(result.totals.lines).padEnd(16)} ${cells(result.totals.branches).padEnd(16)} ${cells(result.totals.functions)}`,
  );
  for (const skill of result.skills) {
    lines.push(`  skill ${skill.skill}: ${skill.scripts.covered}/${skill.scripts.total} scripts run, events ${skill.eventTypes.join(', ') || 'none'}`);
    for (const script of skill.scriptDetails) {
      const given =
        script.inputProperties.declared.length > 0
          ? `, input properties given ${script.inputProperties.given.filter((name) => script.inputProperties.declared.includes(name)).length}/${script.inputProperties.declared.length}`
          : '';
      lines.push(
        `    ${script.script}: ${plural(script.runs, 'run')}${given}${script.lineCoverage ? '' : style.dim(' (not JavaScript: skill coverage only)')}`,
      );
    }
  }
  if (result.skillCoverageOnly.length > 0)
    lines.push(style.dim(`  skill coverage only (not JavaScript or TypeScript): ${result.skillCoverageOnly.join(', ')}`));
  if (result.lcovFile) lines.push(style.dim(`  lcov: ${result.lcovFile}`));
  return `${lines.join('\n')}\n`;
}
