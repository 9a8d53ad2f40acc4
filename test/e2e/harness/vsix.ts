// Makes sure narratoria-linux-x64.vsix exists and is newer than everything that goes into it, running `npm run package` otherwise.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, vsixPath } from './paths.js';

/** Files and folders whose changes call for a new VSIX. */
const INPUTS = [
  'package.json',
  'package-lock.json',
  'esbuild.mjs',
  '.vscodeignore',
  'README.md',
  'CHANGELOG.md',
  'CONTRIBUTING.md',
  'ARCHITECTURE.md',
  'src',
  'skills',
  'contracts',
  'docs',
];
const SKIPPED_DIRS = new Set(['node_modules', 'data', '.narratoria']);

/** The newest modification time (ms) among the VSIX's inputs. */
export function newestInput(): number {
  let newest = 0;
  const visit = (file: string) => {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const entry of readdirSync(file)) if (!SKIPPED_DIRS.has(entry)) visit(path.join(file, entry));
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const input of INPUTS) visit(path.join(repoRoot, input));
  return newest;
}

/** Whether the VSIX is missing or older than one of its inputs. */
export function isVsixOutdated(): boolean {
  return !existsSync(vsixPath) || statSync(vsixPath).mtimeMs < newestInput();
}

/** Runs `npm run package` when the VSIX is missing or outdated (or always, with `force`); returns its path. */
export function ensureVsix(options: { force?: boolean; log?: (line: string) => void } = {}): string {
  const log = options.log ?? ((line: string) => console.log(line));
  if (!options.force && !isVsixOutdated()) {
    log(`[vsix] ${path.relative(repoRoot, vsixPath)} is up to date`);
    return vsixPath;
  }
  const start = Date.now();
  log('[vsix] npm run package');
  const result = spawnSync('npm', ['run', 'package', '--silent'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0 || !existsSync(vsixPath)) {
    // vsce may leave a truncated file that would look up to date next time.
    rmSync(vsixPath, { force: true });
    throw new Error(`npm run package failed (exit ${result.status ?? result.signal}); run it yourself to see why`);
  }
  log(`[vsix] packaged in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  return vsixPath;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    ensureVsix({ force: process.argv.includes('--force') });
  } catch (error) {
    console.error(`[vsix] ${(error as Error).message}`);
    process.exit(1);
  }
}
