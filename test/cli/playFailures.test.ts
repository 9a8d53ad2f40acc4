// Issue 39 end to end with the built CLI: a hung skill costs one plan timeout and is disabled with its reason, failures are printed with their stderr and run record, and Ctrl+C in interactive `play` (under a pseudo-terminal) cancels the turn, then quits.
// Margin: the hanging script never ends; the plan timeout (3 s) is what ends it, and no test asserts a duration.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliPath, narratoria, projectRoot } from './cliHarness.js';

let story: string;

/** The first story of the issue (a merchant and a ferryman), with the ferryman's `cross` hanging after a line on stderr. */
before(() => {
  story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-hung-'));
  cpSync(path.join(projectRoot, 'test', 'fixtures', 'first-story'), story, { recursive: true });
  const manifestFile = path.join(story, 'skills', 'ferryman', 'skill.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { scripts: { timeout?: number }[] };
  // No script timeout of its own: only the plan timeout can end the hang.
  for (const script of manifest.scripts) delete script.timeout;
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  const cross = path.join(story, 'skills', 'ferryman', 'scripts', 'cross.sh');
  writeFileSync(cross, '#!/bin/sh\necho "the ferry rope is jammed" >&2\nsleep 600\n');
  chmodSync(cross, 0o755);
});
after(() => rmSync(story, { recursive: true, force: true }));

const ACROSS = 'Take me over to the other side, ferryman.';

test('a hung required skill: one plan timeout, then the turn re-plans without it; the failure, its stderr, its run record and the reason are printed', async () => {
  const run = await narratoria(['play', '--root', story, '--narrator', 'pattern', '--plan-timeout', '3000', '--once', ACROSS]);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.split('\n');
  assert.ok(
    lines.some((line) => /^attempt 1 \[pattern\] cross, narrate: failed/.test(line)),
    run.stdout,
  );
  assert.ok(
    lines.some((line) => /^attempt 2 \[pattern\] narrate: success/.test(line)),
    run.stdout,
  );
  assert.ok(!lines.some((line) => /^attempt 3/.test(line)), 'the hang cost one attempt');
  assert.ok(lines.includes('✖ attempt 1: cross hung: still running when the plan timed out after 3.0 s (skill ferryman)'), run.stdout);
  assert.ok(
    lines.some((line) => line.includes('PLAN_TIMEOUT: the plan timeout (3,000 ms) expired while this tool was running')),
    run.stdout,
  );
  assert.ok(lines.includes('    | the ferry rope is jammed'), 'the last lines of its stderr');
  const record = lines.find((line) => line.includes('run record: '));
  assert.ok(record?.includes(`run record: ${path.join(story, '.narratoria', 'runs')}/`), record);
  assert.match(record ?? '', /\(narratoria runs show [0-9a-f-]{36} --root \S+\)$/);
  assert.ok(lines.includes('ferryman disabled: cross hung: still running when the plan timed out after 3.0 s'), run.stdout);
  // The narration says nothing of the player's words in quotes.
  assert.ok(!run.stdout.includes(`'${ACROSS}'`));

  // play's turns are recorded like run's: `runs list` and `runs show` read them.
  const listed = await narratoria(['runs', 'list', '--root', story, '--format', 'json']);
  assert.equal(listed.code, 0, listed.stderr);
  const runs = JSON.parse(listed.stdout) as { planId: string; status: string }[];
  const planId = /runs show ([0-9a-f-]{36})/.exec(record!)![1]!;
  assert.equal(runs.find((each) => each.planId === planId)?.status, 'timeout');
  assert.ok(
    runs.some((each) => each.status === 'succeeded'),
    'the second attempt is recorded too',
  );
  const shown = await narratoria(['runs', 'show', planId, '--root', story]);
  assert.equal(shown.code, 0, shown.stderr);
});

test('--turn-budget bounds the whole turn: a hang that spends it ends the turn with the fallback, saying so', async () => {
  const run = await narratoria(['play', '--root', story, '--narrator', 'pattern', '--turn-budget', '2000', '--once', ACROSS, '--format', 'json']);
  assert.equal(run.code, 0, run.stderr);
  const turn = JSON.parse(run.stdout) as {
    fallback: boolean;
    budgetSpentMs?: number;
    attempts: unknown[];
    disabledReasons?: Record<string, string>;
    narrative: string;
  };
  assert.equal(turn.fallback, true);
  assert.equal(turn.budgetSpentMs, 2000);
  assert.equal(turn.attempts.length, 1);
  assert.match(turn.disabledReasons?.['ferryman'] ?? '', /^cross hung/);
  assert.ok(!turn.narrative.includes(ACROSS));
});

test('--turn-budget must be a positive integer', async () => {
  const run = await narratoria(['play', '--root', story, '--turn-budget', 'soon', '--once', 'hello']);
  assert.equal(run.code, 2);
});

/** `script` gives the CLI a pseudo-terminal (util-linux); without it the test cannot drive a terminal's Ctrl+C. */
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/** Interactive `play` in a pseudo-terminal: what it printed, a way to type, and its exit code. */
function terminalPlay(root: string) {
  const command = [process.execPath, cliPath, 'play', '--root', root, '--narrator', 'pattern', '--session', path.join(root, 'ctrl-c.session.json')]
    .map((part) => `'${part}'`)
    .join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '1', TERM: 'dumb' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    get output() {
      return output.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
    },
    type: (text: string) => child.stdin.write(text),
    /** Waits until the output after `from` matches (the test's own timeout bounds the wait). */
    async waitFor(pattern: RegExp, from = 0): Promise<number> {
      for (;;) {
        const text = this.output;
        const match = pattern.exec(text.slice(from));
        if (match) return from + match.index + match[0].length;
        if (child.exitCode !== null) throw new Error(`play exited (${child.exitCode}) before ${pattern}:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

test('Ctrl+C in interactive play: the first press cancels the running turn and the prompt comes back; at an empty prompt it quits (exit 130)', {
  skip: !hasScript && 'needs util-linux script for a pseudo-terminal',
}, async (t) => {
  const play = terminalPlay(story);
  t.after(() => play.child.kill('SIGKILL'));
  let at = await play.waitFor(/> /);
  play.type(`${ACROSS}\r`);
  // The live line says the hung tool is running: the turn is under way.
  at = await play.waitFor(/running cross \(ferryman\) \d+ s/, at);
  play.type('\x03');
  at = await play.waitFor(/Cancelling the turn/, at);
  at = await play.waitFor(/The turn was cancelled\.\r?\n> /, at);
  assert.equal(play.child.exitCode, null, 'play is still running after the first press');
  // The prompt works again: a command answers.
  play.type('/help\r');
  at = await play.waitFor(/Type an action/, at);
  await play.waitFor(/> /, at);
  play.type('\x03');
  assert.equal(await play.exited, 130);
});

test('Ctrl+C twice within 2 s while a turn runs quits (exit 130)', { skip: !hasScript && 'needs util-linux script for a pseudo-terminal' }, async (t) => {
  const play = terminalPlay(story);
  t.after(() => play.child.kill('SIGKILL'));
  let at = await play.waitFor(/> /);
  play.type(`${ACROSS}\r`);
  await play.waitFor(/running cross \(ferryman\) \d+ s/, at);
  play.type('\x03');
  play.type('\x03');
  assert.equal(await play.exited, 130);
});
