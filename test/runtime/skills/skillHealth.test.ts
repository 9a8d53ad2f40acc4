// Skill health: every transition of docs/design-rules.md#skill-health (table-driven), the ToolResult mapping, and the tracker's sequences and events.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ToolResult } from '../../../src/runtime/contractTypes/executionResult.js';
import {
  FAILURE_THRESHOLD,
  healthInputOf,
  INITIAL_HEALTH,
  nextHealth,
  SkillHealthTracker,
  type HealthChange,
  type HealthInput,
  type HealthStatus,
} from '../../../src/runtime/skills/skillHealth.js';
import type { SkillHealth } from '../../../src/runtime/skills/skillTypes.js';

const at = (state: SkillHealth, consecutiveFailures = 0): HealthStatus => ({ state, consecutiveFailures });

test('the seven transitions of seed 000 §3.1', () => {
  const edges: [string, HealthStatus, HealthInput, SkillHealth][] = [
    ['healthy --timeout/network error--> temporaryFailure', at('healthy'), 'transientFailure', 'temporaryFailure'],
    ['healthy --3 consecutive failures--> degraded', at('healthy', FAILURE_THRESHOLD - 1), 'failure', 'degraded'],
    ['degraded --success--> healthy', at('degraded', 2), 'success', 'healthy'],
    ['degraded --3 more failures--> permanentFailure', at('degraded', FAILURE_THRESHOLD - 1), 'failure', 'permanentFailure'],
    ['temporaryFailure --retry success--> healthy', at('temporaryFailure'), 'success', 'healthy'],
    ['temporaryFailure --max retries exceeded--> permanentFailure', at('temporaryFailure'), 'failure', 'permanentFailure'],
    ['permanentFailure --session restart--> healthy', at('permanentFailure'), 'sessionRestart', 'healthy'],
  ];
  for (const [edge, from, input, to] of edges) {
    const next = nextHealth(from, input);
    assert.equal(next.state, to, edge);
    assert.equal(next.consecutiveFailures, 0, `${edge}: the count starts over`);
  }
});

test('every other state and input pair: no change of state except as documented', () => {
  const states: SkillHealth[] = ['healthy', 'degraded', 'temporaryFailure', 'permanentFailure'];
  const inputs: HealthInput[] = ['success', 'failure', 'transientFailure', 'sessionRestart'];
  // With no failures counted yet, only these pairs change the state.
  const expected: Record<SkillHealth, Record<HealthInput, SkillHealth>> = {
    healthy: { success: 'healthy', failure: 'healthy', transientFailure: 'temporaryFailure', sessionRestart: 'healthy' },
    degraded: { success: 'healthy', failure: 'degraded', transientFailure: 'degraded', sessionRestart: 'healthy' },
    temporaryFailure: { success: 'healthy', failure: 'permanentFailure', transientFailure: 'permanentFailure', sessionRestart: 'healthy' },
    permanentFailure: { success: 'permanentFailure', failure: 'permanentFailure', transientFailure: 'permanentFailure', sessionRestart: 'healthy' },
  };
  for (const state of states) {
    for (const input of inputs) assert.equal(nextHealth(at(state), input).state, expected[state][input], `${state} + ${input}`);
  }
  assert.deepEqual(nextHealth(at('healthy', 1), 'failure'), at('healthy', 2), 'failures are counted');
  assert.deepEqual(nextHealth(at('healthy', 2), 'success'), INITIAL_HEALTH, 'success clears the count');
  assert.deepEqual(nextHealth(at('degraded', 2), 'transientFailure'), at('permanentFailure'), 'a degraded skill counts timeouts as failures');
  assert.deepEqual(nextHealth(at('healthy', 2), 'transientFailure'), at('temporaryFailure'));
});

const result = (fields: Partial<ToolResult>): ToolResult => ({ toolId: 't', state: 'failed', ...fields });

