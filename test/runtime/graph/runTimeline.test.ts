// Tests of the run timeline: segments, untimed rows, concurrency, the critical path and its marks, over hand-made, random and real runs.
// Deterministic: hand-made and random runs carry fixed timestamps; the real run's assertions are about structure only, never durations.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { buildRunTimeline, concurrencyOf, criticalPathOf, markCriticalPath } from '../../../src/runtime/graph/runTimeline.js';
import type { RunTimeline, TimelineRow } from '../../../src/runtime/graph/graphTypes.js';
import { buildPlanGraph } from '../../../src/runtime/graph/planGraph.js';
import { layoutPlanGraph } from '../../../src/runtime/graph/graphLayout.js';
import type { AttemptRecord, ToolResult, ToolState } from '../../../src/runtime/contractTypes/executionResult.js';
import type { Plan } from '../../../src/runtime/contractTypes/plan.js';
import { executePlan } from '../../../src/runtime/executor/planExecutor.js';
import { seedPropertyTests } from '../../support/propertySeed.js';

// Deterministic: a fixed fast-check seed (test/support/propertySeed.ts), so every run checks the same cases.
seedPropertyTests();

const BASE = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number): string => new Date(BASE + ms).toISOString();

/** A tool that ran from `start` to `end` ms after BASE. */
function ran(toolId: string, start: number, end: number, extra: Partial<ToolResult> = {}): ToolResult {
  return { toolId, state: 'success', startedAt: at(start), finishedAt: at(end), ...extra };
}

function skipped(toolId: string, skipReason: NonNullable<ToolResult['skipReason']>): ToolResult {
  return { toolId, state: 'skipped', skipReason, retryCount: 0 };
}

function timelineOf(results: readonly ToolResult[], dependencies: readonly { from: string; to: string }[] = [], runStartedAt?: string): RunTimeline {
  const timeline = buildRunTimeline(results, dependencies, runStartedAt);
  assert.ok(timeline, 'the run has timing');
  return timeline;
}

function rowOf(timeline: RunTimeline, toolId: string): TimelineRow {
  const row = timeline.rows.find((entry) => entry.toolId === toolId);
  assert.ok(row, `a row for ${toolId}`);
  return row;
}

const edges = (...pairs: [string, string][]) => pairs.map(([from, to]) => ({ from, to }));

test('retries lay attempts and backoffs end to end from the tool start', () => {
  const attempts: AttemptRecord[] = [
    { attempt: 1, durationMs: 100, ok: false },
    { attempt: 2, durationMs: 100, ok: false, backoffMs: 50 },
    { attempt: 3, durationMs: 100, ok: true, backoffMs: 50 },
  ];
  const exact = timelineOf([ran('r', 0, 400, { attempts, retryCount: 2 })]);
  assert.deepEqual(rowOf(exact, 'r').segments, [
    { kind: 'attempt', start: 0, end: 100, attempt: 1, ok: false },
    { kind: 'backoff', start: 100, end: 150, attempt: 2 },
    { kind: 'attempt', start: 150, end: 250, attempt: 2, ok: false },
    { kind: 'backoff', start: 250, end: 300, attempt: 3 },
    { kind: 'attempt', start: 300, end: 400, attempt: 3, ok: true },
  ]);
  // 60 ms of process start-up the durations leave out: backoffs keep their length, attempts share the rest.
  const longer = timelineOf([ran('r', 0, 460, { attempts })]);
  assert.deepEqual(
    rowOf(longer, 'r').segments.map((segment) => [segment.kind, segment.start, segment.end]),
    [
      ['attempt', 0, 120],
      ['backoff', 120, 170],
      ['attempt', 170, 290],
      ['backoff', 290, 340],
      ['attempt', 340, 460],
    ],
  );
});

