// The running turn's attempts and tool progress for the play panel: follows each plan run and sends its tool changes, batched per tool.
import type { PlanRun } from '../../runtime/executor/planExecutor.js';
import type { PlanGraphLayout } from '../../runtime/graph/graphTypes.js';
import { DisposableStore, type Disposable } from '../../runtime/common/disposable.js';
import type { AttemptView, LogLineView, RunningAttemptView, ToolRunView, ToPlayWebview } from '../../protocol/playPanelMessages.js';
import { attemptGraph, finishedToolView } from './turnViews.js';

const MAX_LOG_LINES_PER_TOOL = 200;
const TOOL_UPDATE_INTERVAL_MS = 60;

/** What the running turn has shown so far, so that a panel opening mid-turn draws it too. */
export class ToolProgress implements Disposable {
  private readonly tools = new Map<string, ToolRunView>();
  /** Attempts of the running turn, in order (for a panel that opens mid-turn). */
  private readonly attempts: {
    readonly attempt: number;
    readonly planId: string;
    readonly narrator: 'llm' | 'pattern';
    readonly graph?: PlanGraphLayout;
    finished?: AttemptView;
  }[] = [];
  private readonly pendingToolUpdates = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(private readonly send: (message: ToPlayWebview) => void) {}

  /** Forgets the attempts and tools shown (a new turn, another play-through). */
  clear(): void {
    this.tools.clear();
    this.attempts.length = 0;
  }

  /** Marks the attempt of plan `planId` finished (a panel opening later shows its outcome). */
  finishAttempt(planId: string | null, attempt: AttemptView): void {
    const live = this.attempts.find((candidate) => candidate.planId === planId);
    if (live) live.finished = attempt;
  }

  /** The running turn's attempts with their tools, for a snapshot. */
  runningAttempts(): RunningAttemptView[] {
    return this.attempts.map((attempt) => ({
      ...attempt,
      tools: [...this.tools.values()].filter((tool) => tool.planId === attempt.planId),
    }));
  }

  /** Streams one plan run's tool progress to the panel (batched per tool). */
  follow(run: PlanRun, attempt: number, narrator: 'llm' | 'pattern'): Disposable {
    const planId = run.plan.requestId;
    const key = (toolId: string): string => `${planId}:${toolId}`;
    const initial = run.plan.tools.map(
      (tool): ToolRunView => ({ attempt, planId, toolId: tool.toolId, skill: null, status: 'pending', retries: 0, logLines: [] }),
    );
    for (const tool of initial) this.tools.set(key(tool.toolId), tool);
    const graph = attemptGraph(run.plan);
    this.attempts.push({ attempt, planId, narrator, ...(graph ? { graph } : {}) });
    this.send({ type: 'attemptStarted', attempt, planId, narrator, tools: initial, ...(graph ? { graph } : {}) });
    const update = (toolId: string, change: (tool: ToolRunView) => ToolRunView): void => {
      const current = this.tools.get(key(toolId)) ?? { attempt, planId, toolId, skill: null, status: 'pending', retries: 0, logLines: [] };
      this.tools.set(key(toolId), change(current));
      this.pendingToolUpdates.add(key(toolId));
      this.flushTimer ??= setTimeout(() => this.flush(), TOOL_UPDATE_INTERVAL_MS);
    };
    const appendLine = (tool: ToolRunView, line: LogLineView): ToolRunView => ({ ...tool, logLines: [...tool.logLines, line].slice(-MAX_LOG_LINES_PER_TOOL) });
    const subscriptions = new DisposableStore();
    subscriptions.addAll(
      run.onDidStartTool((event) =>
        update(event.toolId, (tool) => ({ ...tool, skill: event.skill, status: event.attempt > 1 ? 'retrying' : 'running', retries: event.attempt - 1 })),
      ),
      run.onDidEmitEvent(({ toolId, event }) => {
        if (event.type === 'log') update(toolId, (tool) => appendLine(tool, { level: event.level, text: event.message }));
        else if (event.type === 'error') update(toolId, (tool) => appendLine(tool, { level: 'error', text: `${event.errorCode}: ${event.errorMessage}` }));
      }),
      run.onDidWriteStderr(({ toolId, text }) =>
        update(toolId, (tool) =>
          text
            .split('\n')
            .filter(Boolean)
            .reduce((next, line) => appendLine(next, { level: 'stderr', text: line }), tool),
        ),
      ),
      run.onDidScheduleRetry(({ toolId, nextAttempt, error }) =>
        update(toolId, (tool) =>
          appendLine({ ...tool, status: 'retrying', retries: nextAttempt - 1 }, { level: 'warn', text: `retry ${nextAttempt - 1}: ${error.message}` }),
        ),
      ),
      run.onDidFinishTool(({ result }) => update(result.toolId, (tool) => finishedToolView(tool, planId, attempt, result))),
      run.onDidChangeState(({ state, changedKeys }) => this.send({ type: 'stateChanged', state, changedKeys })),
    );
    return subscriptions;
  }

  /** Sends the tools changed since the last flush now. */
  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    for (const key of this.pendingToolUpdates) {
      const tool = this.tools.get(key);
      if (tool) this.send({ type: 'toolUpdated', tool });
    }
    this.pendingToolUpdates.clear();
  }

  dispose(): void {
    clearTimeout(this.flushTimer);
  }
}
