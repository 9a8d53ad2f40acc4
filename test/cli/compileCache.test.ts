// The `narratoria` launcher (dist/cli.cjs) runs dist/cliMain.cjs through a V8 code cache file of its own on every Node version: where the cache goes, when it is (re)written or left alone, and that commands and stack traces are unchanged by it.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUNDLE_HEAD } from '../../src/cli/codeCache.js';
import { narratoria, projectRoot, storyRoot, type CliRun } from './cliHarness.js';

const version = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
const bundlePath = path.join(projectRoot, 'dist', 'cliMain.cjs');
/** `run`'s own bundle (codeCache.ts's programBundle): its cache and install file are named after it. */
const runBundlePath = path.join(projectRoot, 'dist', 'cliRun.cjs');
const bundleOf = (command: string) => (command === 'run' ? runBundlePath : bundlePath);

let scratch: string;
before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-compile-cache-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

let sandboxCount = 0;
/** A fresh XDG_CACHE_HOME (and HOME, so nothing can land in the real ~/.cache) for one test. */
function sandbox(): { cacheHome: string; home: string; cacheDirectory: string } {
  const root = path.join(scratch, `sandbox-${++sandboxCount}`);
  const cacheHome = path.join(root, 'cache');
  const home = path.join(root, 'home');
  mkdirSync(cacheHome, { recursive: true });
  mkdirSync(home, { recursive: true });
  return { cacheHome, home, cacheDirectory: path.join(cacheHome, 'narratoria', 'compile-cache') };
}

/** Runs `node [nodeArgs] dist/cli.cjs ...args` with the compile cache switched on (unless `env` says otherwise) in `box`. */
function launch(
  box: { cacheHome: string; home: string },
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  nodeArgs: readonly string[] = [],
): Promise<CliRun> {
  // Whatever the environment running the tests says, the cache is on unless a test turns it off.
  const cacheOn = { NARRATORIA_NO_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined, NODE_COMPILE_CACHE: undefined };
  return narratoria(args, projectRoot, { ...cacheOn, XDG_CACHE_HOME: box.cacheHome, HOME: box.home, ...env }, nodeArgs);
}

function assertVersionRun(run: CliRun, label: string): void {
  assert.equal(run.code, 0, `${label}: ${run.stderr}`);
  assert.equal(run.stdout, `${version}\n`, label);
  assert.equal(run.stderr, '', label);
}

/** Every file (not directory) under `directory`, relative to it; none when it does not exist. */
function filesUnder(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return (readdirSync(directory, { recursive: true }) as string[]).filter((entry) => statSync(path.join(directory, entry)).isFile()).sort();
}

