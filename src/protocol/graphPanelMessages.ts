// Typed messages between the plan graph view's extension side and its webview (docs/design-rules.md#typed-webview-messages).
import type { GraphNodeState, PlanGraphLayout, RunTimeline } from '../runtime/graph/graphTypes.js';
import type { LiveToolState } from '../runtime/graph/runStateTracker.js';

export type { GraphNodeState, PlanGraphLayout, RunTimeline };

/** What the graph shows and where it came from. */
export interface GraphView {
  /** Increases with every new layout of the same view (older ones are dropped). */
  readonly version: number;
  /** File name shown in the header (e.g. `parallel-checks.plan.json`). */
  readonly title: string;
  /** What the graph is drawn from; `beats` is a campaign's plot/beats.json (beats and their links, GRAPH_WORDS.beats). */
  readonly source: 'plan' | 'runRecord' | 'executionResult' | 'beats';
  readonly layout: PlanGraphLayout;
  /** Structural problems of the plan (cycles, unknown dependencies, duplicate ids), as sentences. */
  readonly problems: readonly string[];
  /** Set while the text does not parse: the layout is the last good one, and this says why it is old. */
  readonly staleReason?: string | undefined;
  /** The recorded run's timeline (run records and ExecutionResults only). */
  readonly timeline?: RunTimeline | undefined;
}

/** The live state of one tool during a run (what the runtime's run-state tracker reports). */
export type NodeStateView = LiveToolState;

/** Extension → webview. */
export type ToGraphWebview =
  /** A new layout. `fit` asks the view to fit it (first open); otherwise pan and zoom are kept. */
  | { readonly type: 'graph'; readonly graph: GraphView; readonly fit: boolean }
  /** A big plan is being laid out off the UI thread: draw the overview (tools per level) and show progress. */
  | { readonly type: 'layoutStarted'; readonly title: string; readonly nodeCount: number; readonly levels: readonly number[] }
  /** The text stopped parsing (reason) or parses again (undefined): the banner over the last good graph. */
  | { readonly type: 'stale'; readonly reason: string | undefined }
  /** Live run states; `reset` clears every state first (a new run starts). */
  | { readonly type: 'runStates'; readonly states: readonly NodeStateView[]; readonly reset: boolean; readonly runLabel?: string | undefined }
  /** A live run ended, with its timeline. */
  | { readonly type: 'runFinished'; readonly timeline: RunTimeline | undefined }
  /** The editor's cursor is in this tool (undefined: in none). */
  | { readonly type: 'select'; readonly toolId: string | undefined }
  /** The layout failed (a bug or a plan too big): the message replaces the graph. */
  | { readonly type: 'error'; readonly message: string };

/** Webview → extension. */
export type FromGraphWebview =
  | { readonly type: 'ready' }
  /** Reveal the tool's range in the editor. */
  | { readonly type: 'reveal'; readonly toolId: string }
  /** Save this standalone SVG through a save dialog. */
  | { readonly type: 'exportSvg'; readonly svg: string }
  /** Save this PNG (base64, no data: prefix) through a save dialog. */
  | { readonly type: 'exportPng'; readonly base64: string }
  /** Something went wrong in the view (reported in the log). */
  | { readonly type: 'viewError'; readonly message: string };

/** Exhaustiveness check for switches over the message unions. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected message: ${JSON.stringify(value)}`);
}
