// Stress mode (npm run test:stress): reruns the timing-sensitive tests N times while busy loops keep every core loaded.
//
//   npm run test:stress                     20 repetitions, 2 busy loops, the files in TIMING_SENSITIVE
//   npm run test:stress -- --repeat 5 --busy 3 cli faults    5 repetitions, 3 busy loops, files matching "cli" or "faults"
//   npm run test:stress -- --all            the whole unit suite (test/runTests.mjs's files)
//
// Each repetition runs the files with node's test runner in a fresh process, like `npm test`. The output of a
// failed repetition is kept in test-output/stress/repetition-<n>.log. Exit code 0 only when every repetition passed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

const testRoot = path.dirname(new URL(import.meta.url).pathname);
const projectRoot = path.join(testRoot, '..');

/**
 * Test files whose outcome could depend on time or on the machine's load: real processes with timeouts,
 * concurrency limits, cancellation and kills, backoff, the model worker, live streaming, browser pages.
 */
const TIMING_SENSITIVE = [
  'test/support/support.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/play.test.ts',
  'test/runtime/executor/faults.test.ts',
  'test/runtime/executor/executorFake.test.ts',
  'test/runtime/executor/planFeatures.test.ts',
  'test/runtime/executor/scheduler.property.test.ts',
  'test/runtime/executor/rePlanning.test.ts',
  'test/runtime/narrator/modelWorkerClient.test.ts',
  'test/runtime/narrator/llamaNarrator.test.ts',
  'test/runtime/narrator/llamaReflection.test.ts',
  'test/runtime/narrator/modelDownload.test.ts',
  'test/runtime/executor/deepMerge.property.test.ts',
  'test/runtime/narrator/modelFiles.test.ts',
  'test/runtime/session/turnRunner.test.ts',
  'test/runtime/session/playSession.test.ts',
  'test/runtime/skills/skillRegistryExecution.test.ts',
  'test/skills/fixtures.test.ts',
  'test/skills/memory.test.ts',
  'test/skills/storytellerLocal.test.ts',
  'test/webview/configForm.test.ts',
  'test/webview/playPanel.test.ts',
  'test/webview/playPanelLook.test.ts',
  'test/webview/playPanelTurns.test.ts',
];

function parseArguments(argv) {
  const options = { repeat: 20, busy: 2, all: false, filters: [] };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    const value = () => {
      const next = Number(argv[++index]);
      if (!Number.isInteger(next) || next < 0) throw new Error(`${argument} needs a whole number, got ${argv[index]}`);
      return next;
    };
    if (argument === '--repeat') options.repeat = value();
    else if (argument === '--busy') options.busy = value();
    else if (argument === '--all') options.all = true;
    else if (argument.startsWith('--')) throw new Error(`unknown option ${argument} (--repeat N, --busy K, --all, file filters)`);
    else options.filters.push(argument);
  }
  if (options.repeat < 1) throw new Error('--repeat must be at least 1');
  return options;
}

function allTestFiles(directory) {
  const found = [];
  for (const entry of readdirSync(directory)) {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) {
      if (['e2e', 'extensionHost', 'fixtures', 'node_modules'].includes(entry)) continue;
      found.push(...allTestFiles(full));
    } else if (entry.endsWith('.test.ts')) {
      found.push(path.relative(projectRoot, full));
    }
  }
  return found.sort();
}

/** Starts `count` processes that spin forever, one per core by default; returns them for killing. */
function startBusyLoops(count) {
  return Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

function runOnce(files) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
      cwd: projectRoot,
      env: { ...process.env, NARRATORIA_TEST: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => resolve({ code, signal, output: Buffer.concat(output).toString('utf8') }));
  });
}

function summaryOf(output) {
  const count = (name) =>
    Number(
      /^ℹ (\w+) (\d+)$/m.exec(
        output
          .split('\n')
          .filter((line) => line.startsWith(`ℹ ${name} `))
          .at(-1) ?? '',
      )?.[2] ?? NaN,
    );
  const failing = [...output.matchAll(/^\s*✖ (.+?) \(\d/gm)].map((match) => match[1]);
  return { tests: count('tests'), pass: count('pass'), fail: count('fail'), failing: [...new Set(failing)] };
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const candidates = options.all ? allTestFiles(testRoot) : TIMING_SENSITIVE;
  const files = candidates.filter((file) => options.filters.length === 0 || options.filters.some((filter) => file.includes(filter)));
  if (files.length === 0) throw new Error('no test file matched the filters');

  // The CLI tests run the real bundle, so build it once first.
  const build = spawnSync(process.execPath, [path.join(projectRoot, 'esbuild.mjs')], { stdio: 'inherit', cwd: projectRoot });
  if (build.status !== 0) process.exit(build.status ?? 1);

  const logDirectory = path.join(projectRoot, 'test-output', 'stress');
  rmSync(logDirectory, { recursive: true, force: true });
  mkdirSync(logDirectory, { recursive: true });

  const busy = startBusyLoops(options.busy);
  const stopBusy = () => busy.forEach((loop) => loop.exitCode === null && loop.kill('SIGKILL'));
  process.on('exit', stopBusy);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

  console.log(
    `Stress: ${options.repeat} repetitions of ${files.length} files with ${options.busy} busy loops (pids ${busy.map((loop) => loop.pid).join(', ') || 'none'}).`,
  );
  const started = Date.now();
  let failedRepetitions = 0;
  for (let repetition = 1; repetition <= options.repeat; repetition++) {
    const repetitionStart = Date.now();
    const run = await runOnce(files);
    const summary = summaryOf(run.output);
    const seconds = ((Date.now() - repetitionStart) / 1000).toFixed(1);
    const ok = run.code === 0;
    if (!ok) {
      failedRepetitions++;
      const log = path.join(logDirectory, `repetition-${repetition}.log`);
      writeFileSync(log, run.output);
      console.log(
        `✖ repetition ${repetition}/${options.repeat}: ${summary.fail} of ${summary.tests} tests failed in ${seconds} s (exit ${run.code ?? run.signal}); output in ${path.relative(projectRoot, log)}`,
      );
      for (const name of summary.failing) console.log(`    ✖ ${name}`);
    } else {
      console.log(`✔ repetition ${repetition}/${options.repeat}: ${summary.pass} tests passed in ${seconds} s`);
    }
  }
  stopBusy();
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  console.log(`Stress: ${options.repeat - failedRepetitions}/${options.repeat} repetitions passed under ${options.busy} busy loops in ${minutes} min.`);
  process.exit(failedRepetitions === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(`test:stress: ${error.message}`);
  process.exit(2);
});
