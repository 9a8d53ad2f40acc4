// Bench (i): `narratoria test` on 100 one-turn playtests (sample skills, pattern narrator), as a whole process, against the same turns played in one in-process PlaySession with no checks; the ratio at --jobs 1 against ≤ 1.15×, and the speed-up at --jobs 2.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PatternNarrator } from '../../src/runtime/narrator/patternNarrator.js';
import { PlaySession } from '../../src/runtime/session/playSession.js';
import { SkillRegistry } from '../../src/runtime/skills/skillRegistry.js';
import { check, median, meetsTarget, targetText, type BenchOptions, type BenchResult, type BenchTarget } from './benchUtil.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.cjs');
const TARGET: BenchTarget = { op: '<=', value: 1.15 };
/** Turns as a player types them: rolls, questions, choices, a portrait, plain actions. */
const INPUTS = [
  'I roll to pick the lock',
  'I walk into the Rusty Anchor tavern',
  'Have I met Mira before?',
  'What are my options?',
  'What does Mira look like?',
  'I attack the drunk orc with my sword',
  'Is Mira still angry with me?',
  'I look around the room',
  'I try to persuade Mira to give me a free room',
  'I head north toward the old mill',
];

/** The baseline: the same inputs played one after another in one session in this process, with no checks (as the issue asks). */
async function inProcess(story: string, inputs: readonly string[]): Promise<number> {
  const sampleSkills = path.join(REPO_ROOT, 'skills');
  const started = performance.now();
  const registry = await SkillRegistry.load({ root: story, extraSkillRoots: [sampleSkills] });
  const narrator = new PatternNarrator();
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-bench-i-session-'));
  try {
    const session = await PlaySession.open({
      root: story,
      file: path.join(folder, 'session.json'),
      narrator,
      skills: registry,
      execution: { extraSkillRoots: [sampleSkills], skillContext: registry },
      attemptLogFile: null,
      seed: 1,
    });
    for (const input of inputs) {
      const result = await session.play(input);
      check(result.narrative, 'a narration');
    }
    session.dispose();
  } finally {
    registry.dispose();
    rmSync(folder, { recursive: true, force: true });
  }
  return performance.now() - started;
}

/** `narratoria test` as an author runs it: the whole process, its report included. */
function cli(story: string, jobs: number): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, [CLI, 'test', '--root', story, '--jobs', String(jobs), '--format', 'json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1' },
  });
  const wall = performance.now() - started;
  if (run.status !== 0) throw new Error(`narratoria test exited ${run.status}: ${run.stderr.slice(0, 500)}`);
  const report = JSON.parse(run.stdout) as { summary: { passed: number } };
  check(report.summary.passed > 0 ? report.summary.passed : undefined, 'passed playtests');
  return wall;
}

export async function runPlaytestOverhead(options: BenchOptions): Promise<BenchResult> {
  const count = options.quick ? 20 : 100;
  const rounds = options.quick ? 1 : 3;
  const story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-bench-i-'));
  try {
    const inputs = Array.from({ length: count }, (_, index) => INPUTS[index % INPUTS.length]!);
    mkdirSync(path.join(story, 'playtests'));
    inputs.forEach((input, index) =>
      writeFileSync(
        path.join(story, 'playtests', `turn-${String(index).padStart(3, '0')}.playtest.json`),
        `${JSON.stringify({ seed: index + 1, turns: [{ input }] })}\n`,
      ),
    );
    // Warm the file cache and the CLI's code cache once.
    cli(story, 1);
    const baseline: number[] = [];
    const jobsOne: number[] = [];
    const jobsTwo: number[] = [];
    // Interleaved, so a busy moment of the machine falls on every series alike.
    for (let round = 0; round < rounds; round++) {
      baseline.push(await inProcess(story, inputs));
      jobsOne.push(cli(story, 1));
      jobsTwo.push(cli(story, 2));
    }
    const ratio = median(jobsOne) / median(baseline);
    const speedUp = median(jobsOne) / median(jobsTwo);
    const line = `(i) narratoria test, ${count} one-turn playtests (sample skills, pattern narrator), ${rounds} round(s) interleaved: --jobs 1 ${(median(jobsOne) / 1000).toFixed(2)} s vs the same turns in one in-process session ${(median(baseline) / 1000).toFixed(2)} s → ${ratio.toFixed(3)}× ${targetText(ratio, TARGET)}; --jobs 2 ${(median(jobsTwo) / 1000).toFixed(2)} s (${speedUp.toFixed(2)}× faster than --jobs 1); per playtest ${(median(jobsOne) / count).toFixed(0)} ms at --jobs 1`;
    return {
      id: 'i',
      title: 'playtests: narratoria test against plain turns',
      line,
      ratio,
      target: TARGET,
      met: meetsTarget(ratio, TARGET),
      medians: { baselineMs: median(baseline), jobsOneMs: median(jobsOne), jobsTwoMs: median(jobsTwo), speedUp },
      samples: { baselineMs: baseline, jobsOneMs: jobsOne, jobsTwoMs: jobsTwo },
      details: { playtests: count, rounds },
    };
  } finally {
    rmSync(story, { recursive: true, force: true });
  }
}
