// Which catalogued toolPaths a missing toolPath probably meant: the closest path, then scripts of the skill its `skills/<name>/` segment names, then scripts with its file name. Pure.
import * as path from 'node:path';
import type { SkillCatalog } from '../skills/skillCatalog.js';
import { closestMatch, editDistance } from '../validation/closestMatch.js';
import { skillNameOfPath } from '../validation/toolPathPolicy.js';

/** A replacement toolPath; `close` when it is within typo distance of the whole path. */
export interface ToolPathSuggestion {
  readonly toolPath: string;
  readonly close: boolean;
}

/**
 * Up to `limit` catalogued toolPaths for a toolPath that names no file, best first: the closest
 * whole path (when it is a likely typo), the scripts of the skill named by (or closest to) the
 * path's skill segment (or the only skill name it begins) by script-name distance, then scripts of other skills with the same file or
 * script name.
 */
export function suggestToolPaths(toolPath: string, catalog: SkillCatalog, limit = 3): ToolPathSuggestion[] {
  const wanted = toolPath.replace(/\\/g, '/').replace(/^\.\//, '');
  const scripts = catalog.skills.flatMap((skill) => skill.scripts.map((script) => ({ skill, script })));
  const all = [...new Set(scripts.map(({ script }) => script.toolPath))].filter((candidate) => candidate !== wanted);
  const found: ToolPathSuggestion[] = [];
  const add = (candidate: string, close: boolean): void => {
    if (candidate !== wanted && !found.some((suggestion) => suggestion.toolPath === candidate)) found.push({ toolPath: candidate, close });
  };
  const closest = closestMatch(wanted, all);
  if (closest !== undefined) add(closest, true);

  const fileName = path.posix.basename(wanted);
  const stem = fileName.replace(/\.[^.]*$/, '');
  const segment = skillNameOfPath(wanted);
  const skillNames = catalog.skills.map((skill) => skill.name);
  const skillName =
    segment === null ? undefined : skillNames.includes(segment) ? segment : (closestMatch(segment, skillNames) ?? uniquePrefixMatch(segment, skillNames));
  const skill = skillName === undefined ? undefined : catalog.skill(skillName);
  const byStemDistance = [...(skill?.scripts ?? [])].sort((left, right) => editDistance(stem, left.name) - editDistance(stem, right.name));
  for (const script of byStemDistance) add(script.toolPath, false);

  const sameName = scripts.filter(({ script }) => script.name === stem || path.posix.basename(script.toolPath) === fileName);
  const skillDistance = (name: string): number => (segment === null ? 0 : editDistance(segment, name));
  sameName.sort((left, right) => skillDistance(left.skill.name) - skillDistance(right.skill.name));
  for (const { script } of sameName) add(script.toolPath, false);
  return found.slice(0, limit);
}

/** The only name that begins with `word` (at least 3 characters), e.g. `mem` for `memory`. */
function uniquePrefixMatch(word: string, names: readonly string[]): string | undefined {
  if (word.length < 3) return undefined;
  const matches = names.filter((name) => name.startsWith(word));
  return matches.length === 1 ? matches[0] : undefined;
}
