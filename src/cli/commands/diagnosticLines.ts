// How the CLI prints a diagnostic (compiler-style lines) and the warnings of broken skills a plan does not use; shared by validate and run.
import { isPathInside, pathFromRoot } from '../../runtime/common/pathContainment.js';
import type { BrokenSkill, SkillProblem } from '../../runtime/skills/skillTypes.js';
import type { ReportDiagnostic } from '../../runtime/validation/diagnostic.js';
import { styler } from '../cliSupport.js';

/** A problem of a broken skill.json the plan does not use: a warning in that file (relative to `base` when inside it). */
export function brokenSkillWarning(problem: SkillProblem, base: string): ReportDiagnostic {
  return {
    severity: 'warning',
    code: problem.code,
    message: problem.message,
    pointer: problem.pointer ?? '',
    line: problem.line ?? null,
    column: problem.column ?? null,
    endLine: problem.endLine ?? null,
    endColumn: problem.endColumn ?? null,
    ...(problem.file !== undefined ? { file: pathFromRoot(problem.file, base) } : {}),
  };
}

/** The broken skills a plan does not use: none of its resolved scripts lies in their folders. */
export function unusedBrokenSkills(brokenSkills: readonly BrokenSkill[], scripts: Iterable<string>): BrokenSkill[] {
  const used = [...scripts];
  return brokenSkills.filter((broken) => !used.some((script) => isPathInside(script, broken.realDirectory)));
}

/** Compiler-style lines (`file:line:column: severity CODE: message`) that terminals and VS Code make clickable. */
export function formatDiagnostic(file: string, diagnostic: ReportDiagnostic, style = styler({}, {})): string {
  const shown = diagnostic.file ?? file;
  const where = diagnostic.line !== null ? `${shown}:${diagnostic.line}:${diagnostic.column}` : shown;
  const colour = diagnostic.severity === 'error' ? style.red : diagnostic.severity === 'warning' ? style.yellow : style.blue;
  const pointer = diagnostic.pointer ? style.dim(` (at ${diagnostic.pointer})`) : '';
  return `${where}: ${colour(diagnostic.severity)} ${style.bold(diagnostic.code)}: ${diagnostic.message}${pointer}\n`;
}
