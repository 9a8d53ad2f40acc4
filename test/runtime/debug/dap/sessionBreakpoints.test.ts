// A debug session's breakpoints over recorded history (hits, logpoints, data and exception stops) and the record Restart Frame resumes from.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { PlanDocument } from '../../../../src/runtime/authoring/planDocument.js';
import { DebugHistory, type NewPoint } from '../../../../src/runtime/debug/debugHistory.js';
import { DebugSources } from '../../../../src/runtime/debug/dap/debugSources.js';
import { VariableStore } from '../../../../src/runtime/debug/dap/debugVariables.js';
import { SessionBreakpoints } from '../../../../src/runtime/debug/dap/sessionBreakpoints.js';
import { restartRecord } from '../../../../src/runtime/debug/frameRestart.js';
import type { ToolResult } from '../../../../src/runtime/contractTypes/executionResult.js';
import type { Plan } from '../../../../src/runtime/contractTypes/plan.js';

const PLAN_TEXT = `{
  "requestId": "5b0e2a4c-7d1f-4e8a-9c3b-2a1d0e9f8c7b",
  "tools": [
    { "toolId": "roll", "toolPath": "skills/dice-roller/scripts/roll.js", "input": { "formula": "1d20" } },
    { "toolId": "narrate", "toolPath": "skills/storyteller/scripts/narrate.js", "dependencies": ["roll"] }
  ]
}
`;
const plan = JSON.parse(PLAN_TEXT) as Plan;

function point(kind: NewPoint['kind'], toolId: string, extra: Partial<NewPoint> = {}): NewPoint {
  return { kind, toolId, attempt: 1, skill: null, state: {}, input: {}, dependencies: {}, timeMs: 0, ...extra };
}

/** roll (tool, state_patch event, finish ok), narrate (tool, finish failed for good). */
function recordedRun(): DebugHistory {
  const history = new DebugHistory();
  history.append(point('tool', 'roll'));
  history.append(point('event', 'roll', { event: { version: '0', type: 'state_patch', patch: { dice: { lastRoll: 17 } } }, eventIndex: 0 }));
  history.append(point('finish', 'roll', { ok: true, state: { dice: { lastRoll: 17 } } }));
  history.append(point('tool', 'narrate', { state: { dice: { lastRoll: 17 } } }));
  history.append(point('finish', 'narrate', { ok: false, failure: { category: 'tool_error', message: 'no words', timedOut: false, willRetry: false } }));
  return history;
}

test('line breakpoints bind to the plan being debugged only; a logpoint logs when played forward, never backward', () => {
  const history = recordedRun();
  const breakpoints = new SessionBreakpoints(() => history);
  const sources = new DebugSources(PlanDocument.parse(PLAN_TEXT), '/work/plan.json', () => history, 'plan.json');
  const elsewhere = breakpoints.setLines({ source: { path: '/work/other.json' }, breakpoints: [{ line: 4 }] }, sources, false);
  assert.equal(elsewhere[0]!.verified, false);
  assert.match(elsewhere[0]!.message!, /apply to the plan being debugged/);

  const [stop, log] = breakpoints.setLines(
    { source: { path: '/work/plan.json' }, breakpoints: [{ line: 5 }, { line: 4, logMessage: 'rolling' }] },
    sources,
    false,
  );
  assert.equal(stop!.verified, true);
  assert.equal(log!.verified, true);
  const logs: string[] = [];
  const collect = (message: string, toolId: string) => logs.push(`${toolId}: ${message}`);
  assert.deepEqual(breakpoints.hitAt(history.at(3)!, 1, collect), { reason: 'breakpoint', hitBreakpointIds: [stop!.id] });
  assert.equal(breakpoints.hitAt(history.at(0)!, 1, collect), undefined);
  assert.equal(breakpoints.hitAt(history.at(0)!, -1, collect), undefined);
  assert.deepEqual(logs, ['roll: rolling']);
});

test('a noDebug session verifies no line breakpoint', () => {
  const history = recordedRun();
  const breakpoints = new SessionBreakpoints(() => history);
  const sources = new DebugSources(PlanDocument.parse(PLAN_TEXT), '/work/plan.json', () => history, 'plan.json');
  assert.deepEqual(breakpoints.setLines({ source: { path: '/work/plan.json' }, breakpoints: [{ line: 5 }] }, sources, true), []);
  assert.equal(
    breakpoints.hitAt(history.at(3)!, 1, () => assert.fail('no logpoint')),
    undefined,
  );
});

test('a data breakpoint stops at the state_patch that changes its pointer; an exception filter at the failure it names', () => {
  const history = recordedRun();
  const breakpoints = new SessionBreakpoints(() => history);
  const [watch] = breakpoints.setData({ breakpoints: [{ dataId: '/dice/lastRoll' }] });
  assert.deepEqual(
    breakpoints.hitAt(history.at(1)!, 1, () => undefined),
    { reason: 'data breakpoint', hitBreakpointIds: [watch!.id], description: 'state /dice/lastRoll changes' },
  );
  assert.equal(
    breakpoints.hitAt(history.at(4)!, 1, () => undefined),
    undefined,
  );

  assert.deepEqual(breakpoints.setExceptions({ filters: ['toolFailure', 'nonsense'] }), [{ verified: true }, { verified: true }]);
  assert.deepEqual(breakpoints.filterIds, ['toolFailure', 'nonsense']);
  assert.deepEqual(
    breakpoints.hitAt(history.at(4)!, -1, () => undefined),
    { reason: 'exception', hitBreakpointIds: [], description: 'tool_error: no words' },
  );
});

test('dataBreakpointInfo takes a typed JSON pointer and refuses a bare name', () => {
  const breakpoints = new SessionBreakpoints(() => new DebugHistory());
  const variables = new VariableStore();
  assert.deepEqual(breakpoints.dataInfo({ name: '/dice/lastRoll' }, variables), {
    dataId: '/dice/lastRoll',
    description: 'state/dice/lastRoll',
    accessTypes: ['write'],
    canPersist: true,
  });
  assert.equal(breakpoints.dataInfo({ name: 'lastRoll' }, variables)!.dataId, null);
});

test('a restart keeps the results of the tools that succeeded before it, with their state patches, and runs the restarted tool again', () => {
  const history = recordedRun();
  const roll: ToolResult = {
    toolId: 'roll',
    state: 'success',
    events: [
      { version: '0', type: 'state_patch', patch: { dice: { lastRoll: 17 } } },
      { version: '0', type: 'done', ok: true },
    ],
  };
  const narrate: ToolResult = { toolId: 'narrate', state: 'failed' };
  const finished = new Map([
    ['roll', roll],
    ['narrate', narrate],
  ]);
  const now = new Date('2026-11-24T10:00:00.000Z');
  const atNarrate = restartRecord(history, finished, history.at(3)!, { plan, root: '/work', initialState: { hp: 3 } }, now);
  assert.deepEqual(Object.keys(atNarrate.tools), ['roll']);
  assert.deepEqual(atNarrate.tools['roll'], { result: roll, patches: [{ dice: { lastRoll: 17 } }] });
  assert.equal(atNarrate.status, 'running');
  assert.equal(atNarrate.planId, plan.requestId);
  assert.deepEqual(atNarrate.initialState, { hp: 3 });
  assert.equal(atNarrate.startedAt, now.toISOString());
  // Restarting "roll" itself keeps nothing: its own earlier success runs again.
  assert.deepEqual(restartRecord(history, finished, history.at(0)!, { plan, root: '/work', initialState: {} }, now).tools, {});
});