test('a failed tool: attempts without ok are failures, the row keeps the failed state', () => {
  const timeline = timelineOf([
    ran('f', 0, 110, {
      state: 'failed',
      attempts: [
        { attempt: 1, durationMs: 50 },
        { attempt: 2, durationMs: 50, backoffMs: 10 },
      ],
    }),
    ran('s', 0, 110, {
      attempts: [
        { attempt: 1, durationMs: 50 },
        { attempt: 2, durationMs: 50, backoffMs: 10 },
      ],
    }),
  ]);
  const failed = rowOf(timeline, 'f');
  assert.equal(failed.state, 'failed');
  assert.deepEqual(
    failed.segments.filter((segment) => segment.kind === 'attempt').map((segment) => segment.ok),
    [false, false],
  );
  assert.deepEqual(
    rowOf(timeline, 's')
      .segments.filter((segment) => segment.kind === 'attempt')
      .map((segment) => segment.ok),
    [false, true],
    'only the last attempt of a successful tool',
  );
});

test('tools that never started get empty rows where they were decided, in start order then plan order', () => {
  const timeline = timelineOf(
    [
      ran('a', 20, 120, { state: 'failed' }),
      skipped('b', 'dependency_failed'),
      skipped('c', 'dependency_failed'),
      ran('d', 20, 320),
      skipped('e', 'cancelled'),
      skipped('f', 'condition_false'),
    ],
    edges(['a', 'b'], ['b', 'c']),
    at(0),
  );
  assert.deepEqual(
    timeline.rows.map((row) => [row.toolId, row.state, row.start, row.end, row.segments.length]),
    [
      ['f', 'skipped', 0, 0, 0],
      ['a', 'failed', 20, 120, 1],
      ['d', 'success', 20, 320, 1],
      ['b', 'skipped', 120, 120, 0],
      ['c', 'skipped', 120, 120, 0],
      ['e', 'skipped', 320, 320, 0],
    ],
  );
  assert.equal(timeline.durationMs, 320);
  assert.deepEqual(timeline.criticalPath, ['d']);
  assert.deepEqual(
    timeline.rows.filter((row) => row.critical).map((row) => row.toolId),
    ['d'],
  );
});

test('a diamond: the critical path goes through the slower branch, whatever the plan order', () => {
  const results = [ran('a', 0, 100), ran('fast', 100, 200), ran('slow', 100, 500), ran('d', 500, 600)];
  const diamond = edges(['a', 'fast'], ['a', 'slow'], ['fast', 'd'], ['slow', 'd']);
  assert.deepEqual(timelineOf(results, diamond).criticalPath, ['a', 'slow', 'd']);
  const swapped = [results[0]!, results[2]!, results[1]!, results[3]!];
  assert.deepEqual(timelineOf(swapped, diamond).criticalPath, ['a', 'slow', 'd']);
  const timeline = timelineOf(results, diamond);
  assert.deepEqual(
    timeline.rows.map((row) => [row.toolId, row.critical]),
    [
      ['a', true],
      ['fast', false],
      ['slow', true],
      ['d', true],
    ],
  );
});

test('equal end times break ties by plan order', () => {
  const joined = [ran('x', 0, 100), ran('y', 0, 100), ran('z', 100, 200)];
  const toZ = edges(['x', 'z'], ['y', 'z']);
  assert.deepEqual(timelineOf(joined, toZ).criticalPath, ['x', 'z']);
  assert.deepEqual(timelineOf([joined[1]!, joined[0]!, joined[2]!], toZ).criticalPath, ['y', 'z']);
  // Two last finishers with no dependencies: the first in plan order.
  assert.deepEqual(timelineOf([ran('p', 0, 50), ran('q', 10, 50)]).criticalPath, ['p']);
  assert.deepEqual(timelineOf([ran('q', 10, 50), ran('p', 0, 50)]).criticalPath, ['q']);
});

