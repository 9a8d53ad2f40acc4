// Security policy for a plan's toolPaths: resolve (following symlinks) and confine scripts to the skill directories.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isResolvedPathInside } from '../common/pathContainment.js';
import { scriptByName, type ScriptNameMatch } from './scriptNameResolution.js';

export type { ScriptNameMatch } from './scriptNameResolution.js';

/** Where a plan's scripts may live. A plan is untrusted input (an LLM writes it), so the default is strict. */
export interface ToolPathPolicy {
  /** Story root (absolute). Relative toolPaths resolve against it; `<root>/skills` is always allowed. */
  readonly root: string;
  /** Further skill directories (e.g. the skills bundled with the extension); relative ones resolve against `root`. */
  readonly extraSkillRoots?: readonly string[];
  /**
   * Folders the author allowed scripts to run from although they hold no skills (setting
   * `narratoria.allowedToolRoots`, CLI `--allow-tool-root DIR`); relative ones resolve against `root`.
   * Their scripts belong to no skill. Symbolic links out of them are refused as out of skills/.
   */
  readonly allowedToolRoots?: readonly string[];
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
      /**
       * Set when the toolPath named no file but a script by its name or an alias (`skills/dice-roller/roll-dice.dart`):
       * `realPath` is then that script's file. See scriptNameResolution.ts.
       */
      readonly named?: ScriptNameMatch;
    }
  | {
      readonly ok: false;
      readonly code: ToolPathFailureCode;
      /** A message an author can act on. */
      readonly message: string;
      readonly absolutePath: string;
    };

/** A skill directory as configured (resolved, not real), with its real path read on first need. */
export interface SkillRoot {
  readonly given: string;
  /** What the folder is: a skills folder (`<skill>/...` below it), or a folder of loose scripts the author allowed. */
  readonly kind: 'skills' | 'allowed';
  /** Its real path (undefined when it does not exist), null until read: see {@link realOf}. */
  real: string | undefined | null;
}

/** The real path of a skill root, read once per resolver (so once per validation) and only if needed. */
function realOf(skillRoot: SkillRoot): string | undefined {
  if (skillRoot.real === null) skillRoot.real = realPathOrUndefined(skillRoot.given);
  return skillRoot.real;
}

/**
 * Resolves a plan's toolPath and checks it against the policy. Relative paths resolve against
 * `policy.root`. Unless `allowOutsideSkills` is set, the path must lie inside `<root>/skills` or an
 * extra skill root, both as written (checked first, so nothing outside is even looked at) and after
 * following symlinks (so a link inside skills/ cannot point elsewhere). Never throws for bad input.
 */
export async function resolveToolPath(toolPath: string, policy: ToolPathPolicy): Promise<ToolPathResolution> {
  return resolveWith(toolPathResolver(policy), toolPath);
}

/** A policy prepared for resolving many toolPaths: see {@link toolPathResolver}. */
export interface ToolPathResolver {
  /** The story root, resolved. */
  readonly root: string;
  readonly roots: readonly SkillRoot[];
  readonly confined: boolean;
}

/**
 * Prepares a policy for {@link resolveWith}, which resolves toolPaths as {@link resolveToolPath}
 * does, reading each skill root's real path at most once, when first needed: a validation resolves
 * all of a plan's distinct toolPaths with one resolver. Data and a function rather than a closure,
 * so that the optimized code calling it is not tied to one validation's closure.
 * It reads the file system synchronously and caches nothing, so every call sees the disk as it is
 * (the editor validates on each keystroke). A few realpath/stat calls on local files take
 * microseconds, while the promise API costs a thread-pool round trip per call, which dominated the
 * validation of a whole plan.
 */
export function toolPathResolver(policy: ToolPathPolicy): ToolPathResolver {
  const root = path.resolve(policy.root);
  return { root, roots: skillRoots(root, policy.extraSkillRoots ?? [], policy.allowedToolRoots ?? []), confined: policy.allowOutsideSkills !== true };
}

/**
 * Resolves a toolPath with a resolver from {@link toolPathResolver}. Messages are built on failure only. A toolPath
 * that names no file but, inside a skills root, a skill's script by its name or an alias resolves to that script
 * (never outside the skill folder; the script's file passes the same checks).
 */
