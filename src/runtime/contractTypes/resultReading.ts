// Tolerant reading of ExecutionResults and tool results from files, including those of other Narratoria runtimes. Pure: no I/O.
import type { ErrorCategory, ExecutionResult, ToolError, ToolResult, ToolState } from './executionResult.js';

/*
 * contracts/execution-result.schema.json describes what this project writes. Files written by other
 * runtimes, or by older versions of the format, differ (docs/plan-json-and-protocol.md#compatibility-with-other-narratoria-runtimes):
 * - the tool results are `executionTrace`, the state `finalState`, the duration `totalExecutionTimeMs`;
 * - a tool's state may be `completed` (read as `success`);
 * - a tool's error may have no `category` (derived from its code by categoryOfCode) or be a bare string.
 * Everything else is kept as it is; a value this project wrote comes back unchanged (the same object).
 */

const TOOL_STATES: ReadonlySet<string> = new Set<ToolState>(['success', 'failed', 'skipped', 'timeout', 'cancelled', 'rolledBack']);
const CATEGORIES: ReadonlySet<string> = new Set<ErrorCategory>([
  'tool_failure',
  'circular_dependency',
  'timeout',
  'invalid_json',
  'process_error',
  'protocol_violation',
  'cancelled',
  'invalid_plan',
]);
/** An ExecutionResult as read from a file: other runtimes' results may have no start and end times. */
export type ReadExecutionResult = Omit<ExecutionResult, 'startedAt' | 'finishedAt'> & { readonly startedAt?: string; readonly finishedAt?: string };

/** Older and other runtimes' names of tool states. */
const STATE_ALIASES: Readonly<Record<string, ToolState>> = { completed: 'success' };

/**
 * The category of an error code that came without one. The first rule that matches the upper-cased code wins:
 * a code that is itself a category (`timeout`, `TOOL_FAILURE`...) is that category; then TIMEOUT or TIMED_OUT
 * -> timeout; CYCLE or CIRCULAR -> circular_dependency; JSON or PARSE -> invalid_json; PROTOCOL -> protocol_violation;
 * CANCEL -> cancelled; INVALID_PLAN or PLAN_INVALID -> invalid_plan; PROCESS, EXIT, SPAWN, CRASH or SIGNAL ->
 * process_error; anything else -> tool_failure.
 */
export function categoryOfCode(code: string): ErrorCategory {
  const lower = code.toLowerCase();
  if (CATEGORIES.has(lower)) return lower as ErrorCategory;
  const upper = code.toUpperCase();
  const rules: readonly [RegExp, ErrorCategory][] = [
    [/TIMEOUT|TIMED_OUT/, 'timeout'],
    [/CYCLE|CIRCULAR/, 'circular_dependency'],
    [/JSON|PARSE/, 'invalid_json'],
    [/PROTOCOL/, 'protocol_violation'],
    [/CANCEL/, 'cancelled'],
    [/INVALID_PLAN|PLAN_INVALID/, 'invalid_plan'],
    [/PROCESS|EXIT|SPAWN|CRASH|SIGNAL/, 'process_error'],
  ];
  return rules.find(([pattern]) => pattern.test(upper))?.[1] ?? 'tool_failure';
}

/** A tool error read tolerantly: a category derived when missing, a bare string as its message; undefined when unusable. */
export function readToolError(value: unknown): ToolError | undefined {
  if (typeof value === 'string') return { code: 'TOOL_ERROR', message: value, category: 'tool_failure' };
  const error = asRecord(value);
  if (!error) return undefined;
  const code = typeof error['code'] === 'string' ? error['code'] : typeof error['category'] === 'string' ? error['category'] : 'TOOL_ERROR';
  const message = typeof error['message'] === 'string' ? error['message'] : code;
  const category = typeof error['category'] === 'string' && CATEGORIES.has(error['category']) ? (error['category'] as ErrorCategory) : categoryOfCode(code);
  if (error['code'] === code && error['message'] === message && error['category'] === category) return error as unknown as ToolError;
  return { ...error, code, message, category } as ToolError;
}

/** A tool result read tolerantly, or undefined when it has no toolId or a state that means nothing here. */
export function readToolResult(value: unknown): ToolResult | undefined {
  const result = asRecord(value);
  if (!result || typeof result['toolId'] !== 'string') return undefined;
  const written = result['state'];
  const state = typeof written === 'string' ? (TOOL_STATES.has(written) ? (written as ToolState) : STATE_ALIASES[written]) : undefined;
  if (state === undefined) return undefined;
  const error = result['error'] === undefined ? undefined : readToolError(result['error']);
  if (state === written && error === result['error']) return result as unknown as ToolResult;
  const { error: _written, ...rest } = result;
  return { ...rest, state, ...(error ? { error } : {}) } as unknown as ToolResult;
}

/**
 * An ExecutionResult read tolerantly, or undefined when `value` is not one (no string planId, no tool results
 * under either name). Missing fields this project always writes get neutral values: status from success,
 * no failed tools but those that failed, empty state, assets and warnings; startedAt and finishedAt stay
 * absent when the file has none (views then show no timeline).
 */
export function readExecutionResult(value: unknown): ReadExecutionResult | undefined {
  const result = asRecord(value);
  if (!result || typeof result['planId'] !== 'string') return undefined;
  const listed = Array.isArray(result['toolResults']) ? result['toolResults'] : Array.isArray(result['executionTrace']) ? result['executionTrace'] : undefined;
  if (!listed) return undefined;
  const toolResults: ToolResult[] = [];
  let changed = listed !== result['toolResults'];
  for (const item of listed) {
    const read = readToolResult(item);
    if (read !== item) changed = true;
    if (read) toolResults.push(read);
  }
  const required = ['success', 'status', 'canReplan', 'failedTools', 'disabledSkills', 'aggregatedState', 'aggregatedAssets', 'executionTimeMs', 'warnings'];
  if (!changed && required.every((key) => result[key] !== undefined)) return result as unknown as ReadExecutionResult;
  const success =
    typeof result['success'] === 'boolean' ? result['success'] : toolResults.every((tool) => tool.state === 'success' || tool.state === 'skipped');
  const { executionTrace: _trace, finalState, totalExecutionTimeMs, ...rest } = result;
  const state = asRecord(result['aggregatedState']) ?? asRecord(finalState) ?? {};
  const time = typeof result['executionTimeMs'] === 'number' ? result['executionTimeMs'] : typeof totalExecutionTimeMs === 'number' ? totalExecutionTimeMs : 0;
  return {
    ...rest,
    planId: result['planId'],
    success,
    status: typeof result['status'] === 'string' ? result['status'] : success ? 'succeeded' : 'failed',
    canReplan: typeof result['canReplan'] === 'boolean' ? result['canReplan'] : false,
    failedTools: Array.isArray(result['failedTools'])
      ? result['failedTools']
      : toolResults.filter((tool) => tool.state === 'failed' || tool.state === 'timeout').map((tool) => tool.toolId),
    disabledSkills: Array.isArray(result['disabledSkills']) ? result['disabledSkills'] : [],
    toolResults,
    aggregatedState: state,
    aggregatedAssets: Array.isArray(result['aggregatedAssets']) ? result['aggregatedAssets'] : [],
    executionTimeMs: time,
    warnings: Array.isArray(result['warnings']) ? result['warnings'] : [],
  } as unknown as ReadExecutionResult;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
