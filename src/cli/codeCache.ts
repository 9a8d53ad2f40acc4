// Loads the CLI bundle with V8's compile cache, so a `narratoria` command does not parse ~1 MB of JavaScript every time it starts.
import { isAscii } from 'node:buffer';
import * as fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { narratoriaCacheHome } from '../runtime/common/userCache.js';

/** Where compiled code is kept: `<cache home>/compile-cache` (per user, never a shared temp folder: it holds code this process runs). */
function compileCacheDirectory(env: NodeJS.ProcessEnv): string {
  return path.join(narratoriaCacheHome(env), 'compile-cache');
}

/** The line esbuild.mjs writes before the CLI bundle (and `})` after it): the file is one function expression. */
export const BUNDLE_HEAD = '(function (exports, require, module, __filename, __dirname) {';

/**
 * Runs the CommonJS bundle `file` as the program, through `vm.Script` with a code cache file kept per user, written
 * at exit when there was none or V8 refused it (another Node, another bundle). The bundle is already wrapped in its
 * module function (BUNDLE_HEAD), so V8 compiles the file's text as read: no second copy of ~1 MB.
 * `NODE_DISABLE_COMPILE_CACHE` or `NARRATORIA_NO_COMPILE_CACHE` turns the cache off; a cache that cannot be read or
 * written is only slower, never an error.
 */
export function runBundle(file: string, env: NodeJS.ProcessEnv, args: readonly string[] = process.argv.slice(2)): void {
  const text = readBundle(file);
  // A bundle built without the wrapper still runs (wrapped here, at the cost of that copy).
  const source = text.startsWith(BUNDLE_HEAD) ? text : `${BUNDLE_HEAD}${text}\n})`;
  const useCache = !env['NODE_DISABLE_COMPILE_CACHE'] && !env['NARRATORIA_NO_COMPILE_CACHE'];
  const directory = compileCacheDirectory(env);
  const stat = fs.statSync(file);
  // V8 checks its own version, flags and the source's length; the name adds the bundle's identity. The path's hash
  // keeps two installs (the extension's CLI and a global one) from evicting each other's cache.
  const prefix = `${path.basename(file)}-${pathHash(file)}-`;
  // One cache per command: each holds what its command compiles, no less (compiled again at every start) and no more
  // (deserialized for nothing). A one-tool `run` took 84-89 ms with the cache --version writes, 78-80 ms with its own.
  const version = `${process.version}-${process.arch}-${stat.size}-${Math.trunc(stat.mtimeMs)}`;
  const cacheFile = path.join(directory, `${prefix}${cacheCommandOf(args)}-${version}.v8cache`);
  let cachedData: Buffer | undefined;
  if (useCache) {
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(source, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    // import() inside the bundle loads as it would from a file (Node 20.12+; the bundle has none today).
    ...(vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER ? { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER } : {}),
  });
  if (useCache && (!cachedData || script.cachedDataRejected)) {
    // At exit the cache also holds every function the command compiled on the way.
    process.once('exit', () => writeCodeCache(directory, { file: cacheFile, prefix, version, bundle: file }, () => script.createCachedData()));
  }
  const program = new Module(file);
  program.filename = file;
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  wrapper.call(program.exports, program.exports, createRequire(file), program, file, path.dirname(file));
}

/**
 * The bundle's text as a string V8 keeps on its own heap. esbuild writes the bundle in ASCII (cliMain's `charset`),
 * read here as Latin-1 in 64 KB pieces: no UTF-8 decoding, and no piece big enough for Node to keep it in malloc'd
 * memory (as it does with a whole file's Latin-1 text). Memory outside V8's heap is copied by every fork, so each MB
 * there costs ~10 ms of a 200-tool run (bench b2); V8's heap is not copied. Other text is decoded as UTF-8.
 */
function readBundle(file: string): string {
  const descriptor = fs.openSync(file, 'r');
  try {
    const piece = Buffer.allocUnsafe(BUNDLE_READ_BYTES);
    let text = '';
    for (;;) {
      const length = fs.readSync(descriptor, piece, 0, piece.length, null);
      if (length === 0) return text;
      if (!isAscii(piece.subarray(0, length))) return fs.readFileSync(file, 'utf8');
      text += piece.toString('latin1', 0, length);
    }
  } finally {
    fs.closeSync(descriptor);
  }
}

/**
 * The bundle that runs a command line: `run` has one of its own (dist/cliRun.cjs, from runBin.ts), a third the size
 * of cliMain's, so a plan starts without reading and deserializing the code of every other command (~7 ms of each
 * `narratoria run`, bench b2). Every other command line runs dist/cliMain.cjs.
 */
export function programBundle(args: readonly string[]): string {
  return args[0] === 'run' ? 'cliRun.cjs' : 'cliMain.cjs';
}

/** The commands that keep a cache of their own (main.ts's commands); the rest (help, --version, mistakes) share one. */
const CACHED_COMMANDS = new Set(['validate', 'run', 'inspect', 'runs', 'play', 'skills', 'model', 'graph', 'debug-adapter']);

