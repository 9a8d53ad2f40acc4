// Turns one file's merged V8 coverage into istanbul-shaped data with v8-to-istanbul (source maps of TypeScript loaders included), and counts lines, statements, branches and functions.
import * as path from 'node:path';
import type { FunctionCov } from '@bcoe/v8-coverage';
import v8ToIstanbul from 'v8-to-istanbul';
import type { BranchDetail, CoverageCount, FileCoverageData, FunctionDetail, CoverageRange, StatementDetail } from './coverageTypes.js';
import { relativeInside } from '../common/pathContainment.js';

interface IstanbulRange {
  readonly start: { readonly line: number; readonly column: number };
  readonly end: { readonly line: number; readonly column: number };
}

/** The parts of istanbul's FileCoverageData this module reads. */
interface IstanbulFile {
  readonly statementMap: Record<string, IstanbulRange>;
  readonly s: Record<string, number>;
  readonly branchMap: Record<string, { readonly locations: readonly IstanbulRange[]; readonly loc: IstanbulRange }>;
  readonly b: Record<string, readonly number[]>;
  readonly fnMap: Record<string, { readonly name: string; readonly loc: IstanbulRange; readonly decl: IstanbulRange }>;
  readonly f: Record<string, number>;
}

/** The file's coverage, or undefined when its source cannot be read. */
export async function toFileCoverage(
  file: string,
  root: string,
  skill: string,
  functions: readonly FunctionCov[],
  sourceMap: { readonly lineLengths?: readonly number[]; readonly data?: unknown } | undefined,
): Promise<FileCoverageData | undefined> {
  const sources =
    sourceMap?.data && sourceMap.lineLengths
      ? { source: sourceMap.lineLengths.map((length) => ' '.repeat(length)).join('\n'), originalSource: '', sourceMap: { sourcemap: sourceMap.data as never } }
      : undefined;
  const converter = sources ? v8ToIstanbul(file, 0, sources) : v8ToIstanbul(file, 0);
  try {
    await converter.load();
    converter.applyCoverage(functions as never);
    const map = converter.toIstanbul() as unknown as Record<string, IstanbulFile>;
    const data = map[file] ?? Object.values(map)[0];
    if (!data) return undefined;
    return fromIstanbul(file, root, skill, data);
  } catch {
    return undefined;
  } finally {
    converter.destroy();
  }
}

/** The path relative to the story root with forward slashes, or the absolute path of a file outside it (bundled skills). */
export function shownPath(root: string, file: string): string {
  const relative = relativeInside(file, root);
  return relative === undefined ? file : relative.split(path.sep).join('/');
}

function range(location: IstanbulRange): CoverageRange {
  return { start: { line: location.start.line, character: location.start.column }, end: { line: location.end.line, character: location.end.column } };
}

function count(values: readonly number[]): CoverageCount {
  return { covered: values.filter((value) => value > 0).length, total: values.length };
}

function fromIstanbul(file: string, root: string, skill: string, data: IstanbulFile): FileCoverageData {
  const statements: StatementDetail[] = Object.entries(data.statementMap).map(([key, location]) => ({ range: range(location), count: data.s[key] ?? 0 }));
  const branches: BranchDetail[] = [];
  for (const [key, branch] of Object.entries(data.branchMap)) {
    branch.locations.forEach((location, arm) => branches.push({ range: range(location), count: data.b[key]?.[arm] ?? 0, branch: Number(key) }));
  }
  const functions: FunctionDetail[] = Object.entries(data.fnMap).map(([key, fn]) => ({
    name: fn.name,
    range: range(fn.decl ?? fn.loc),
    count: data.f[key] ?? 0,
  }));
  // A line is covered when any statement on it ran (v8-to-istanbul makes one statement per line).
  const lineHits = new Map<number, number>();
  for (const statement of statements) lineHits.set(statement.range.start.line, Math.max(lineHits.get(statement.range.start.line) ?? 0, statement.count));
  return {
    file,
    relativePath: shownPath(root, file),
    skill,
    lines: count([...lineHits.values()]),
    statements: count(statements.map((statement) => statement.count)),
    branches: count(branches.map((branch) => branch.count)),
    functions: count(functions.map((fn) => fn.count)),
    details: { statements, branches, functions },
  };
}
