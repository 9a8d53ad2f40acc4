// Plans, layouts, run states and a hand-built RunTimeline for the graph view's browser tests (layouts come from the real runtime).
import { layoutPlanGraph } from '../../src/runtime/graph/graphLayout.js';
import { buildPlanGraph } from '../../src/runtime/graph/planGraph.js';
import type { PlanGraphLayout, RunTimeline } from '../../src/runtime/graph/graphTypes.js';
import type { GraphView, ToGraphWebview } from '../../src/protocol/graphPanelMessages.js';

/** A plan with every badge, a cycle and an unknown dependency (what an author has mid-edit). */
export const problemPlan = {
  requestId: 'x',
  tools: [
    { toolId: 'recall-ferryman', toolPath: 'skills/memory/recall.js', async: true, input: { subject: 'ferryman' } },
    { toolId: 'perception', toolPath: 'skills/npc-perception/perceive.js', async: true, required: false, retryPolicy: { maxRetries: 2, backoffMs: 200 } },
    { toolId: 'persuade-roll', toolPath: 'skills/dice-roller/roll.js', dependencies: ['perception'], timeoutMs: 5000, condition: 'state.x > 1' },
    { toolId: 'reputation', toolPath: 'skills/reputation/update.js', dependencies: ['persuade-roll'], rollback: { toolPath: 'skills/reputation/undo.js' } },
    { toolId: 'narrate', toolPath: 'skills/storyteller/narrate.js', dependencies: ['recall-ferryman', 'persuade-roll', 'reputation', 'portrait'] },
    { toolId: 'portrait', toolPath: 'skills/character-portraits/portrait.js', dependencies: ['recall-ferryman', 'lookup-missing'], subPlan: 'sub.plan.json' },
    { toolId: 'loop-a', toolPath: 'skills/x/a.js', dependencies: ['loop-b'] },
    { toolId: 'loop-b', toolPath: 'skills/x/b.js', dependencies: ['loop-a'] },
  ],
};

export const problemSentences = ['Cycle: loop-a → loop-b → loop-a', 'portrait depends on "lookup-missing", which no tool has'];

/** A clean plan of eight tools that a run can go through (the run overlay and timeline below belong to it). */
export const questPlan = {
  requestId: 'quest',
  parallel: true,
  tools: [
    {
      toolId: 'recall-ferryman',
      toolPath: 'skills/memory/scripts/recall.js',
      async: true,
      description: 'What the hero remembers about the ferryman',
      input: { subject: 'ferryman', depth: 2, tags: ['river', 'debt'] },
    },
    {
      toolId: 'perception',
      toolPath: 'skills/npc-perception/scripts/perceive.js',
      async: true,
      required: false,
      retryPolicy: { maxRetries: 2, backoffMs: 200 },
      input: { npc: 'ferryman' },
    },
    { toolId: 'weather', toolPath: 'skills/weather/scripts/forecast.js', async: true },
    {
      toolId: 'persuade-roll',
      toolPath: 'skills/dice-roller/scripts/roll.js',
      dependencies: ['perception'],
      timeoutMs: 5000,
      condition: 'state.mood > 1',
      input: { formula: '1d20+3', dc: 14 },
    },
    { toolId: 'portrait', toolPath: 'skills/character-portraits/scripts/portrait.js', dependencies: ['recall-ferryman'], subPlan: 'portrait.plan.json' },
    {
      toolId: 'reputation',
      toolPath: 'skills/reputation/scripts/update.js',
      dependencies: ['persuade-roll'],
      rollback: { toolPath: 'skills/reputation/scripts/undo.js' },
    },
    {
      toolId: 'narrate',
      toolPath: 'skills/storyteller/scripts/narrate.js',
      dependencies: ['recall-ferryman', 'persuade-roll', 'reputation', 'portrait', 'weather'],
    },
    { toolId: 'ambience', toolPath: 'skills/sound/scripts/ambience.js', dependencies: ['narrate'], required: false },
  ],
};

/** Names that stress text fitting: long ids and paths, wide (CJK) characters, every badge at once. */
export const widePlan = {
  requestId: 'wide',
  tools: [
    {
      toolId: 'describe-the-ancient-lighthouse-keeper-at-dusk',
      toolPath: 'skills/an-extremely-long-skill-name-for-testing/scripts/with-a-long-script-name.js',
      retryPolicy: { maxRetries: 3 },
      timeoutMs: 90_000,
      async: true,
      required: false,
    },
    {
      toolId: '語り手の独白',
      toolPath: 'skills/語り部/scripts/独白.js',
      dependencies: ['describe-the-ancient-lighthouse-keeper-at-dusk'],
      condition: 'state.x',
      subPlan: 's.json',
      rollback: { toolPath: 'skills/x/u.js' },
    },
    {
      toolId: 'WWWWWWWWWWWWWWWWWW',
      toolPath: 'skills/MMMMMMMMMMMM/scripts/WWWW.js',
      dependencies: ['語り手の独白'],
      retryPolicy: { maxRetries: 12 },
      timeoutMs: 5_999_000,
    },
    { toolId: 'x', toolPath: 'run.js' },
  ],
};

export function layoutOf(plan: unknown): PlanGraphLayout {
  return layoutPlanGraph(buildPlanGraph(plan));
}

