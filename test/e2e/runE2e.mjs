// `npm run test:e2e`: installs the harness if needed, packages the VSIX if it is missing or outdated, then runs the UI scenarios and the extension-host tests in code-server.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const args = process.argv.slice(2);
const usage = `Usage: npm run test:e2e -- [--scenarios-only | --extension-host-only] [--skip-install] [--name PATTERN]
  --name PATTERN   only the UI scenarios whose name matches (node --test-name-pattern)`;
if (args.includes('--help')) {
  console.log(usage);
  process.exit(0);
}
const nameIndex = args.indexOf('--name');
const namePattern = nameIndex >= 0 ? args[nameIndex + 1] : undefined;

const timings = [];
/** Runs a step with inherited output; returns its exit code. */
function step(name, command, commandArgs) {
  const started = Date.now();
  console.log(`\n[e2e] ${name}`);
  const result = spawnSync(command, commandArgs, { cwd: repoRoot, stdio: 'inherit' });
  const seconds = (Date.now() - started) / 1000;
  const code = result.status ?? 1;
  timings.push(`${name}: ${seconds.toFixed(1)} s${code === 0 ? '' : ` (exit ${code})`}`);
  return code;
}

function finish(code) {
  console.log(`\n[e2e] timings\n  ${timings.join('\n  ')}`);
  console.log(`[e2e] screenshots in ${path.relative(process.cwd(), path.join(repoRoot, 'test-output', 'e2e')) || '.'}`);
  process.exit(code);
}

const tsx = ['--import', 'tsx'];
if (!args.includes('--skip-install') && step('install the harness', process.execPath, [...tsx, 'test/e2e/harness/installHarness.ts']) !== 0) finish(1);

let failed = 0;
if (!args.includes('--extension-host-only')) {
  if (step('package the VSIX (if outdated)', process.execPath, [...tsx, 'test/e2e/harness/vsix.ts']) !== 0) finish(1);
  const scenarioFiles = readdirSync(here)
    .filter((file) => file.endsWith('.e2e.ts'))
    .sort()
    .map((file) => path.join('test', 'e2e', file));
  const testArgs = [
    ...tsx,
    '--test',
    '--test-reporter=spec',
    '--test-concurrency=1',
    ...(namePattern ? [`--test-name-pattern=${namePattern}`] : []),
    ...scenarioFiles,
  ];
  if (step('UI scenarios', process.execPath, testArgs) !== 0) failed++;
}
if (!args.includes('--scenarios-only')) {
  if (step('extension-host tests', process.execPath, [...tsx, 'test/extensionHost/runInCodeServer.ts']) !== 0) failed++;
}
finish(failed === 0 ? 0 : 1);
