// The replan loop with real processes and the pattern narrator: success, replan after a failing skill, narrative-only, fallback.
// Margin: every script here finishes in well under a second; TOOL_TIMEOUT_MS (over the shipped manifests' 5-10 s)
// and the 60 s plan timeout are far beyond what a loaded 2-core machine needs, and no test asserts a duration.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { runTurn, type SkillSource } from '../../../src/runtime/session/turnRunner.js';
import { PatternNarrator } from '../../../src/runtime/narrator/patternNarrator.js';
import type { Narrator } from '../../../src/runtime/narrator/index.js';
import type { AttemptLogEntry } from '../../../src/runtime/session/turnTypes.js';
import { FALLBACK_TEMPLATES } from '../../../src/runtime/session/turnOutcome.js';
import type { NarratorSkill } from '../../../src/runtime/skills/skillTypes.js';
import type { ExecutionResult } from '../../../src/runtime/contractTypes/executionResult.js';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const story = path.join(repo, 'test/fixtures/story');

function narratorSkill(name: string, capabilities: string[], priority: number, toolPath: string, script: string): NarratorSkill {
  return { name, displayName: name, description: name, capabilities, priority, health: 'healthy', scripts: [{ name: script, toolPath }] };
}
const dice = narratorSkill('dice-roller', ['dice', 'check'], 60, path.join(repo, 'skills/dice-roller/scripts/roll.js'), 'roll');
const storyteller = narratorSkill('storyteller', ['narration'], 50, path.join(repo, 'skills/storyteller/scripts/narrate.js'), 'narrate');
const broken = narratorSkill('broken-dice', ['dice', 'check'], 90, 'skills/broken-dice/scripts/roll.js', 'roll');

/** A SkillSource over a fixed list that records executions (the registry's health logic is tested elsewhere). */
function source(skills: NarratorSkill[]): SkillSource & { recorded: ExecutionResult[] } {
  const recorded: ExecutionResult[] = [];
  return { recorded, narratorSkills: () => skills, disabledSkills: () => [], recordExecution: (result) => recorded.push(result) };
}

/** Margin: replaces the shipped manifests' 5-10 s script timeouts; no test here is about a timeout. */
const TOOL_TIMEOUT_MS = 120_000;
const execution = { root: story, extraSkillRoots: [path.join(repo, 'skills')], killGraceMs: 200, toolTimeoutMs: TOOL_TIMEOUT_MS };

test('"I roll to pick the lock": a dice roll, then a narration of it, in one attempt', async () => {
  const log: AttemptLogEntry[] = [];
  const turn = await runTurn('I roll to pick the lock', {
    narrator: new PatternNarrator(),
    skills: source([dice, storyteller]),
    state: { hero: 'Ayla' },
    execution,
    onAttemptLogged: (entry) => log.push(entry),
  });
  assert.equal(turn.fallback, false);
  assert.equal(turn.attempts.length, 1);
  assert.deepEqual(
    turn.attempts[0]!.result.toolResults.map((tool) => [tool.toolId, tool.state]),
    [
      ['roll', 'success'],
      ['narrate', 'success'],
    ],
  );
  const roll = turn.state['dice'] as { lastRoll: { total: number } };
  assert.equal(typeof roll.lastRoll.total, 'number');
  const narration = turn.attempts[0]!.result.toolResults[1]!.output?.result as { narration: string; outcome: string };
  assert.ok(['success', 'failure', 'criticalSuccess', 'criticalFailure', 'rolled'].includes(narration.outcome), 'the storyteller narrated the roll');
  assert.ok(turn.narrative.includes(narration.narration));
  assert.equal(turn.state['hero'], 'Ayla');
  assert.deepEqual(turn.changedKeys, ['dice', 'story']);
  assert.ok(turn.uiEvents.some((ui) => ui.event === 'dice_roll'));
  assert.deepEqual(
    log.map((entry) => [entry.attempt, entry.outcome, entry.skills]),
    [[1, 'success', ['dice-roller', 'storyteller']]],
  );
});

