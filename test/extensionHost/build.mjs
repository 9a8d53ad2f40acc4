// Bundles the extension-host tests (index.ts and every *.test.ts here) into test-output/extension-host/ as CommonJS, `vscode` and mocha external.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
export const outDir = path.join(repoRoot, 'test-output', 'extension-host');

// One mocha for the runner and every test file: they all require the repository's own copy by its
// absolute path (its CommonJS build, so no require(esm) is needed in any extension host).
const mochaPath = createRequire(import.meta.url).resolve('mocha/lib/mocha.cjs');
/** @type {import('esbuild').Plugin} */
const sharedMocha = {
  name: 'shared-mocha',
  setup(build) {
    build.onResolve({ filter: /^mocha$/ }, () => ({ path: mochaPath, external: true }));
  },
};

/** Builds the bundles; returns the test files found. */
export async function buildExtensionHostTests() {
  const tests = readdirSync(here)
    .filter((file) => file.endsWith('.test.ts'))
    .sort();
  rmSync(outDir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: Object.fromEntries([['index', path.join(here, 'index.ts')], ...tests.map((file) => [file.replace(/\.ts$/, ''), path.join(here, file)])]),
    outdir: outDir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode'],
    // Prefer ESM entry points: jsonc-parser's UMD build hides its requires from the bundler (as in esbuild.mjs).
    mainFields: ['module', 'main'],
    plugins: [sharedMocha],
    logLevel: 'warning',
    logOverride: { 'empty-import-meta': 'silent' },
  });
  return tests;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tests = await buildExtensionHostTests();
  console.log(`[extension-host] bundled ${tests.length} test file(s) into ${path.relative(repoRoot, outDir)}`);
}
