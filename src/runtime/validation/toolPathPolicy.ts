// Security policy for a plan's toolPaths: resolve (following symlinks) and confine scripts to the skill directories.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Where a plan's scripts may live. A plan is untrusted input (an LLM writes it), so the default is strict. */
export interface ToolPathPolicy {
  /** Story root (absolute). Relative toolPaths resolve against it; `<root>/skills` is always allowed. */
  readonly root: string;
  /** Further skill directories (e.g. the skills bundled with the extension); relative ones resolve against `root`. */
  readonly extraSkillRoots?: readonly string[];
  /** When true, scripts may live anywhere (they must still exist and be files). CLI: `--allow-outside-skills`. */
  readonly allowOutsideSkills?: boolean;
}

/** Why a toolPath was rejected; these are also diagnostic codes. */
export type ToolPathFailureCode = 'TOOL_PATH_NOT_FOUND' | 'TOOL_PATH_NOT_A_FILE' | 'TOOL_PATH_OUTSIDE_SKILLS';

/** Outcome of {@link resolveToolPath}. */
export type ToolPathResolution =
  | {
      readonly ok: true;
      /** The toolPath resolved against the root, without following symlinks. */
      readonly absolutePath: string;
      /** The file that will actually run (symlinks followed). */
      readonly realPath: string;
      /** Name of the skill directory containing the script (`<skills root>/<skill>/…`), or null. */
      readonly skill: string | null;
    }
  | {
      readonly ok: false;
      readonly code: ToolPathFailureCode;
      /** A message an author can act on. */
      readonly message: string;
      readonly absolutePath: string;
    };

interface SkillRoot {
  /** The directory as configured (resolved, not real). */
  readonly given: string;
  /** Its real path, or undefined when it does not exist. */
  readonly real: string | undefined;
}

/**
 * Resolves a plan's toolPath and checks it against the policy. Relative paths resolve against
 * `policy.root`. Unless `allowOutsideSkills` is set, the path must lie inside `<root>/skills` or an
 * extra skill root, both as written (checked first, so nothing outside is even looked at) and after
 * following symlinks (so a link inside skills/ cannot point elsewhere). Never throws for bad input.
 */
export async function resolveToolPath(toolPath: string, policy: ToolPathPolicy): Promise<ToolPathResolution> {
  const root = path.resolve(policy.root);
  const absolutePath = path.resolve(root, toolPath);
  const quoted = JSON.stringify(toolPath);
  const fail = (code: ToolPathFailureCode, message: string): ToolPathResolution => ({ ok: false, code, message, absolutePath });
  if (toolPath.includes('\0')) return fail('TOOL_PATH_NOT_FOUND', `toolPath ${quoted} is not a valid path (it contains a NUL character).`);

  const confined = policy.allowOutsideSkills !== true;
  const roots = await skillRoots(root, policy.extraSkillRoots ?? []);
  const allowedText = roots.map((skillRoot) => skillRoot.given).join(', ');
  const outsideAdvice =
    `Scripts must be inside ${roots.length > 1 ? 'one of the skill directories' : 'the skill directory'} ${allowedText}` +
    ` (e.g. skills/<skill-name>/scripts/<script>.js). To run scripts elsewhere, set allowOutsideSkills` +
    ` (CLI: --allow-outside-skills).`;

  // Checked before touching the file system, so a plan cannot even probe what exists elsewhere.
  const lexicallyInside = roots.some(
    (skillRoot) => isInside(absolutePath, skillRoot.given) || (skillRoot.real !== undefined && isInside(absolutePath, skillRoot.real)),
  );
  if (confined && !lexicallyInside) {
    const message = `toolPath ${quoted} resolves to ${absolutePath}, which is outside the allowed skill directories. ${outsideAdvice}`;
    return fail('TOOL_PATH_OUTSIDE_SKILLS', message);
  }

  let realPath: string;
  try {
    realPath = await fs.realpath(absolutePath);
  } catch (error) {
    return fail('TOOL_PATH_NOT_FOUND', `toolPath ${quoted} ${await describeMissing(absolutePath, error)} (looked for ${absolutePath}).`);
  }

  const container = roots.find((skillRoot) => skillRoot.real !== undefined && isInside(realPath, skillRoot.real));
  if (confined && !container) {
    return fail(
      'TOOL_PATH_OUTSIDE_SKILLS',
      `toolPath ${quoted} is a symbolic link (or goes through one) to ${realPath}, which is outside the allowed skill directories. ${outsideAdvice}`,
    );
  }

  let stats;
  try {
    stats = await fs.stat(realPath);
  } catch (error) {
    return fail('TOOL_PATH_NOT_FOUND', `toolPath ${quoted} cannot be read: ${errorCode(error) ?? String(error)}.`);
  }
  if (!stats.isFile()) {
    const kind = stats.isDirectory() ? 'a directory' : 'not a regular file';
    const example = 'skills/<skill-name>/scripts/<script>.js';
    return fail('TOOL_PATH_NOT_A_FILE', `toolPath ${quoted} is ${kind} (${realPath}); it must name a script file, e.g. ${example}.`);
  }
  return { ok: true, absolutePath, realPath, skill: container?.real !== undefined ? firstSegment(path.relative(container.real, realPath)) : null };
}

/**
 * The `<name>` of the first `skills/<name>/…` segment pair of a toolPath (either slash), after
 * normalizing `.` and `..`; null when the path has none. Pure string work: no file system access.
 */
export function skillNameOfPath(toolPath: string): string | null {
  const segments = path.posix.normalize(toolPath.replace(/\\/g, '/')).split('/');
  // The skill directory must contain something: skills/<name>/<file…>.
  for (let index = 0; index + 2 < segments.length; index++) {
    if (segments[index] === 'skills' && segments[index + 1] !== '' && segments[index + 1] !== '..') return segments[index + 1]!;
  }
  return null;
}

/** True when `child` is strictly inside `parent` (a path-prefix check on whole segments). */
export function isInside(child: string, parent: string): boolean {
  const relative = path.relative(comparable(parent), comparable(child));
  return relative !== '' && relative !== '..' && !relative.startsWith('..' + path.sep) && !path.isAbsolute(relative);
}

function comparable(directory: string): string {
  // Windows paths are case-insensitive; compare them folded.
  return process.platform === 'win32' ? directory.toLowerCase() : directory;
}

async function skillRoots(root: string, extra: readonly string[]): Promise<SkillRoot[]> {
  const given = [path.join(root, 'skills'), ...extra.map((directory) => path.resolve(root, directory))];
  const unique = [...new Set(given)];
  return Promise.all(
    unique.map(async (directory) => ({ given: directory, real: await fs.realpath(directory).catch(() => undefined) })),
  );
}

async function describeMissing(absolutePath: string, error: unknown): Promise<string> {
  const code = errorCode(error);
  if (code === 'ELOOP') return 'is a symbolic link loop';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied)';
  if (code === 'ENOTDIR') return 'does not exist (a parent of it is a file, not a directory)';
  const link = await fs.lstat(absolutePath).catch(() => undefined);
  if (link?.isSymbolicLink()) return 'is a broken symbolic link';
  return 'does not exist';
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function firstSegment(relative: string): string | null {
  const segments = relative.split(path.sep);
  // A script lying directly in the skills root belongs to no skill.
  return segments.length > 1 && segments[0] ? segments[0] : null;
}