export function resolveWith(resolver: ToolPathResolver, toolPath: string): ToolPathResolution {
  const resolution = resolveFile(resolver, toolPath);
  if (resolution.ok || resolution.code !== 'TOOL_PATH_NOT_FOUND' || toolPath.includes('\0') || !missingFile(resolution.absolutePath)) return resolution;
  const named = scriptByName(resolution.absolutePath, (folder) =>
    resolver.roots.some((skillRoot) => skillRoot.given === folder || realOf(skillRoot) === folder),
  );
  if (!named) return resolution;
  const script = resolveFile(resolver, named.file);
  return script.ok ? { ...script, named } : resolution;
}

function resolveFile(resolver: ToolPathResolver, toolPath: string): ToolPathResolution {
  const { root, roots, confined } = resolver;
  const absolutePath = path.resolve(root, toolPath);
  if (toolPath.includes('\0'))
    return failure('TOOL_PATH_NOT_FOUND', `toolPath ${JSON.stringify(toolPath)} is not a valid path (it contains a NUL character).`, absolutePath);

  // Checked before touching the file system, so a plan cannot even probe what exists elsewhere.
  if (confined && !roots.some((skillRoot) => isResolvedPathInside(absolutePath, skillRoot.given) || isInsideReal(absolutePath, skillRoot))) {
    const message = `toolPath ${JSON.stringify(toolPath)} resolves to ${absolutePath}, outside the folders a plan's scripts may run from. ${outsideAdvice(root, roots)}`;
    return failure('TOOL_PATH_OUTSIDE_SKILLS', message, absolutePath);
  }

  let realPath: string;
  try {
    realPath = fs.realpathSync.native(absolutePath);
  } catch (error) {
    return failure(
      'TOOL_PATH_NOT_FOUND',
      `toolPath ${JSON.stringify(toolPath)} ${describeMissing(absolutePath, error)} (looked for ${absolutePath}).`,
      absolutePath,
    );
  }

  const container = containerOf(absolutePath, realPath, roots);
  if (confined && container === undefined) {
    return failure(
      'TOOL_PATH_OUTSIDE_SKILLS',
      `toolPath ${JSON.stringify(toolPath)} is a symbolic link (or goes through one) to ${realPath}, outside the folders a plan's scripts may run from. ${outsideAdvice(root, roots)}`,
      absolutePath,
    );
  }

  let stats;
  try {
    stats = fs.statSync(realPath);
    _lastStats = stats;
  } catch (error) {
    return failure('TOOL_PATH_NOT_FOUND', `toolPath ${JSON.stringify(toolPath)} cannot be read: ${errorCode(error) ?? String(error)}.`, absolutePath);
  }
  if (!stats.isFile()) {
    const kind = stats.isDirectory() ? 'a directory' : 'not a regular file';
    const example = 'skills/<skill-name>/scripts/<script>.js';
    return failure(
      'TOOL_PATH_NOT_A_FILE',
      `toolPath ${JSON.stringify(toolPath)} is ${kind} (${realPath}); it must name a script file, e.g. ${example}.`,
      absolutePath,
    );
  }
  return {
    ok: true,
    absolutePath,
    realPath,
    skill: container !== undefined && container.kind === 'skills' ? skillDirectoryName(realOf(container)!, realPath) : null,
  };
}

/**
 * Never read. Keeping one Stats alive keeps its hidden class (eighteen fields) alive across garbage
 * collections; without one, the first statSync after a collection rebuilds it field by field, which
 * costs more than the stat itself (see keptDocument in jsonLocator).
 */
let _lastStats: fs.Stats | undefined;

function failure(code: ToolPathFailureCode, message: string, absolutePath: string): ToolPathResolution {
  return { ok: false, code, message, absolutePath };
}

/** The setting that lists the folders an author allows scripts to run from (outside skills/). */
export const ALLOWED_TOOL_ROOTS_SETTING = 'narratoria.allowedToolRoots';

