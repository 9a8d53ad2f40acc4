// Plan JSON types, mirroring contracts/plan-json.schema.json, plus defaults. Pure data: no I/O here.

/** Mirrors `#/$defs/RetryPolicy` in contracts/plan-json.schema.json. */
export interface RetryPolicy {
  readonly maxRetries?: number;
  readonly backoffMs?: number;
}

/** Mirrors `#/$defs/RollbackInvocation`. */
export interface RollbackInvocation {
  readonly toolPath: string;
  readonly input?: Record<string, unknown>;
  readonly timeoutMs?: number;
}

/** Mirrors `#/$defs/ToolInvocation`. */
export interface ToolInvocation {
  readonly toolId: string;
  readonly toolPath: string;
  readonly description?: string;
  readonly input?: Record<string, unknown>;
  readonly dependencies?: readonly string[];
  readonly required?: boolean;
  readonly async?: boolean;
  readonly retryPolicy?: RetryPolicy;
  readonly timeoutMs?: number;
  readonly condition?: string;
  readonly subPlan?: string;
  readonly rollback?: RollbackInvocation;
}

/** Mirrors `#/$defs/PlanMetadata`. */
export interface PlanMetadata {
  readonly generationAttempt?: number;
  readonly parentPlanId?: string | null;
  readonly narrator?: string;
  readonly createdAt?: string;
  readonly [extra: string]: unknown;
}

/** Mirrors contracts/plan-json.schema.json (the whole document). */
export interface Plan {
  readonly requestId: string;
  readonly narrative?: string;
  readonly tools: readonly ToolInvocation[];
  readonly parallel?: boolean;
  readonly disabledSkills?: readonly string[];
  readonly timeoutMs?: number;
  readonly rollbackOnFailure?: boolean;
  readonly metadata?: PlanMetadata;
}

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_BACKOFF_MS = 100;
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
export const DEFAULT_PLAN_TIMEOUT_MS = 60_000;
/** Most retries the runtime makes (the schema's maximum); a larger maxRetries from another runtime's plan is clamped to it. */
export const MAX_RETRIES = 10;
/** Longest base backoff the runtime waits (the schema's maximum); a larger backoffMs is clamped to it. */
export const MAX_BACKOFF_MS = 60_000;

/** A tool invocation with every schema default applied. */
export interface NormalizedTool {
  readonly toolId: string;
  readonly toolPath: string;
  readonly description: string | undefined;
  readonly input: Record<string, unknown>;
  readonly dependencies: readonly string[];
  readonly required: boolean;
  readonly async: boolean;
  readonly maxRetries: number;
  readonly backoffMs: number;
  readonly timeoutMs: number | undefined;
  readonly condition: string | undefined;
  readonly subPlan: string | undefined;
  readonly rollback: RollbackInvocation | undefined;
  /** Position in the plan's `tools` array (ties in topological order keep this order). */
  readonly index: number;
}

/** Applies the schema defaults of one tool and clamps its retry policy to the caps. Assumes the plan already passed validation. */
export function normalizeTool(tool: ToolInvocation, index: number): NormalizedTool {
  return {
    toolId: tool.toolId,
    toolPath: tool.toolPath,
    description: tool.description,
    input: tool.input ?? {},
    dependencies: tool.dependencies ?? [],
    required: tool.required ?? true,
    async: tool.async ?? false,
    // Plans written for other runtimes may go above the caps: validation warns (RETRY_POLICY_CLAMPED), the run clamps.
    maxRetries: Math.min(tool.retryPolicy?.maxRetries ?? DEFAULT_MAX_RETRIES, MAX_RETRIES),
    backoffMs: Math.min(tool.retryPolicy?.backoffMs ?? DEFAULT_BACKOFF_MS, MAX_BACKOFF_MS),
    timeoutMs: tool.timeoutMs,
    condition: tool.condition,
    subPlan: tool.subPlan,
    rollback: tool.rollback,
    index,
  };
}

/** Delay before retry `retryNumber` (1-indexed): backoffMs × 2^(retryNumber−1) (docs/plan-json-and-protocol.md#retry-backoff). */
export function retryDelayMs(backoffMs: number, retryNumber: number): number {
  return backoffMs * 2 ** (retryNumber - 1);
}
