// Skill problems in a command's output: each as a compiler-style line (file:line:column: severity CODE: message) that terminals and VS Code make clickable. Formatting only.
import { problemLocation } from '../runtime/skills/skillProblems.js';
import type { BrokenSkill, SkillProblem } from '../runtime/skills/skillTypes.js';
import type { Styler } from './cliSupport.js';

/** What a command knows of the story's skills: a SkillRegistry fits. */
export interface SkillProblemSource {
  readonly problems: readonly SkillProblem[];
  readonly brokenSkills: readonly BrokenSkill[];
}

/**
 * The problems that leave a skill unusable: every problem of a broken skill.json, then every other `error`
 * (a missing script, an invalid config), in discovery order.
 */
export function unusableSkillProblems(source: SkillProblemSource): SkillProblem[] {
  const broken = source.brokenSkills.flatMap((skill) => skill.problems);
  return [...broken, ...source.problems.filter((problem) => problem.severity === 'error' && !broken.includes(problem))];
}

/** One problem as a line (with its newline): the file relative to `base` (the working directory) when inside it. */
export function skillProblemLine(problem: SkillProblem, base: string, style: Styler, severity: 'error' | 'warning' = problem.severity): string {
  const where = problemLocation(problem, base);
  const colour = severity === 'error' ? style.red : style.yellow;
  return `${where ? `${where}: ` : ''}${colour(severity)} ${style.bold(problem.code)}: ${problem.message}\n`;
}

/** Writes each problem as a line; returns how many were written. */
export function writeSkillProblems(
  write: (text: string) => unknown,
  problems: readonly SkillProblem[],
  base: string,
  style: Styler,
  severity?: 'error' | 'warning',
): number {
  for (const problem of problems) write(skillProblemLine(problem, base, style, severity));
  return problems.length;
}
