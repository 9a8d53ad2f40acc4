// What the Skills view shows after a coverage run: per skill its selections and script runs, per script its runs, and which were never exercised. Pure, from a CoverageResult.
import { plural } from '../common/humanText.js';
import type { CoverageResult } from './coverageTypes.js';

/** How much one skill was exercised by the last coverage run. */
export interface SkillExercise {
  /** Turns whose plan chose the skill. */
  readonly selected: number;
  /** Runs of all its scripts. */
  readonly runs: number;
  /** Its scripts' runs, by script id ("dice-roller/roll"). */
  readonly scriptRuns: ReadonlyMap<string, number>;
}

/** The exercise of every skill the run knew, by skill name. */
export function skillExercise(result: CoverageResult): ReadonlyMap<string, SkillExercise> {
  const bySkill = new Map<string, SkillExercise>();
  for (const skill of result.skills) {
    const scriptRuns = new Map(skill.scriptDetails.map((script) => [script.script, script.runs] as const));
    const runs = [...scriptRuns.values()].reduce((sum, count) => sum + count, 0);
    bySkill.set(skill.skill, { selected: skill.selected, runs, scriptRuns });
  }
  return bySkill;
}

/** A skill's line in the tree: "12 runs" or "never exercised"; undefined when the run did not know the skill. */
export function exerciseText(exercise: SkillExercise | undefined): string | undefined {
  if (!exercise) return undefined;
  if (exercise.selected === 0 && exercise.runs === 0) return 'never exercised';
  return plural(exercise.runs, 'run');
}

/** A script's line in the tree: "3 runs" or "never run"; undefined when the run did not know its skill. */
export function scriptRunsText(exercise: SkillExercise | undefined, scriptId: string): string | undefined {
  if (!exercise) return undefined;
  const runs = exercise.scriptRuns.get(scriptId) ?? 0;
  return runs === 0 ? 'never run' : plural(runs, 'run');
}
