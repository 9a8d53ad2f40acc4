// Post-run reflection (docs/plan-json-and-protocol.md#reflection), rule-based: failures, timeouts, retries, slow tools, skipped branches.
import type { RunWarning, ToolResult } from '../contractTypes/executionResult.js';
import { plural } from '../common/humanText.js';

export interface ReflectionFinding {
  readonly kind: 'failure' | 'timeout' | 'retry' | 'slow' | 'skipped' | 'warning';
  readonly toolId?: string;
  readonly message: string;
}

/** Stored in ExecutionResult.reflection. */
export interface Reflection {
  readonly source: 'rules' | 'llm';
  readonly summary: string;
  readonly findings: readonly ReflectionFinding[];
  readonly suggestions: readonly string[];
}

/** A tool slower than this is reported (and any tool taking most of a run longer than SLOW_RUN_MS). */
const SLOW_TOOL_MS = 2_000;
const SLOW_RUN_MS = 500;

/** Evaluates a finished run and suggests what to change; pure and cheap. */
export function reflectOnRun(results: readonly ToolResult[], warnings: readonly RunWarning[], runMs: number): Reflection {
  const findings: ReflectionFinding[] = [];
  const suggestions = new Set<string>();
  for (const result of results) {
    const id = result.toolId;
    if (result.state === 'failed' && result.error) {
      findings.push({ kind: 'failure', toolId: id, message: `${id} failed (${result.error.category}): ${result.error.message}` });
      if (result.error.category === 'protocol_violation' || result.error.category === 'invalid_json') {
        suggestions.add(`Check ${result.toolPath ?? id} with "narratoria inspect": its output breaks the NDJSON protocol.`);
      } else if (result.error.category === 'process_error') {
        suggestions.add(`Read the stderr of ${id}: the script crashed or exited with an error.`);
      } else if (result.error.category === 'tool_failure') {
        suggestions.add(`${id} reported failure itself; check its input and configuration.`);
      }
    } else if (result.state === 'timeout') {
      findings.push({ kind: 'timeout', toolId: id, message: `${id} timed out${result.error ? `: ${result.error.message}` : ''}` });
      suggestions.add(
        result.error?.code === 'PLAN_TIMEOUT' ? 'Raise the plan timeout or split the plan.' : `Raise the timeout of ${id} or make the script faster.`,
      );
    }
    if ((result.retryCount ?? 0) > 0) {
      findings.push({
        kind: 'retry',
        toolId: id,
        message: `${id} needed ${plural(result.retryCount ?? 0, 'retry', 'retries')}${result.state === 'success' ? ' before it succeeded (flaky?)' : ''}`,
      });
    }
    const time = result.executionTimeMs ?? 0;
    if (time > SLOW_TOOL_MS || (runMs > SLOW_RUN_MS && time > runMs * 0.5 && results.length > 1)) {
      findings.push({ kind: 'slow', toolId: id, message: `${id} took ${time} ms (${runMs > 0 ? Math.round((time / runMs) * 100) : 100}% of the run)` });
      if (result.state === 'success') suggestions.add(`${id} dominates the run time; mark independent tools async in a parallel plan.`);
    }
  }
  const skipped = new Map<string, string[]>();
  for (const result of results) {
    if (result.state !== 'skipped') continue;
    const reason = result.skipReason ?? 'skipped';
    skipped.set(reason, [...(skipped.get(reason) ?? []), result.toolId]);
  }
  for (const [reason, ids] of skipped) {
    findings.push({ kind: 'skipped', message: `skipped (${reason.replace(/_/g, ' ')}): ${ids.join(', ')}` });
  }
  const warningCounts = new Map<string, number>();
  for (const warning of warnings) warningCounts.set(warning.code, (warningCounts.get(warning.code) ?? 0) + 1);
  for (const [code, count] of warningCounts) findings.push({ kind: 'warning', message: `${count} warning(s) ${code}` });

  const succeeded = results.filter((result) => result.state === 'success').length;
  const failed = results.filter((result) => result.state === 'failed' || result.state === 'timeout').map((result) => result.toolId);
  const summary =
    results.length === 0 ? 'No tools ran.' : `${results.length} tool(s): ${succeeded} succeeded${failedText(failed)}${skippedText(skipped)}, in ${runMs} ms.`;
  return { source: 'rules', summary, findings, suggestions: [...suggestions] };
}

/** ", 2 failed (roll, narrate)", or nothing. */
function failedText(failed: readonly string[]): string {
  return failed.length > 0 ? `, ${failed.length} failed (${failed.join(', ')})` : '';
}

/** ", 3 skipped" (every tool skipped for any reason), or nothing. */
function skippedText(skipped: ReadonlyMap<string, readonly string[]>): string {
  return skipped.size > 0 ? `, ${[...skipped.values()].flat().length} skipped` : '';
}
