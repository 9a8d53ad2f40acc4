// Bench (j): `narratoria explore` over 200 turns on the sample skills with the pattern narrator, as whole processes: turns per second at --jobs 1 and --jobs 2, the overhead of --coverage against the same run without it (target ≤ 1.5×), and the peak RSS of --runs 1000 --turns 5 (quick mode: much smaller runs).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { check, meetsTarget, mib, targetText, type BenchOptions, type BenchResult, type BenchTarget } from './benchUtil.js';
import { plural } from '../../src/runtime/common/humanText.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.cjs');
const TARGET: BenchTarget = { op: '<=', value: 1.5 };

interface Measured {
  readonly wallMs: number;
  readonly turns: number;
  readonly peakRssBytes: number;
  /** What the sessions found, as "kind: message" (explore exits 1 when it finds any: a result, not a failed bench). */
  readonly problems: readonly string[];
}

/** The peak resident memory so far of a live process (Linux: VmHWM), or 0. */
function highWaterMark(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** One `narratoria explore` process: its wall time, the turns it played and its peak RSS (polled every 100 ms). */
function explore(story: string, args: readonly string[]): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'explore', '--root', story, '--format', 'json', '--out', path.join(story, 'out'), ...args], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    const poll = setInterval(() => (peak = Math.max(peak, highWaterMark(child.pid!))), 100);
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-2000)));
    child.on('exit', () => (peak = Math.max(peak, highWaterMark(child.pid!))));
    child.on('close', (code) => {
      clearInterval(poll);
      const wallMs = performance.now() - started;
      if (code !== 0 && code !== 1) return reject(new Error(`narratoria explore ${args.join(' ')} exited ${code}: ${stderr}`));
      const report = JSON.parse(stdout) as { sessions: { turns: number }; failedSessions: { problems: { kind: string; message: string }[] }[] };
      check(report.sessions.turns > 0, 'turns played');
      const problems = report.failedSessions.flatMap((session) => session.problems.map((problem) => `${problem.kind}: ${problem.message}`));
      resolve({ wallMs, turns: report.sessions.turns, peakRssBytes: peak, problems });
    });
    child.on('error', reject);
  });
}

export async function runExploreOverhead(options: BenchOptions): Promise<BenchResult> {
  const [runs, turns] = options.quick ? [4, 5] : [20, 10];
  // BENCH_J_MEMORY_RUNS shortens the memory run on a busy machine (1,000 sessions take ~25 minutes on 2 cores).
  const memoryRuns = options.quick ? 40 : Number(process.env['BENCH_J_MEMORY_RUNS'] ?? 1000);
  const memoryTurns = options.quick ? 2 : 5;
  const story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-bench-j-'));
  try {
    mkdirSync(path.join(story, 'skills'));
    const shape = ['--runs', String(runs), '--turns', String(turns)];
    await explore(story, ['--runs', '1', '--turns', '2']); // warms the file cache and the CLI's code cache
    const jobsOne = await explore(story, [...shape, '--jobs', '1']);
    const jobsTwo = await explore(story, [...shape, '--jobs', '2']);
    const covered = await explore(story, [...shape, '--jobs', '2', '--coverage']);
    const plainAgain = await explore(story, [...shape, '--jobs', '2']);
    const plainMs = Math.min(jobsTwo.wallMs, plainAgain.wallMs);
    const ratio = covered.wallMs / plainMs;
    const memory = await explore(story, ['--runs', String(memoryRuns), '--turns', String(memoryTurns), '--jobs', '2']);
    const rate = (measured: Measured) => measured.turns / (measured.wallMs / 1000);
    const line = `(j) narratoria explore, ${runs}×${turns} = ${jobsOne.turns} turns (sample skills, pattern narrator): --jobs 1 ${rate(jobsOne).toFixed(2)} turns/s, --jobs 2 ${rate(jobsTwo).toFixed(2)} turns/s (${(jobsOne.wallMs / jobsTwo.wallMs).toFixed(2)}× faster); --coverage ${(covered.wallMs / 1000).toFixed(1)} s vs ${(plainMs / 1000).toFixed(1)} s → ${ratio.toFixed(3)}× ${targetText(ratio, TARGET)}; --runs ${memoryRuns} --turns ${memoryTurns}: peak RSS ${mib(memory.peakRssBytes)} over ${memory.turns} turns in ${(memory.wallMs / 1000).toFixed(0)} s${memory.problems.length > 0 ? ` (it found ${plural(memory.problems.length, 'problem')}: ${[...new Set(memory.problems)].slice(0, 3).join('; ')})` : ''}`;
    return {
      id: 'j',
      title: 'explore: turns/s, --coverage overhead, peak RSS',
      line,
      ratio,
      target: TARGET,
      met: meetsTarget(ratio, TARGET),
      medians: {
        jobsOneTurnsPerSecond: rate(jobsOne),
        jobsTwoTurnsPerSecond: rate(jobsTwo),
        coverageMs: covered.wallMs,
        plainMs,
        peakRssBytes: memory.peakRssBytes,
        memoryRunMs: memory.wallMs,
      },
      samples: {
        jobsOneMs: [jobsOne.wallMs],
        jobsTwoMs: [jobsTwo.wallMs, plainAgain.wallMs],
        coverageMs: [covered.wallMs],
        peakRssBytes: [memory.peakRssBytes, jobsOne.peakRssBytes, jobsTwo.peakRssBytes, covered.peakRssBytes],
      },
      details: {
        runs,
        turns,
        memoryRuns,
        memoryTurns,
        memoryTurnsPlayed: memory.turns,
        problemsFound: [...jobsOne.problems, ...jobsTwo.problems, ...covered.problems, ...memory.problems],
      },
    };
  } finally {
    rmSync(story, { recursive: true, force: true });
  }
}
