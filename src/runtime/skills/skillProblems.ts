// Stable codes and small constructors for the problems the skills framework reports; builds data, never throws.
import * as path from 'node:path';
import type { BrokenSkill, SkillProblem } from './skillTypes.js';
import { leavesFolder, pathFromRoot } from '../common/pathContainment.js';
import { plural } from '../common/humanText.js';

/** Codes of {@link SkillProblem}s. Stable: tools and tests match on them. */
export const SkillProblemCode = {
  /** warning: an extra skills root does not exist. */
  SKILLS_ROOT_MISSING: 'SKILLS_ROOT_MISSING',
  /** warning: a directory under a skills root has no skill.json (skipped). */
  MANIFEST_MISSING: 'MANIFEST_MISSING',
  /** error: skill.json cannot be read or is not valid JSON (skill skipped). */
  MANIFEST_JSON_INVALID: 'MANIFEST_JSON_INVALID',
  /** error: skill.json does not match contracts/skill-manifest.schema.json (skill skipped). */
  MANIFEST_INVALID: 'MANIFEST_INVALID',
  /** warning: a skill with this name was already found in an earlier directory or root (skipped). */
  SKILL_DUPLICATE: 'SKILL_DUPLICATE',
  /** warning: the manifest name differs from the directory name (plans refer to skills by directory). */
  SKILL_NAME_MISMATCH: 'SKILL_NAME_MISMATCH',
  /** warning: a skill directory is a link to somewhere outside every skills root (skipped). */
  SKILL_OUTSIDE_ROOTS: 'SKILL_OUTSIDE_ROOTS',
  /** warning: a skill lists a dependency that no discovered skill provides. */
  SKILL_DEPENDENCY_MISSING: 'SKILL_DEPENDENCY_MISSING',
  /** error: a path named by the manifest leaves the skill directory. */
  PATH_OUTSIDE_SKILL: 'PATH_OUTSIDE_SKILL',
  /** warning: the prompt file the manifest names does not exist. */
  PROMPT_MISSING: 'PROMPT_MISSING',
  /** error: a script the manifest declares does not exist or is not a file. */
  SCRIPT_NOT_FOUND: 'SCRIPT_NOT_FOUND',
  /** warning: a script is neither executable nor has an extension with a known interpreter. */
  SCRIPT_NOT_RUNNABLE: 'SCRIPT_NOT_RUNNABLE',
  /** warning: two scripts of one skill share a name (the later one is skipped). */
  SCRIPT_NAME_DUPLICATE: 'SCRIPT_NAME_DUPLICATE',
  /** warning: a script's alias is already the name or an alias of another script of the skill (the alias is ignored). */
  SCRIPT_ALIAS_CONFLICT: 'SCRIPT_ALIAS_CONFLICT',
  /** warning: a script's interpreter (by its extension: python3, bash, dart...) is not on PATH; the skill is degraded, its other scripts run. */
  INTERPRETER_MISSING: 'INTERPRETER_MISSING',
  /** warning: a script's `rollback` names no script of the skill. */
  SCRIPT_ROLLBACK_UNKNOWN: 'SCRIPT_ROLLBACK_UNKNOWN',
  /** error: a script's input schema cannot be read, parsed or compiled. */
  INPUT_SCHEMA_INVALID: 'INPUT_SCHEMA_INVALID',
  /** warning: the config schema file the manifest names does not exist. */
  CONFIG_SCHEMA_MISSING: 'CONFIG_SCHEMA_MISSING',
  /** error: config-schema.json is not valid JSON or breaks contracts/config-schema-meta.schema.json. */
  CONFIG_SCHEMA_INVALID: 'CONFIG_SCHEMA_INVALID',
  /** error: config.json cannot be read, is not valid JSON or is not an object. */
  CONFIG_JSON_INVALID: 'CONFIG_JSON_INVALID',
  /** warning: config.json exists but the skill has no (valid) config schema to check it against. */
  CONFIG_UNCHECKED: 'CONFIG_UNCHECKED',
  /** error: a required field has no value. */
  CONFIG_REQUIRED: 'CONFIG_REQUIRED',
  /** error: a value has the wrong type. */
  CONFIG_TYPE: 'CONFIG_TYPE',
  /** error: a value is not one of the allowed values. */
  CONFIG_ENUM: 'CONFIG_ENUM',
  /** error: a number is below `minimum` or above `maximum`. */
  CONFIG_RANGE: 'CONFIG_RANGE',
  /** error: a string is shorter than `minLength` or longer than `maxLength`. */
  CONFIG_LENGTH: 'CONFIG_LENGTH',
  /** error: a string does not match `pattern`. */
  CONFIG_PATTERN: 'CONFIG_PATTERN',
  /** error: a string is not a valid `date`, `time` or `date-time` (RFC 3339) as its field's `format` asks. */
  CONFIG_FORMAT: 'CONFIG_FORMAT',
  /** warning (error with additionalProperties: false): config.json has a field the schema does not define. */
  CONFIG_UNKNOWN_FIELD: 'CONFIG_UNKNOWN_FIELD',
  /** warning: a `${VAR}` in config.json names a variable the environment does not set (the field counts as absent). */
  CONFIG_VARIABLE_UNSET: 'CONFIG_VARIABLE_UNSET',
  /** warning: a sensitive value is written in plain text in config.json. */
  CONFIG_SECRET_IN_FILE: 'CONFIG_SECRET_IN_FILE',
  /** warning: the secret lookup failed (the field falls back to its environment variable or default). */
  CONFIG_SECRET_LOOKUP_FAILED: 'CONFIG_SECRET_LOOKUP_FAILED',
} as const;