test('a skill whose script always fails: the replan disables it and the story continues', async () => {
  const log: AttemptLogEntry[] = [];
  const skills = source([broken, dice, storyteller]);
  const turn = await runTurn('I roll to pick the lock', {
    narrator: new PatternNarrator(),
    skills,
    state: {},
    execution,
    onAttemptLogged: (entry) => log.push(entry),
  });
  assert.equal(turn.fallback, false);
  assert.equal(turn.attempts.length, 2);
  const [first, second] = turn.attempts;
  assert.equal(first!.plan.tools[0]!.toolPath, 'skills/broken-dice/scripts/roll.js');
  assert.equal(first!.outcome, 'failed');
  assert.deepEqual(first!.result.disabledSkills, ['broken-dice']);
  assert.deepEqual(second!.plan.metadata, { ...second!.plan.metadata, generationAttempt: 2, parentPlanId: first!.plan.requestId, narrator: 'pattern' });
  assert.deepEqual(second!.plan.disabledSkills, ['broken-dice']);
  assert.ok(second!.plan.tools.every((tool) => !tool.toolPath.includes('broken-dice')));
  assert.equal(second!.outcome, 'success');
  assert.deepEqual(turn.disabledSkills, ['broken-dice']);
  assert.equal(skills.recorded.length, 2, 'both runs reach skill health');
  assert.deepEqual(
    log.map((entry) => [entry.attempt, entry.outcome, entry.parentPlanId === null]),
    [
      [1, 'failed', true],
      [2, 'success', false],
    ],
  );
  assert.match(log[1]!.feedback ?? '', /roll \(broken-dice\)/);
  assert.deepEqual(log[0]!.retryCounts, { roll: 3, narrate: 0 });
});

test('when every skill fails, the pattern narrator ends with a narrative-only plan that still narrates', async () => {
  const brokenStoryteller = narratorSkill('broken-story', ['narration'], 99, 'skills/broken-story/scripts/narrate.js', 'narrate');
  const turn = await runTurn('I roll to pick the lock', {
    narrator: new PatternNarrator(),
    skills: source([broken, brokenStoryteller]),
    state: {},
    execution: { ...execution, extraSkillRoots: [] },
  });
  assert.equal(turn.fallback, false);
  assert.deepEqual(turn.attempts.at(-1)!.plan.tools, []);
  assert.match(turn.narrative, /You roll to pick the lock\./, 'told in the second person, not quoted back');
});

test('after five failed attempts the turn falls back to template narration quoting the input', async () => {
  const stubborn: Narrator = {
    kind: 'llm',
    dispose: async () => {},
    generatePlan: async (request) => ({
      narrator: 'llm',
      generationMs: 1,
      plan: {
        requestId: randomUUID(),
        tools: [{ toolId: 'always', toolPath: 'skills/faults/scripts/done-not-ok.js', retryPolicy: { maxRetries: 0 } }],
        metadata: { generationAttempt: request.attempt, parentPlanId: request.parentPlanId },
      },
    }),
  };
  const log: AttemptLogEntry[] = [];
  const turn = await runTurn('I open the sealed vault', {
    narrator: stubborn,
    skills: source([]),
    state: { keep: 1 },
    execution,
    random: () => 0,
    onAttemptLogged: (entry) => log.push(entry),
  });
  assert.equal(turn.fallback, true);
  assert.equal(turn.attempts.length, 5);
  // The fallback tells the turn without quoting the player's words back (issue 39).
  assert.equal(turn.narrative, FALLBACK_TEMPLATES[0]);
  assert.ok(!turn.narrative.includes('sealed vault'));
  assert.match(turn.disabledReasons?.['faults'] ?? '', /^always failed: /);
  assert.deepEqual(turn.state, { keep: 1 }, 'a failed turn leaves the state alone');
  assert.equal(log.length, 5);
  // From attempt 2 on the plan uses a disabled skill, so it is rejected before running.
  assert.deepEqual(
    turn.attempts.map((attempt) => attempt.outcome),
    ['failed', 'invalid', 'invalid', 'invalid', 'invalid'],
  );
  assert.match(log[2]!.feedback ?? '', /disabled skill/);
});

test('an invalid plan counts as a failed attempt and its errors are fed back', async () => {
  const feedback: (string | undefined)[] = [];
  const pattern = new PatternNarrator();
  const flaky: Narrator = {
    kind: 'llm',
    dispose: async () => {},
    generatePlan: async (request) => {
      feedback.push(request.feedback);
      if (request.attempt === 1) {
        return {
          narrator: 'llm',
          generationMs: 1,
          plan: {
            requestId: randomUUID(),
            tools: [
              { toolId: 'a', toolPath: 'skills/helpers/scripts/echo.js', dependencies: ['b'] },
              { toolId: 'b', toolPath: 'skills/helpers/scripts/echo.js', dependencies: ['a'] },
            ],
          },
        };
      }
      return pattern.generatePlan(request);
    },
  };
  const turn = await runTurn('I look around', { narrator: flaky, skills: source([storyteller]), state: {}, execution });
  assert.equal(turn.attempts[0]!.outcome, 'invalid');
  assert.equal(turn.attempts[0]!.result.failureReason, 'circular_dependency');
  assert.match(feedback[1] ?? '', /a -> b -> a|cycle/);
  assert.equal(turn.attempts[1]!.outcome, 'success');
  assert.equal(turn.fallback, false);
  for (const attempt of turn.attempts) assert.deepEqual(validateAgainst('execution-result.schema.json', attempt.result), []);
});

