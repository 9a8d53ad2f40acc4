// `narratoria explore` as a real process over real files: exit codes 0, 1 and 2, the same command line giving the same report (timings aside), the JSON report against contracts/explore-report.schema.json, fault injection (a skill failing one input in twenty is found, saved as a playtest, and that playtest fails the same way), test --coverage, and Ctrl+C.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { parsePlaytest } from '../../src/runtime/playtest/playtestDocument.js';
import type { ExploreReport } from '../../src/runtime/explore/exploreTypes.js';
import { cliPath, narratoria, projectRoot, type CliRun } from './cliHarness.js';

const fixture = path.join(projectRoot, 'test', 'fixtures', 'explore-story');
const temporary: string[] = [];
after(() => {
  for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
});

/** A copy of the fault-injection story in a folder of its own (the runs write .narratoria/ and coverage/ under it). */
function storyCopy(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'narratoria-explore-test-'));
  temporary.push(root);
  cpSync(path.join(fixture, 'skills'), path.join(root, 'skills'), { recursive: true });
  return root;
}

function show(run: CliRun): string {
  return `exit ${run.code}\n--- stdout ---\n${run.stdout.slice(0, 4000)}\n--- stderr ---\n${run.stderr.slice(0, 4000)}`;
}

function parse(run: CliRun): ExploreReport {
  try {
    return JSON.parse(run.stdout) as ExploreReport;
  } catch (error) {
    assert.fail(`--format json printed something that is not JSON (${String(error)})\n${show(run)}`);
  }
}

/** The report without its timings (every key ending in Ms). */
function withoutTimings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.endsWith('Ms'))
      .map(([key, inner]) => [key, withoutTimings(inner)]),
  );
}

function assertValid(report: ExploreReport): void {
  assert.deepEqual(validateAgainst('explore-report.schema.json', report), [], 'the report matches contracts/explore-report.schema.json');
}

describe('narratoria explore: usage errors exit 2 with a clear message', () => {
  const cases: readonly [readonly string[], RegExp][] = [
    [['--runs', '0'], /--runs must be a positive integer/],
    [['--turns', 'ten'], /--turns must be a positive integer/],
    [['--jobs', '-1'], /jobs/],
    [['--seed', '-3'], /seed/],
    [['--seed', '4294967296'], /--seed must be an integer/],
    [['--format', 'xml'], /--format must be/],
    [['--narrator', 'oracle'], /--narrator must be pattern, llm or auto/],
    [['--frobnicate'], /frobnicate/],
    [['stray-file.json'], /no file arguments/],
  ];
  for (const [args, message] of cases) {
    it(`explore ${args.join(' ')}`, async () => {
      const run = await narratoria(['explore', ...args, '--root', fixture], fixture);
      assert.equal(run.code, 2, show(run));
      assert.match(run.stderr, message);
      assert.equal(run.stdout, '');
    });
  }
  it('lists explore in --help', async () => {
    const run = await narratoria(['--help']);
    assert.match(
      run.stdout,
      /narratoria explore \[--root DIR\] \[--runs N\] \[--turns N\] \[--seed S\] \[--narrator pattern\|llm\|auto\] \[--jobs N\] \[--format text\|json\] \[--out DIR\] \[--coverage\]/,
    );
  });
});

describe('narratoria explore: exit 0, a story without problems', () => {
  it('plays the sample skills alone and finds nothing; text report', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'narratoria-explore-clean-'));
    temporary.push(root);
    mkdirSync(path.join(root, 'skills'));
    const run = await narratoria(['explore', '--root', root, '--runs', '3', '--turns', '4', '--jobs', '2'], root);
    assert.equal(run.code, 0, show(run));
    assert.match(run.stdout, /Explored 3 sessions \(12 turns\)/);
    assert.match(run.stdout, /no problem found/);
    assert.match(run.stdout, /skills never selected:/);
    assert.equal(existsSync(path.join(root, '.narratoria', 'explore')), false, 'nothing saved when nothing failed');
  });
});

