// The beat graph: plot/beats.json as the plan graph's model (beats as nodes by priority, their links as edges), laid out by the plan graph's layout, with cycles and unreachable beats marked. Pure.
import { findCycles } from '../../graph/graphCycles.js';
import { layoutPlanGraph } from '../../graph/graphLayout.js';
import type { EdgeRelation, GraphDependency, GraphTool, NodeBadge, PlanGraphLayout, PlanGraphModel, UnknownDependency } from '../../graph/graphTypes.js';
import type { BeatLink, BeatPriority, CampaignBeat, CampaignBeats } from '../campaignModel.js';
import { unreachableBeats, type UnreachableBeat } from './beatReachability.js';

/** Priorities from the most needed; beats are listed in this order, then in the order of the file. */
export const BEAT_PRIORITIES: readonly BeatPriority[] = ['critical', 'high', 'medium', 'low', 'optional'];

/** Each priority's colour slot (`--graph-skill-<n>`) for the node's stripe. */
const PRIORITY_COLOURS: Readonly<Record<BeatPriority, number>> = { critical: 5, high: 3, medium: 0, low: 1, optional: 7 };

/** Titles longer than this are shortened in the node (the tooltip has the whole title). */
const MAX_NODE_TITLE = 36;

const RELATIONS: Readonly<Record<BeatLink['kind'], EdgeRelation>> = {
  requires: 'requires',
  requiresAny: 'requiresAny',
  triggers: 'triggers',
  fallback: 'fallback',
};

const LINK_WORDS: Readonly<Record<EdgeRelation, string>> = {
  requires: 'requires_beat',
  requiresAny: 'requires_any_beat',
  triggers: 'triggers_beat',
  fallback: 'fallback_beat',
};

/** The beat graph before and after layout, with what it found. */
export interface BeatGraph {
  readonly model: PlanGraphModel;
  readonly layout: PlanGraphLayout;
  /** Sentences for the view's problems strip: duplicate ids, unknown beats, requires_beat cycles, beats that can never happen. */
  readonly problems: readonly string[];
  readonly unreachable: readonly UnreachableBeat[];
  /** Each requires_beat cycle once, as beat ids along "requires" (the first requires the second...). */
  readonly requirementCycles: readonly (readonly string[])[];
}

/**
 * The model of `beats`: a node per beat id (later beats reusing an id are left out, and listed in `duplicateIds`), by
 * priority then file order; an edge from each linked beat to the beat that names it (requires_beat and
 * requires_any_beat: the beat required comes first; triggers_beat and fallback_beat: the beat that leads to it).
 * `conditions` are the beats' condition objects by file position, shown in tooltips.
 */
export function beatGraphModel(
  beats: CampaignBeats,
  conditions: readonly (Readonly<Record<string, unknown>> | undefined)[] = [],
): {
  readonly model: PlanGraphModel;
  readonly unreachable: readonly UnreachableBeat[];
  readonly requirementCycles: readonly (readonly string[])[];
} {
  const seen = new Set<string>();
  const duplicateIds = new Set<string>();
  const listed: CampaignBeat[] = [];
  for (const beat of beats.beats) {
    if (beat.id === undefined) continue;
    if (seen.has(beat.id)) duplicateIds.add(beat.id);
    else {
      seen.add(beat.id);
      listed.push(beat);
    }
  }
  listed.sort((left, right) => BEAT_PRIORITIES.indexOf(left.priority) - BEAT_PRIORITIES.indexOf(right.priority) || left.index - right.index);
  const unreachable = unreachableBeats(beats);
  const unreachableIds = new Set(unreachable.map((beat) => beat.id));
  const tools = listed.map((beat) => beatTool(beat, unreachableIds.has(beat.id!), conditions[beat.index]));

  const edges: { from: string; to: string; relation: EdgeRelation }[] = [];
  const unknownDependencies: UnknownDependency[] = [];
  const edgeKeys = new Set<string>();
  const unknownKeys = new Set<string>();
  for (const beat of listed) {
    for (const link of beat.links) {
      if (!seen.has(link.target)) {
        const key = `${link.target}\u0000${beat.id}`;
        if (!unknownKeys.has(key)) unknownDependencies.push({ missing: link.target, to: beat.id! });
        unknownKeys.add(key);
        continue;
      }
      const relation = RELATIONS[link.kind];
      const requirement = relation === 'requires' || relation === 'requiresAny';
      const from = requirement ? link.target : beat.id!;
      const to = requirement ? beat.id! : link.target;
      const key = `${from}\u0000${to}\u0000${relation}`;
      if (edgeKeys.has(key)) continue;
      edgeKeys.add(key);
      edges.push({ from, to, relation });
    }
  }
  const incoming = (select: (relation: EdgeRelation) => boolean) =>
    tools.map((tool) => ({ toolId: tool.id, dependencies: edges.filter((edge) => edge.to === tool.id && select(edge.relation)).map((edge) => edge.from) }));
  // Every loop must be laid out reversed (the layout needs a DAG); only requires_beat loops are errors.
  const anyLoop = findCycles(incoming(() => true));
  const requirementLoops = findCycles(incoming((relation) => relation === 'requires'));
  const dependencies: GraphDependency[] = edges.map((edge) => ({ ...edge, cycle: anyLoop.inCycle(edge.from, edge.to) }));
  const model: PlanGraphModel = { tools, dependencies, unknownDependencies, cycles: anyLoop.cycles, duplicateIds: [...duplicateIds] };
  // findCycles lists a cycle along "depends on" edges: x requires y requires ... requires x, as requires_beat reads.
  return { model, unreachable, requirementCycles: requirementLoops.cycles };
}