/** What a TOOL_PATH_OUTSIDE_SKILLS message says: the policy, its reason, the folders allowed, and the ways out. */
function outsideAdvice(root: string, roots: readonly SkillRoot[]): string {
  const skillFolders = roots.filter((folder) => folder.kind === 'skills').map((folder) => folder.given);
  const allowed = roots.filter((folder) => folder.kind === 'allowed').map((folder) => folder.given);
  const others = skillFolders.slice(1);
  return (
    `The tool-path policy: a plan is untrusted input (a model writes it), so its scripts run only from the story's skills folder` +
    ` (${skillFolders[0] ?? path.join(root, 'skills')})` +
    (others.length > 0 ? `, the other skill folders (${others.join(', ')})` : '') +
    (allowed.length > 0 ? ` and the folders the author allowed (${allowed.join(', ')})` : ' and folders the author allows') +
    `. Move the script under skills/<skill-name>/scripts/, or allow its folder: the setting ${ALLOWED_TOOL_ROOTS_SETTING}` +
    ` (CLI: --allow-tool-root DIR); allowOutsideSkills (CLI: --allow-outside-skills) lifts the policy for every folder.`
  );
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

function skillRoots(root: string, extra: readonly string[], allowed: readonly string[]): SkillRoot[] {
  const skills = [...new Set([path.join(root, 'skills'), ...extra.map((directory) => path.resolve(root, directory))])];
  const loose = [...new Set(allowed.map((directory) => path.resolve(root, directory)))].filter((directory) => !skills.includes(directory));
  return [
    ...skills.map((directory): SkillRoot => ({ given: directory, kind: 'skills', real: null })),
    ...loose.map((directory): SkillRoot => ({ given: directory, kind: 'allowed', real: null })),
  ];
}

function isInsideReal(file: string, skillRoot: SkillRoot): boolean {
  const real = realOf(skillRoot);
  return real !== undefined && isResolvedPathInside(file, real);
}

/**
 * The first root whose real path holds `realPath` (its real path is then known), undefined when none
 * does. When the script lies in the story's skill directory (the first root) with no symbolic link
 * on its path (realpath gave the path back unchanged), that directory's real path is the directory
 * as written: it is the answer without reading it, one file system call less per validation in the
 * usual case. Not on Windows, where a final path may differ in form from the path as written.
 * Skill folders come first, so a script in both a skill folder and an allowed folder keeps its skill.
 */
function containerOf(absolutePath: string, realPath: string, roots: readonly SkillRoot[]): SkillRoot | undefined {
  const first = roots[0]!;
  if (process.platform !== 'win32' && realPath === absolutePath && isResolvedPathInside(absolutePath, first.given)) {
    if (first.real === null) first.real = first.given;
    return first;
  }
  for (const skillRoot of roots) {
    if (isInsideReal(realPath, skillRoot)) return skillRoot;
  }
  return undefined;
}

function realPathOrUndefined(file: string): string | undefined {
  try {
    return fs.realpathSync.native(file);
  } catch {
    return undefined;
  }
}

function describeMissing(absolutePath: string, error: unknown): string {
  const code = errorCode(error);
  if (code === 'ELOOP') return 'is a symbolic link loop';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied)';
  if (code === 'ENOTDIR') return 'does not exist (a parent of it is a file, not a directory)';
  const link = lstatOrUndefined(absolutePath);
  if (link?.isSymbolicLink()) return 'is a broken symbolic link';
  return 'does not exist';
}

/** True when nothing is at `file` (not even a broken link): the only case a toolPath may name a script by name. */
function missingFile(file: string): boolean {
  return lstatOrUndefined(file) === undefined;
}

function lstatOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The name of the first directory below `container` on the way to `realPath` (which lies inside it), or null. */
function skillDirectoryName(container: string, realPath: string): string | null {
  // On POSIX the relative path is the rest after the container's prefix (see isInsideResolved).
  if (process.platform === 'win32') return firstSegment(path.relative(container, realPath));
  const rest = realPath.slice(container.endsWith('/') ? container.length : container.length + 1);
  const slash = rest.indexOf('/');
  // A script lying directly in the skills root belongs to no skill.
  return slash > 0 ? rest.slice(0, slash) : null;
}

function firstSegment(relative: string): string | null {
  const segments = relative.split(path.sep);
  // A script lying directly in the skills root belongs to no skill.
  return segments.length > 1 && segments[0] ? segments[0] : null;
}
