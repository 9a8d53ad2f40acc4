// StateCommit over a hand-made schedule: patches commit in topological order whatever the finishing order, and a starting tool sees its finished ancestors' patches before they commit, and nobody else's.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ToolResult } from '../../../src/runtime/contractTypes/executionResult.js';
import type { JsonObject } from '../../../src/runtime/state/deepMerge.js';
import { StateCommit, type CommitSchedule } from '../../../src/runtime/executor/stateCommit.js';

/** a → c, b (independent), d after c; topological order a, b, c, d. */
function schedule(): { schedule: CommitSchedule; finish: (index: number, state: ToolResult['state'], patches: JsonObject[]) => void } {
  const dependencies = [[], [], [0], [2]];
  const finished = new Map<number, { result: ToolResult; patches: JsonObject[] }>();
  return {
    schedule: {
      topologicalIndices: [0, 1, 2, 3],
      position: (index) => index,
      dependenciesOf: (index) => dependencies[index]!,
      finishedAt: (index) => finished.get(index),
    },
    finish: (index, state, patches) => finished.set(index, { result: { toolId: `t${index}`, state }, patches }),
  };
}

test('patches commit in topological order, not in the order tools finished; each commit is reported with the state before and after', () => {
  const { schedule: order, finish } = schedule();
  const commit = new StateCommit({ hp: 3 }, order);
  const commits: string[] = [];
  const advance = () => commit.advance((index, before, after) => commits.push(`${index}: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`));
  // b finishes first, but a is before it in the order: nothing commits yet.
  finish(1, 'success', [{ weather: 'rain' }]);
  commit.finished(1, { toolId: 't1', state: 'success' }, [{ weather: 'rain' }]);
  advance();
  assert.deepEqual(commit.committedState, { hp: 3 });
  finish(0, 'success', [{ hp: 2 }, { door: 'open' }]);
  commit.finished(0, { toolId: 't0', state: 'success' }, [{ hp: 2 }, { door: 'open' }]);
  advance();
  assert.deepEqual(commit.committedState, { hp: 2, door: 'open', weather: 'rain' });
  assert.deepEqual(commits, ['0: {"hp":3} -> {"hp":2,"door":"open"}', '1: {"hp":2,"door":"open"} -> {"hp":2,"door":"open","weather":"rain"}']);
});

test('a starting tool sees its finished ancestors’ patches before they commit, never an unrelated tool’s, and a failed tool’s patches never', () => {
  const { schedule: order, finish } = schedule();
  const commit = new StateCommit({}, order);
  // Only b has finished (and cannot commit past a): c, which depends on a only, does not see it.
  finish(1, 'success', [{ weather: 'rain' }]);
  commit.finished(1, { toolId: 't1', state: 'success' }, [{ weather: 'rain' }]);
  commit.advance(() => undefined);
  assert.deepEqual(commit.stateFor(2), {});
  // a failed: its patches are dropped, and d (after c, after a) sees nothing of it.
  finish(0, 'failed', [{ hp: 0 }]);
  commit.finished(0, { toolId: 't0', state: 'failed' }, [{ hp: 0 }]);
  assert.deepEqual(commit.stateFor(3), {});
  commit.advance(() => undefined);
  assert.deepEqual(commit.committedState, { weather: 'rain' });
});

test('before anything commits, a tool sees its finished ancestors’ patches merged in topological order', () => {
  const { schedule: order, finish } = schedule();
  const commit = new StateCommit({}, order);
  finish(0, 'success', [{ trail: ['a'] }]);
  commit.finished(0, { toolId: 't0', state: 'success' }, [{ trail: ['a'] }]);
  finish(2, 'success', [{ trail: ['a', 'c'], lit: true }]);
  commit.finished(2, { toolId: 't2', state: 'success' }, [{ trail: ['a', 'c'], lit: true }]);
  // Nothing advanced yet: d sees a's patch, then c's, over the committed state.
  assert.deepEqual(commit.stateFor(3), { trail: ['a', 'c'], lit: true });
  assert.deepEqual(commit.committedState, {});
});
