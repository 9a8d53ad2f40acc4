// Reads what `narratoria graph` and the graph view accept: a plan, a run record (.narratoria/runs/<id>.json) or an ExecutionResult.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isPlainObject } from '../state/deepMerge.js';
import type { ToolResult } from '../contractTypes/executionResult.js';
import { readExecutionResult, readToolResult, type ReadExecutionResult } from '../contractTypes/resultReading.js';

/** What a JSON document turned out to be, with the plan to draw and the run to lay over it. */
export type GraphSource =
  | { readonly kind: 'plan'; readonly plan: unknown }
  | {
      readonly kind: 'runRecord';
      readonly plan: unknown;
      readonly results: readonly ToolResult[];
      readonly result?: ReadExecutionResult | undefined;
      readonly running: boolean;
    }
  | { readonly kind: 'executionResult'; readonly plan: unknown | undefined; readonly results: readonly ToolResult[]; readonly result: ReadExecutionResult };

/**
 * Classifies a parsed document. A run record has `formatVersion`, `plan` and `tools`; an ExecutionResult has
 * `planId` and `toolResults` (its plan is `finalPlan` after a replan, else unknown here: the caller may look up
 * the run record); anything else is drawn as a plan. Results are read tolerantly (contractTypes/resultReading.ts):
 * other runtimes' `executionTrace`, state `completed` and errors without a category are understood.
 */
export function readGraphSource(document: unknown): GraphSource {
  if (isPlainObject(document) && document['formatVersion'] === 1 && isPlainObject(document['plan']) && isPlainObject(document['tools'])) {
    const result = readExecutionResult(document['result']);
    const stored = Object.values(document['tools'] as Record<string, { result?: unknown }>)
      .map((tool) => readToolResult(isPlainObject(tool) ? tool.result : undefined))
      .filter((toolResult): toolResult is ToolResult => toolResult !== undefined);
    return {
      kind: 'runRecord',
      plan: result?.finalPlan ?? document['plan'],
      results: result?.toolResults ?? stored,
      ...(result ? { result } : {}),
      running: document['status'] === 'running',
    };
  }
  const result = readExecutionResult(document);
  if (result) return { kind: 'executionResult', plan: result.finalPlan ?? result.originalPlan, results: result.toolResults, result };
  return { kind: 'plan', plan: document };
}

/** The plan of a recorded run, `<root>/.narratoria/runs/<planId>.json` (its final plan after a replan), or undefined. */
export function recordedPlan(root: string, planId: string): unknown {
  if (!/^[A-Za-z0-9-]+$/.test(planId)) return undefined;
  try {
    const record = JSON.parse(readFileSync(path.join(root, '.narratoria', 'runs', `${planId}.json`), 'utf8')) as {
      plan?: unknown;
      result?: { finalPlan?: unknown };
    };
    return record.result?.finalPlan ?? record.plan;
  } catch {
    return undefined;
  }
}

/** A stand-in plan for an ExecutionResult whose plan is unknown: its tools, without dependencies. */
export function planOfResults(results: readonly ToolResult[]): unknown {
  return { tools: results.map((result) => ({ toolId: result.toolId, toolPath: result.toolPath ?? '' })) };
}