/** Lays out the beat graph with the plan graph's layout; only requires_beat cycles are drawn as errors. */
export function layoutBeatGraph(beats: CampaignBeats, conditions: readonly (Readonly<Record<string, unknown>> | undefined)[] = []): BeatGraph {
  const { model, unreachable, requirementCycles } = beatGraphModel(beats, conditions);
  const laidOut = layoutPlanGraph(model);
  const onCycle = new Set(requirementCycles.flatMap((cycle) => cycle.map((id, position) => `${cycle[(position + 1) % cycle.length]}\u0000${id}`)));
  const priorityOf = new Map(beats.beats.map((beat) => [beat.id, beat.priority] as const));
  const layout: PlanGraphLayout = {
    ...laidOut,
    cycles: requirementCycles,
    nodes: laidOut.nodes.map((node) => ({ ...node, colour: PRIORITY_COLOURS[priorityOf.get(node.id) ?? 'medium'] })),
    edges: laidOut.edges.map((edge) =>
      edge.kind === 'unknownDependency'
        ? edge
        : { ...edge, kind: edge.relation === 'requires' && onCycle.has(`${edge.from}\u0000${edge.to}`) ? 'cycle' : 'dependency' },
    ),
  };
  return { model, layout, problems: beatProblems(model, unreachable, requirementCycles), unreachable, requirementCycles };
}

/** The problems strip's sentences. */
export function beatProblems(model: PlanGraphModel, unreachable: readonly UnreachableBeat[], requirementCycles: readonly (readonly string[])[]): string[] {
  const problems: string[] = [];
  for (const id of model.duplicateIds) problems.push(`Two or more beats have the id "${id}": links reach only the first, the others are not drawn.`);
  const named = new Map<string, string[]>();
  for (const unknown of model.unknownDependencies) named.set(unknown.missing, [...(named.get(unknown.missing) ?? []), unknown.to]);
  for (const [missing, by] of named) problems.push(`"${missing}" is no beat of plot/beats.json (named by ${by.join(', ')}).`);
  for (const cycle of requirementCycles)
    problems.push(
      cycle.length === 1
        ? `${cycle[0]} requires itself, so it can never happen.`
        : `requires_beat cycle: ${[...cycle, cycle[0]].join(' -> ')} (each waits for the next).`,
    );
  for (const beat of unreachable) problems.push(`${beat.id} can never happen: ${beat.reason}.`);
  return problems;
}

/** "scenes 1-2", "scene 3", "from scene 3", "by scene 6"; undefined without a window. */
export function sceneWindowLabel(window: CampaignBeat['sceneWindow']): string | undefined {
  if (!window || (window.min === undefined && window.max === undefined)) return undefined;
  if (window.min !== undefined && window.max !== undefined) return window.min === window.max ? `scene ${window.min}` : `scenes ${window.min}-${window.max}`;
  return window.min !== undefined ? `from scene ${window.min}` : `by scene ${window.max}`;
}

function beatTool(beat: CampaignBeat, unreachable: boolean, conditions: Readonly<Record<string, unknown>> | undefined): GraphTool {
  const title = beat.title?.trim() || '(no title)';
  const badges: NodeBadge[] = [{ kind: 'priority', label: beat.priority }];
  const window = sceneWindowLabel(beat.sceneWindow);
  if (window) badges.push({ kind: 'scenes', label: window });
  if (unreachable) badges.push({ kind: 'unreachable', label: 'unreachable' });
  return {
    id: beat.id!,
    toolPath: '',
    skill: null,
    script: title.length > MAX_NODE_TITLE ? `${title.slice(0, MAX_NODE_TITLE - 3).trimEnd()}...` : title,
    index: beat.index,
    badges,
    title,
    ...(beat.description !== undefined ? { description: beat.description } : {}),
    ...(conditions && Object.keys(conditions).length > 0 ? { input: { ...conditions } } : {}),
  };
}

/** What a link is called in the file, for tooltips and messages. */
export function relationWords(relation: EdgeRelation): string {
  return LINK_WORDS[relation];
}
