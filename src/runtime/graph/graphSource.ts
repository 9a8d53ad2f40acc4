// Reads what `narratoria graph` and the graph view accept: a plan, a run record (.narratoria/runs/<id>.json) or an ExecutionResult.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isPlainObject } from '../state/deepMerge.js';
import type { ExecutionResult, ToolResult } from '../contractTypes/executionResult.js';

/** What a JSON document turned out to be, with the plan to draw and the run to lay over it. */
export type GraphSource =
  | { readonly kind: 'plan'; readonly plan: unknown }
  | { readonly kind: 'runRecord'; readonly plan: unknown; readonly results: readonly ToolResult[]; readonly result?: ExecutionResult | undefined; readonly running: boolean }
  | { readonly kind: 'executionResult'; readonly plan: unknown | undefined; readonly results: readonly ToolResult[]; readonly result: ExecutionResult };

/**
 * Classifies a parsed document. A run record has `formatVersion`, `plan` and `tools`; an ExecutionResult has
 * `planId` and `toolResults` (its plan is `finalPlan` after a replan, else unknown here: the caller may look up
 * the run record); anything else is drawn as a plan.
 */
export function readGraphSource(document: unknown): GraphSource {
  if (isPlainObject(document) && document['formatVersion'] === 1 && isPlainObject(document['plan']) && isPlainObject(document['tools'])) {
    const result = isPlainObject(document['result']) ? (document['result'] as unknown as ExecutionResult) : undefined;
    const stored = Object.values(document['tools'] as Record<string, { result?: ToolResult }>)
      .map((tool) => tool?.result)
      .filter((toolResult): toolResult is ToolResult => isPlainObject(toolResult) && typeof toolResult.toolId === 'string');
    return {
      kind: 'runRecord',
      plan: result?.finalPlan ?? document['plan'],
      results: result?.toolResults ?? stored,
      ...(result ? { result } : {}),
      running: document['status'] === 'running',
    };
  }
  if (isPlainObject(document) && typeof document['planId'] === 'string' && Array.isArray(document['toolResults'])) {
    const result = document as unknown as ExecutionResult;
    const results = result.toolResults.filter((toolResult) => isPlainObject(toolResult) && typeof toolResult.toolId === 'string');
    return { kind: 'executionResult', plan: result.finalPlan ?? result.originalPlan, results, result };
  }
  return { kind: 'plan', plan: document };
}

/** The plan of a recorded run, `<root>/.narratoria/runs/<planId>.json` (its final plan after a replan), or undefined. */
export function recordedPlan(root: string, planId: string): unknown {
  if (!/^[A-Za-z0-9-]+$/.test(planId)) return undefined;
  try {
    const record = JSON.parse(readFileSync(path.join(root, '.narratoria', 'runs', `${planId}.json`), 'utf8')) as { plan?: unknown; result?: { finalPlan?: unknown } };
    return record.result?.finalPlan ?? record.plan;
  } catch {
    return undefined;
  }
}

/** A stand-in plan for an ExecutionResult whose plan is unknown: its tools, without dependencies. */
export function planOfResults(results: readonly ToolResult[]): unknown {
  return { tools: results.map((result) => ({ toolId: result.toolId, toolPath: result.toolPath ?? '' })) };
}
