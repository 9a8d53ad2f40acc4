// The Debug Console lines of a run under the debugger: its stderr, log and error events, warnings, retries and the tools that did not succeed.
import type { PlanRun } from '../executor/planExecutor.js';
import type { DebugOutput } from './debugStop.js';

/** Sends `run`'s console lines to `output` (subscribe before the run's other listeners, so lines come first). */
export function forwardRunOutput(run: PlanRun, output: (line: DebugOutput) => void): void {
  run.onDidWriteStderr(({ toolId, text }) => output({ category: 'stderr', text, toolId }));
  run.onDidEmitEvent(({ toolId, event }) => {
    if (event.type === 'log') output({ category: 'stdout', text: `[${toolId}] ${event.level}: ${event.message}\n`, toolId });
    if (event.type === 'error') output({ category: 'stderr', text: `[${toolId}] error ${event.errorCode}: ${event.errorMessage}\n`, toolId });
  });
  run.onDidRaiseWarning(({ warning }) => {
    output({ category: 'console', text: `warning ${warning.code}: ${warning.message}\n`, toolId: warning.toolId });
  });
  run.onDidScheduleRetry(({ toolId, nextAttempt, delayMs, error }) => {
    output({ category: 'console', text: `${toolId}: ${error.category} (${error.message}); attempt ${nextAttempt} in ${delayMs} ms\n`, toolId });
  });
  run.onDidFinishTool(({ result }) => {
    if (result.state === 'success' || result.state === 'skipped') return;
    const reason = result.error ? `${result.error.category}: ${result.error.message}` : result.state;
    output({ category: 'stderr', text: `${result.toolId} ${result.state} (${reason})\n`, toolId: result.toolId });
  });
}
