// Save Session as Playtest with real processes: two turns played (one a choice) become a playtest that expects what happened, and playing it at once passes; a file name never replaces another.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PatternNarrator } from '../../../src/runtime/narrator/patternNarrator.js';
import { freePlaytestFile, playtestFromSession } from '../../../src/runtime/playtest/playtestFromSession.js';
import { parsePlaytest } from '../../../src/runtime/playtest/playtestDocument.js';
import { runPlaytestSuite } from '../../../src/runtime/playtest/playtestSuite.js';
import { PlaySession, type SessionFile } from '../../../src/runtime/session/playSession.js';
import { SkillRegistry } from '../../../src/runtime/skills/skillRegistry.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const sampleSkills = path.join(repo, 'skills');

test('a session saved as a playtest keeps its seed, state before turn 1, inputs and choices, expects what happened, and passes when played', async () => {
  const story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-save-playtest-'));
  try {
    const registry = await SkillRegistry.load({ root: story, extraSkillRoots: [sampleSkills] });
    const session = await PlaySession.open({
      root: story,
      narrator: new PatternNarrator(),
      skills: registry,
      execution: { extraSkillRoots: [sampleSkills], skillContext: registry },
      initialState: { player: { name: 'Mara' } },
      attemptLogFile: null,
    });
    await session.play('I roll to pick the lock');
    await session.play('What are my options?');
    assert.ok(session.lastChoices.length > 0, 'the second turn offered choices');
    await session.choose(0);
    registry.dispose();
    const saved = JSON.parse(readFileSync(session.file, 'utf8')) as SessionFile;
    const text = playtestFromSession(saved, 'Saved session');
    const file = freePlaytestFile(path.join(story, 'playtests'), 'Saved session');
    assert.equal(path.basename(file), 'saved-session.playtest.json');
    const value = JSON.parse(text) as {
      seed: number;
      state: unknown;
      turns: { input?: string; choice?: number; expect: { skills: string[]; skillsMatch: string; outcome: string } }[];
    };
    assert.equal(value.seed, session.seed);
    assert.deepEqual(value.state, { player: { name: 'Mara' } });
    assert.equal(value.turns[0]!.input, 'I roll to pick the lock');
    assert.deepEqual(value.turns[0]!.expect, { skills: ['dice-roller', 'storyteller'], skillsMatch: 'strict', outcome: 'success' });
    assert.equal(value.turns[2]!.choice, 1);
    assert.equal(value.turns[2]!.input, undefined);

    const parsed = parsePlaytest(
      file,
      text,
      new Set(['dice-roller', 'storyteller', 'player-choices', 'memory', 'npc-perception', 'reputation', 'character-portraits']),
    );
    assert.deepEqual(parsed.problems, []);
    const report = await runPlaytestSuite([parsed.playtest!], { root: story, extraSkillRoots: [sampleSkills], jobs: 1 });
    assert.equal(report.summary.passed, 1, JSON.stringify(report.playtests[0]?.turns.map((turn) => turn.failures)));
    assert.equal(report.playtests[0]!.turns[2]!.input, saved.turns[2]!.input, 'the choice plays the same text again');

    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    assert.equal(path.basename(freePlaytestFile(path.join(story, 'playtests'), 'Saved session')), 'saved-session-2.playtest.json', 'never over a file');
  } finally {
    rmSync(story, { recursive: true, force: true });
  }
});