test('the turn carries a reflection: model-written when the model wrote the plan, the rules otherwise', async () => {
  const pattern = new PatternNarrator();
  const writing: Narrator = {
    kind: 'llm',
    dispose: async () => {},
    generatePlan: async (request) => ({ ...(await pattern.generatePlan(request)), narrator: 'llm' }),
    reflect: async ({ reflection }) => ({ ...reflection, source: 'llm', summary: 'The roll and the narration went well.' }),
  };
  const llmTurn = await runTurn('I look around', { narrator: writing, skills: source([storyteller]), state: {}, execution });
  assert.equal(llmTurn.reflection?.source, 'llm');
  assert.equal(llmTurn.reflection?.summary, 'The roll and the narration went well.');
  const rulesTurn = await runTurn('I look around', { narrator: pattern, skills: source([storyteller]), state: {}, execution });
  assert.equal(rulesTurn.reflection?.source, 'rules');
  assert.match(rulesTurn.reflection?.summary ?? '', /1 tool\(s\): 1 succeeded/);
  assert.deepEqual(validateAgainst('turn-result.schema.json', JSON.parse(JSON.stringify(llmTurn))), []);
});

/** A narrator that plans the hanging fault script (with its own plan timeout) until its skill is disabled, then a narration. */
function hangingThenNarrating(planTimeoutMs: number): Narrator {
  return {
    kind: 'pattern',
    dispose: async () => {},
    generatePlan: async (request) => ({
      narrator: 'pattern',
      generationMs: 1,
      plan: request.disabledSkills.includes('faults')
        ? {
            requestId: randomUUID(),
            tools: [{ toolId: 'narrate', toolPath: path.join(repo, 'skills/storyteller/scripts/narrate.js'), input: { action: 'wait by the river' } }],
            metadata: { generationAttempt: request.attempt, parentPlanId: request.parentPlanId },
          }
        : {
            requestId: randomUUID(),
            timeoutMs: planTimeoutMs,
            tools: [{ toolId: 'cross', toolPath: 'skills/faults/scripts/hang.js', retryPolicy: { maxRetries: 0 } }],
            metadata: { generationAttempt: request.attempt, parentPlanId: request.parentPlanId },
          },
    }),
  };
}

// Margin: the hanging plan's own timeout (1.5 s) is what ends attempt 1, and nothing here asserts a duration: the
// turn's cost is shown by its attempts (the hang ran once, the next attempt ran without its skill).
test('a hung required skill costs one plan timeout: the next attempt runs without it, and the reason is given (FR-024)', async () => {
  const turn = await runTurn('Take me across the river', { narrator: hangingThenNarrating(1500), skills: source([]), state: {}, execution });
  assert.equal(turn.fallback, false);
  assert.equal(turn.attempts.length, 2);
  const hung = turn.attempts[0]!.result.toolResults[0]!;
  assert.equal(hung.state, 'timeout');
  assert.equal(hung.error?.code, 'PLAN_TIMEOUT');
  assert.deepEqual(turn.attempts[0]!.result.disabledSkills, ['faults']);
  assert.deepEqual(turn.attempts[1]!.disabledSkills, ['faults']);
  assert.equal(turn.attempts[1]!.outcome, 'success');
  assert.match(turn.disabledReasons?.['faults'] ?? '', /^cross hung: still running when the plan timed out after 1\.5 s$/);
  assert.deepEqual(validateAgainst('turn-result.schema.json', JSON.parse(JSON.stringify(turn))), []);
});

test('the turn budget bounds the replan loop: a hang that spends it ends the turn with the template fallback', async () => {
  // The plan's own timeout (60 s) is cut to the budget (1.5 s); once it is spent, no attempt starts.
  const turn = await runTurn('Take me across the river', {
    narrator: hangingThenNarrating(60_000),
    skills: source([]),
    state: {},
    execution,
    turnBudgetMs: 1500,
    random: () => 0,
  });
  assert.equal(turn.fallback, true);
  assert.equal(turn.attempts.length, 1);
  assert.equal(turn.budgetSpentMs, 1500);
  assert.equal(turn.attempts[0]!.result.toolResults[0]!.error?.code, 'PLAN_TIMEOUT');
  assert.equal(turn.narrative, FALLBACK_TEMPLATES[0]);
  assert.ok(turn.disabledReasons?.['faults']);
  assert.deepEqual(validateAgainst('turn-result.schema.json', JSON.parse(JSON.stringify(turn))), []);
});