test('clock skew: attempts longer than the timestamps are shrunk to fit, never overlapping', () => {
  // 170 ms of attempts and 20 ms of backoff in a 100 ms span: the backoff fits, the attempts share the other 80.
  const skewed = timelineOf([
    ran('k', 0, 100, {
      attempts: [
        { attempt: 1, durationMs: 80, ok: false },
        { attempt: 2, durationMs: 90, ok: true, backoffMs: 20 },
      ],
    }),
  ]);
  assert.deepEqual(
    rowOf(skewed, 'k').segments.map((segment) => [segment.kind, segment.start, segment.end]),
    [
      ['attempt', 0, 38],
      ['backoff', 38, 58],
      ['attempt', 58, 100],
    ],
  );
  // Backoffs alone longer than the span: everything shrinks in proportion.
  const squeezed = timelineOf([
    ran('k', 0, 100, {
      attempts: [
        { attempt: 1, durationMs: 80, ok: false },
        { attempt: 2, durationMs: 90, ok: true, backoffMs: 500 },
      ],
    }),
  ]);
  assert.deepEqual(
    rowOf(squeezed, 'k').segments.map((segment) => [segment.kind, segment.start, segment.end]),
    [
      ['attempt', 0, 12],
      ['backoff', 12, 87],
      ['attempt', 87, 100],
    ],
  );
  // Finished before it started: an empty row at its start, with empty segments.
  const backwards = timelineOf([ran('b', 50, 40, { attempts: [{ attempt: 1, durationMs: 10, ok: true }] })], [], at(0));
  assert.deepEqual(rowOf(backwards, 'b'), {
    toolId: 'b',
    state: 'success',
    start: 50,
    end: 50,
    segments: [{ kind: 'attempt', start: 50, end: 50, attempt: 1, ok: true }],
    critical: true,
  });
});

test('a tool without attempts gets one attempt segment from start to finish', () => {
  const timeline = timelineOf([ran('plain', 10, 70), ran('broken', 10, 30, { state: 'timeout' })], [], at(0));
  assert.deepEqual(rowOf(timeline, 'plain').segments, [{ kind: 'attempt', start: 10, end: 70, attempt: 1, ok: true }]);
  assert.deepEqual(rowOf(timeline, 'broken').segments, [{ kind: 'attempt', start: 10, end: 30, attempt: 1, ok: false }]);
});

test('a tool with a start but no finish ends after its executionTimeMs', () => {
  const timeline = timelineOf([{ toolId: 'open', state: 'success', startedAt: at(0), executionTimeMs: 25 }]);
  assert.deepEqual([rowOf(timeline, 'open').start, rowOf(timeline, 'open').end], [0, 25]);
});

test('no timing at all: no timeline', () => {
  assert.equal(buildRunTimeline([], []), undefined);
  assert.equal(buildRunTimeline([skipped('a', 'cancelled'), { toolId: 'b', state: 'failed', startedAt: 'not a date' }], [], at(0)), undefined);
});

test('times count from the run start, else from the earliest tool start; never negative', () => {
  const results = [ran('a', 100, 200), ran('b', 150, 250)];
  assert.deepEqual(
    timelineOf(results).rows.map((row) => [row.start, row.end]),
    [
      [0, 100],
      [50, 150],
    ],
  );
  assert.deepEqual(
    timelineOf(results, [], at(40)).rows.map((row) => [row.start, row.end]),
    [
      [60, 160],
      [110, 210],
    ],
  );
  assert.deepEqual(
    timelineOf(results, [], at(120)).rows.map((row) => [row.start, row.end]),
    [
      [0, 100],
      [50, 150],
    ],
    'a tool stamped before the run moves the origin',
  );
  assert.equal(timelineOf(results, [], at(40)).durationMs, 210);
});

test('concurrency is half-open: a tool ending at t and one starting at t never overlap', () => {
  const back = timelineOf([ran('a', 0, 100), ran('b', 100, 200)]);
  assert.deepEqual(back.concurrency, [
    { at: 0, running: 1 },
    { at: 200, running: 0 },
  ]);
  assert.equal(back.maxConcurrency, 1);
  const overlapping = timelineOf([ran('a', 0, 100), ran('b', 100, 200), ran('c', 50, 150)], [], at(-10));
  assert.deepEqual(overlapping.concurrency, [
    { at: 0, running: 0 },
    { at: 10, running: 1 },
    { at: 60, running: 2 },
    { at: 160, running: 1 },
    { at: 210, running: 0 },
  ]);
  assert.equal(overlapping.maxConcurrency, 2);
  assert.deepEqual(concurrencyOf([]), [{ at: 0, running: 0 }]);
  assert.deepEqual(
    concurrencyOf([
      { start: 5, end: 5 },
      { start: 0, end: 10 },
      { start: 0, end: 10 },
    ]),
    [
      { at: 0, running: 2 },
      { at: 10, running: 0 },
    ],
  );
});

