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
export function runBundle(file: string, env: NodeJS.ProcessEnv): void {
  const text = readBundle(file);
  // A bundle built without the wrapper still runs (wrapped here, at the cost of that copy).
  const source = text.startsWith(BUNDLE_HEAD) ? text : `${BUNDLE_HEAD}${text}\n})`;
  const useCache = !env['NODE_DISABLE_COMPILE_CACHE'] && !env['NARRATORIA_NO_COMPILE_CACHE'];
  const directory = compileCacheDirectory(env);
  const stat = fs.statSync(file);
  // V8 checks its own version, flags and the source's length; the name adds the bundle's identity. The path's hash
  // keeps two installs (the extension's CLI and a global one) from evicting each other's cache.
  const prefix = `${path.basename(file)}-${pathHash(file)}-`;
  const cacheFile = path.join(directory, `${prefix}${process.version}-${process.arch}-${stat.size}-${Math.trunc(stat.mtimeMs)}.v8cache`);
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
    process.once('exit', () => writeCodeCache(directory, cacheFile, prefix, () => script.createCachedData()));
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

/** Writes the cache atomically (temp file, rename) and removes caches of other versions of the same bundle. */
function writeCodeCache(directory: string, cacheFile: string, prefix: string, data: () => Buffer): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
    fs.writeFileSync(temporary, data(), { mode: 0o600 });
    fs.renameSync(temporary, cacheFile);
    for (const entry of fs.readdirSync(directory)) {
      if (entry.startsWith(prefix) && entry.endsWith('.v8cache') && path.join(directory, entry) !== cacheFile) fs.rmSync(path.join(directory, entry), { force: true });
    }
  } catch {
    // Only slower next time, never an error: not even when the folder itself is unusable (ENOTDIR, EACCES).
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      // nothing was written
    }
  }
}
