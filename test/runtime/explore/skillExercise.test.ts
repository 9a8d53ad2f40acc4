// What the Skills view shows after a coverage run: per skill its runs, per script its runs, and "never exercised" for a skill no turn chose.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { CoverageResult, ScriptSkillCoverage } from '../../../src/runtime/coverage/coverageTypes.js';
import { exerciseText, scriptRunsText, skillExercise } from '../../../src/runtime/coverage/skillExercise.js';

function script(id: string, runs: number): ScriptSkillCoverage {
  return {
    script: id,
    toolPath: `skills/${id}.js`,
    declared: true,
    runs,
    eventTypes: runs > 0 ? ['done'] : [],
    uiEvents: [],
    inputProperties: { declared: [], given: [] },
    lineCoverage: true,
  };
}

const count = { covered: 0, total: 0 };
const result: CoverageResult = {
  files: [],
  totals: { lines: count, statements: count, branches: count, functions: count },
  skillCoverageOnly: [],
  skills: [
    { skill: 'dice-roller', selected: 3, scripts: { covered: 1, total: 1 }, eventTypes: ['done'], scriptDetails: [script('dice-roller/roll', 3)] },
    {
      skill: 'memory',
      selected: 1,
      scripts: { covered: 1, total: 2 },
      eventTypes: ['done'],
      scriptDetails: [script('memory/store', 1), script('memory/recall', 0)],
    },
    { skill: 'reputation', selected: 0, scripts: { covered: 0, total: 1 }, eventTypes: [], scriptDetails: [script('reputation/update', 0)] },
  ],
};

test("each skill's runs and its scripts' runs, by script id", () => {
  const exercise = skillExercise(result);
  assert.deepEqual(exercise.get('dice-roller'), { selected: 3, runs: 3, scriptRuns: new Map([['dice-roller/roll', 3]]) });
  assert.equal(exercise.get('memory')?.runs, 1);
  assert.equal(exercise.get('memory')?.scriptRuns.get('memory/recall'), 0);
});

test("the tree's words: runs, one run, never exercised, nothing for an unknown skill", () => {
  const exercise = skillExercise(result);
  assert.equal(exerciseText(exercise.get('dice-roller')), '3 runs');
  assert.equal(exerciseText(exercise.get('memory')), '1 run');
  assert.equal(exerciseText(exercise.get('reputation')), 'never exercised');
  assert.equal(exerciseText(exercise.get('weather')), undefined);
});

test("a script's words: its runs, or never run", () => {
  const exercise = skillExercise(result);
  assert.equal(scriptRunsText(exercise.get('dice-roller'), 'dice-roller/roll'), '3 runs');
  assert.equal(scriptRunsText(exercise.get('memory'), 'memory/recall'), 'never run');
  assert.equal(scriptRunsText(undefined, 'weather/report'), undefined);
});