test('criticalPathOf ignores unknown ids and survives a cyclic edge list', () => {
  assert.deepEqual(criticalPathOf([], []), []);
  const tools = [
    { toolId: 'a', end: 10 },
    { toolId: 'b', end: 20 },
  ];
  assert.deepEqual(criticalPathOf(tools, edges(['ghost', 'b'], ['a', 'b'], ['b', 'a'])), ['a', 'b']);
});

test('markCriticalPath marks the path nodes and the edges between consecutive ones, and clears old marks', () => {
  const plan = {
    requestId: '00000000-0000-4000-8000-000000000001',
    tools: [
      { toolId: 'a', toolPath: 'skills/x/scripts/a.js' },
      { toolId: 'fast', toolPath: 'skills/x/scripts/b.js', dependencies: ['a'] },
      { toolId: 'slow', toolPath: 'skills/x/scripts/c.js', dependencies: ['a'] },
      { toolId: 'd', toolPath: 'skills/x/scripts/d.js', dependencies: ['fast', 'slow', 'a'] },
    ],
  };
  const layout = layoutPlanGraph(buildPlanGraph(plan));
  const marked = markCriticalPath(layout, ['a', 'slow', 'd']);
  assert.deepEqual(
    marked.nodes
      .filter((node) => node.critical)
      .map((node) => node.id)
      .sort(),
    ['a', 'd', 'slow'],
  );
  assert.deepEqual(
    marked.edges
      .filter((edge) => edge.critical)
      .map((edge) => `${edge.from}->${edge.to}`)
      .sort(),
    ['a->slow', 'slow->d'],
    'a->d is not between consecutive path tools',
  );
  assert.ok(layout.nodes.every((node) => node.critical === undefined) && layout.edges.every((edge) => edge.critical === undefined), 'the input is not changed');
  const cleared = markCriticalPath(marked, []);
  assert.ok(cleared.nodes.every((node) => !('critical' in node)) && cleared.edges.every((edge) => !('critical' in edge)));
  assert.deepEqual(cleared, layout);
});

// ---------------------------------------------------------------------------------------------
// Property: random timed runs over random DAGs (each tool depends on earlier ones).

interface RandomTool {
  readonly dependencies: readonly number[];
  readonly state: ToolState;
  /** Undefined: the tool never started. */
  readonly timing: { readonly start: number; readonly length: number } | undefined;
  readonly attempts: readonly { readonly durationMs: number; readonly backoffMs: number; readonly ok: boolean | undefined }[] | undefined;
}

const randomToolArb = (index: number): fc.Arbitrary<RandomTool> =>
  fc.record({
    dependencies: index === 0 ? fc.constant([]) : fc.uniqueArray(fc.integer({ min: 0, max: index - 1 }), { maxLength: 3 }),
    state: fc.constantFrom<ToolState>('success', 'success', 'failed', 'timeout', 'cancelled', 'skipped'),
    timing: fc.option(fc.record({ start: fc.integer({ min: 0, max: 500 }), length: fc.integer({ min: 0, max: 400 }) }), { nil: undefined, freq: 4 }),
    attempts: fc.option(
      fc.array(
        fc.record({
          durationMs: fc.integer({ min: 0, max: 300 }),
          backoffMs: fc.integer({ min: 0, max: 150 }),
          ok: fc.option(fc.boolean(), { nil: undefined }),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      { nil: undefined },
    ),
  });

const randomRunArb = fc
  .integer({ min: 1, max: 9 })
  .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => randomToolArb(index))))
  .chain((tools) => fc.record({ tools: fc.constant(tools), runStart: fc.option(fc.integer({ min: -50, max: 200 }), { nil: undefined }) }));

