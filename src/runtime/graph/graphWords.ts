// The words a graph view uses for what it draws: a plan's tools and dependencies, or a campaign's beats and their links, and the beat graph's legend. Browser-safe.
import { plural } from '../common/humanText.js';

/** What a graph shows: a plan (tools and dependencies) or the beats of a campaign's plot/beats.json. */
export type GraphSubject = 'plan' | 'beats';

/** The words of one subject. */
export interface GraphWords {
  /** A node, singular ("tool", "beat"). */
  readonly node: string;
  /** The whole drawing, for screen readers ("plan graph"). */
  readonly graph: string;
  /** What an unknown reference is ("Unknown dependency: no tool in this plan has this toolId."). */
  readonly unknown: (id: string) => string;
  /** The message shown when there is nothing to draw. */
  readonly empty: { readonly title: string; readonly detail: string };
  readonly searchPlaceholder: string;
  readonly searchLabel: string;
  /** The label of the problems strip. */
  readonly problemsLabel: string;
  /** The row of a node's tooltip that says where it comes from ("toolPath"); undefined: no such row. */
  readonly pathLabel: string | undefined;
  /** The label of the node's input JSON in its tooltip ("input", "conditions"). */
  readonly inputLabel: string;
  /** The label of the node's badges in its tooltip. */
  readonly badgesLabel: string;
}

export const GRAPH_WORDS: Readonly<Record<GraphSubject, GraphWords>> = {
  plan: {
    node: 'tool',
    graph: 'plan graph',
    unknown: (id) => `Unknown dependency ${id}: no tool in this plan has this toolId.`,
    empty: { title: 'This plan has no tools yet', detail: 'Add an entry to "tools" and the graph appears here.' },
    searchPlaceholder: 'Find tool or skill',
    searchLabel: 'Find a tool by toolId or skill',
    problemsLabel: 'Problems in the plan',
    pathLabel: 'toolPath',
    inputLabel: 'input',
    badgesLabel: 'options',
  },
  beats: {
    node: 'beat',
    graph: 'beat graph',
    unknown: (id) => `Unknown beat "${id}": no beat of plot/beats.json has this id.`,
    empty: { title: 'This campaign has no beats yet', detail: 'Add a beat to "beats" in plot/beats.json and the graph appears here.' },
    searchPlaceholder: 'Find beat or title',
    searchLabel: 'Find a beat by id or title',
    problemsLabel: 'Problems in the beats',
    pathLabel: undefined,
    inputLabel: 'conditions',
    badgesLabel: 'marks',
  },
};

/** "3 tools", "1 beat". */
export function nodeCount(words: GraphWords, count: number): string {
  return plural(count, words.node);
}

/** How a legend entry is drawn: a line in an edge's style, or a small box with a node's mark. */
export type LegendSwatch =
  | { readonly kind: 'edge'; readonly className: string }
  | { readonly kind: 'node'; readonly className: string }
  | { readonly kind: 'badge'; readonly className: string; readonly label: string }
  | { readonly kind: 'missing'; readonly label: string };

export interface LegendEntry {
  readonly swatch: LegendSwatch;
  readonly text: string;
}

/** What the beat graph's marks mean, in the order the legend lists them. */
export const BEAT_GRAPH_LEGEND: readonly LegendEntry[] = [
  { swatch: { kind: 'edge', className: 'edge edge-dependency edge-rel-requires' }, text: 'requires_beat: happens only after that beat' },
  { swatch: { kind: 'edge', className: 'edge edge-dependency edge-rel-requiresAny' }, text: 'requires_any_beat: after one of these beats' },
  { swatch: { kind: 'edge', className: 'edge edge-dependency edge-rel-triggers' }, text: 'triggers_beat: an outcome leads to that beat' },
  { swatch: { kind: 'edge', className: 'edge edge-dependency edge-rel-fallback' }, text: 'fallback_beat: where a timed-out beat turns' },
  { swatch: { kind: 'edge', className: 'edge edge-cycle edge-rel-requires' }, text: 'a requires_beat cycle: none of its beats can happen' },
  {
    swatch: { kind: 'badge', className: 'badge badge-unreachable', label: 'unreachable' },
    text: 'can never happen: a requirement is missing, in a cycle or unreachable',
  },
  { swatch: { kind: 'missing', label: '? beat_099' }, text: 'a beat id that no beat has' },
  { swatch: { kind: 'node', className: 'legend-priority' }, text: 'stripe colour: priority (critical, high, medium, low, optional)' },
];
