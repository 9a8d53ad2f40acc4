// Runs one tool to its final state: hold hook, attempts through the ToolRunner, retries with exponential backoff.
import { promises as fs } from 'node:fs';
import type { Emitter } from '../common/event.js';
import type { AttemptRecord, RunWarning, ToolError, ToolResult } from '../model/executionResult.js';
import { DEFAULT_TOOL_TIMEOUT_MS, retryDelayMs, type NormalizedTool } from '../model/plan.js';
import { buildScriptEnvironment } from '../process/scriptEnvironment.js';
import type { SkillContextProvider } from '../skills/skillContext.js';
import type { JsonObject } from '../state/deepMerge.js';
import { AttemptCollector } from './attemptCollector.js';
import type {
  ExecutionHooks, RetryScheduledEvent, StateChangedEvent, StderrEvent, ToolEventEmittedEvent, ToolFinishedEvent, ToolStartedEvent,
} from './executionEvents.js';
import type { ExecutePlanOptions } from './planExecutor.js';
import type { ToolOutput, ToolRunner } from './toolRunner.js';

/** Everything a tool run needs from its plan run. */
export interface ToolRunContext {
  readonly planId: string;
  readonly root: string;
  readonly options: ExecutePlanOptions;
  readonly runner: ToolRunner;
  /** Runs tools that have a `subPlan` (a nested plan run). */
  readonly subPlanRunner: ToolRunner;
  readonly skillContext: SkillContextProvider;
  readonly scriptPathOf: (tool: NormalizedTool) => string;
  readonly skillOf: (tool: NormalizedTool) => string | null;
  readonly hooks: ExecutionHooks | undefined;
  readonly maxEvents: number;
  readonly abortSignal: AbortSignal;
  readonly stopReason: () => 'cancelled' | 'plan_timeout' | undefined;
  readonly warn: (warning: RunWarning) => void;
  readonly committedState: () => JsonObject;
  readonly emitters: {
    readonly startedTool: Emitter<ToolStartedEvent>;
    readonly emittedEvent: Emitter<ToolEventEmittedEvent>;
    readonly retry: Emitter<RetryScheduledEvent>;
    readonly finishedTool: Emitter<ToolFinishedEvent>;
    readonly state: Emitter<StateChangedEvent>;
    readonly stderr: Emitter<StderrEvent>;
  };
}

export interface FinishedTool {
  readonly result: ToolResult;
  readonly output: ToolOutput | undefined;
  /** State patches of the successful attempt, in emission order (empty otherwise). */
  readonly patches: readonly JsonObject[];
}

