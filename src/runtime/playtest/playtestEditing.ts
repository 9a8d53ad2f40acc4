// Editor help for playtest files, without vscode: whether a position takes a skill name (inside expect.skills or expect.notSkills), and the problems an editor shows beyond the JSON schema's.
import { getLocation } from 'jsonc-parser';
import { parsePlaytest, PlaytestProblemCode } from './playtestDocument.js';
import type { PlaytestProblem } from './playtestTypes.js';

/** The problems only the story can tell (the editor's JSON schema support reports the others). */
const STORY_PROBLEMS: ReadonlySet<string> = new Set(Object.values(PlaytestProblemCode));

/** Whether the offset is where a skill name goes: a string of `turns[n].expect.skills` or `.notSkills`. */
export function takesSkillName(text: string, offset: number): boolean {
  const location = getLocation(text, offset);
  const path = location.path;
  return (
    !location.isAtPropertyKey &&
    path.length === 5 &&
    path[0] === 'turns' &&
    typeof path[1] === 'number' &&
    path[2] === 'expect' &&
    (path[3] === 'skills' || path[3] === 'notSkills') &&
    typeof path[4] === 'number'
  );
}

/** The string the offset is in (its quotes included), as offset and length, when the offset is inside one. */
export function stringAround(text: string, offset: number): { readonly offset: number; readonly length: number } | undefined {
  const node = getLocation(text, offset).previousNode;
  return node && node.type === 'string' && node.offset < offset && offset <= node.offset + node.length
    ? { offset: node.offset, length: node.length }
    : undefined;
}

/** A playtest file's problems that its JSON schema cannot see: unknown or broken skills, conditions, patterns, a choice first. */
export function playtestEditorProblems(
  file: string,
  text: string,
  skills: ReadonlySet<string> | undefined,
  broken?: ReadonlyMap<string, string>,
): PlaytestProblem[] {
  return parsePlaytest(file, text, skills, broken).problems.filter((problem) => STORY_PROBLEMS.has(problem.code));
}
