// The plan graph's data: what contracts/plan-graph.schema.json describes, plus the pre-layout model. Pure types.

import type { ToolRunState } from '../contractTypes/executionResult.js';

/** A tool's state in a run, as the graph shows it (ExecutionResult states plus the live ones). */
export type GraphNodeState = ToolRunState;

/**
 * What a node's badges mark. The plan's kinds are in contracts/plan-graph.schema.json; a beat graph's (a beat's priority,
 * its scene window, a beat that can never happen) are view-only and never in `narratoria graph`'s JSON.
 */
export type BadgeKind = 'optional' | 'async' | 'retries' | 'timeout' | 'condition' | 'subPlan' | 'rollback' | 'priority' | 'scenes' | 'unreachable';

/**
 * What an edge of a beat graph stands for (view-only; plan edges have none): `requires` (requires_beat), `requiresAny`
 * (one of requires_any_beat), `triggers` (an outcome's triggers_beat) and `fallback` (a timeout's fallback_beat).
 */
export type EdgeRelation = 'requires' | 'requiresAny' | 'triggers' | 'fallback';

/** One badge of a node: its kind and the short label drawn in it. */
export interface NodeBadge {
  readonly kind: BadgeKind;
  readonly label: string;
}

/**
 * The script a toolPath names by an alias or by its name in another form (see validation/scriptNameResolution.ts):
 * its canonical toolPath, and the name the plan wrote. Undefined for a toolPath that names its file.
 */
export type ScriptNames = (toolPath: string) => { readonly toolPath: string; readonly written: string } | undefined;

/** One tool before layout. */
export interface GraphTool {
  readonly id: string;
  readonly toolPath: string;
  /** `skills/<skill>/…` of the toolPath, else null. */
  readonly skill: string | null;
  /** The script's file name: the last segment of toolPath, or of the script's canonical toolPath when the plan named it by an alias. */
  readonly script: string;
  /** The name the plan wrote when its toolPath names the script by an alias or by its name in another form (`roll-dice`). */
  readonly namedAs?: string | undefined;
  /** Position in the plan's `tools` array. */
  readonly index: number;
  readonly badges: readonly NodeBadge[];
  /** The tool's `input` (for hovers); undefined when it has none. */
  readonly input?: Record<string, unknown> | undefined;
  readonly description?: string | undefined;
  /** A longer name for tooltips (a beat's whole title; `script` may hold it shortened). View-only. */
  readonly title?: string | undefined;
}

/** An edge before layout: from the dependency to the dependent. */
export interface GraphDependency {
  readonly from: string;
  readonly to: string;
  /** Part of a cycle (both ends in one strongly connected component). */
  readonly cycle: boolean;
  /** What the edge stands for in a beat graph (drawn solid, dashed or dotted); undefined for a plan's dependency. */
  readonly relation?: EdgeRelation | undefined;
}

/** A dependency on a toolId that no tool has. */
export interface UnknownDependency {
  readonly missing: string;
  readonly to: string;
}

/** The plan as a graph, before layout. */
export interface PlanGraphModel {
  readonly tools: readonly GraphTool[];
  readonly dependencies: readonly GraphDependency[];
  readonly unknownDependencies: readonly UnknownDependency[];
  /** Each cycle once, as the toolIds along it (x depends on y depends on … depends on x), without repeating the first. */
  readonly cycles: readonly (readonly string[])[];
  /** toolIds used by more than one tool (the later ones are left out of the graph). */
  readonly duplicateIds: readonly string[];
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** A laid-out node (`nodes[]` of the contract); x and y are its top-left corner. */
export interface PlanGraphNode {
  readonly id: string;
  readonly toolPath: string;
  readonly skill: string | null;
  readonly script: string;
  readonly namedAs?: string | undefined;
  readonly level: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly index: number;
  /** The skill's colour slot (0–7, `--graph-skill-<n>`), distinct per skill within the plan. */
  readonly colour: number;
  readonly badges: readonly NodeBadge[];
  readonly input?: Record<string, unknown> | undefined;
  readonly description?: string | undefined;
  readonly title?: string | undefined;
  readonly state?: GraphNodeState | undefined;
  readonly durationMs?: number | undefined;
  readonly retryCount?: number | undefined;
  /** On the run's critical path (only with a recorded run). */
  readonly critical?: boolean | undefined;
}

export type EdgeKind = 'dependency' | 'cycle' | 'unknownDependency';

/** A laid-out edge (`edges[]` of the contract), from the dependency to the dependent. */
export interface PlanGraphEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: EdgeKind;
  readonly points: readonly Point[];
  readonly critical?: boolean | undefined;
  readonly relation?: EdgeRelation | undefined;
}

/** A box drawn for an unknown dependency, so its dangling edges have a visible start. */
export interface MissingNode {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A band of tools that sit at one level (they do not depend on one another). */
export interface GraphLevel {
  readonly level: number;
  readonly y: number;
  readonly height: number;
  readonly count: number;
}

/** The whole laid-out graph: contracts/plan-graph.schema.json. */
export interface PlanGraphLayout {
  readonly nodes: readonly PlanGraphNode[];
  readonly edges: readonly PlanGraphEdge[];
  readonly cycles: readonly (readonly string[])[];
  readonly width: number;
  readonly height: number;
  readonly levels: readonly GraphLevel[];
  readonly missing: readonly MissingNode[];
}

/** One bar of a tool's row in the timeline, in milliseconds since the run started. */
export interface TimelineSegment {
  readonly kind: 'attempt' | 'backoff';
  readonly start: number;
  readonly end: number;
  /** The attempt number (1-based) of an `attempt` segment, or of the attempt a `backoff` waits for. */
  readonly attempt: number;
  /** Whether the attempt succeeded (attempt segments only). */
  readonly ok?: boolean | undefined;
}

/** One tool in the waterfall. */
export interface TimelineRow {
  readonly toolId: string;
  readonly state: GraphNodeState;
  readonly start: number;
  readonly end: number;
  readonly segments: readonly TimelineSegment[];
  readonly critical: boolean;
}

/** How many tools ran from `at` until the next sample. */
export interface ConcurrencySample {
  readonly at: number;
  readonly running: number;
}

/** A recorded run as a waterfall: rows in start order, the concurrency over time and the critical path. */
export interface RunTimeline {
  readonly durationMs: number;
  readonly rows: readonly TimelineRow[];
  readonly concurrency: readonly ConcurrencySample[];
  readonly maxConcurrency: number;
  /** toolIds of the chain of dependencies that decided the run's duration, first to last. */
  readonly criticalPath: readonly string[];
}
