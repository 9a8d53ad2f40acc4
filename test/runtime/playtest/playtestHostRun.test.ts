// Playtests run for a host's test view, with real processes (the host's narrators, coverage, failed turns' replays), and what the view shows of a report.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NarratorChoice as CreatedNarrator } from '../../../src/runtime/narrator/narratorFactory.js';
import { PatternNarrator } from '../../../src/runtime/narrator/patternNarrator.js';
import { FileRunStore, runsDirectory } from '../../../src/runtime/persistence/runStore.js';
import { inSkippedFolder, skippedFoldersGlob } from '../../../src/runtime/playtest/playtestDiscovery.js';
import { parsePlaytest } from '../../../src/runtime/playtest/playtestDocument.js';
import { coverageLine, hostNarrators, runPlaytestsForHost, summaryLine } from '../../../src/runtime/playtest/playtestHostRun.js';
import { failureMessage, playtestVerdict, problemsText, turnItems, turnOutput, unplayedTurns } from '../../../src/runtime/playtest/playtestOutcomes.js';
import type { PlaytestReport, TurnReport } from '../../../src/runtime/playtest/playtestTypes.js';
import { turnReplaysDirectory, turnRunRecordFile, writeTurnReplays } from '../../../src/runtime/playtest/turnReplays.js';
import { SkillRegistry } from '../../../src/runtime/skills/skillRegistry.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const sampleSkills = path.join(repo, 'skills');

const PASSING = '{ "name": "Passing", "seed": 7, "turns": [ { "input": "I roll to pick the lock", "expect": { "skills": ["dice-roller", "storyteller"] } } ] }';
const FAILING = JSON.stringify({
  name: 'Failing on purpose',
  turns: [{ input: 'I walk into the tavern', expect: { narration: { contains: ['dragon'] } } }, { input: 'I sit down' }],
});

/** A host whose narrator is the pattern narrator; counts how often it is asked. */
function patternHost(): { asked: number; current: () => Promise<CreatedNarrator> } {
  const host = {
    asked: 0,
    current: async (): Promise<CreatedNarrator> => {
      host.asked++;
      return { narrator: new PatternNarrator(), reason: 'pattern narrator: no local model (run "narratoria model pull")', scriptEnvironment: {} };
    },
  };
  return host;
}

