// Unit tests of playtests without processes: reading a file (positions, schema, skills, conditions, patterns), the skill list matches, partial event matches, outcomes, and --update's text edits.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parsePlaytest } from '../../../src/runtime/playtest/playtestDocument.js';
import { partialMatch, skillsHold } from '../../../src/runtime/playtest/playtestExpectations.js';
import { updatedPlaytestText } from '../../../src/runtime/playtest/playtestUpdate.js';
import type { PlaytestReport } from '../../../src/runtime/playtest/playtestTypes.js';

const skills = new Set(['dice-roller', 'storyteller', 'memory']);
const text = `{
  // comments are allowed
  "seed": 7,
  "turns": [
    {
      "input": "I roll to pick the lock",
      "expect": {
        "skills": ["dice-roller"],
        "state": ["dice.lastRoll.total >= 1", "state.story.turns == 1"],
        "narration": { "contains": ["lock"] }
      }
    },
    { "choice": 2 }
  ]
}
`;

test('a playtest file: defaults, and the position of each turn and expectation (1-based, comments allowed)', () => {
  const { playtest, problems } = parsePlaytest('/story/playtests/lock.playtest.json', text, skills);
  assert.deepEqual(problems, []);
  assert.ok(playtest);
  assert.equal(playtest.name, 'lock');
  assert.equal(playtest.narrator, 'pattern');
  assert.equal(playtest.seed, 7);
  assert.deepEqual(playtest.state, {});
  assert.deepEqual(playtest.turns[0]!.expectationPositions.get('skills'), { line: 8, column: 9 });
  assert.deepEqual(playtest.turns[0]!.expectationPositions.get('state[1]'), { line: 9, column: 47 });
  assert.deepEqual(playtest.turns[0]!.expectationPositions.get('narration.contains'), { line: 10, column: 24 });
  assert.equal(playtest.turns[1]!.choice, 2);
  assert.deepEqual(playtest.turns[1]!.position, { line: 13, column: 5 });
});

test('problems of a file, each at its place: unknown skill (with a suggestion), bad condition, bad pattern, a choice first, schema, syntax', () => {
  const codes = (source: string) =>
    parsePlaytest('/x.playtest.json', source, skills).problems.map((problem) => `${problem.code}@${problem.line}:${problem.column} ${problem.message}`);
  assert.deepEqual(codes('{"turns":[{"input":"a","expect":{"notSkills":["memroy"]}}]}'), [
    'UNKNOWN_SKILL@1:47 the story has no skill "memroy" (did you mean "memory"?)',
  ]);
  assert.match(codes('{"turns":[{"input":"a","expect":{"state":["dice >"]}}]}')[0]!, /^CONDITION_SYNTAX@1:43 /);
  assert.match(codes('{"turns":[{"input":"a","expect":{"narration":{"matches":"(["}}}]}')[0]!, /^INVALID_PATTERN@1:57 /);
  assert.match(codes('{"turns":[{"choice":1}]}')[0]!, /^CHOICE_ON_FIRST_TURN@1:12 /);
  assert.match(codes('{"turns":[{"input":"a","expect":{"outcome":"won"}}]}')[0]!, /^SCHEMA_VIOLATION@1:44 .*"success", "replanned", "fallback"/);
  assert.match(codes('{"turns":[{"input":"a","extra":1}]}')[0]!, /^SCHEMA_UNKNOWN_PROPERTY@1:24 /);
  assert.match(codes('{"turns":[{"input":"a"},,]}')[0]!, /^JSON_SYNTAX@1:25 /);
  assert.match(codes('{"turns":[{"expect":{}}]}')[0]!, /^SCHEMA_REQUIRED@1:11 turns\/0: a turn needs "input" .* or "choice"/);
  assert.match(codes('{"turns":[{"input":"a","choice":1}]}')[0]!, /@1:11 turns\/0: a turn plays "input" or "choice", not both$/);
  assert.equal(
    parsePlaytest('/x.playtest.json', '{"turns":[{"input":"a","expect":{"skills":["anything"]}}]}').problems.length,
    0,
    "without the story's skills, names are not checked",
  );
});

