// Issue 28: when the process that runs a plan dies without its exit hooks (SIGKILL), the reaper kills every process group it started: a real `narratoria run` and a `narratoria play` turn with a hanging script and its grandchild leave no process behind.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isProcessAlive } from '../../support/processes.js';

const cli = path.resolve(import.meta.dirname, '../../../dist/cli.cjs');

/** Polls until the condition holds. Margin: the 180 s deadline is a safety net for a loaded machine, not a time limit; `context` says what the runner printed. */
async function waitUntil(condition: () => boolean, what: string, context: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`still waiting for ${what}${context()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A story with a skill whose script starts a grandchild `sleep`, writes both process ids, then hangs. */
function hangingStory(): { root: string; pids: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'narratoria-orphans-'));
  const pids = path.join(root, 'pids.json');
  const skill = path.join(root, 'skills', 'hang');
  mkdirSync(path.join(skill, 'scripts'), { recursive: true });
  writeFileSync(
    path.join(skill, 'skill.json'),
    JSON.stringify({
      name: 'hang',
      displayName: 'Hang',
      version: '1.0.0',
      description: 'Hangs on purpose to test the reaper; the tower waits.',
      capabilities: ['hang', 'tower'],
      priority: 99,
      keywords: ['tower'],
      scripts: [{ name: 'wait', path: 'scripts/wait.js', description: 'Waits at the tower forever.', timeout: 300000 }],
    }),
  );
  writeFileSync(
    path.join(skill, 'scripts', 'wait.js'),
    `const { spawn } = require('node:child_process');\nconst child = spawn('sleep', ['120'], { stdio: 'ignore' });\nrequire('node:fs').writeFileSync(${JSON.stringify(pids + '.tmp')}, JSON.stringify({ script: process.pid, grandchild: child.pid }));\nrequire('node:fs').renameSync(${JSON.stringify(pids + '.tmp')}, ${JSON.stringify(pids)});\nprocess.stdin.resume();\nsetInterval(() => {}, 1000);\n`,
  );
  writeFileSync(
    path.join(root, 'plan.json'),
    JSON.stringify({
      requestId: '7c9e6679-7425-40de-944b-e07dc4f0be15',
      tools: [{ toolId: 'wait', toolPath: 'skills/hang/scripts/wait.js', input: {}, timeoutMs: 300000 }],
    }),
  );
  return { root, pids };
}

async function killedRunnerLeavesNothing(args: (root: string) => string[]): Promise<void> {
  const { root, pids } = hangingStory();
  const runner = spawn(process.execPath, [cli, ...args(root)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let printed = '';
  runner.stdout.setEncoding('utf8').on('data', (text: string) => (printed += text));
  runner.stderr.setEncoding('utf8').on('data', (text: string) => (printed += text));
  let exit = 'still running';
  runner.on('exit', (code, signal) => (exit = `exited with ${code ?? signal}`));
  const context = (): string => ` (the runner ${exit}; it printed: ${JSON.stringify(printed.slice(-2000))})`;
  try {
    // The script writes its file with a rename, so a file that exists holds the whole JSON.
    await waitUntil(() => existsSync(pids), 'the script and its grandchild to start', context);
    const { script, grandchild } = JSON.parse(readFileSync(pids, 'utf8')) as { script: number; grandchild: number };
    assert.ok(isProcessAlive(script) && isProcessAlive(grandchild), `the script (${script}) and its grandchild (${grandchild}) run${context()}`);
    runner.kill('SIGKILL');
    await waitUntil(
      () => !isProcessAlive(script) && !isProcessAlive(grandchild),
      `the script (${script}) and its grandchild (${grandchild}) to be gone after the runner's SIGKILL`,
      context,
    );
  } finally {
    runner.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
}

test('narratoria run killed with SIGKILL: the hanging script and its grandchild are killed by the reaper', { skip: process.platform === 'win32' }, () =>
  killedRunnerLeavesNothing((root) => ['run', path.join(root, 'plan.json'), '--root', root, '--no-save']),
);

test(
  "narratoria play killed with SIGKILL mid-turn: the turn's script and its grandchild are killed by the reaper",
  { skip: process.platform === 'win32' },
  () => killedRunnerLeavesNothing((root) => ['play', '--root', root, '--narrator', 'pattern', '--once', 'I wait at the tower', '--no-bundled-skills']),
);

test('each reaper program (perl, bash, node) kills the groups it holds at end-of-file, and never one it was told had ended', {
  skip: process.platform === 'win32',
}, async () => {
  const { REAPER_PERL, REAPER_SCRIPT, REAPER_PROGRAM } = await import('../../../src/runtime/process/processReaper.js');
  const programs: [string, string[]][] = [
    ['/usr/bin/perl', ['-e', REAPER_PERL]],
    ['/bin/bash', ['-c', REAPER_SCRIPT]],
    [process.execPath, ['-e', REAPER_PROGRAM]],
  ];
  for (const [command, args] of programs.filter(([command]) => existsSync(command))) {
    const held = spawn('/bin/sh', ['-c', 'sleep 120 & wait'], { detached: true, stdio: 'ignore' });
    const ended = spawn('/bin/sh', ['-c', 'sleep 120 & wait'], { detached: true, stdio: 'ignore' });
    const reaper = spawn(command, args, { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    try {
      reaper.stdin.end(`+${held.pid}\n+${ended.pid}\n-${ended.pid}\n+not-a-pid\n`);
      await waitUntil(() => !isProcessAlive(held.pid!), `${command}: the held group to be killed`);
      await waitUntil(() => !isProcessAlive(reaper.pid!), `${command}: the reaper to exit`);
      assert.equal(isProcessAlive(ended.pid!), true, `${command}: a group said to have ended is left alone`);
    } finally {
      for (const child of [held, ended]) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  }
});

test('the Windows reaper program ends each script it holds with its whole tree (taskkill /T /F) at end-of-file, and never one that had ended', {
  skip: process.platform === 'win32' && 'run here with a recording taskkill in PATH; on Windows the real one would run',
}, async () => {
  const { REAPER_WINDOWS_PROGRAM } = await import('../../../src/runtime/process/processReaper.js');
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-taskkill-'));
  try {
    // A stand-in taskkill that records its arguments, found first in PATH: the program's logic runs for real.
    const calls = path.join(folder, 'calls.txt');
    writeFileSync(path.join(folder, 'taskkill'), `#!/bin/sh\necho "$*" >> '${calls}'\n`, { mode: 0o755 });
    const reaper = spawn(process.execPath, ['-e', REAPER_WINDOWS_PROGRAM], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...process.env, PATH: `${folder}${path.delimiter}${process.env['PATH'] ?? ''}` },
    });
    reaper.stdin.end('+4242\n+5151\n-5151\n+not-a-pid\n+1\n');
    await waitUntil(() => !isProcessAlive(reaper.pid!), 'the Windows reaper to exit');
    assert.equal(readFileSync(calls, 'utf8'), '/T /F /PID 4242\n');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