describe('narratoria explore: fault injection, determinism and saved playtests', () => {
  // Seed 3 plays an input whose omen is clouded (the fault hashes the subject and the player's words).
  const root = storyCopy();
  const args = ['explore', '--root', root, '--runs', '6', '--turns', '6', '--seed', '3', '--jobs', '2', '--format', 'json'];
  let first: ExploreReport;

  it('finds the skill that fails one input in twenty (exit 1) and saves the session as a playtest', async () => {
    const run = await narratoria(args, root);
    assert.equal(run.code, 1, show(run));
    first = parse(run);
    assertValid(first);
    assert.equal(first.sessions.played, 6);
    assert.ok(first.problems.byKind.tool_failure >= 1, 'a tool failure was found');
    assert.ok(first.problems.toolFailures.done_not_ok >= 1, 'as done.ok: false');
    const failing = first.failedSessions.find((session) => session.problems.some((problem) => problem.script === 'omen-reader/read'));
    assert.ok(failing, 'a failed session names omen-reader/read');
    assert.ok(failing.playtest, 'its playtest was saved');
    assert.equal(first.failedSessions.length, first.sessions.withProblems);
    const omen = first.scripts.find((script) => script.script === 'omen-reader/read')!;
    assert.ok(omen.runs > 0 && omen.failures >= 1);
    assert.deepEqual(first.stateKeysBySkill['omen-reader'], ['omens.last']);
    assert.ok(first.neverRunScripts.length > 0 && first.eventTypesNeverEmitted['omen-reader/read']!.includes('asset'));
  });

  it('gives the same report for the same command line, timings aside', async () => {
    const again = parse(await narratoria(args, root));
    assert.deepEqual(withoutTimings(again), withoutTimings(first));
    assert.equal(JSON.stringify(withoutTimings(again)), JSON.stringify(withoutTimings(first)), 'byte for byte');
  });

  it('saved playtests are valid and fail the same way under narratoria test', async () => {
    const saved = first.failedSessions.filter((session) => session.playtest);
    assert.ok(saved.length > 0);
    for (const session of saved) {
      const file = path.resolve(root, session.playtest!);
      const text = readFileSync(file, 'utf8');
      assert.deepEqual(validateAgainst('playtest.schema.json', JSON.parse(text)), []);
      const parsed = parsePlaytest(file, text);
      assert.deepEqual(parsed.problems, []);
      assert.equal(parsed.playtest!.seed, session.seed);
      const run = await narratoria(['test', file, '--root', root, '--format', 'json'], root);
      assert.equal(run.code, 1, show(run));
      const report = JSON.parse(run.stdout) as {
        playtests: { turns: { index: number; status: string; failures: { expectation: string; actual: unknown }[] }[] }[];
      };
      const problemTurns = [...new Set(session.problems.map((problem) => problem.turn))];
      const failedTurns = report.playtests[0]!.turns.filter((turn) => turn.status === 'failed').map((turn) => turn.index);
      assert.deepEqual(failedTurns, problemTurns, 'the turns with problems fail, and only they');
      const toolFailure = session.problems.find((problem) => problem.kind === 'tool_failure');
      if (toolFailure) {
        const turn = report.playtests[0]!.turns.find((candidate) => candidate.index === toolFailure.turn)!;
        const events = turn.failures.find((failure) => failure.expectation === 'events');
        assert.ok(events, 'the failed tool shows as a failed events expectation');
        assert.match(JSON.stringify(events.actual), /"ok":false/, 'with its done.ok: false');
      }
    }
  });

  it('writes the saved playtests under --out when given', async () => {
    const out = path.join(root, 'found');
    const run = await narratoria([...args, '--out', out], root);
    assert.equal(run.code, 1, show(run));
    const report = parse(run);
    assert.equal(report.outDirectory, out);
    assert.deepEqual(
      readdirSync(out)
        .filter((name) => name.endsWith('.playtest.json'))
        .sort(),
      report.failedSessions.map((session) => path.basename(session.playtest!)).sort(),
    );
  });
});

describe('narratoria explore --coverage and narratoria test --coverage', () => {
  it('explore --coverage writes lcov.info and a summary, and the JSON report carries coverage', async () => {
    const root = storyCopy();
    const run = await narratoria(['explore', '--root', root, '--runs', '2', '--turns', '4', '--format', 'json', '--coverage'], root);
    assert.ok(run.code === 0 || run.code === 1, show(run));
    const report = parse(run);
    assertValid(report);
    assert.ok(report.coverage, 'coverage in the report');
    const lcov = readFileSync(path.join(root, '.narratoria', 'explore', 'coverage', 'lcov.info'), 'utf8');
    assert.match(lcov, /SF:.*omen-reader\/scripts\/read\.js/);
    assert.ok(existsSync(path.join(root, '.narratoria', 'explore', 'coverage', 'coverage-summary.json')));
    const omen = report.coverage.files.find((file) => file.relativePath === 'skills/omen-reader/scripts/read.js');
    assert.ok(omen && omen.lines.covered > 0 && omen.lines.covered < omen.lines.total, 'the fixture script is partly covered');
    const skill = report.coverage.skills.find((entry) => entry.skill === 'omen-reader')!;
    assert.deepEqual(skill.scripts, { covered: 1, total: 1 });
  });

  it('test --coverage writes coverage/lcov.info under the root and prints the summary on stderr', async () => {
    const root = storyCopy();
    const playtests = path.join(root, 'playtests');
    mkdirSync(playtests);
    cpSync(path.join(projectRoot, 'test', 'fixtures', 'sample-playtests', 'lock.playtest.json'), path.join(playtests, 'lock.playtest.json'));
    const run = await narratoria(['test', '--root', root, '--coverage'], root);
    assert.equal(run.code, 0, show(run));
    assert.match(run.stderr, /Coverage of skill scripts/);
    assert.match(run.stderr, /dice-roller\/roll: 1 run/);
    const lcov = readFileSync(path.join(root, 'coverage', 'lcov.info'), 'utf8');
    assert.match(lcov, /SF:.*dice-roller\/scripts\/roll\.js\n(?:.*\n)*?LH:[1-9]/);
  });
});

describe('narratoria explore: Ctrl+C', () => {
  it('cancels cleanly and prints a partial report', async () => {
    const root = storyCopy();
    const child = spawn(process.execPath, [cliPath, 'explore', '--root', root, '--runs', '200', '--turns', '10', '--format', 'json'], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    let sent = false;
    const interrupted = new Promise<void>((resolve) => {
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
        // Once: a second Ctrl+C quits at once, without a report.
        if (!sent && /explore: \d+\/200 sessions, [1-9]/.test(stderr)) {
          sent = true;
          child.kill('SIGINT');
          resolve();
        }
      });
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    await interrupted;
    assert.equal(code, 1, `exit ${code}\n${stderr}`);
    const report = JSON.parse(stdout) as ExploreReport;
    assertValid(report);
    assert.equal(report.cancelled, true);
    assert.ok(report.sessions.played < 200);
    assert.match(stderr, /cancelled/);
    // No script of the story outlives the command (the fixture's copy is the only place its scripts live).
    const left = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(root));
    assert.deepEqual(left, []);
  });
});
