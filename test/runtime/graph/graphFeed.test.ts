// The graph feed (the view's model of a changing text) and the live run-state tracker over a real plan run.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GraphFeed } from '../../../src/runtime/graph/graphFeed.js';
import { layoutPlanGraph } from '../../../src/runtime/graph/graphLayout.js';
import { levelCounts, buildPlanGraph } from '../../../src/runtime/graph/planGraph.js';
import { trackRunStates, type LiveToolState } from '../../../src/runtime/graph/runStateTracker.js';
import { startPlanRun } from '../../../src/runtime/executor/planExecutor.js';
import type { ExecutionResult } from '../../../src/runtime/contractTypes/executionResult.js';
import type { Plan } from '../../../src/runtime/contractTypes/plan.js';

const story = path.resolve(import.meta.dirname, '../../fixtures/story');
let scratch: string;
before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-graph-feed-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const inline = async (model: Parameters<typeof layoutPlanGraph>[0]) => layoutPlanGraph(model);

test('the feed lays out each text that parses, and keeps the last good graph (with the parse error position) while it does not', async () => {
  const feed = new GraphFeed(inline);
  const text = JSON.stringify(
    {
      requestId: 'r',
      tools: [
        { toolId: 'a', toolPath: 'skills/x/a.js' },
        { toolId: 'b', toolPath: 'skills/x/b.js', dependencies: ['a'] },
      ],
    },
    null,
    2,
  );
  const first = await feed.update(text);
  assert.equal(first.kind, 'graph');
  assert.deepEqual(first.kind === 'graph' && first.graphed.layout.nodes.map((node) => node.id), ['a', 'b']);
  assert.equal((await feed.update(text)).kind, 'unchanged');
  const broken = await feed.update(text.replace('"b",', '"b"'));
  assert.equal(broken.kind, 'stale');
  if (broken.kind === 'stale') {
    assert.match(broken.reason, /^line \d+, column \d+: /);
    assert.deepEqual(
      broken.last?.layout.nodes.map((node) => node.id),
      ['a', 'b'],
      'the last good graph is kept',
    );
  }
  assert.deepEqual(
    feed.current?.layout.nodes.map((node) => node.id),
    ['a', 'b'],
  );
  const renamed = await feed.update(text.replace(/"b"/g, '"c"'));
  assert.equal(renamed.kind, 'graph');
  assert.deepEqual(renamed.kind === 'graph' && renamed.graphed.problems, []);
  const cyclic = await feed.update(text.replace('"toolPath": "skills/x/a.js"', '"toolPath": "skills/x/a.js", "dependencies": ["b"]'));
  assert.equal(cyclic.kind, 'graph');
  assert.deepEqual(cyclic.kind === 'graph' && cyclic.graphed.problems, ['dependency cycle: a → b → a']);
});

test('levelCounts: tools per level, for the overview of a big plan', () => {
  const model = buildPlanGraph({
    tools: [
      { toolId: 'a' },
      { toolId: 'b', dependencies: ['a'] },
      { toolId: 'c', dependencies: ['a'] },
      { toolId: 'd', dependencies: ['b', 'c'] },
      { toolId: 'e' },
    ],
  });
  assert.deepEqual(levelCounts(model), [2, 2, 1]);
});

test('the run-state tracker follows a real run: pending, running, retrying, then the recorded final states', async () => {
  const plan: Plan = {
    requestId: '9b2d7c1e-5d7a-4c1b-9a51-3f1f6a0c2d11',
    tools: [
      { toolId: 'first', toolPath: 'skills/helpers/scripts/echo.js', input: { message: 'hi' } },
      {
        toolId: 'flaky',
        toolPath: 'skills/helpers/scripts/flaky.js',
        input: { counterFile: path.join(scratch, 'counter'), failTimes: 1 },
        retryPolicy: { maxRetries: 2, backoffMs: 10 },
        dependencies: ['first'],
      },
      { toolId: 'bad', toolPath: 'skills/faults/scripts/done-not-ok.js', required: false, retryPolicy: { maxRetries: 0 }, dependencies: ['first'] },
    ],
  };
  const seen = new Map<string, string[]>();
  let finished: ExecutionResult | undefined;
  const run = startPlanRun(plan, { root: story });
  const tracking = trackRunStates(
    run,
    plan.tools.map((tool) => tool.toolId),
    {
      onStates: (states: readonly LiveToolState[]) => {
        for (const state of states) seen.set(state.id, [...(seen.get(state.id) ?? []), state.state]);
      },
      onFinished: (result) => (finished = result),
    },
  );
  const result = await run.result;
  tracking.dispose();
  assert.equal(finished, result);
  assert.deepEqual(seen.get('first'), ['pending', 'running', 'success']);
  // flaky: started, failed once, retried, then succeeded (the retry shows as "retrying" until its attempt ends).
  const flaky = seen.get('flaky')!;
  assert.equal(flaky[0], 'pending');
  assert.equal(flaky[1], 'running');
  assert.ok(flaky.includes('retrying'), flaky.join(' '));
  assert.equal(flaky.at(-1), 'success');
  assert.deepEqual(seen.get('bad'), ['pending', 'running', 'failed']);
});
