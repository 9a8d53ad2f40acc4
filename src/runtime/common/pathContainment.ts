// The one path-containment check: whether a path lies inside a folder on whole segments (case-folded on Windows), and the gate for files a view may show, which follows symlinks.
import { realpathSync } from 'node:fs';
import * as path from 'node:path';

export interface ContainmentOptions {
  /** Whether the folder itself counts as inside (default false). */
  readonly allowSame?: boolean;
}

/**
 * True when `child` lies inside `parent` on whole path segments ("/a/bc" is not inside "/a/b").
 * Lexical: it reads no file system, so a symlink inside `parent` may still lead out of it; a gate
 * for files uses {@link FolderGate}.
 */
export function isPathInside(child: string, parent: string, options: ContainmentOptions = {}): boolean {
  const relative = path.relative(comparable(parent), comparable(child));
  if (relative === '') return options.allowSame === true;
  return !leavesFolder(relative);
}

/**
 * {@link isPathInside} (strict) for paths that path.resolve or realpath produced: absolute, normalized,
 * no trailing separator but the root's. On POSIX a prefix test gives the same answer without
 * path.relative's two resolves; the plan validator runs it several times per toolPath.
 */
export function isResolvedPathInside(child: string, parent: string): boolean {
  if (process.platform === 'win32') return isPathInside(child, parent);
  const prefix = parent.endsWith('/') ? parent : parent + '/';
  return child.length > prefix.length && child.startsWith(prefix);
}

/** True when a `path.relative` result leads out of its base folder ("..", "../x", or another drive). */
export function leavesFolder(relative: string): boolean {
  return relative === '..' || relative.startsWith('..' + path.sep) || path.isAbsolute(relative);
}

/** The path relative to `folder` when inside it (or the folder itself), else undefined. */
export function relativeInside(file: string, folder: string): string | undefined {
  const relative = path.relative(folder, file);
  return leavesFolder(relative) ? undefined : relative;
}

/** The real path of an existing file or folder, undefined when it does not exist. */
export function realPathOf(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Which files a view may load: a file passes when it exists and lies inside one of the folders both
 * as written and after every symlink (its own and the folders'), so a link placed inside an allowed
 * folder cannot reach a file outside it. The folders' real paths are looked up once.
 */
export class FolderGate {
  private realFolders: string[] | undefined;

  constructor(private readonly folders: readonly string[]) {}

  /** The file's real path when the gate lets it through, else undefined. */
  admit(file: string): string | undefined {
    const real = realPathOf(file);
    if (real === undefined) return undefined;
    if (!this.folders.some((folder) => isPathInside(file, folder, { allowSame: true }))) return undefined;
    this.realFolders ??= this.folders.map((folder) => realPathOf(folder) ?? path.resolve(folder));
    return this.realFolders.some((folder) => isPathInside(real, folder, { allowSame: true })) ? real : undefined;
  }

  allows(file: string): boolean {
    return this.admit(file) !== undefined;
  }
}

/** One-off {@link FolderGate} check. */
export function isFileInsideFolders(file: string, folders: readonly string[]): boolean {
  return new FolderGate(folders).allows(file);
}

function comparable(directory: string): string {
  // Windows paths are case-insensitive; compare them folded.
  return process.platform === 'win32' ? directory.toLowerCase() : directory;
}

/** `file` relative to `root` with forward slashes when strictly inside it (as a plan's toolPath or a message shows it), else `file` as is. */
export function pathFromRoot(file: string, root: string): string {
  const relative = path.relative(root, file);
  if (relative === '' || leavesFolder(relative)) return file;
  return relative.split(path.sep).join('/');
}