export function graphView(layout: PlanGraphLayout, overrides: Partial<GraphView> = {}): GraphView {
  return { version: 1, title: 'quest.plan.json', source: 'plan', layout, problems: [], ...overrides };
}

export function graphMessage(layout: PlanGraphLayout, overrides: Partial<GraphView> = {}, fit = true): ToGraphWebview {
  return { type: 'graph', graph: graphView(layout, overrides), fit };
}

/** The quest's run: perception failed once, waited 200 ms and succeeded; ambience (optional) failed. */
export const questTimeline: RunTimeline = {
  durationMs: 2450,
  rows: [
    {
      toolId: 'recall-ferryman',
      state: 'success',
      start: 0,
      end: 180,
      critical: true,
      segments: [{ kind: 'attempt', start: 0, end: 180, attempt: 1, ok: true }],
    },
    {
      toolId: 'perception',
      state: 'success',
      start: 0,
      end: 900,
      critical: false,
      segments: [
        { kind: 'attempt', start: 0, end: 300, attempt: 1, ok: false },
        { kind: 'backoff', start: 300, end: 500, attempt: 2 },
        { kind: 'attempt', start: 500, end: 900, attempt: 2, ok: true },
      ],
    },
    { toolId: 'weather', state: 'success', start: 10, end: 260, critical: false, segments: [{ kind: 'attempt', start: 10, end: 260, attempt: 1, ok: true }] },
    {
      toolId: 'portrait',
      state: 'success',
      start: 180,
      end: 1400,
      critical: true,
      segments: [{ kind: 'attempt', start: 180, end: 1400, attempt: 1, ok: true }],
    },
    {
      toolId: 'persuade-roll',
      state: 'success',
      start: 900,
      end: 1150,
      critical: false,
      segments: [{ kind: 'attempt', start: 900, end: 1150, attempt: 1, ok: true }],
    },
    {
      toolId: 'reputation',
      state: 'success',
      start: 1150,
      end: 1300,
      critical: false,
      segments: [{ kind: 'attempt', start: 1150, end: 1300, attempt: 1, ok: true }],
    },
    {
      toolId: 'narrate',
      state: 'success',
      start: 1400,
      end: 2300,
      critical: true,
      segments: [{ kind: 'attempt', start: 1400, end: 2300, attempt: 1, ok: true }],
    },
    {
      toolId: 'ambience',
      state: 'failed',
      start: 2300,
      end: 2450,
      critical: true,
      segments: [{ kind: 'attempt', start: 2300, end: 2450, attempt: 1, ok: false }],
    },
  ],
  concurrency: [
    { at: 0, running: 3 },
    { at: 180, running: 3 },
    { at: 260, running: 2 },
    { at: 300, running: 1 },
    { at: 500, running: 2 },
    { at: 1300, running: 1 },
    { at: 2450, running: 0 },
  ],
  maxConcurrency: 3,
  criticalPath: ['recall-ferryman', 'portrait', 'narrate', 'ambience'],
};

/** The live states at the end of that run, as runStates sends them. */
export const questFinalStates = [
  { id: 'recall-ferryman', state: 'success', durationMs: 180 },
  { id: 'perception', state: 'success', durationMs: 900, retryCount: 1 },
  { id: 'weather', state: 'success', durationMs: 250 },
  { id: 'portrait', state: 'success', durationMs: 1220 },
  { id: 'persuade-roll', state: 'success', durationMs: 250 },
  { id: 'reputation', state: 'rolledBack', durationMs: 150 },
  { id: 'narrate', state: 'success', durationMs: 900 },
  { id: 'ambience', state: 'failed', durationMs: 150 },
] as const;

/**
 * A deterministic plan of `nodeCount` tools and exactly `edgeCount` dependencies (each on an earlier tool, so it is
 * acyclic), spread over seven skills: the 1,000-node benchmark of the view.
 */
export function bigPlan(nodeCount: number, edgeCount: number): unknown {
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff;
  const skills = ['dice-roller', 'memory', 'storyteller', 'npc-perception', 'reputation', 'character-portraits', 'weather'];
  const dependencies: Set<string>[] = Array.from({ length: nodeCount }, () => new Set<string>());
  let placed = 0;
  for (let index = 1; index < nodeCount && placed < edgeCount; index++) {
    dependencies[index]!.add(`tool-${index - 1 - Math.floor(random() * Math.min(index, 30))}`);
    placed += 1;
  }
  while (placed < edgeCount) {
    const index = 1 + Math.floor(random() * (nodeCount - 1));
    const before = dependencies[index]!.size;
    dependencies[index]!.add(`tool-${index - 1 - Math.floor(random() * Math.min(index, 30))}`);
    placed += dependencies[index]!.size - before;
  }
  return {
    requestId: 'big',
    tools: dependencies.map((set, index) => ({
      toolId: `tool-${index}`,
      toolPath: `skills/${skills[index % skills.length]}/scripts/step-${index % 5}.js`,
      dependencies: [...set],
      ...(index % 9 === 0 ? { async: true } : {}),
      ...(index % 13 === 0 ? { retryPolicy: { maxRetries: 2 } } : {}),
    })),
  };
}
