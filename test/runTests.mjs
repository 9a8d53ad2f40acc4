// Runs the unit and integration tests (test/**/*.test.ts, except test/e2e, test/extensionHost and test/packaging, which need VS Code or built VSIXes) with node's test runner and tsx.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const testRoot = path.dirname(new URL(import.meta.url).pathname);
const filters = process.argv.slice(2);

function collect(directory) {
  const found = [];
  for (const entry of readdirSync(directory)) {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) {
      if (entry === 'e2e' || entry === 'extensionHost' || entry === 'packaging' || entry === 'fixtures' || entry === 'node_modules') continue;
      found.push(...collect(full));
    } else if (entry.endsWith('.test.ts')) {
      found.push(full);
    }
  }
  return found;
}

const files = collect(testRoot)
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();
if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}
// The CLI tests run the real bundle, so build it first.
const build = spawnSync(process.execPath, [path.join(testRoot, '..', 'esbuild.mjs')], { stdio: 'inherit', cwd: path.join(testRoot, '..') });
if (build.status !== 0) process.exit(build.status ?? 1);
// The local model's persisted prompts go to a folder of this run, not the user's cache, and are removed after.
const promptCache = mkdtempSync(path.join(os.tmpdir(), 'narratoria-test-prompt-cache-'));
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, NARRATORIA_TEST: '1', NARRATORIA_PROMPT_CACHE_DIR: promptCache },
});
rmSync(promptCache, { recursive: true, force: true });
process.exit(result.status ?? 1);
