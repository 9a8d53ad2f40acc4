// Layout invariants of the plan graph (no overlaps, dependencies above dependents, edges clear of nodes, deterministic, cycles reported), by example and as properties over random DAGs.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildPlanGraph } from '../../../src/runtime/graph/planGraph.js';
import { layoutPlanGraph, type LayoutQuality } from '../../../src/runtime/graph/graphLayout.js';
import { toGraphJson } from '../../../src/runtime/graph/graphJson.js';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';
import { textWidth, NODE_METRICS } from '../../../src/runtime/graph/nodeMetrics.js';
import type { PlanGraphLayout, Point } from '../../../src/runtime/graph/graphTypes.js';
import { seedPropertyTests } from '../../support/propertySeed.js';

seedPropertyTests();

interface Box {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

function boxesOf(layout: PlanGraphLayout): Box[] {
  return [...layout.nodes, ...layout.missing.map((box) => ({ ...box, id: `missing:${box.id}` }))];
}

function overlapping(layout: PlanGraphLayout): string[] {
  const boxes = boxesOf(layout);
  const problems: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) problems.push(`${a.id} overlaps ${b.id}`);
    }
  }
  return problems;
}

/** Whether the segment p→q passes through the inside of `box` (shrunk by 1 px so touching the border is fine). */
function crossesBox(p: Point, q: Point, box: Box): boolean {
  const left = box.x + 1;
  const right = box.x + box.width - 1;
  const top = box.y + 1;
  const bottom = box.y + box.height - 1;
  // Liang–Barsky clipping of the segment against the rectangle.
  let t0 = 0;
  let t1 = 1;
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  for (const [pk, qk] of [
    [-dx, p.x - left],
    [dx, right - p.x],
    [-dy, p.y - top],
    [dy, bottom - p.y],
  ] as const) {
    if (pk === 0) {
      if (qk < 0) return false;
      continue;
    }
    const t = qk / pk;
    if (pk < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

function edgesThroughNodes(layout: PlanGraphLayout): string[] {
  const problems: string[] = [];
  const boxes = boxesOf(layout);
  for (const edge of layout.edges) {
    const ends = new Set([edge.to, edge.kind === 'unknownDependency' ? `missing:${edge.from}` : edge.from]);
    for (let index = 1; index < edge.points.length; index++) {
      for (const box of boxes) {
        if (ends.has(box.id)) continue;
        if (crossesBox(edge.points[index - 1]!, edge.points[index]!, box)) problems.push(`${edge.from}→${edge.to} crosses ${box.id}`);
      }
    }
  }
  return problems;
}

function dependenciesNotAbove(layout: PlanGraphLayout): string[] {
  const byId = new Map(layout.nodes.map((node) => [node.id, node]));
  const problems: string[] = [];
  for (const edge of layout.edges) {
    if (edge.kind !== 'dependency') continue;
    const from = byId.get(edge.from)!;
    const to = byId.get(edge.to)!;
    if (!(from.y + from.height <= to.y && from.level < to.level)) problems.push(`${edge.from} is not above ${edge.to}`);
  }
  return problems;
}

/** A random plan: tools depending on earlier tools only (a DAG), with random ids and flags. */
const dagPlan = fc
  .array(
    fc.record({
      id: fc.stringMatching(/^[a-z][a-z0-9_-]{0,24}$/),
      skill: fc.constantFrom('dice-roller', 'memory', 'storyteller', 'npc-perception', 'a-skill-with-a-long-name'),
      parents: fc.array(fc.nat(), { maxLength: 4 }),
      required: fc.boolean(),
      async: fc.boolean(),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((entries) => {
    const tools = entries.map((entry, index) => ({
      toolId: `${entry.id}-${index}`,
      toolPath: `skills/${entry.skill}/scripts/run.js`,
      required: entry.required,
      async: entry.async,
      dependencies: index === 0 ? [] : [...new Set(entry.parents.map((parent) => `${entries[parent % index]!.id}-${parent % index}`))],
    }));
    return { requestId: 'r', tools };
  });

for (const quality of ['best', 'balanced', 'fast'] as LayoutQuality[]) {
  test(`property (${quality}): no overlaps, dependencies above dependents, edges clear of nodes, levels are longest paths`, () => {
    fc.assert(
      fc.property(dagPlan, (plan) => {
        const model = buildPlanGraph(plan);
        const layout = layoutPlanGraph(model, { quality });
        assert.deepEqual(overlapping(layout), []);
        assert.deepEqual(dependenciesNotAbove(layout), []);
        assert.deepEqual(edgesThroughNodes(layout), []);
        assert.deepEqual(layout.cycles, []);
        const level = new Map<string, number>();
        for (const tool of plan.tools) level.set(tool.toolId, Math.max(-1, ...tool.dependencies.map((dependency) => level.get(dependency)!)) + 1);
        for (const node of layout.nodes) assert.equal(node.level, level.get(node.id), node.id);
        for (const node of layout.nodes) {
          assert.ok(
            node.x >= 0 && node.y >= 0 && node.x + node.width <= layout.width + 0.1 && node.y + node.height <= layout.height + 0.1,
            `${node.id} is inside the drawing`,
          );
        }
        assert.deepEqual(validateAgainst('plan-graph.schema.json', toGraphJson(layout)), []);
      }),
      { numRuns: quality === 'best' ? 60 : 40 },
    );
  });
}

test('property: the same plan always gets the same layout', () => {
  fc.assert(
    fc.property(dagPlan, (plan) => {
      assert.deepEqual(layoutPlanGraph(buildPlanGraph(plan)), layoutPlanGraph(buildPlanGraph(structuredClone(plan))));
    }),
    { numRuns: 30 },
  );
});

test('property: plans with back edges report every cycle and still draw without overlaps', () => {
  fc.assert(
    fc.property(dagPlan, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }), (plan, backEdges) => {
      const tools = plan.tools.map((tool) => ({ ...tool, dependencies: [...tool.dependencies] }));
      for (const [a, b] of backEdges) {
        // An earlier tool depends on a later (or the same) one: a cycle whenever the later one reaches it.
        const earlier = Math.min(a % tools.length, b % tools.length);
        const later = Math.max(a % tools.length, b % tools.length);
        tools[earlier]!.dependencies.push(tools[later]!.toolId);
      }
      const layout = layoutPlanGraph(buildPlanGraph({ ...plan, tools }));
      assert.deepEqual(overlapping(layout), []);
      for (const cycle of layout.cycles) {
        // Consecutive members really depend on each other, closing the loop.
        cycle.forEach((id, index) => {
          const next = cycle[(index + 1) % cycle.length]!;
          assert.ok(tools.find((tool) => tool.toolId === id)!.dependencies.includes(next), `${id} depends on ${next}`);
        });
      }
      const cycleEdges = layout.edges.filter((edge) => edge.kind === 'cycle');
      assert.equal(cycleEdges.length > 0, layout.cycles.length > 0);
      for (const edge of layout.edges) assert.ok(edge.points.length >= 2);
    }),
    { numRuns: 40 },
  );
});

test('a diamond: levels, edge direction and ports', () => {
  const layout = layoutPlanGraph(
    buildPlanGraph({
      tools: [
        { toolId: 'a', toolPath: 'skills/dice-roller/scripts/roll.js' },
        { toolId: 'b', toolPath: 'skills/memory/scripts/recall.js', dependencies: ['a'] },
        { toolId: 'c', toolPath: 'skills/memory/scripts/recall.js', dependencies: ['a'] },
        { toolId: 'd', toolPath: 'skills/storyteller/scripts/narrate.js', dependencies: ['b', 'c'] },
      ],
    }),
  );
  assert.deepEqual(
    layout.nodes.map((node) => [node.id, node.level, node.skill]),
    [
      ['a', 0, 'dice-roller'],
      ['b', 1, 'memory'],
      ['c', 1, 'memory'],
      ['d', 2, 'storyteller'],
    ],
  );
  assert.deepEqual(
    layout.edges.map((edge) => [edge.from, edge.to, edge.kind]),
    [
      ['a', 'b', 'dependency'],
      ['a', 'c', 'dependency'],
      ['b', 'd', 'dependency'],
      ['c', 'd', 'dependency'],
    ],
  );
  const a = layout.nodes[0]!;
  const d = layout.nodes[3]!;
  // Two edges leave a's bottom at different points; two enter d's top at different points.
  const leaving = layout.edges.filter((edge) => edge.from === 'a').map((edge) => edge.points[0]!);
  assert.ok(leaving.every((point) => point.y === a.y + a.height && point.x > a.x && point.x < a.x + a.width));
  assert.notEqual(leaving[0]!.x, leaving[1]!.x);
  const entering = layout.edges.filter((edge) => edge.to === 'd').map((edge) => edge.points.at(-1)!);
  assert.ok(entering.every((point) => point.y === d.y));
  assert.notEqual(entering[0]!.x, entering[1]!.x);
  assert.deepEqual(
    layout.levels.map((level) => level.count),
    [1, 2, 1],
  );
  // Skills of one plan get distinct colours.
  assert.notEqual(layout.nodes[0]!.colour, layout.nodes[1]!.colour);
  assert.equal(layout.nodes[1]!.colour, layout.nodes[2]!.colour);
});

test('cycles, self-dependencies and unknown dependencies are drawn and reported', () => {
  const model = buildPlanGraph({
    tools: [
      { toolId: 'x', toolPath: 'skills/s/x.js', dependencies: ['z'] },
      { toolId: 'y', toolPath: 'skills/s/y.js', dependencies: ['x'] },
      { toolId: 'z', toolPath: 'skills/s/z.js', dependencies: ['y'] },
      { toolId: 'self', toolPath: 'skills/s/self.js', dependencies: ['self'] },
      { toolId: 'lonely', toolPath: 'skills/s/l.js', dependencies: ['ghost'] },
    ],
  });
  assert.deepEqual(model.cycles, [['x', 'z', 'y'], ['self']]);
  const layout = layoutPlanGraph(model);
  assert.deepEqual(
    layout.edges.map((edge) => [edge.from, edge.to, edge.kind]),
    [
      ['z', 'x', 'cycle'],
      ['x', 'y', 'cycle'],
      ['y', 'z', 'cycle'],
      ['self', 'self', 'cycle'],
      ['ghost', 'lonely', 'unknownDependency'],
    ],
  );
  assert.deepEqual(
    layout.missing.map((box) => box.id),
    ['ghost'],
  );
  const ghost = layout.missing[0]!;
  const dangling = layout.edges.at(-1)!;
  assert.equal(dangling.points[0]!.y, ghost.y + ghost.height);
  assert.deepEqual(overlapping(layout), []);
  assert.deepEqual(edgesThroughNodes(layout), []);
});

test('a half-typed plan still draws what it can: tools without toolId and later duplicate ids are left out', () => {
  const model = buildPlanGraph({
    tools: [{ toolId: 'a', toolPath: 'skills/s/a.js' }, { toolPath: 'skills/s/b.js' }, 'junk', { toolId: 'a', toolPath: 'skills/s/other.js' }],
  });
  assert.deepEqual(
    model.tools.map((tool) => [tool.id, tool.index]),
    [['a', 0]],
  );
  assert.deepEqual(model.duplicateIds, ['a']);
  assert.deepEqual(layoutPlanGraph(buildPlanGraph({})).nodes, []);
});

test('node boxes fit their text: the longest of toolId, "skill · script" and badges plus the run chip', () => {
  const id = 'a-very-long-tool-identifier-that-keeps-going-on-and-on';
  const layout = layoutPlanGraph(
    buildPlanGraph({
      tools: [
        {
          toolId: id,
          toolPath: 'skills/character-portraits/scripts/generate-portrait.js',
          required: false,
          async: true,
          retryPolicy: { maxRetries: 2 },
          timeoutMs: 12_000,
          condition: 'state.x',
          subPlan: 'a.plan.json',
          rollback: { toolPath: 'skills/x/undo.js' },
        },
      ],
    }),
  );
  const node = layout.nodes[0]!;
  assert.deepEqual(
    node.badges.map((badge) => badge.kind),
    ['optional', 'async', 'retries', 'timeout', 'condition', 'subPlan', 'rollback'],
  );
  assert.ok(node.width >= textWidth(id, NODE_METRICS.titleSize) + 2 * NODE_METRICS.paddingX, 'the toolId fits');
  // Wide characters count twice.
  assert.equal(textWidth('龍龍龍龍龍', 10), textWidth('aaaaaaaaaa', 10));
});
