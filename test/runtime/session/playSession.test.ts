// Play sessions with real processes: turns carry state, save atomically and reload, choices play on, restart resets health.
// Margin: every script here finishes in well under a second; TOOL_TIMEOUT_MS (over the shipped manifests' 5-10 s)
// and the 60 s plan timeout are far beyond what a loaded 2-core machine needs, and no test asserts a duration.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PlaySession } from '../../../src/runtime/session/playSession.js';
import { PatternNarrator } from '../../../src/runtime/narrator/patternNarrator.js';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';
import type { NarratorSkill } from '../../../src/runtime/skills/skillTypes.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const story = path.join(repo, 'test/fixtures/story');
let scratch: string;
before(() => (scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-session-'))));
after(() => rmSync(scratch, { recursive: true, force: true }));

const skill = (name: string, capabilities: string[], toolPath: string, script: string): NarratorSkill => ({
  name,
  displayName: name,
  description: name,
  capabilities,
  priority: 50,
  health: 'healthy',
  scripts: [{ name: script, toolPath }],
});
const dice = skill('dice-roller', ['dice', 'check'], path.join(repo, 'skills/dice-roller/scripts/roll.js'), 'roll');
const storyteller = skill('storyteller', ['narration'], path.join(repo, 'skills/storyteller/scripts/narrate.js'), 'narrate');
const choices = skill('helpers', ['choices'], 'skills/helpers/scripts/choices.js', 'offer');

/** Margin: replaces the shipped manifests' 5-10 s script timeouts; no test here is about a timeout. */
const TOOL_TIMEOUT_MS = 120_000;
const execution = { extraSkillRoots: [path.join(repo, 'skills')], toolTimeoutMs: TOOL_TIMEOUT_MS };

function skills() {
  let restarts = 0;
  return {
    get restarts() {
      return restarts;
    },
    narratorSkills: () => [dice, storyteller, choices],
    disabledSkills: () => [],
    recordExecution: () => undefined,
    restartSession: () => void restarts++,
  };
}

test('turns carry state, the session saves after each turn and reloads; a choice plays the next turn', async () => {
  const file = path.join(scratch, 'one', 'session.json');
  const logFile = path.join(scratch, 'one', 'attempts.jsonl');
  const options = { root: story, file, attemptLogFile: logFile, narrator: new PatternNarrator(), skills: skills(), execution };
  const session = await PlaySession.open(options);
  const first = await session.play('I talk to the innkeeper');
  assert.deepEqual(validateAgainst('turn-result.schema.json', first), []);
  assert.ok(first.choices.length >= 2, JSON.stringify(first.choices));
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { turns: unknown[]; state: { story: { turns: number } } };
  assert.deepEqual(validateAgainst('session.schema.json', saved), []);
  assert.equal(saved.turns.length, 1);
  assert.equal(saved.state.story.turns, 1);

  const second = await session.choose(1); // "Listen at the door": a look intent, so the storyteller runs again
  assert.equal(second.input, first.choices[1]);
  assert.equal((second.state['story'] as { turns: number }).turns, 2, 'state carries from turn to turn');

  const reopened = await PlaySession.open(options);
  assert.equal(reopened.sessionId, session.sessionId);
  assert.deepEqual(
    reopened.turns.map((turn) => turn.input),
    ['I talk to the innkeeper', first.choices[1]],
  );
  assert.deepEqual(reopened.state, second.state);
  const lines = readFileSync(logFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { turn: number; attempt: number; outcome: string; planId: string });
  assert.deepEqual(
    lines.map((line) => [line.turn, line.attempt, line.outcome]),
    [
      [1, 1, 'success'],
      [2, 1, 'success'],
    ],
  );
  await assert.rejects(reopened.choose(9), /no choice 10/);
});

test('turns are played one at a time even when requested together', async () => {
  const session = await PlaySession.open({
    root: story,
    file: path.join(scratch, 'two', 'session.json'),
    attemptLogFile: null,
    narrator: new PatternNarrator(),
    skills: skills(),
    execution,
  });
  const [a, b] = await Promise.all([session.play('I look around'), session.play('I look around again')]);
  assert.equal((a.state['story'] as { turns: number }).turns, 1);
  assert.equal((b.state['story'] as { turns: number }).turns, 2);
  assert.deepEqual(
    session.turns.map((turn) => turn.index),
    [1, 2],
  );
});

test('restart empties the session and resets skill health; an unreadable file is set aside, not lost', async () => {
  const file = path.join(scratch, 'three', 'session.json');
  const source = skills();
  const session = await PlaySession.open({ root: story, file, attemptLogFile: null, narrator: new PatternNarrator(), skills: source, execution });
  await session.play('I look around');
  const oldId = session.sessionId;
  const copy = await session.restart();
  assert.equal(source.restarts, 1);
  assert.ok(copy && copy.startsWith(path.join(path.dirname(file), 'history')), `the old session is kept (${copy})`);
  assert.equal((JSON.parse(readFileSync(copy, 'utf8')) as { sessionId: string; turns: unknown[] }).sessionId, oldId);
  assert.equal(await session.restart(), undefined, 'an empty session is not copied');
  assert.deepEqual(session.turns, []);
  assert.deepEqual(session.state, {});
  assert.notEqual(session.sessionId, oldId);

  writeFileSync(file, '{ this is not json');
  const recovered = await PlaySession.open({ root: story, file, attemptLogFile: null, narrator: new PatternNarrator(), skills: skills() });
  assert.ok(recovered.recovery);
  assert.match(recovered.recovery.reason, /not valid JSON/);
  assert.equal(readFileSync(recovered.recovery.movedTo, 'utf8'), '{ this is not json');
  assert.ok(readdirSync(path.dirname(file)).some((name) => name.includes('unreadable')));
});

test('issue 27: a session records its seed and its state before turn 1; the same seed replays the same rolls and narration', async () => {
  const play = async (name: string, seed: number) => {
    const file = path.join(scratch, name, 'session.json');
    const session = await PlaySession.open({
      root: story,
      file,
      attemptLogFile: null,
      narrator: new PatternNarrator(),
      skills: skills(),
      execution,
      seed,
      initialState: { player: { name: 'Mara' } },
    });
    const turns = [];
    for (const input of ['I roll to pick the lock', 'I roll 3d6 to climb the wall', 'I roll to sneak past the guard']) {
      const result = await session.play(input);
      const roll = result.uiEvents.find((event) => event.event === 'dice_roll');
      turns.push({ narrative: result.narrative, roll: roll?.payload });
    }
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { seed: number; initialState: unknown; state: Record<string, unknown> };
    assert.deepEqual(validateAgainst('session.schema.json', saved), []);
    return { turns, saved };
  };
  const first = await play('seeded-a', 7);
  const again = await play('seeded-b', 7);
  assert.equal(first.saved.seed, 7);
  assert.deepEqual(first.saved.initialState, { player: { name: 'Mara' } });
  assert.deepEqual(first.saved.state['player'], { name: 'Mara' }, 'turn 1 starts from the initial state');
  assert.ok(
    first.turns.every((turn) => typeof turn.roll?.['total'] === 'number'),
    `every turn rolled: ${JSON.stringify(first.turns)}`,
  );
  assert.deepEqual(again.turns, first.turns, 'the same seed: the same dice and the same narration');
  assert.deepEqual(again.saved.state, first.saved.state);
  // Other seeds roll other dice: of five sessions' 3 x (1d20, 3d6, 1d20) rolls, not all equal the first's.
  const others = await Promise.all([8, 9, 10, 11, 12].map((seed) => play(`seeded-${seed}`, seed)));
  assert.ok(others.some((other) => JSON.stringify(other.turns.map((turn) => turn.roll)) !== JSON.stringify(first.turns.map((turn) => turn.roll))));
});