test('skill lists: strict, unordered, superset, subset (the storyteller aside)', () => {
  const narrators = new Set(['storyteller']);
  const actual = ['dice-roller', 'storyteller'];
  assert.equal(skillsHold(['dice-roller', 'storyteller'], actual, 'strict', narrators), true);
  assert.equal(skillsHold(['storyteller', 'dice-roller'], actual, 'strict', narrators), false);
  assert.equal(skillsHold(['storyteller', 'dice-roller'], actual, 'unordered', narrators), true);
  assert.equal(skillsHold(['dice-roller'], actual, 'unordered', narrators), false);
  assert.equal(skillsHold(['dice-roller'], actual, 'superset', narrators), true);
  assert.equal(skillsHold(['memory'], actual, 'superset', narrators), false);
  assert.equal(skillsHold(['dice-roller'], actual, 'subset', narrators), true);
  assert.equal(skillsHold(['memory'], actual, 'subset', narrators), false);
});

test('events match partially: objects by the keys given, arrays and values exactly', () => {
  const event = { type: 'ui_event', event: 'dice_roll', toolId: 'roll', payload: { total: 14, dice: [{ sides: 20, value: 14 }] } };
  assert.equal(partialMatch({ type: 'ui_event', event: 'dice_roll' }, event), true);
  assert.equal(partialMatch({ payload: { total: 14 } }, event), true);
  assert.equal(partialMatch({ payload: { dice: [{ value: 14 }] } }, event), true);
  assert.equal(partialMatch({ payload: { dice: [] } }, event), false);
  assert.equal(partialMatch({ event: 'narration' }, event), false);
  assert.equal(partialMatch({ missing: null }, event), false);
});

test('--update rewrites only failed skills (strict) and outcome, keeps comments and every other expectation', () => {
  const report: PlaytestReport = {
    file: '/x.playtest.json',
    name: 'x',
    status: 'failed',
    durationMs: 1,
    seed: 7,
    narrator: 'pattern',
    turns: [
      {
        index: 1,
        input: 'I roll to pick the lock',
        status: 'failed',
        attempts: 1,
        skills: ['dice-roller', 'storyteller'],
        outcome: 'success',
        failures: [
          { expectation: 'skills', message: 'm', line: 8, column: 9 },
          { expectation: 'narration.contains', message: 'm', line: 10, column: 24 },
        ],
      },
      { index: 2, input: 'Look', choice: 2, status: 'passed', attempts: 1, skills: ['storyteller'], outcome: 'success', failures: [] },
    ],
  };
  const updated = updatedPlaytestText(text, report)!;
  assert.ok(updated.includes('// comments are allowed'));
  const { playtest } = parsePlaytest('/x.playtest.json', updated, skills);
  assert.deepEqual(playtest!.turns[0]!.expect.skills, ['dice-roller', 'storyteller']);
  assert.equal(playtest!.turns[0]!.expect.skillsMatch, 'strict');
  assert.deepEqual(playtest!.turns[0]!.expect.narration, { contains: ['lock'] }, 'a failed narration expectation is not a snapshot: kept');
  assert.deepEqual(playtest!.turns[1]!.expect, {});
  assert.equal(updatedPlaytestText(text, { ...report, turns: [report.turns[1]!] }), undefined, 'nothing failed on skills or outcome: no change');
});

test("editor help: a skill name goes in expect.skills and expect.notSkills only; the editor's problems are those the schema cannot see", async () => {
  const { takesSkillName, playtestEditorProblems, stringAround } = await import('../../../src/runtime/playtest/playtestEditing.js');
  const inString = '{"turns":[{"input":"a","expect":{"skills":["dice-r"]}}]}';
  assert.deepEqual(stringAround(inString, inString.indexOf('dice-r') + 3), { offset: inString.indexOf('"dice-r"'), length: 8 });
  assert.equal(stringAround(inString, inString.indexOf('[')), undefined);
  const source = '{"turns":[{"input":"a","expect":{"skills":["dice-roller", ""],"notSkills":[""],"outcome":"success"}}]}';
  assert.equal(takesSkillName(source, source.indexOf('""') + 1), true);
  assert.equal(takesSkillName(source, source.indexOf('"notSkills":[""]') + 14), true);
  assert.equal(takesSkillName(source, source.indexOf('"success"') + 1), false);
  assert.equal(takesSkillName(source, source.indexOf('"input"') + 1), false, 'a key is not a skill name');
  const problems = playtestEditorProblems('/x.playtest.json', '{"turns":[{"input":"a","expect":{"skills":["dice-rollr"]}}]}', skills);
  assert.deepEqual(
    problems.map((problem) => problem.code),
    ['UNKNOWN_SKILL'],
  );
  assert.deepEqual(
    playtestEditorProblems('/x.playtest.json', '{"turns":[{"input":"a","extra":1}]}', skills),
    [],
    "schema problems are the JSON schema support's to show",
  );
});
