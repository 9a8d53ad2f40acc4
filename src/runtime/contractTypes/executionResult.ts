// ExecutionResult types, mirroring contracts/execution-result.schema.json. Pure data.
import type { Plan } from './plan.js';
import type { ToolEvent } from './toolEvent.js';

/** Mirrors `#/$defs/ErrorCategory`. */
export type ErrorCategory =
  | 'tool_failure'
  | 'circular_dependency'
  | 'timeout'
  | 'invalid_json'
  | 'process_error'
  | 'protocol_violation'
  | 'cancelled'
  | 'invalid_plan';

/** Mirrors `#/$defs/ToolState`. */
export type ToolState = 'success' | 'failed' | 'skipped' | 'timeout' | 'cancelled' | 'rolledBack';
/** A tool's state while its plan runs, then its final ToolState: the one vocabulary from the runtime to the panels and the graph. */
export type ToolRunState = 'pending' | 'running' | 'retrying' | ToolState;
export type SkipReason = 'dependency_failed' | 'condition_false' | 'cancelled' | 'plan_timeout';
export type RunStatus = 'succeeded' | 'failed' | 'cancelled' | 'timeout';

/** Mirrors `#/$defs/ToolError`. */
export interface ToolError {
  readonly code: string;
  readonly message: string;
  readonly category: ErrorCategory;
  readonly details?: Record<string, unknown>;
}

/** Mirrors `#/$defs/Warning`. */
export interface RunWarning {
  readonly code: string;
  readonly message: string;
  readonly toolId?: string;
  readonly details?: Record<string, unknown>;
}

/** Mirrors `#/$defs/AssetReference`. */
export interface AssetReference {
  readonly assetId: string;
  readonly kind: string;
  readonly mediaType: string;
  readonly path: string;
  readonly metadata?: Record<string, unknown>;
  readonly toolId?: string;
}

/** Mirrors `#/$defs/ToolOutput`: what dependents receive. */
export interface ToolOutput {
  readonly ok: boolean;
  readonly summary?: string;
  readonly result?: Record<string, unknown>;
  readonly state: Record<string, unknown>;
  readonly assets: readonly AssetReference[];
  readonly uiEvents: readonly { readonly event: string; readonly payload?: Record<string, unknown> }[];
  readonly needsMoreContext?: boolean;
  readonly contextSuggestion?: string;
}

/** Mirrors `#/$defs/Attempt`. */
export interface AttemptRecord {
  readonly attempt: number;
  readonly durationMs: number;
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  readonly ok?: boolean;
  readonly error?: ToolError;
  readonly backoffMs?: number;
}

/** Mirrors `#/$defs/ToolResult`. */
export interface ToolResult {
  readonly toolId: string;
  readonly toolPath?: string;
  readonly skill?: string | null;
  readonly state: ToolState;
  readonly output?: ToolOutput;
  readonly events?: readonly ToolEvent[];
  readonly droppedEvents?: number;
  readonly executionTimeMs?: number;
  readonly retryCount?: number;
  readonly startedAt?: string;
  readonly finishedAt?: string;
  readonly exitCode?: number | null;
  readonly stderr?: string;
  readonly skipReason?: SkipReason;
  readonly error?: ToolError;
  readonly attempts?: readonly AttemptRecord[];
  readonly warnings?: readonly RunWarning[];
  readonly rollback?: { readonly ok: boolean; readonly error?: ToolError; readonly executionTimeMs?: number };
}

/** Mirrors contracts/execution-result.schema.json. */
export interface ExecutionResult {
  readonly planId: string;
  readonly success: boolean;
  readonly status: RunStatus;
  readonly narrative?: string;
  readonly canReplan: boolean;
  readonly failureReason?: ErrorCategory;
  readonly failedTools: readonly string[];
  readonly disabledSkills: readonly string[];
  readonly toolResults: readonly ToolResult[];
  readonly aggregatedState: Record<string, unknown>;
  readonly aggregatedAssets: readonly AssetReference[];
  readonly executionTimeMs: number;
  readonly attemptNumber?: number;
  readonly generationMetadata?: Record<string, unknown>;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly warnings: readonly RunWarning[];
  readonly rePlanIterations?: number;
  readonly originalPlan?: Plan;
  readonly finalPlan?: Plan;
  readonly reflection?: Record<string, unknown>;
}