/** The cache a command line uses: its command's, or `other`. */
export function cacheCommandOf(args: readonly string[]): string {
  const command = args[0];
  return command !== undefined && CACHED_COMMANDS.has(command) ? command : 'other';
}

/** Below Node's threshold (~1 MB) for keeping decoded text outside V8's heap. */
const BUNDLE_READ_BYTES = 64 * 1024;

/** FNV-1a (32 bits) of a path, in hex: a short, stable name part (not a security boundary: the folder is the user's own). */
function pathHash(file: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < file.length; index++) {
    hash ^= file.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** This run's cache file, its install's prefix, the version part of its name, and the bundle it compiles. */
interface CacheTarget {
  readonly file: string;
  readonly prefix: string;
  readonly version: string;
  readonly bundle: string;
}

/**
 * Writes the cache atomically (temp file, rename) next to the install's `<prefix>bundle` file (the bundle's path), then
 * sweeps what no run will read again (`sweepCompileCaches`).
 */
function writeCodeCache(directory: string, target: CacheTarget, data: () => Buffer): void {
  const { file: cacheFile, prefix, bundle } = target;
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
    // The install's path goes first, so another install's sweep never finds this cache without it.
    writeInstallFile(path.join(directory, `${prefix}bundle`), bundle);
    fs.writeFileSync(temporary, data(), { mode: 0o600 });
    fs.renameSync(temporary, cacheFile);
    sweepCompileCaches(directory, target);
  } catch {
    // Only slower next time, never an error: not even when the folder itself is unusable (ENOTDIR, EACCES).
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      // nothing was written
    }
  }
}

/** Writes `<prefix>bundle` unless it already says `bundle`; by rename, so a sweep never reads it half written. */
function writeInstallFile(file: string, bundle: string): void {
  try {
    if (fs.readFileSync(file, 'utf8') === bundle) return;
  } catch {
    // not written yet
  }
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, bundle, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

/** An install's files: `<bundle name>-<path hash>-` then `<command>-<node>-<arch>-<size>-<mtime>.v8cache`, or `bundle` (its path). */
const INSTALL_FILE = /^(.+?-[0-9a-f]{8}-)(?:.+\.v8cache|bundle)$/;
/** The launcher's temp files: `<cache or install file>.<pid>.tmp`. */
const TEMP_FILE = /-(?:.+\.v8cache|bundle)\.\d+\.tmp$/;
/** A temp file older than this was left by a process that died between writing and renaming. */
const ABANDONED_TEMP_MS = 60 * 60 * 1000;
/**
 * How long another install's cache is kept when its bundle cannot be found: it may be an install on another machine
 * sharing this home, or a version of the launcher that names no bundle. Past it, the cache costs one cold start to remake.
 */
const UNCLAIMED_CACHE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Removes the caches no run will read again: this install's caches of other Node or bundle versions; the files of an
 * install whose bundle is gone, or that names none (written before installs did) or is in the format without the path
 * hash, once a week old; the launcher's temp files an hour old. Other files are left alone, and a file that cannot be
 * removed or read is skipped.
 */
export function sweepCompileCaches(directory: string, target: CacheTarget, now: number = Date.now()): void {
  const { prefix, version, bundle } = target;
  const live = new Map<string, boolean>([[prefix, true]]);
  // This install's caches of this version, one per command: `<prefix><command>-<version>.v8cache`.
  const current = new RegExp(`^${escapeRegExp(prefix)}[a-z-]+-${escapeRegExp(version)}\\.v8cache$`);
  const unhashed = new RegExp(`^${escapeRegExp(path.basename(bundle))}-v\\d.*\\.v8cache$`);
  for (const entry of fs.readdirSync(directory)) {
    const file = path.join(directory, entry);
    const install = INSTALL_FILE.exec(entry)?.[1];
    let remove: boolean;
    if (install === prefix) remove = entry.endsWith('.v8cache') && !current.test(entry);
    else if (install !== undefined) remove = !isLiveInstall(directory, install, live) && now - modifiedAt(file) > UNCLAIMED_CACHE_MS;
    else if (TEMP_FILE.test(entry)) remove = now - modifiedAt(file) > ABANDONED_TEMP_MS;
    else remove = unhashed.test(entry) && now - modifiedAt(file) > UNCLAIMED_CACHE_MS;
    if (!remove) continue;
    try {
      fs.rmSync(file, { force: true });
    } catch {
      // A folder by that name, or a file in use (Windows): left for a later sweep.
    }
  }
}

/** Whether an install's `<prefix>bundle` names a bundle that still exists; a file that cannot be read says yes (answers kept in `known`). */
function isLiveInstall(directory: string, prefix: string, known: Map<string, boolean>): boolean {
  let live = known.get(prefix);
  if (live === undefined) {
    try {
      const bundle = fs.readFileSync(path.join(directory, `${prefix}bundle`), 'utf8');
      live = `${path.basename(bundle)}-${pathHash(bundle)}-` !== prefix || fs.existsSync(bundle);
    } catch (error) {
      live = (error as NodeJS.ErrnoException).code !== 'ENOENT';
    }
    known.set(prefix, live);
  }
  return live;
}

function modifiedAt(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
