// Unit tests of the play panel's view conversion that runs without VS Code: the inline graph's layout of an attempt's plan.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { attemptGraph, attemptViews, turnView } from '../../../src/extension/play/turnViews.js';
import { INLINE_GRAPH_MAX_TOOLS } from '../../../src/protocol/playPanelMessages.js';
import type { TurnRecord } from '../../../src/runtime/session/playSession.js';
import type { TurnAttempt, TurnResult } from '../../../src/runtime/session/turnTypes.js';
import type { Plan } from '../../../src/runtime/contractTypes/plan.js';

function plan(requestId: string, toolCount: number): Plan {
  return {
    requestId,
    tools: Array.from({ length: toolCount }, (_, index) => ({
      toolId: `step${index}`,
      toolPath: 'skills/dice-roller/scripts/roll.js',
      input: {},
      dependencies: index === 0 ? [] : [`step${index - 1}`],
    })),
  };
}

function attempt(attemptNumber: number, attemptPlan: Plan): TurnAttempt {
  return {
    attempt: attemptNumber,
    narrator: 'pattern',
    generationMs: 3,
    plan: attemptPlan,
    result: { failedTools: [], toolResults: [] } as unknown as TurnAttempt['result'],
    outcome: 'success',
    disabledSkills: [],
  };
}

function turn(attempts: readonly TurnAttempt[]): { record: TurnRecord; result: TurnResult } {
  const result = {
    input: 'look',
    narrative: 'You look.',
    choices: [],
    attempts,
    disabledSkills: [],
    fallback: false,
    cancelled: false,
    state: {},
    changedKeys: [],
    assets: [],
    uiEvents: [],
    narrator: 'pattern',
    startedAt: '2025-01-01T00:00:00.000Z',
    durationMs: 10,
  } satisfies TurnResult;
  const record: TurnRecord = {
    index: 1,
    input: 'look',
    narrative: 'You look.',
    choices: [],
    fallback: false,
    cancelled: false,
    narrator: 'pattern',
    disabledSkills: [],
    changedKeys: [],
    assets: [],
    uiEvents: [],
    attempts: attempts.map((entry) => ({
      attempt: entry.attempt,
      planId: entry.plan.requestId,
      parentPlanId: null,
      narrator: 'pattern',
      outcome: entry.outcome,
      failedTools: [],
      disabledSkills: [],
    })),
    startedAt: result.startedAt,
    durationMs: 10,
  };
  return { record, result };
}

test('an attempt’s graph is the layout of its plan, computed once per plan', () => {
  const chain = plan('turn-1', 3);
  const layout = attemptGraph(chain);
  assert.ok(layout);
  assert.deepEqual(layout.nodes.map((node) => node.id).sort(), ['step0', 'step1', 'step2']);
  assert.equal(layout.edges.length, 2);
  assert.equal(layout.levels.length, 3);
  assert.equal(attemptGraph(chain), layout, 'cached: snapshots ask again for the same plans');
});

test('no graph for a plan without tools or over the inline limit', () => {
  assert.equal(attemptGraph(plan('empty', 0)), undefined);
  assert.equal(attemptGraph(plan('huge', INLINE_GRAPH_MAX_TOOLS + 1)), undefined);
  assert.equal(attemptGraph(plan('limit', INLINE_GRAPH_MAX_TOOLS))?.nodes.length, INLINE_GRAPH_MAX_TOOLS);
});

test('a malformed plan still draws what it can (the layout is lenient)', () => {
  const odd = { requestId: 'odd', tools: [{ toolId: 'a', toolPath: 'x.js', dependencies: ['missing', 'a'] }, { toolPath: 'no-id.js' }] } as unknown as Plan;
  const layout = attemptGraph(odd);
  assert.deepEqual(
    layout?.nodes.map((node) => node.id),
    ['a'],
  );
  assert.deepEqual(
    layout?.missing.map((box) => box.id),
    ['missing'],
  );
});

test('finished turns’ attempts carry their graph unless the view asks for none', () => {
  const first = plan('turn-1', 2);
  const second = plan('turn-1-r1', 0);
  const { record, result } = turn([attempt(1, first), attempt(2, second)]);
  const views = attemptViews(result);
  assert.equal(views[0]?.graph, attemptGraph(first));
  assert.equal('graph' in views[1]!, false, 'a narrative-only plan has nothing to draw');
  assert.equal(
    attemptViews(result, { graphs: false }).some((view) => 'graph' in view),
    false,
  );

  const resolveNothing = () => undefined;
  assert.ok(turnView(record, '/story', resolveNothing, result).attempts[0]?.graph);
  assert.equal(turnView(record, '/story', resolveNothing, result, { graphs: false }).attempts[0]?.graph, undefined);
  assert.equal(turnView(record, '/story', resolveNothing).attempts[0]?.graph, undefined, 'a saved turn has no plan to draw');
});
