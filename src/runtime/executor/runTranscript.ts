// A plan run as text, line by line as it happens, and its closing summary: what `narratoria run` prints and what Run Plan's terminal shows.
import type { TextStyle } from '../common/textStyle.js';
import type { ExecutionResult, ToolResult } from '../contractTypes/executionResult.js';
import type { PlanRun } from './planExecutor.js';
import { plural } from '../common/humanText.js';

const stateMarks: Record<ToolResult['state'], (style: TextStyle) => string> = {
  success: (style) => style.green('✔'),
  failed: (style) => style.red('✖'),
  timeout: (style) => style.red('⏱'),
  skipped: (style) => style.dim('○'),
  cancelled: (style) => style.yellow('■'),
  rolledBack: (style) => style.yellow('↺'),
};

/** Subscribes to the run's events and writes one line per step to `write`. */
export function reportProgress(run: PlanRun, write: (text: string) => void, style: TextStyle): void {
  run.onDidStartTool((event) => {
    const retry = event.attempt > 1 ? style.dim(` (attempt ${event.attempt})`) : '';
    write(`${style.cyan('▶')} ${style.bold(event.toolId)} ${style.dim(event.skill ?? '')}${retry}\n`);
  });
  run.onDidEmitEvent(({ toolId, event }) => {
    switch (event.type) {
      case 'log':
        write(style.dim(`  │ ${toolId} ${event.level}: ${event.message}\n`));
        break;
      case 'error':
        write(`  │ ${toolId} ${style.red('error')} ${event.errorCode}: ${event.errorMessage}\n`);
        break;
      case 'ui_event':
        write(`  │ ${toolId} ui ${event.event}${event.payload ? ' ' + truncate(JSON.stringify(event.payload), 160) : ''}\n`);
        break;
      case 'asset':
        write(`  │ ${toolId} asset ${event.assetId} (${event.mediaType}) ${event.path}\n`);
        break;
      case 'state_patch':
      case 'done':
        break;
    }
  });
  run.onDidScheduleRetry((event) => {
    write(`${style.yellow('↻')} ${event.toolId}: ${event.error.message}; retry ${event.nextAttempt - 1} in ${event.delayMs} ms\n`);
  });
  run.onDidRaiseWarning(({ warning }) => {
    write(`${style.yellow('⚠')} ${warning.toolId ? warning.toolId + ': ' : ''}${warning.message}\n`);
  });
  run.onDidFinishTool(({ result }) => {
    const mark = stateMarks[result.state](style);
    const time = result.executionTimeMs !== undefined ? style.dim(` ${result.executionTimeMs} ms`) : '';
    const retries = result.retryCount ? style.dim(`, ${plural(result.retryCount, 'retry', 'retries')}`) : '';
    const detail =
      result.state === 'success'
        ? result.output?.summary
          ? ` ${result.output.summary}`
          : ''
        : result.error
          ? ` ${result.error.message}`
          : result.skipReason
            ? ` (${result.skipReason.replace('_', ' ')})`
            : '';
    write(`${mark} ${style.bold(result.toolId)} ${result.state}${time}${retries}${detail}\n`);
  });
}

/** The closing block: narrative, outcome, state and assets. */
export function formatSummary(result: ExecutionResult, style: TextStyle): string {
  const lines: string[] = [''];
  for (const tool of result.toolResults) {
    for (const ui of tool.output?.uiEvents ?? []) {
      if (ui.event === 'narration' && typeof ui.payload?.['text'] === 'string') lines.push(style.bold('Narration: ') + ui.payload['text']);
      if (ui.event === 'narrative_choice' && Array.isArray(ui.payload?.['choices']))
        lines.push(style.bold('Choices: ') + (ui.payload['choices'] as unknown[]).join(' | '));
    }
  }
  const counts = new Map<string, number>();
  for (const tool of result.toolResults) counts.set(tool.state, (counts.get(tool.state) ?? 0) + 1);
  const tally = [...counts].map(([state, count]) => `${count} ${state}`).join(', ');
  const outcome = result.success ? style.green('succeeded') : style.red(result.status);
  lines.push(`Plan ${result.planId} ${outcome} in ${result.executionTimeMs} ms (${tally || 'no tools'})`);
  if (!result.success && result.failureReason)
    lines.push(
      `Failure reason: ${result.failureReason}${result.failedTools.length ? `; failed: ${result.failedTools.join(', ')}` : ''}${result.canReplan ? '; a replan may help' : ''}`,
    );
  const reflection = result.reflection as { suggestions?: string[] } | undefined;
  for (const suggestion of reflection?.suggestions ?? []) lines.push(style.yellow('Hint: ') + suggestion);
  if (Object.keys(result.aggregatedState).length > 0) lines.push(style.bold('State: ') + truncate(JSON.stringify(result.aggregatedState), 600));
  for (const asset of result.aggregatedAssets) lines.push(`Asset ${asset.assetId}: ${asset.mediaType} ${asset.path}`);
  return lines.join('\n') + '\n';
}

function truncate(text: string, limit: number): string {
  return text.length > limit ? text.slice(0, limit - 1) + '…' : text;
}
