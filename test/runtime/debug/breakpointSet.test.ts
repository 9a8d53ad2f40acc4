// The plan debugger's breakpoints: binding lines to tools (or the nearest tool), function breakpoints, conditions, hit conditions and logpoints.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { PlanDocument } from '../../../src/runtime/authoring/planDocument.js';
import { BreakpointSet } from '../../../src/runtime/debug/breakpointSet.js';
import { interpolateLogMessage, parseHitCondition } from '../../../src/runtime/debug/hitCondition.js';

const PLAN = `{
  "requestId": "5b0e2a4c-7d1f-4e8a-9c3b-2a1d0e9f8c7b",
  "tools": [
    {
      "toolId": "roll",
      "toolPath": "skills/dice-roller/scripts/roll.js",
      "input": { "formula": "1d20" }
    },

    {
      "toolId": "narrate",
      "toolPath": "skills/storyteller/scripts/narrate.js",
      "dependencies": ["roll"]
    }
  ]
}
`;
const document = PlanDocument.parse(PLAN);
const tools = [
  { toolId: 'roll', skill: 'dice-roller' },
  { toolId: 'narrate', skill: 'storyteller' },
];
const scope = (state: Record<string, unknown> = {}) => ({ state, dependencies: {} });

test('a line inside a tool binds to it; a line between tools moves to the nearest; a line in no plan is unverified', () => {
  const breakpoints = new BreakpointSet();
  const statuses = breakpoints.setLineBreakpoints(document, [{ line: 6 }, { line: 9 }, { line: 2 }]);
  assert.deepEqual(statuses[0], { id: 1, verified: true, line: 6 });
  // Line 9 is the blank line between the tools, one line from each: the first, "roll", wins; moved to its toolId line.
  assert.equal(statuses[1]!.verified, true);
  assert.equal(statuses[1]!.line, 5);
  assert.match(statuses[1]!.message!, /line 9 is outside every tool: moved to "roll"/);
  // Line 2 ("requestId") is nearest to "roll" too.
  assert.equal(statuses[2]!.line, 5);
  assert.deepEqual(breakpoints.beforeTool(tools[0]!, scope()).hitBreakpointIds, [1, 2, 3]);
  assert.equal(breakpoints.beforeTool(tools[1]!, scope()).stop, false);
  const empty = new BreakpointSet().setLineBreakpoints(PlanDocument.parse('{ "tools": [] }'), [{ line: 1 }]);
  assert.deepEqual(empty, [{ id: 1, verified: false, line: 1, message: 'this plan has no tools to stop at' }]);
});

test('conditions use the runtime condition language; a bad one is unverified with its column', () => {
  const breakpoints = new BreakpointSet();
  const [good, bad] = breakpoints.setLineBreakpoints(document, [
    { line: 12, condition: 'state.dice.lastRoll.total >= 15' },
    { line: 12, condition: 'state.dice >=' },
  ]);
  assert.equal(good!.verified, true);
  assert.equal(bad!.verified, false);
  assert.match(bad!.message!, /^condition: .*\(at column \d+\)$/);
  assert.equal(breakpoints.beforeTool(tools[1]!, scope({ dice: { lastRoll: { total: 9 } } })).stop, false);
  assert.deepEqual(breakpoints.beforeTool(tools[1]!, scope({ dice: { lastRoll: { total: 17 } } })).hitBreakpointIds, [good!.id]);
});

test('hit conditions count the hits whose condition held', () => {
  const breakpoints = new BreakpointSet();
  breakpoints.setLineBreakpoints(document, [{ line: 6, hitCondition: '% 2', condition: 'state.go == true' }]);
  const stops = [true, false, true, true, true].map((go) => breakpoints.beforeTool(tools[0]!, scope({ go })).stop);
  // Holds on hits 1, 2, 3, 4 (the second call's condition is false and does not count): stops on hits 2 and 4.
  assert.deepEqual(stops, [false, false, true, false, true]);
  for (const [text, counts] of [
    ['3', [false, false, true, false]],
    ['== 3', [false, false, true, false]],
    ['>2', [false, false, true, true]],
    ['>= 2', [false, true, true, true]],
    ['< 3', [true, true, false, false]],
    ['<=1', [true, false, false, false]],
  ] as const) {
    const parsed = parseHitCondition(text);
    assert.ok(parsed.ok, text);
    assert.deepEqual(
      [1, 2, 3, 4].map((count) => parsed.condition.matches(count)),
      counts,
      text,
    );
  }
  assert.equal(parseHitCondition('every 2').ok, false);
  assert.equal(parseHitCondition('% 0').ok, false);
  const [status] = new BreakpointSet().setLineBreakpoints(document, [{ line: 6, hitCondition: 'often' }]);
  assert.equal(status!.verified, false);
});

test('logpoints print with {state.path} interpolated and never stop', () => {
  const breakpoints = new BreakpointSet();
  breakpoints.setLineBreakpoints(document, [
    { line: 12, logMessage: 'total {state.dice.lastRoll.total}, rolls {state.dice.rolls}, first {state.dice.rolls[0]}, {state.missing}, {{literal}}' },
  ]);
  const decision = breakpoints.beforeTool(tools[1]!, scope({ dice: { lastRoll: { total: 17 }, rolls: [3, 14] } }));
  assert.equal(decision.stop, false);
  assert.deepEqual(decision.logs, ['total 17, rolls [3,14], first 3, undefined, {literal}']);
  assert.equal(interpolateLogMessage('{input.formula} by {state.name}', { state: { name: 'Mara' }, input: { formula: '1d20' } }), '1d20 by Mara');
  // Only own properties are read.
  assert.equal(interpolateLogMessage('{state.constructor}', { state: {} }), 'undefined');
});

test('function breakpoints by toolId or skill name; an unknown name stays armed for replans', () => {
  const breakpoints = new BreakpointSet();
  const statuses = breakpoints.setFunctionBreakpoints([{ name: 'narrate' }, { name: 'dice-roller' }, { name: 'reputation' }], tools);
  assert.deepEqual(
    statuses.map((status) => status.verified),
    [true, true, false],
  );
  assert.match(statuses[2]!.message!, /no tool or skill named "reputation"/);
  assert.deepEqual(breakpoints.beforeTool(tools[0]!, scope()).hitBreakpointIds, [statuses[1]!.id]);
  assert.deepEqual(breakpoints.beforeTool(tools[1]!, scope()).hitBreakpointIds, [statuses[0]!.id]);
  assert.deepEqual(breakpoints.beforeTool({ toolId: 'standing', skill: 'reputation' }, scope()).hitBreakpointIds, [statuses[2]!.id]);
  // Setting again replaces them.
  breakpoints.setFunctionBreakpoints([], tools);
  assert.equal(breakpoints.beforeTool(tools[0]!, scope()).stop, false);
});
