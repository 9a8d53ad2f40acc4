// Packages the extension: one VSIX per VS Code target holding only that target's node-llama-cpp binary package, and a universal VSIX with none (pattern narrator only).
// Usage: node package.mjs [--all | --target <target>...] [--skip-build] [--ls]   (npm run package -- --all; --ls lists what a VSIX would ship)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = path.dirname(fileURLToPath(import.meta.url));
const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const llamaVersion = packageJson.dependencies['node-llama-cpp'];

/** VS Code target → the node-llama-cpp package with its prebuilt binaries (the runtime's own table), and universal. */
const { BINARY_PACKAGES } = await tsImport('./src/runtime/narrator/localModelSupport.ts', import.meta.url);
export const TARGETS = { ...BINARY_PACKAGES, universal: null };

/** Files of the extension itself (node_modules comes from the production dependency tree). */
const EXTENSION_FILES = ['README.md', 'LICENSE', 'CHANGELOG.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', '.vscodeignore', 'dist', 'skills', 'contracts', 'docs'];

function fail(message) {
  console.error(`package: ${message}`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', shell: process.platform === 'win32', ...options });
  if (result.status !== 0) fail(`${command} ${args.join(' ')} exited ${result.status ?? result.signal}`);
  return result;
}

function parseTargets(argv) {
  if (argv.includes('--all')) return Object.keys(TARGETS);
  const targets = [];
  for (let index = 0; index < argv.length; index++) {
    if (argv[index] === '--target') targets.push(argv[++index]);
  }
  for (const target of targets) if (!(target in TARGETS)) fail(`unknown target "${target}" (one of ${Object.keys(TARGETS).join(', ')})`);
  if (targets.length > 0) return targets;
  // Default: this machine's own target.
  const host = `${process.platform}-${process.arch}`;
  if (!(host in TARGETS)) fail(`no VSIX target for ${host}: pass --target <target> or --all`);
  return [host];
}

/** The installed production dependencies (node-llama-cpp's tree) as folders relative to the project, without binary packages. */
function productionDependencyFolders() {
  const listed = spawnSync('npm', ['ls', '--omit=dev', '--parseable', '--all'], { cwd: root, encoding: 'utf8', shell: process.platform === 'win32' });
  if (!listed.stdout) fail(`npm ls printed nothing: ${listed.stderr}`);
  return listed.stdout
    .split(/\r?\n/)
    .filter((line) => line.trim() && path.resolve(line) !== root)
    .map((line) => path.relative(root, line))
    .filter((folder) => !folder.split(path.sep).join('/').startsWith('node_modules/@node-llama-cpp/'));
}

/** The binary package's folder: installed (the host's), or unpacked from its npm tarball into a cache (any other platform; no install, so no platform check). */
function binaryPackageFolder(name) {
  const installed = path.join(root, 'node_modules', ...name.split('/'));
  if (existsSync(path.join(installed, 'package.json')) && JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')).version === llamaVersion)
    return installed;
  const cache = path.join(root, 'node_modules', '.cache', 'narratoria-packaging', `${name.replace('/', '+')}@${llamaVersion}`);
  if (!existsSync(path.join(cache, 'package', 'package.json'))) {
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    console.log(`package: downloading ${name}@${llamaVersion} from the npm registry`);
    const packed = spawnSync('npm', ['pack', `${name}@${llamaVersion}`, '--pack-destination', cache, '--json'], {
      cwd: cache,
      encoding: 'utf8',
      shell: process.platform === 'win32',
    });
    if (packed.status !== 0) fail(`npm pack ${name}@${llamaVersion} failed: ${packed.stderr}`);
    const [{ filename }] = JSON.parse(packed.stdout);
    run('tar', ['-xzf', path.join(cache, path.basename(filename)), '-C', cache]);
    rmSync(path.join(cache, path.basename(filename)), { force: true });
  }
  return path.join(cache, 'package');
}

/** Hard-links (or copies, where the file system cannot) one file. */
function linkFile(source, target) {
  try {
    linkSync(source, target);
  } catch {
    cpSync(source, target, { dereference: true });
  }
}

/** Copies a folder file by file with linkFile: fast, and no extra space on the same file system. */
function linkTree(from, to) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else linkFile(source, target);
  }
}