/** FNV-1a (32 bits, hex) of the bundle's path: the part of the name that tells installs apart. */
function pathHash(file: string): string {
  let hash = 0x811c9dc5;
  for (const character of file) hash = Math.imul(hash ^ character.charCodeAt(0), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** The name the launcher gives a command's cache of the current bundle (see codeCache.ts); `other` is --version's, help's. */
function expectedCacheName(command = 'other'): string {
  const bundle = bundleOf(command);
  const stat = statSync(bundle);
  return `${path.basename(bundle)}-${pathHash(bundle)}-${command}-${process.version}-${process.arch}-${stat.size}-${Math.trunc(stat.mtimeMs)}.v8cache`;
}

/** The file naming the install's bundle, next to its caches. */
function bundleFileName(bundle: string = bundlePath): string {
  return `${path.basename(bundle)}-${pathHash(bundle)}-bundle`;
}

/** What the launcher leaves for the current bundle: one cache per command run, and the file naming the bundle. */
function installFiles(...commands: string[]): string[] {
  const chosen = commands.length > 0 ? commands : ['other'];
  const bundles = new Set(chosen.map((command) => bundleFileName(bundleOf(command))));
  return [...chosen.map((command) => expectedCacheName(command)), ...bundles].sort();
}

/** What shows whether a file was rewritten: its inode (a rename brings a new one), mtime and bytes. */
function identity(file: string): { ino: bigint; mtimeNs: bigint; content: Buffer } {
  const stat = statSync(file, { bigint: true });
  return { ino: stat.ino, mtimeNs: stat.mtimeNs, content: readFileSync(file) };
}

test('first run: --version works and leaves one private .v8cache file', async () => {
  const box = sandbox();
  assertVersionRun(await launch(box, ['--version']), 'first run');
  assert.deepEqual(
    readdirSync(box.cacheDirectory).sort(),
    installFiles(),
    "exactly one cache file, named after Node and the bundle, the bundle's path, and no temp file",
  );
  assert.equal(readFileSync(path.join(box.cacheDirectory, bundleFileName()), 'utf8'), bundlePath);
  const file = path.join(box.cacheDirectory, expectedCacheName());
  assert.ok(statSync(file).size > 0);
  // It holds code this process runs: readable by its owner only.
  assert.equal(statSync(file).mode & 0o077, 0, 'cache file is private');
  assert.equal(statSync(box.cacheDirectory).mode & 0o077, 0, 'cache folder is private');
  assert.deepEqual(readdirSync(box.home), [], 'nothing written to HOME when XDG_CACHE_HOME is set');
});

test('second run: same output, and an accepted cache is not rewritten', async () => {
  const box = sandbox();
  const first = await launch(box, ['--version']);
  assertVersionRun(first, 'first run');
  const file = path.join(box.cacheDirectory, expectedCacheName());
  const before = identity(file);
  const second = await launch(box, ['--version']);
  assertVersionRun(second, 'second run');
  assert.equal(second.stdout, first.stdout);
  const afterwards = identity(file);
  assert.equal(afterwards.ino, before.ino, 'same inode: the cache was not replaced');
  assert.equal(afterwards.mtimeNs, before.mtimeNs, 'same mtime: the cache was not rewritten');
  assert.ok(afterwards.content.equals(before.content), 'same bytes');
  assert.deepEqual(readdirSync(box.cacheDirectory).sort(), installFiles());
});

test('a corrupt or empty cache file still gives a correct run and is replaced by one V8 accepts', async () => {
  for (const [label, garbage] of [
    ['garbage', Buffer.from('this is not a V8 code cache\n'.repeat(512))],
    ['empty', Buffer.alloc(0)],
  ] as const) {
    const box = sandbox();
    assertVersionRun(await launch(box, ['--version']), `${label}: first run`);
    const file = path.join(box.cacheDirectory, expectedCacheName());
    writeFileSync(file, garbage);
    const corrupt = identity(file);

    assertVersionRun(await launch(box, ['--version']), `${label}: run with the corrupt cache`);
    assert.deepEqual(readdirSync(box.cacheDirectory).sort(), installFiles(), `${label}: one cache file, same name, no temp file`);
    const replaced = identity(file);
    assert.ok(replaced.content.length > 0, `${label}: the new cache is not empty`);
    assert.ok(!replaced.content.equals(corrupt.content), `${label}: the corrupt bytes were replaced`);
    assert.notEqual(replaced.ino, corrupt.ino, `${label}: replaced by a rename (atomic), not rewritten in place`);

    // The replacement is one V8 accepts: the next run leaves it alone.
    assertVersionRun(await launch(box, ['--version']), `${label}: run with the replaced cache`);
    const third = identity(file);
    assert.equal(third.ino, replaced.ino, `${label}: the replaced cache was accepted, not rewritten`);
    assert.equal(third.mtimeNs, replaced.mtimeNs, `${label}: the replaced cache was accepted, not rewritten`);
  }
});

test('writing a cache sweeps what no run will read: other versions, week-old caches of installs that are gone or unnamed, abandoned temp files', async () => {
  const box = sandbox();
  mkdirSync(box.cacheDirectory, { recursive: true });
  const at = (name: string, ageMs: number) => {
    const time = new Date(Date.now() - ageMs);
    utimesSync(path.join(box.cacheDirectory, name), time, time);
  };
  const hour = 60 * 60 * 1000;
  const week = 7 * 24 * hour;
  // Another install whose bundle exists (a global CLI next to the extension's): kept, however old.
  const liveBundle = path.join(scratch, 'live-install', 'cliMain.cjs');
  mkdirSync(path.dirname(liveBundle), { recursive: true });
  writeFileSync(liveBundle, BUNDLE_HEAD);
  const liveInstall = [`cliMain.cjs-${pathHash(liveBundle)}-v0.0.0-x64-1-1.v8cache`, bundleFileName(liveBundle)];
  // Installs whose bundle is gone (an updated extension's old folder), or that name none (an older launcher, or one
  // on another machine sharing this home): removed once a week old, kept before.
  const goneBundle = path.join(scratch, 'gone-install', 'cliMain.cjs');
  const goneInstall = [`cliMain.cjs-${pathHash(goneBundle)}-v0.0.0-x64-1-1.v8cache`, bundleFileName(goneBundle)];
  const recentlyGoneBundle = path.join(scratch, 'recently-gone-install', 'cliMain.cjs');
  const recentlyGone = [`cliMain.cjs-${pathHash(recentlyGoneBundle)}-v0.0.0-x64-1-1.v8cache`, bundleFileName(recentlyGoneBundle)];
  const unnamedInstall = `cliMain.cjs-${pathHash('/elsewhere/dist/cliMain.cjs')}-v0.0.0-x64-12345678-1.v8cache`;
  const unhashed = 'cliMain.cjs-v20.0.0-x64-1-1.v8cache';
  // This install's caches for another Node or bundle version, in this format and the one before commands: removed at
  // once; another command's cache of this version: kept.
  const stale = `cliMain.cjs-${pathHash(bundlePath)}-run-v0.0.0-x64-1-1.v8cache`;
  const staleBeforeCommands = `cliMain.cjs-${pathHash(bundlePath)}-${process.version}-${process.arch}-1-1.v8cache`;
  const otherCommand = expectedCacheName('validate');
  // A temp file a killed process left, and one being written now.
  const abandoned = `${expectedCacheName()}.99999.tmp`;
  const writing = `${expectedCacheName()}.99998.tmp`;
  // What the launcher does not own, however old; and a folder it cannot remove, which stops nothing else.
  const foreign = ['modelWorker.cjs-v0.0.0-x64-1-1.v8cache', 'cliMain.cjs-notes.txt', 'notes.tmp'];
  const folder = `cliMain.cjs-${pathHash('/folder/dist/cliMain.cjs')}-v0.0.0-x64-1-1.v8cache`;
  for (const name of [
    ...liveInstall,
    ...goneInstall,
    ...recentlyGone,
    unnamedInstall,
    unhashed,
    stale,
    staleBeforeCommands,
    otherCommand,
    abandoned,
    writing,
    ...foreign,
  ])
    writeFileSync(path.join(box.cacheDirectory, name), 'old');
  mkdirSync(path.join(box.cacheDirectory, folder));
  writeFileSync(path.join(box.cacheDirectory, bundleFileName(liveBundle)), liveBundle);
  writeFileSync(path.join(box.cacheDirectory, bundleFileName(goneBundle)), goneBundle);
  writeFileSync(path.join(box.cacheDirectory, bundleFileName(recentlyGoneBundle)), recentlyGoneBundle);
  for (const name of [...liveInstall, ...goneInstall, unnamedInstall, unhashed, ...foreign, folder]) at(name, week + hour);
  for (const name of recentlyGone) at(name, week - hour);
  at(abandoned, 2 * hour);

  assertVersionRun(await launch(box, ['--version']), 'run writing a new cache');
  assert.deepEqual(
    readdirSync(box.cacheDirectory).sort(),
    [...installFiles(), otherCommand, ...liveInstall, ...recentlyGone, writing, ...foreign, folder].sort(),
  );
  assert.ok(statSync(path.join(box.cacheDirectory, expectedCacheName())).size > 0);
});

test('NARRATORIA_NO_COMPILE_CACHE and NODE_DISABLE_COMPILE_CACHE: nothing is created', async () => {
  for (const variable of ['NARRATORIA_NO_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE']) {
    const box = sandbox();
    assertVersionRun(await launch(box, ['--version'], { [variable]: '1' }), variable);
    const validate = await launch(box, ['validate', 'contracts/examples/pick-the-lock.plan.json'], { [variable]: '1' });
    assert.equal(validate.code, 0, `${variable}: ${validate.stderr}`);
    assert.deepEqual(filesUnder(box.cacheHome), [], `${variable}: no cache written`);
    assert.deepEqual(readdirSync(box.cacheHome), [], `${variable}: not even the folder`);
    assert.deepEqual(readdirSync(box.home), [], `${variable}: nothing in HOME`);
  }
});

test('a cache folder that cannot be created only costs speed: the command still works, with nothing on stderr', async () => {
  const box = sandbox();
  // XDG_CACHE_HOME is a regular file, so <it>/narratoria/compile-cache can never be made (even by root).
  const blocked = path.join(box.cacheHome, 'not-a-directory');
  writeFileSync(blocked, 'file');
  const run = await launch({ ...box, cacheHome: blocked }, ['--version']);
  assertVersionRun(run, 'unwritable cache');
  assert.equal(readFileSync(blocked, 'utf8'), 'file');
});

test('real commands through the launcher: validate exits 0 for a valid plan and 1 for invalid ones, with a cold and a warm cache', async () => {
  const box = sandbox();
  const badPlan = path.join(scratch, 'bad-uuid.plan.json');
  writeFileSync(
    badPlan,
    JSON.stringify({ requestId: 'not-a-uuid', tools: [{ toolId: 'a', toolPath: 'skills/helpers/scripts/echo.js' }], dependancies: [] }, null, 2),
  );
  for (const temperature of ['cold', 'warm']) {
    const valid = await launch(box, ['validate', 'contracts/examples/pick-the-lock.plan.json']);
    assert.equal(valid.code, 0, `${temperature}: ${valid.stderr}${valid.stdout}`);
    assert.match(valid.stdout, /pick-the-lock\.plan\.json is valid/);

    const cycle = await launch(box, ['validate', 'test/fixtures/plans/cycle.plan.json', '--root', storyRoot, '--format', 'json']);
    assert.equal(cycle.code, 1, `${temperature}: ${cycle.stderr}`);
    const [cycleEntry] = JSON.parse(cycle.stdout) as { valid: boolean; diagnostics: { code: string }[] }[];
    assert.equal(cycleEntry!.valid, false);
    assert.ok(
      cycleEntry!.diagnostics.some((diagnostic) => diagnostic.code === 'DEPENDENCY_CYCLE'),
      cycle.stdout,
    );

    // Schema errors come from the precompiled validators inside the bundle.
    const schema = await launch(box, ['validate', badPlan, '--root', storyRoot, '--format', 'json']);
    assert.equal(schema.code, 1, `${temperature}: ${schema.stderr}`);
    const [schemaEntry] = JSON.parse(schema.stdout) as { diagnostics: { code: string; pointer: string }[] }[];
    const codes = schemaEntry!.diagnostics.map((diagnostic) => `${diagnostic.code} ${diagnostic.pointer}`);
    assert.ok(codes.includes('SCHEMA_FORMAT /requestId'), codes.join(', '));
    assert.ok(codes.includes('UNKNOWN_PROPERTY /dependancies'), codes.join(', '));
  }
  assert.deepEqual(readdirSync(box.cacheDirectory).sort(), installFiles('validate'));
});

test('run pauses the optimizing compiler only while the plan runs: the cache it makes at exit is the one the next run accepts', async () => {
  const box = sandbox();
  const runArgs = ['run', 'contracts/examples/pick-the-lock.plan.json', '--no-save', '--format', 'json'];
  const cacheFile = path.join(box.cacheDirectory, expectedCacheName('run'));
  // V8 refuses a code cache made under other flags: had run left its flags changed at exit, its cache would be
  // refused and rewritten by every run.
  const first = await launch(box, runArgs);
  assert.equal(first.code, 0, first.stderr);
  assert.equal((JSON.parse(first.stdout) as { success: boolean }).success, true);
  const made = identity(cacheFile);
  assertVersionRun(await launch(box, ['--version']), 'version after run');
  const second = await launch(box, runArgs);
  assert.equal(second.code, 0, second.stderr);
  assert.equal((JSON.parse(second.stdout) as { success: boolean }).success, true);
  const afterwards = identity(cacheFile);
  assert.equal(afterwards.ino, made.ino, 'the cache run made was accepted by the next run: not replaced');
  assert.equal(afterwards.mtimeNs, made.mtimeNs);
  assert.deepEqual(readdirSync(box.cacheDirectory).sort(), installFiles('run', 'other'));
});

test('each command keeps a cache of its own, written by its first run and accepted by the next', async () => {
  const box = sandbox();
  assertVersionRun(await launch(box, ['--version']), 'version');
  const validateArgs = ['validate', 'contracts/examples/pick-the-lock.plan.json'];
  assert.equal((await launch(box, validateArgs)).code, 0);
  assert.deepEqual(readdirSync(box.cacheDirectory).sort(), installFiles('other', 'validate'));
  const version = identity(path.join(box.cacheDirectory, expectedCacheName('other')));
  const validate = identity(path.join(box.cacheDirectory, expectedCacheName('validate')));
  assert.ok(!version.content.equals(validate.content), 'two caches, each with what its command compiled');
  assertVersionRun(await launch(box, ['--version']), 'version again');
  assert.equal((await launch(box, validateArgs)).code, 0);
  assert.equal(identity(path.join(box.cacheDirectory, expectedCacheName('other'))).ino, version.ino, '--version accepted its cache');
  assert.equal(identity(path.join(box.cacheDirectory, expectedCacheName('validate'))).ino, validate.ino, 'validate accepted its cache');
});

test('an error thrown inside the bundle reports a stack in dist/cliMain.cjs at the right line, with a cold and a warm cache', async () => {
  const box = sandbox();
  // A preload makes process.stdout.write throw, so `--version` fails inside main() and prints the internal error with its stack.
  const preload = path.join(scratch, 'throwing-stdout.cjs');
  writeFileSync(preload, "process.stdout.write = function () { throw new Error('stdout refused by the test'); };\n");
  const bundleLines = readFileSync(bundlePath, 'utf8').split('\n');
  const framePattern = new RegExp(`${bundlePath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:(\\d+):(\\d+)`);
  for (const temperature of ['cold', 'warm']) {
    const run = await launch(box, ['--version'], {}, ['--require', preload]);
    assert.notEqual(run.code, 0, temperature);
    assert.match(run.stderr, /internal error: Error: stdout refused by the test/, temperature);
    const frame = framePattern.exec(run.stderr);
    assert.ok(frame, `${temperature}: a stack frame in ${bundlePath}:\n${run.stderr}`);
    // Positions are those of the file (the launcher's wrapper adds no line): the frame is the write call. The bundle has
    // long lines (no spaces or comments), so the column is checked as well.
    const line = bundleLines[Number(frame[1]) - 1] ?? '';
    const column = Number(frame[2]);
    const around = line.slice(Math.max(0, column - 1 - 40), column - 1 + 10);
    assert.match(around, /stdout\.write\(/, `${temperature}: ${frame[1]}:${frame[2]} of the bundle is ${JSON.stringify(around)}`);
  }
});

test('both bundles are one function expression of ASCII text: V8 holds each as a one-byte string, half the memory every spawn forks', () => {
  for (const bundle of [bundlePath, runBundlePath]) {
    const bytes = readFileSync(bundle);
    const firstNonAscii = bytes.findIndex((byte) => byte > 0x7f);
    assert.equal(
      firstNonAscii,
      -1,
      `${bundle}: non-ASCII byte at offset ${firstNonAscii}: ${JSON.stringify(bytes.subarray(Math.max(0, firstNonAscii - 40), firstNonAscii + 10).toString('utf8'))}`,
    );
    const text = bytes.toString('latin1');
    assert.ok(text.startsWith(BUNDLE_HEAD), `${bundle} starts with ${JSON.stringify(text.slice(0, 80))}`);
    const name = path.basename(bundle).replace('.', '\\.');
    assert.match(text, new RegExp(`\\n\\}\\)\\n//# sourceMappingURL=${name}\\.map\\n?$|\\n\\}\\)\\n?$`), bundle);
  }
});

test('run starts from its own bundle, which holds no other command: the same help, errors and exit codes as the full one', async () => {
  const box = sandbox();
  const runText = readFileSync(runBundlePath, 'latin1');
  const mainText = readFileSync(bundlePath, 'latin1');
  for (const other of ['playCommand', 'exploreCommand', 'debugAdapterCommand', 'validateCommand']) {
    assert.ok(!runText.includes(other), `cliRun.cjs holds ${other}`);
    assert.ok(mainText.includes(other), `cliMain.cjs holds ${other}`);
  }
  assert.ok(runText.length < mainText.length * 0.75, `cliRun.cjs ${runText.length} bytes, cliMain.cjs ${mainText.length}`);
  const help = await launch(box, ['run', '--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^Usage:\n {2}narratoria run <plan\.json>/);
  const missing = await launch(box, ['run']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^narratoria: run needs exactly one plan file\n/);
  const ran = await launch(box, ['run', 'contracts/examples/pick-the-lock.plan.json', '--no-save', '--format', 'json']);
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal((JSON.parse(ran.stdout) as { success: boolean }).success, true);
  assert.deepEqual(readdirSync(box.cacheDirectory).sort(), installFiles('run'), 'run compiled cliRun.cjs only');
});
