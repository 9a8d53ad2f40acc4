// Follows a live plan run's typed events and keeps each tool's graph state (pending, running, retrying n, final), for the live overlay.
import { type Disposable, DisposableStore } from '../common/disposable.js';
import type { ExecutionResult, ToolResult } from '../contractTypes/executionResult.js';
import type { PlanFinishedEvent, RetryScheduledEvent, ToolFinishedEvent, ToolStartedEvent } from '../executor/executionEvents.js';
import type { GraphNodeState } from './graphTypes.js';

/** The events of a run the tracker listens to (PlanRun has them all). */
export interface ObservableRun {
  readonly onDidStartTool: (listener: (event: ToolStartedEvent) => void) => Disposable;
  readonly onDidScheduleRetry: (listener: (event: RetryScheduledEvent) => void) => Disposable;
  readonly onDidFinishTool: (listener: (event: ToolFinishedEvent) => void) => Disposable;
  readonly onDidFinishPlan: (listener: (event: PlanFinishedEvent) => void) => Disposable;
}

/** One tool's live state. */
export interface LiveToolState {
  readonly id: string;
  readonly state: GraphNodeState;
  readonly durationMs?: number | undefined;
  readonly retryCount?: number | undefined;
  readonly attempt?: number | undefined;
}

export interface RunStateListener {
  /** Some tools changed state (called once per event; batch on the receiving side if needed). */
  readonly onStates: (states: readonly LiveToolState[]) => void;
  readonly onFinished?: ((result: ExecutionResult) => void) | undefined;
}

/** Subscribes to `run` and reports every state change; every tool of `toolIds` starts as pending. Dispose to stop. */
export function trackRunStates(run: ObservableRun, toolIds: readonly string[], listener: RunStateListener): Disposable {
  const states = new Map<string, LiveToolState>(toolIds.map((id) => [id, { id, state: 'pending' }]));
  const change = (state: LiveToolState) => {
    states.set(state.id, state);
    listener.onStates([state]);
  };
  const subscriptions = new DisposableStore();
  subscriptions.addAll(
    run.onDidStartTool((event) =>
      change({ id: event.toolId, state: event.attempt > 1 ? 'retrying' : 'running', attempt: event.attempt, retryCount: event.attempt - 1 }),
    ),
    run.onDidScheduleRetry((event) => change({ id: event.toolId, state: 'retrying', attempt: event.nextAttempt, retryCount: event.nextAttempt - 1 })),
    run.onDidFinishTool((event) => change(finalState(event.result))),
    run.onDidFinishPlan((event) => {
      // Tools the run never reported (e.g. a sub-plan's own ids) keep their last state; the result is final.
      const finals = event.result.toolResults
        .map(finalState)
        .filter((state) => states.get(state.id)?.state !== state.state || state.durationMs !== states.get(state.id)?.durationMs);
      for (const state of finals) states.set(state.id, state);
      if (finals.length > 0) listener.onStates(finals);
      listener.onFinished?.(event.result);
    }),
  );
  listener.onStates([...states.values()]);
  return subscriptions;
}

/** The state a finished tool shows. */
export function finalState(result: ToolResult): LiveToolState {
  return {
    id: result.toolId,
    state: result.state,
    ...(result.executionTimeMs !== undefined ? { durationMs: result.executionTimeMs } : {}),
    ...(result.retryCount !== undefined ? { retryCount: result.retryCount } : {}),
  };
}