function resultsOf(tools: readonly RandomTool[]): ToolResult[] {
  return tools.map((tool, index): ToolResult => {
    const toolId = `t${index}`;
    if (!tool.timing) return { toolId, state: 'skipped', skipReason: index % 2 === 0 ? 'dependency_failed' : 'cancelled' };
    const attempts = tool.attempts?.map(
      (attempt, position): AttemptRecord => ({
        attempt: position + 1,
        durationMs: attempt.durationMs,
        ...(position > 0 ? { backoffMs: attempt.backoffMs } : {}),
        ...(attempt.ok !== undefined ? { ok: attempt.ok } : {}),
      }),
    );
    return ran(toolId, tool.timing.start, tool.timing.start + tool.timing.length, {
      state: tool.state === 'skipped' ? 'success' : tool.state,
      ...(attempts ? { attempts } : {}),
    });
  });
}

test('property: segments fit their rows, concurrency matches a brute force count, the critical path is a chain ending last', () => {
  fc.assert(
    fc.property(randomRunArb, ({ tools, runStart }) => {
      const results = resultsOf(tools);
      const dependencies = tools.flatMap((tool, index) => tool.dependencies.map((dependency) => ({ from: `t${dependency}`, to: `t${index}` })));
      const timeline = buildRunTimeline(results, dependencies, runStart === undefined ? undefined : at(runStart));
      const timedIds = results.filter((result) => result.startedAt !== undefined).map((result) => result.toolId);
      if (timedIds.length === 0) {
        assert.equal(timeline, undefined);
        return;
      }
      assert.ok(timeline);
      assert.deepEqual(timeline.rows.map((row) => row.toolId).sort(), results.map((result) => result.toolId).sort(), 'one row per tool');
      for (let index = 1; index < timeline.rows.length; index++)
        assert.ok(timeline.rows[index - 1]!.start <= timeline.rows[index]!.start, 'rows in start order');

      const timedRows = timeline.rows.filter((row) => timedIds.includes(row.toolId));
      for (const row of timeline.rows) {
        assert.ok(row.start >= 0 && row.start <= row.end && row.end <= timeline.durationMs);
        let previousEnd = row.start;
        for (const segment of row.segments) {
          assert.ok(segment.start >= previousEnd && segment.start <= segment.end && segment.end <= row.end, JSON.stringify(row));
          previousEnd = segment.end;
        }
        if (!timedIds.includes(row.toolId)) {
          assert.equal(row.segments.length, 0);
          continue;
        }
        const result = results.find((entry) => entry.toolId === row.toolId)!;
        assert.equal(row.segments.filter((segment) => segment.kind === 'attempt').length, Math.max(1, result.attempts?.length ?? 0));
        assert.equal(row.segments[0]?.start, row.start, 'the first attempt starts with the tool');
        assert.equal(row.segments.at(-1)?.end, row.end, 'the last attempt ends with the tool');
      }
      assert.equal(timeline.durationMs, Math.max(...timedRows.map((row) => row.end)));

      const runningAt = (instant: number) => timedRows.filter((row) => row.start <= instant && instant < row.end).length;
      const bruteMax = Math.max(0, ...timedRows.map((row) => runningAt(row.start)));
      assert.equal(timeline.maxConcurrency, bruteMax);
      assert.equal(timeline.concurrency[0]?.at, 0);
      timeline.concurrency.forEach((sample, index) => {
        assert.ok(sample.running >= 0);
        assert.equal(sample.running, runningAt(sample.at), `samples count the running tools at ${sample.at}`);
        if (index > 0) {
          assert.ok(sample.at > timeline.concurrency[index - 1]!.at);
          assert.notEqual(sample.running, timeline.concurrency[index - 1]!.running);
        }
      });
      assert.equal(timeline.concurrency.at(-1)?.running, 0);

      const path = timeline.criticalPath;
      const endOf = (toolId: string) => timedRows.find((row) => row.toolId === toolId)!.end;
      const lastFinisher = timedIds.reduce((best, toolId) => (endOf(toolId) > endOf(best) ? toolId : best));
      assert.equal(path.at(-1), lastFinisher, 'the path ends at the last-finishing tool (first in plan order on ties)');
      for (let index = 1; index < path.length; index++) {
        assert.ok(
          dependencies.some((edge) => edge.from === path[index - 1] && edge.to === path[index]),
          `${path[index - 1]} -> ${path[index]} is a dependency`,
        );
      }
      const first = path[0]!;
      assert.ok(!dependencies.some((edge) => edge.to === first && timedIds.includes(edge.from)), 'the path starts at a tool with no timed dependency');
      assert.deepEqual(
        timeline.rows
          .filter((row) => row.critical)
          .map((row) => row.toolId)
          .sort(),
        [...path].sort(),
      );
    }),
  );
});