test("a host run plays with coverage and writes each failed turn's replay from its run record", async () => {
  const story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-host-run-'));
  try {
    const registry = await SkillRegistry.load({ root: story, extraSkillRoots: [sampleSkills] });
    const skills = registry.skills;
    registry.dispose();
    const names = new Set(skills.map((skill) => skill.name));
    const playtests = [
      parsePlaytest(path.join(story, 'playtests', 'passing.playtest.json'), PASSING, names).playtest!,
      parsePlaytest(path.join(story, 'playtests', 'failing.playtest.json'), FAILING, names).playtest!,
    ];
    const host = patternHost();
    const finished: string[] = [];
    const result = await runPlaytestsForHost(playtests, {
      root: story,
      extraSkillRoots: [sampleSkills],
      hostNarrator: host.current,
      coverageOf: skills,
      replayFailedTurns: true,
      onPlaytestFinished: (playtest, report) => finished.push(`${playtest.name}: ${report.status}`),
    });
    assert.deepEqual(finished, ['Passing: passed', 'Failing on purpose: failed'], 'one at a time, in order');
    assert.equal(host.asked, 0, 'playtests with the pattern narrator never ask the host for its narrator');
    assert.equal(summaryLine(result.report), 'playtests: 1 passed, 1 failed');
    assert.match(result.report.playtests[0]!.turns[0]!.transcript ?? '', /\u001b\[/, 'transcripts keep their colours for the test output terminal');

    const coverage = result.coverage!;
    assert.ok(
      coverage.files.some((file) => file.file.endsWith(path.join('dice-roller', 'scripts', 'roll.js'))),
      coverage.files.map((file) => file.file).join(', '),
    );
    assert.ok(coverage.lcovFile?.startsWith(path.join(story, '.narratoria', 'coverage')) && existsSync(coverage.lcovFile));
    assert.match(coverageLine(coverage), /^playtest coverage: \d+\/\d+ lines of \d+ script file\(s\); .*lcov\.info/);

    assert.equal(result.replays.length, 1, 'the failed turn only (the second turn passes)');
    const [replay] = result.replays;
    assert.equal(replay!.name, 'Debug Failing on purpose, turn 1');
    assert.equal(replay!.planFile, path.join(turnReplaysDirectory(story), 'failing-turn-1.plan.json'));
    const turn = result.report.playtests[1]!.turns[0]!;
    const record = await new FileRunStore(runsDirectory(story)).load(turn.runId!);
    assert.deepEqual(JSON.parse(readFileSync(replay!.planFile, 'utf8')), record!.plan, "the plan of the turn's last attempt");
    assert.deepEqual(JSON.parse(readFileSync(replay!.stateFile, 'utf8')), record!.initialState, 'the state before the turn');
    assert.equal(turnRunRecordFile(story, turn.runId!), path.join(story, '.narratoria', 'runs', `${turn.runId}.json`));
  } finally {
    rmSync(story, { recursive: true, force: true });
  }
});

test('a missing run record stops the replays with the turn it belongs to', async () => {
  const story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-host-replay-'));
  try {
    const turn: TurnReport = { index: 2, input: 'I sit', status: 'failed', attempts: 1, skills: [], failures: [], runId: 'gone-run' };
    const report: PlaytestReport = {
      file: path.join(story, 'a.playtest.json'),
      name: 'A',
      status: 'failed',
      durationMs: 1,
      seed: 1,
      narrator: 'pattern',
      turns: [turn],
    };
    await assert.rejects(writeTurnReplays([report], story), /the run of A, turn 2 is not recorded/);
  } finally {
    rmSync(story, { recursive: true, force: true });
  }
});

test("the host's narrators: a new pattern narrator, the host's own for auto, and llm only when the host holds a local model", async () => {
  const host = patternHost();
  const narratorFor = hostNarrators(host.current);
  assert.ok((await narratorFor('pattern')).narrator instanceof PatternNarrator);
  assert.equal(host.asked, 0);
  assert.ok((await narratorFor('auto')).narrator instanceof PatternNarrator);
  assert.equal(host.asked, 1);
  await assert.rejects(narratorFor('llm'), /^Error: no local model: pattern narrator: no local model/);
});

test('what the test view shows: turn items at their objects, verdicts, unplayed turns, failure diffs, output and problems', () => {
  const playtest = parsePlaytest('/story/playtests/t.playtest.json', '{\n  "turns": [\n    { "input": "I roll" },\n    { "choice": 2 }\n  ]\n}\n').playtest!;
  assert.deepEqual(turnItems('file:///t', playtest), [
    { id: 'file:///t#turn-1', turn: 1, label: 'Turn 1: I roll', line: 3, column: 5 },
    { id: 'file:///t#turn-2', turn: 2, label: 'Turn 2: choice 2', line: 4, column: 5 },
  ]);
  const turn: TurnReport = { index: 1, input: 'I roll', status: 'failed', attempts: 1, skills: [], failures: [], transcript: 'line one\nline two' };
  const report: PlaytestReport = { file: '/t', name: 'T', status: 'failed', durationMs: 3, seed: 1, narrator: 'pattern', turns: [turn] };
  assert.deepEqual(playtestVerdict(report), { state: 'failed', message: '1 of 1 turns failed' });
  assert.deepEqual(playtestVerdict({ ...report, status: 'error', error: 'no skills' }), {
    state: 'errored',
    message: 'The playtest could not be played: no skills',
  });
  assert.deepEqual(playtestVerdict({ ...report, status: 'passed' }), { state: 'passed' });
  assert.deepEqual(unplayedTurns(report, [1, 2]), [2]);
  assert.deepEqual(
    failureMessage({ expectation: 'narration.contains', message: 'no "dragon"', expected: ['dragon'], actual: 'a tavern', line: 7, column: 9 }),
    {
      text: 'narration.contains: no "dragon"',
      diff: { expected: '[\n  "dragon"\n]', actual: 'a tavern' },
      line: 7,
      column: 9,
    },
  );
  assert.deepEqual(failureMessage({ expectation: 'outcome', message: 'fell back', line: 1, column: 2 }), { text: 'outcome: fell back', line: 1, column: 2 });
  assert.equal(turnOutput(turn), 'Turn 1: I roll\r\nline one\r\nline two\r\n');
  const { transcript: _transcript, ...silent } = turn;
  assert.equal(turnOutput(silent), undefined);
  assert.equal(problemsText([{ file: '/t', code: 'UNKNOWN_SKILL', message: 'no skill "x"', line: 1, column: 4 }]), '1:4 error UNKNOWN_SKILL: no skill "x"');
});

test('the folders a playtest search skips, as a test and as a glob', () => {
  assert.equal(skippedFoldersGlob(), '{**/node_modules/**,**/.narratoria/**,**/.git/**}');
  assert.ok(inSkippedFolder('/story/node_modules/a.playtest.json'));
  assert.ok(inSkippedFolder('C:\\story\\.narratoria\\copy.playtest.json'));
  assert.ok(!inSkippedFolder('/story/playtests/.gitkeep.playtest.json'));
  assert.ok(!inSkippedFolder('/story/.github/a.playtest.json'));
});