/** Runs `tool` until it succeeds, fails for good, or the run stops. Never throws for tool failures. */
export async function runToolWithRetries(
  context: ToolRunContext,
  tool: NormalizedTool,
  dependencies: Record<string, ToolOutput | null>,
  stateFor: () => JsonObject,
): Promise<FinishedTool> {
  const scriptPath = context.scriptPathOf(tool);
  const skillContext = await context.skillContext.contextFor(scriptPath);
  const skill = skillContext.skill ?? context.skillOf(tool);
  const timeoutMs = context.options.toolTimeoutMs ?? tool.timeoutMs ?? skillContext.manifestTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  if (skillContext.dataDirectory) await fs.mkdir(skillContext.dataDirectory, { recursive: true }).catch(() => undefined);
  const env = buildScriptEnvironment(
    {
      root: context.root,
      skillDirectory: skillContext.skillDirectory,
      skillDataDirectory: skillContext.dataDirectory,
      skillConfigJson: skillContext.configJson,
      toolId: tool.toolId,
      requestId: context.planId,
    },
    { ...context.options.extraEnv, ...skillContext.env },
  );
  const base = { toolId: tool.toolId, toolPath: tool.toolPath, skill };
  const attempts: AttemptRecord[] = [];
  const startedAt = new Date();
  const started = performance.now();
  let collector: AttemptCollector | undefined;
  let lastError: ToolError | undefined;
  let lastOutcome: Awaited<ReturnType<ToolRunner['run']>> | undefined;
  let backoffMs = 0;

  // Set when the run stopped while this tool still had retries left: the tool was interrupted, not failed.
  let interrupted = false;
  for (let attempt = 1; ; attempt++) {
    if (context.stopReason()) {
      interrupted = lastOutcome !== undefined;
      break;
    }
    let state: JsonObject | undefined;
    // Lazy: building the snapshot costs nothing unless the runner (or a hook) reads it.
    const stdin = {
      requestId: context.planId,
      tool: tool.toolId,
      input: tool.input,
      dependencies,
      get state(): JsonObject {
        return (state ??= stateFor());
      },
    };
    if (context.hooks?.beforeToolStart) await context.hooks.beforeToolStart({ planId: context.planId, tool, attempt, stdin });
    if (context.stopReason()) break;
    if (context.emitters.startedTool.hasListeners) {
      context.emitters.startedTool.fire({ planId: context.planId, toolId: tool.toolId, attempt, scriptPath, skill, startedAt: new Date().toISOString() });
    }
    const emitted = context.emitters.emittedEvent;
    const beforeEventApply = context.hooks?.beforeEventApply;
    const current = new AttemptCollector({
      toolId: tool.toolId,
      maxEvents: context.maxEvents,
      cwd: context.root,
      warn: context.warn,
      applied: (event, index) => {
        if (emitted.hasListeners) emitted.fire({ planId: context.planId, toolId: tool.toolId, attempt, event, index });
      },
      beforeApply: beforeEventApply
        ? (event, index) => beforeEventApply({ planId: context.planId, toolId: tool.toolId, attempt, event, index })
        : undefined,
    });
    collector = current;
    const stderrEmitter = context.emitters.stderr;
    const runner = tool.subPlan !== undefined ? context.subPlanRunner : context.runner;
    const outcome = await runner.run({
      tool,
      scriptPath,
      skill,
      attempt,
      stdin,
      timeoutMs,
      cwd: context.root,
      env,
      signal: context.abortSignal,
      onEvent: (event) => current.accept(event),
      onWarning: context.warn,
      onStderr: stderrEmitter.hasListeners ? (text) => stderrEmitter.fire({ planId: context.planId, toolId: tool.toolId, attempt, text }) : undefined,
    });
    lastOutcome = outcome;
    lastError = outcome.error;
    attempts.push({
      attempt,
      durationMs: Math.round(outcome.durationMs),
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      ok: outcome.ok,
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(attempt > 1 ? { backoffMs } : {}),
    });
    if (outcome.ok || !outcome.retryable || attempt > tool.maxRetries) break;
    if (context.stopReason()) {
      interrupted = true;
      break;
    }
    backoffMs = retryDelayMs(tool.backoffMs, attempt);
    if (context.emitters.retry.hasListeners && outcome.error) {
      context.emitters.retry.fire({ planId: context.planId, toolId: tool.toolId, nextAttempt: attempt + 1, delayMs: backoffMs, error: outcome.error });
    }
    await sleep(backoffMs, context.abortSignal);
  }

  const finishedAt = new Date();
  const timing = {
    executionTimeMs: Math.round(performance.now() - started),
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    retryCount: Math.max(0, attempts.length - 1),
    attempts,
  };
  if (!lastOutcome || !collector) {
    // Stopped before the first attempt began.
    const stopReason = context.stopReason();
    return {
      result: { ...base, state: 'skipped', skipReason: stopReason === 'plan_timeout' ? 'plan_timeout' : 'cancelled', retryCount: 0 },
      output: undefined,
      patches: [],
    };
  }
  const common = {
    ...base,
    ...timing,
    events: collector.events,
    droppedEvents: collector.droppedEvents,
    exitCode: lastOutcome.exitCode,
    ...(lastOutcome.stderrTail ? { stderr: lastOutcome.stderrTail } : {}),
  };
  if (lastOutcome.ok) {
    const output = collector.output(true);
    return { result: { ...common, state: 'success', output }, output, patches: collector.patches };
  }
  const stopReason = context.stopReason();
  let error = lastError ?? { code: 'UNKNOWN_FAILURE', message: 'the tool failed', category: 'process_error' as const };
  let state: ToolResult['state'] = lastOutcome.timedOut ? 'timeout' : 'failed';
  if (lastOutcome.cancelled || interrupted || (stopReason && error.category === 'cancelled')) {
    if (stopReason === 'plan_timeout') {
      state = 'timeout';
      error = { code: 'PLAN_TIMEOUT', message: 'the plan timeout expired while this tool was running', category: 'timeout' };
    } else {
      state = 'cancelled';
      if (interrupted) error = { code: 'CANCELLED', message: 'the run was cancelled before the next retry', category: 'cancelled' };
    }
  }
  return { result: { ...common, state, error, output: collector.output(false) }, output: undefined, patches: [] };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