// ---------------------------------------------------------------------------------------------
// A real run: real processes, a retried tool, the timeline built from the ExecutionResult.

const story = path.resolve(import.meta.dirname, '../../fixtures/story');
let scratch: string;
before(() => (scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-timeline-'))));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('the timeline of a real run with a retried tool', async () => {
  const helpers = 'skills/helpers/scripts';
  const plan: Plan = {
    requestId: 'cccccccc-0000-4000-8000-000000000001',
    parallel: true,
    tools: [
      { toolId: 'setup', toolPath: `${helpers}/echo.js` },
      { toolId: 'slow', toolPath: `${helpers}/sleep.js`, input: { ms: 50 }, dependencies: ['setup'], async: true },
      {
        toolId: 'flaky',
        toolPath: `${helpers}/flaky.js`,
        input: { counterFile: path.join(scratch, 'flaky.count'), failTimes: 1 },
        retryPolicy: { maxRetries: 2, backoffMs: 20 },
        dependencies: ['setup'],
        async: true,
      },
      { toolId: 'finish', toolPath: `${helpers}/echo.js`, dependencies: ['slow', 'flaky'] },
    ],
  };
  const result = await executePlan(plan, { root: story });
  assert.equal(result.success, true, JSON.stringify(result.toolResults.map((tool) => tool.error)));
  const graph = buildPlanGraph(plan);
  const timeline = buildRunTimeline(result.toolResults, graph.dependencies, result.startedAt);
  assert.ok(timeline);

  assert.deepEqual(timeline.rows.map((row) => row.toolId).sort(), ['finish', 'flaky', 'setup', 'slow']);
  assert.equal(timeline.rows[0]?.toolId, 'setup', 'setup runs first');
  assert.equal(timeline.rows.at(-1)?.toolId, 'finish', 'finish runs last');
  const flaky = rowOf(timeline, 'flaky');
  assert.deepEqual(
    flaky.segments.map((segment) => [segment.kind, segment.attempt, segment.ok]),
    [
      ['attempt', 1, false],
      ['backoff', 2, undefined],
      ['attempt', 2, true],
    ],
  );
  for (const row of timeline.rows) {
    assert.equal(row.state, 'success');
    assert.equal(row.segments[0]?.start, row.start);
    assert.equal(row.segments.at(-1)?.end, row.end);
  }
  assert.ok(timeline.maxConcurrency >= 1);

  const latestEnd = Math.max(...timeline.rows.map((row) => row.end));
  const lastFinisher = plan.tools.map((tool) => tool.toolId).find((toolId) => rowOf(timeline, toolId).end === latestEnd);
  assert.equal(timeline.criticalPath.at(-1), lastFinisher);
  assert.equal(timeline.criticalPath[0], 'setup');
  for (let index = 1; index < timeline.criticalPath.length; index++) {
    assert.ok(graph.dependencies.some((edge) => edge.from === timeline.criticalPath[index - 1] && edge.to === timeline.criticalPath[index]));
  }

  const marked = markCriticalPath(layoutPlanGraph(graph), timeline.criticalPath);
  assert.deepEqual(
    marked.nodes
      .filter((node) => node.critical)
      .map((node) => node.id)
      .sort(),
    [...timeline.criticalPath].sort(),
  );
  assert.equal(marked.edges.filter((edge) => edge.critical).length, timeline.criticalPath.length - 1);
});