/** One of the {@link SkillProblemCode} values. */
export type SkillProblemCode = (typeof SkillProblemCode)[keyof typeof SkillProblemCode];

/** Builds a problem, leaving out absent optional fields (exactOptionalPropertyTypes). */
export function skillProblem(severity: SkillProblem['severity'], code: SkillProblemCode, message: string, file?: string, pointer?: string): SkillProblem {
  return {
    severity,
    code,
    message,
    ...(file !== undefined ? { file } : {}),
    ...(pointer !== undefined ? { pointer } : {}),
  };
}

/** True when any problem is an error (the skill is then unusable). */
export function hasErrors(problems: readonly SkillProblem[]): boolean {
  return problems.some((problem) => problem.severity === 'error');
}

/** A path for messages: relative to `root` (forward slashes) when inside it, otherwise absolute. */
export function displayPath(file: string, root: string): string {
  return pathFromRoot(file, root);
}

/** `relative` resolved inside `directory`, or undefined when it would leave it (absolute paths or `..`). */
export function resolveInside(directory: string, relative: string): string | undefined {
  if (relative.includes('\0') || path.isAbsolute(relative)) return undefined;
  const resolved = path.resolve(directory, relative);
  const back = path.relative(directory, resolved);
  if (back === '' || leavesFolder(back)) return undefined;
  return resolved;
}

/**
 * A problem as one compiler-style line that terminals and VS Code make clickable:
 * `skills/ferryman/skill.json:9:7: error MANIFEST_JSON_INVALID: message` (the file relative to `root` when inside it;
 * no line and column when unknown). `severity` overrides the problem's own (a broken skill a plan does not use is a
 * warning for that plan).
 */
export function formatSkillProblem(problem: SkillProblem, root: string, severity: string = problem.severity): string {
  const file = problem.file !== undefined ? displayPath(problem.file, root) : undefined;
  const where = file === undefined ? '' : problem.line !== undefined ? `${file}:${problem.line}:${problem.column ?? 1}: ` : `${file}: `;
  return `${where}${severity} ${problem.code}: ${problem.message}`;
}

/** `file:line:column` of a problem (or its file alone), relative to `root` when inside it. */
export function problemLocation(problem: SkillProblem, root: string): string {
  if (problem.file === undefined) return '';
  const file = displayPath(problem.file, root);
  return problem.line !== undefined ? `${file}:${problem.line}:${problem.column ?? 1}` : file;
}

/** How the message of each problem of a broken skill starts (discovery writes it; {@link brokenSkillReason} leaves it out). */
export function unusableSkillPrefix(name: string): string {
  return `the skill "${name}" is unusable: `;
}

/**
 * Why a skill is broken, in one line: its first problem as `file:line:column: CODE: message` (relative to `root`),
 * e.g. `skills/ferryman/skill.json:9:7: MANIFEST_JSON_INVALID: its skill.json is not valid JSON: expected ',' between values`,
 * with "and N more problems" when it has more.
 */
export function brokenSkillReason(skill: BrokenSkill, root: string): string {
  const first = skill.problems[0];
  if (!first) return `${displayPath(skill.manifestPath, root)}: its skill.json is broken`;
  const prefix = unusableSkillPrefix(skill.name);
  const message = first.message.startsWith(prefix) ? first.message.slice(prefix.length) : first.message;
  const more = skill.problems.length - 1;
  return `${problemLocation(first, root)}: ${first.code}: ${message}${more > 0 ? ` (and ${plural(more, 'more problem')})` : ''}`;
}