/**
 * The files of node-llama-cpp's dependency tree the model worker can load: every module statically reachable
 * from `node-llama-cpp` (esbuild's metafile, resolved both as Node does and module-first, so either entry of a
 * dual package is kept), plus what Node and the code read from disk: every package.json, each package's license
 * files and node-llama-cpp's llama/*.json. The rest (the CLI, build tooling, TypeScript sources, docs) stays out.
 */
async function localModelRuntimeFiles(folders) {
  const esbuild = await import('esbuild');
  const keep = new Set();
  for (const mainFields of [['main'], ['module', 'main']]) {
    const result = await esbuild.build({
      entryPoints: ['node-llama-cpp'],
      absWorkingDir: root,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      metafile: true,
      outdir: path.join(root, '.package', 'reachable'),
      logLevel: 'silent',
      external: ['@node-llama-cpp/*'],
      mainFields,
    });
    for (const input of Object.keys(result.metafile.inputs)) keep.add(path.normalize(input));
  }
  // Licenses at each package's top; package.json at any depth (a dual package's dist/cjs/package.json says
  // "type": "commonjs", which decides how Node loads the files beside it).
  const license = /^(licen[cs]e|copying|notice)(\.[a-z]+)?$/i;
  const packageJsons = (folder) => {
    for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== 'node_modules') packageJsons(path.join(folder, entry.name));
      else if (entry.name === 'package.json') keep.add(path.join(folder, entry.name));
    }
  };
  for (const folder of folders) {
    for (const entry of readdirSync(path.join(root, folder))) if (license.test(entry)) keep.add(path.join(folder, entry));
    packageJsons(folder);
  }
  const llama = path.join('node_modules', 'node-llama-cpp', 'llama');
  for (const entry of readdirSync(path.join(root, llama))) if (entry.endsWith('.json')) keep.add(path.join(llama, entry));
  return keep;
}

function stage(target, runtimeFiles) {
  const staging = path.join(root, '.package', target);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const file of EXTENSION_FILES) {
    const source = path.join(root, file);
    if (!existsSync(source)) continue;
    if (statSync(source).isDirectory()) linkTree(source, path.join(staging, file));
    else cpSync(source, path.join(staging, file));
  }
  const binary = TARGETS[target];
  const manifest = structuredClone(packageJson);
  delete manifest.devDependencies;
  delete manifest.scripts;
  // Which dependencies' install scripts may run concerns a development install, not a VSIX (docs/packaging.md#install-scripts).
  delete manifest.allowScripts;
  delete manifest['//allowScripts'];
  if (binary) {
    for (const file of runtimeFiles) {
      mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
      linkFile(path.join(root, file), path.join(staging, file));
    }
    linkTree(binaryPackageFolder(binary), path.join(staging, 'node_modules', ...binary.split('/')));
    manifest.dependencies = { 'node-llama-cpp': llamaVersion, [binary]: llamaVersion };
  } else {
    // Universal: no native code at all, so no node-llama-cpp either; the narrator is the pattern narrator.
    manifest.dependencies = {};
  }
  writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return staging;
}

/**
 * Stages the target and runs vsce on it: `package` writes narratoria-<target>.vsix; `ls` prints what that VSIX
 * ships (vsce ls on the staged extension, not on the development tree).
 */
function vsceOnTarget(command, target, runtimeFiles) {
  const staging = stage(target, runtimeFiles);
  const out = path.join(root, `narratoria-${target}.vsix`);
  const args = [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), command];
  // No public repository yet: the manifest has no repository field (CHANGELOG.md, known limitations; issue 15).
  if (command === 'package') args.push('--no-rewrite-relative-links', '--allow-missing-repository', '--out', out);
  if (command === 'package' && TARGETS[target]) args.push('--target', target);
  if (!TARGETS[target]) args.push('--no-dependencies');
  run(process.execPath, args, { cwd: staging, shell: false });
  rmSync(staging, { recursive: true, force: true });
  if (command === 'package') console.log(`package: ${path.basename(out)} ${(statSync(out).size / 1024 / 1024).toFixed(1)} MB`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const targets = parseTargets(argv);
  if (!argv.includes('--skip-build')) run(process.execPath, [path.join(root, 'esbuild.mjs'), '--production'], { cwd: root, shell: false });
  const runtimeFiles = await localModelRuntimeFiles(productionDependencyFolders());
  for (const target of targets) vsceOnTarget(argv.includes('--ls') ? 'ls' : 'package', target, runtimeFiles);
  rmSync(path.join(root, '.package'), { recursive: true, force: true });
}