test('how a ToolResult maps to a health input', () => {
  const cases: [string, ToolResult, HealthInput | undefined][] = [
    ['success', result({ state: 'success' }), 'success'],
    ['rolled back (it had succeeded)', result({ state: 'rolledBack' }), 'success'],
    ['skipped', result({ state: 'skipped', skipReason: 'dependency_failed' }), undefined],
    ['cancelled', result({ state: 'cancelled' }), undefined],
    ['timeout state', result({ state: 'timeout', error: { code: 'TOOL_TIMEOUT', message: '', category: 'timeout' } }), 'transientFailure'],
    ['timeout category', result({ error: { code: 'X', message: '', category: 'timeout' } }), 'transientFailure'],
    [
      'a tool still running at the plan timeout hung',
      result({ state: 'timeout', error: { code: 'PLAN_TIMEOUT', message: '', category: 'timeout' } }),
      'transientFailure',
    ],
    ['network error code', result({ error: { code: 'ECONNREFUSED', message: '', category: 'tool_failure' } }), 'transientFailure'],
    [
      'network details',
      result({ error: { code: 'TOOL_REPORTED_FAILURE', message: '', category: 'tool_failure', details: { network: true } } }),
      'transientFailure',
    ],
    [
      'network error event',
      result({
        error: { code: 'TOOL_REPORTED_FAILURE', message: '', category: 'tool_failure' },
        events: [{ version: '0', type: 'error', errorCode: 'NETWORK_UNREACHABLE', errorMessage: 'offline' }],
      }),
      'transientFailure',
    ],
    ['tool failure', result({ error: { code: 'TOOL_REPORTED_FAILURE', message: '', category: 'tool_failure' } }), 'failure'],
    ['process error', result({ error: { code: 'NONZERO_EXIT', message: '', category: 'process_error' } }), 'failure'],
    ['protocol violation', result({ error: { code: 'MISSING_DONE', message: '', category: 'protocol_violation' } }), 'failure'],
  ];
  for (const [name, toolResult, input] of cases) assert.equal(healthInputOf(toolResult), input, name);
});

test('tracker: 3 failures degrade, 3 more fail for good, restart heals; one event per state change', () => {
  const tracker = new SkillHealthTracker();
  const changes: HealthChange[] = [];
  const subscription = tracker.onDidChangeHealth((change) => changes.push(change));
  const fail = () => tracker.record('dice', 'failure', 'roll1');
  fail();
  fail();
  assert.equal(tracker.health('dice'), 'healthy');
  assert.equal(tracker.status('dice').consecutiveFailures, 2);
  fail();
  assert.equal(tracker.health('dice'), 'degraded');
  fail();
  fail();
  assert.equal(tracker.health('dice'), 'degraded');
  fail();
  assert.equal(tracker.health('dice'), 'permanentFailure');
  tracker.record('dice', 'success');
  assert.equal(tracker.health('dice'), 'permanentFailure', 'only a restart heals a permanent failure');
  tracker.restartSession();
  assert.equal(tracker.health('dice'), 'healthy');
  assert.deepEqual(
    changes.map((change) => [change.previous, change.current, change.cause]),
    [
      ['healthy', 'degraded', 'failure'],
      ['degraded', 'permanentFailure', 'failure'],
      ['permanentFailure', 'healthy', 'sessionRestart'],
    ],
  );
  assert.equal(changes[0]!.toolId, 'roll1');
  subscription.dispose();
  tracker.dispose();
});

test('tracker: a success recovers a degraded skill; a timeout then a retry success; a timeout then a failure', () => {
  const tracker = new SkillHealthTracker();
  const changes: HealthChange[] = [];
  tracker.onDidChangeHealth((change) => changes.push(change));
  for (let index = 0; index < 3; index++) tracker.recordResult('a', result({}));
  assert.equal(tracker.health('a'), 'degraded');
  tracker.recordResult('a', result({ state: 'success' }));
  assert.deepEqual(tracker.status('a'), INITIAL_HEALTH);
  tracker.recordResult('b', result({ state: 'timeout' }));
  assert.equal(tracker.health('b'), 'temporaryFailure');
  tracker.recordResult('b', result({ state: 'success' }));
  assert.equal(tracker.health('b'), 'healthy');
  tracker.recordResult('c', result({ state: 'timeout' }));
  tracker.recordResult('c', result({ state: 'skipped' }));
  assert.equal(tracker.health('c'), 'temporaryFailure', 'a skipped tool says nothing');
  tracker.recordResult('c', result({}));
  assert.equal(tracker.health('c'), 'permanentFailure');
  assert.equal(changes.length, 6);
  assert.deepEqual(
    tracker.reset('c').map((change) => [change.skill, change.current, change.cause]),
    [['c', 'healthy', 'reset']],
  );
  assert.deepEqual(tracker.reset('c'), [], 'no event when nothing changes');
  assert.equal(changes.length, 7);
  tracker.dispose();
});
