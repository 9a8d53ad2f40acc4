// The debugger's exception breakpoint filters and which points they stop at (live and in recorded history).
import type { DebugPoint, PointFailure } from './debugHistory.js';

/** The exception breakpoint filters (DAP exceptionBreakpointFilters ids). */
export const EXCEPTION_FILTERS = ['toolFailure', 'protocolError', 'timeout', 'replan'] as const;
export type ExceptionFilter = (typeof EXCEPTION_FILTERS)[number];

/** The filters as DAP announces them. */
export const EXCEPTION_FILTER_DESCRIPTIONS: readonly {
  readonly filter: ExceptionFilter;
  readonly label: string;
  readonly description: string;
  readonly default: boolean;
}[] = [
  { filter: 'toolFailure', label: 'Tool failures', description: 'Stop when a tool ends failed (after its last retry).', default: false },
  {
    filter: 'protocolError',
    label: 'Protocol errors',
    description: 'Stop when a script breaks the NDJSON protocol: invalid JSON, an unknown type, a malformed event or output after done.',
    default: false,
  },
  { filter: 'timeout', label: 'Timeouts', description: 'Stop when a tool attempt times out.', default: false },
  {
    filter: 'replan',
    label: 'Re-planning',
    description: 'Stop before the planner is asked for more steps (a done event with needsMoreContext).',
    default: false,
  },
];

/** Keeps the known filter ids. */
export function exceptionFilterSet(filters: readonly string[]): Set<ExceptionFilter> {
  return new Set(filters.filter((filter): filter is ExceptionFilter => (EXCEPTION_FILTERS as readonly string[]).includes(filter)));
}

/** The exception text a failed attempt stops with ("timeout: …"), or undefined when no filter matches it. */
export function failureException(failure: PointFailure, filters: ReadonlySet<ExceptionFilter>): string | undefined {
  const category = failure.category;
  const protocol = category === 'invalid_json' || category === 'protocol_violation';
  const matched =
    (filters.has('timeout') && category === 'timeout') ||
    (filters.has('protocolError') && protocol) ||
    (filters.has('toolFailure') && !failure.willRetry && category !== 'cancelled');
  return matched ? `${category}: ${failure.message}${failure.willRetry ? ' (it will be retried)' : ''}` : undefined;
}

/** The exception a recorded point stops at, if any. */
export function pointException(point: DebugPoint, filters: ReadonlySet<ExceptionFilter>): string | undefined {
  if (point.kind === 'replan') return filters.has('replan') ? replanDescription(point.toolId, point.suggestion) : undefined;
  if (point.kind === 'finish' && point.failure) return failureException(point.failure, filters);
  return undefined;
}

export function replanDescription(toolId: string, suggestion: string | undefined): string {
  return `replan: "${toolId}" asked for more context${suggestion ? ` (${suggestion})` : ''}`;
}
