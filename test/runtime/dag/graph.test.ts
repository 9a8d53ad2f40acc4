// Unit tests of the DAG utilities: stable Kahn order, DFS cycle path, levels, transitive dependents.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findCycle, parallelLevels, topologicalSort, transitiveDependents } from '../../../src/runtime/dag/toolDependencies.js';

const diamond = [
  { toolId: 'A', dependencies: [] },
  { toolId: 'B', dependencies: ['A'] },
  { toolId: 'C', dependencies: ['A'] },
  { toolId: 'D', dependencies: ['B', 'C'] },
];

test('topological sort of the seed diamond keeps plan order on ties', () => {
  assert.deepEqual(topologicalSort(diamond), { ok: true, order: ['A', 'B', 'C', 'D'] });
  const reordered = [diamond[3]!, diamond[2]!, diamond[1]!, diamond[0]!];
  assert.deepEqual(topologicalSort(reordered), { ok: true, order: ['A', 'C', 'B', 'D'] });
});

test('independent tools keep plan order', () => {
  const nodes = ['z', 'a', 'm'].map((toolId) => ({ toolId }));
  assert.deepEqual(topologicalSort(nodes), { ok: true, order: ['z', 'a', 'm'] });
});

test('a cycle is reported as a path', () => {
  const nodes = [{ toolId: 'x', dependencies: ['z'] }, { toolId: 'y', dependencies: ['x'] }, { toolId: 'z', dependencies: ['y'] }, { toolId: 'free' }];
  assert.deepEqual(findCycle(nodes), ['x', 'z', 'y', 'x']);
  const sorted = topologicalSort(nodes);
  assert.equal(sorted.ok, false);
  if (!sorted.ok) assert.deepEqual(sorted.cycle, ['x', 'z', 'y', 'x']);
});

test('self dependency is a cycle of one', () => {
  assert.deepEqual(findCycle([{ toolId: 'a', dependencies: ['a'] }]), ['a', 'a']);
});

test('acyclic graphs have no cycle, even 20k deep', () => {
  assert.equal(findCycle(diamond), undefined);
  const chain = Array.from({ length: 20_000 }, (_, index) => ({ toolId: `n${index}`, dependencies: index ? [`n${index - 1}`] : [] }));
  assert.equal(findCycle(chain), undefined);
  const sorted = topologicalSort(chain);
  assert.ok(sorted.ok && sorted.order.length === 20_000);
});

test('parallel levels group by longest path', () => {
  assert.deepEqual(parallelLevels(diamond), [['A'], ['B', 'C'], ['D']]);
  const skewed = [
    { toolId: 'a' },
    { toolId: 'b', dependencies: ['a'] },
    { toolId: 'c', dependencies: ['b'] },
    { toolId: 'd', dependencies: ['a', 'c'] },
    { toolId: 'e' },
  ];
  assert.deepEqual(parallelLevels(skewed), [['a', 'e'], ['b'], ['c'], ['d']]);
});

test('transitive dependents', () => {
  assert.deepEqual([...transitiveDependents(diamond, 'A')].sort(), ['B', 'C', 'D']);
  assert.deepEqual([...transitiveDependents(diamond, 'B')], ['D']);
  assert.deepEqual([...transitiveDependents(diamond, 'D')], []);
});
