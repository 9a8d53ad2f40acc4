// Installs what the end-to-end tests need (chromium and libkrb5-dev through apt, Node 24 and code-server into their own prefixes); idempotent, touches nothing else.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromiumPath, codeServerEntry, node24Bin, node24Dir, node24Prefix, serverPrefix } from './paths.js';

/** Header that code-server's kerberos module needs to build. */
const GSSAPI_HEADER = '/usr/include/gssapi/gssapi.h';
const STAMP_NAME = '.narratoria-harness.stamp';

/** What happened while installing, for the caller's log. */
export interface InstallReport {
  readonly steps: readonly { readonly name: string; readonly seconds: number; readonly skipped: boolean }[];
}

/** Thrown when the harness cannot be installed (missing system packages without root, a failed npm ci). */
export class HarnessInstallError extends Error {
  override readonly name = 'HarnessInstallError';
}

/**
 * Makes sure chromium, Node 24 and code-server are installed. Each npm prefix is reinstalled with
 * `npm ci` only when its lock file changed since the last install (a stamp in its node_modules).
 */
export function installHarness(log: (line: string) => void = (line) => console.log(line)): InstallReport {
  const steps: { name: string; seconds: number; skipped: boolean }[] = [];
  const step = (name: string, skipped: boolean, run: () => void) => {
    const start = process.hrtime.bigint();
    if (!skipped) run();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    steps.push({ name, seconds, skipped });
    log(`[harness] ${name}: ${skipped ? 'up to date' : `${seconds.toFixed(1)} s`}`);
  };

  const node24Stamp = stampOf(node24Prefix, []);
  const node24Ready = isInstalled(node24Prefix, node24Stamp, node24Bin);
  // The server's native modules are built for one Node version: a new Node 24 means a rebuild.
  const serverStamp = stampOf(serverPrefix, [node24Stamp]);
  const serverReady = node24Ready && isInstalled(serverPrefix, serverStamp, codeServerEntry);

  const missing = missingSystemPackages(!serverReady);
  step('apt-get install chromium libkrb5-dev', missing.length === 0, () => installSystemPackages(missing, log));

  step('npm ci --prefix node24', node24Ready, () => {
    npmCi(node24Prefix, npmEnvironment());
    writeStamp(node24Prefix, node24Stamp);
  });
  const version = spawnSync(node24Bin, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) throw new HarnessInstallError(`${node24Bin} does not run: ${version.stderr}`);
  log(`[harness] Node ${version.stdout.trim()} at ${node24Bin}`);

  step('npm ci --prefix server (code-server, native build against Node 24)', serverReady, () => {
    // node-gyp must build code-server's native modules against the Node 24 headers, with npm itself on Node 24.
    npmCi(serverPrefix, {
      ...npmEnvironment(),
      PATH: `${path.join(node24Dir, 'bin')}${path.delimiter}${process.env['PATH'] ?? ''}`,
      npm_config_nodedir: node24Dir,
      JOBS: process.env['JOBS'] ?? '2',
    });
    writeStamp(serverPrefix, serverStamp);
  });
  return { steps };
}

/** The apt packages that are missing (chromium always; libkrb5-dev only when code-server must be built). */
function missingSystemPackages(needBuildHeaders: boolean): string[] {
  const missing: string[] = [];
  if (!existsSync(chromiumPath)) missing.push('chromium');
  if (needBuildHeaders && !existsSync(GSSAPI_HEADER)) missing.push('libkrb5-dev');
  return missing;
}

function installSystemPackages(packages: readonly string[], log: (line: string) => void): void {
  if (process.getuid?.() !== 0) {
    throw new HarnessInstallError(
      `The end-to-end harness needs ${packages.join(' and ')} (missing: ${[chromiumPath, GSSAPI_HEADER].filter((file) => !existsSync(file)).join(', ')}). ` +
        `Install them once as root: sudo apt-get install -y chromium libkrb5-dev`,
    );
  }
  log(`[harness] installing ${packages.join(' ')} with apt-get`);
  run('apt-get', ['update'], {});
  // Both packages every time: apt skips what is there, and a fresh machine needs both anyway.
  run('apt-get', ['install', '-y', 'chromium', 'libkrb5-dev'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** The lock identity of a prefix: its package.json, its lock file and anything it was built against. */
function stampOf(prefix: string, extra: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) {
    const full = path.join(prefix, file);
    if (!existsSync(full)) throw new HarnessInstallError(`${full} is missing; it is part of the repository`);
    hash.update(readFileSync(full));
  }
  for (const value of extra) hash.update(value);
  return hash.digest('hex');
}

function isInstalled(prefix: string, stamp: string, mustExist: string): boolean {
  const stampFile = path.join(prefix, 'node_modules', STAMP_NAME);
  return existsSync(mustExist) && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === stamp;
}

function writeStamp(prefix: string, stamp: string): void {
  writeFileSync(path.join(prefix, 'node_modules', STAMP_NAME), `${stamp}\n`);
}

/** The caller's environment without what `npm run` adds about the project (its prefix, package and script). */
function npmEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_(package_|lifecycle_|config_local_prefix$|config_prefix$|command$|execpath$|node_execpath$)/i.test(key)) continue;
    env[key] = value;
  }
  return env;
}

function npmCi(prefix: string, env: NodeJS.ProcessEnv): void {
  run('npm', ['ci', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error'], { env, cwd: prefix });
}

function run(command: string, args: readonly string[], options: SpawnSyncOptions): void {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw new HarnessInstallError(`${command} ${args.join(' ')} could not start: ${result.error.message}`, { cause: result.error });
  if (result.status !== 0) throw new HarnessInstallError(`${command} ${args.join(' ')} failed with exit code ${result.status ?? result.signal}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const start = Date.now();
  try {
    installHarness();
    console.log(`[harness] ready in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  } catch (error) {
    console.error(error instanceof HarnessInstallError ? `[harness] ${error.message}` : error);
    process.exit(1);
  }
}
