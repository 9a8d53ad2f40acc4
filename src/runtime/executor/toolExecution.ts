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
  /** Allowlisted host environment, read once per run. */
  readonly hostEnvironment: Readonly<Record<string, string>>;
  /** Skill data directories already created during this run. */
  readonly createdDirectories: Set<string>;
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
  dependencyOutputs: () => Record<string, ToolOutput | null>,
  stateFor: () => JsonObject,
): Promise<FinishedTool> {
  const scriptPath = context.scriptPathOf(tool);
  const skillContext = await context.skillContext.contextFor(scriptPath);
  const skill = skillContext.skill ?? context.skillOf(tool);
  const timeoutMs = context.options.toolTimeoutMs ?? tool.timeoutMs ?? skillContext.manifestTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  if (skillContext.dataDirectory && !context.createdDirectories.has(skillContext.dataDirectory)) {
    context.createdDirectories.add(skillContext.dataDirectory);
    await fs.mkdir(skillContext.dataDirectory, { recursive: true }).catch(() => undefined);
  }
  // Built on first read: an in-process runner never pays for the environment it does not use.
  let env: Record<string, string> | undefined;
  const environment = () => (env ??= buildScriptEnvironment(
    {
      root: context.root,
      skillDirectory: skillContext.skillDirectory,
      skillDataDirectory: skillContext.dataDirectory,
      skillConfigJson: skillContext.configJson,
      toolId: tool.toolId,
      requestId: context.planId,
    },
    context.options.extraEnv || skillContext.env ? { ...context.options.extraEnv, ...skillContext.env } : undefined,
    context.hostEnvironment,
  ));
  let dependencies: Record<string, ToolOutput | null> | undefined;
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
    // Lazy: dependencies and the state snapshot cost nothing unless the runner (or a hook) reads them.
    const stdin = {
      requestId: context.planId,
      tool: tool.toolId,
      input: tool.input,
      get dependencies(): Record<string, ToolOutput | null> {
        return (dependencies ??= dependencyOutputs());
      },
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
      get env() {
        return environment();
      },
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
  if (!lastOutcome || !collector) {
    // Stopped before the first attempt began.
    const skipReason = context.stopReason() === 'plan_timeout' ? 'plan_timeout' : 'cancelled';
    return { result: { toolId: tool.toolId, toolPath: tool.toolPath, skill, state: 'skipped', skipReason, retryCount: 0 }, output: undefined, patches: [] };
  }
  const stopReason = context.stopReason();
  let state: ToolResult['state'] = lastOutcome.ok ? 'success' : lastOutcome.timedOut ? 'timeout' : 'failed';
  let error = lastOutcome.ok ? undefined : (lastError ?? { code: 'UNKNOWN_FAILURE', message: 'the tool failed', category: 'process_error' as const });
  if (!lastOutcome.ok && (lastOutcome.cancelled || interrupted || (stopReason && error?.category === 'cancelled'))) {
    if (stopReason === 'plan_timeout') {
      state = 'timeout';
      error = { code: 'PLAN_TIMEOUT', message: 'the plan timeout expired while this tool was running', category: 'timeout' };
    } else {
      state = 'cancelled';
      if (interrupted) error = { code: 'CANCELLED', message: 'the run was cancelled before the next retry', category: 'cancelled' };
    }
  }
  const output = collector.output(lastOutcome.ok);
  // One literal with a fixed shape (cheaper than chains of spreads on hot paths).
  const result: ToolResult = {
    toolId: tool.toolId,
    toolPath: tool.toolPath,
    skill,
    state,
    output,
    events: collector.events,
    droppedEvents: collector.droppedEvents,
    executionTimeMs: Math.round(performance.now() - started),
    retryCount: Math.max(0, attempts.length - 1),
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    exitCode: lastOutcome.exitCode,
    ...(lastOutcome.stderrTail ? { stderr: lastOutcome.stderrTail } : {}),
    ...(error ? { error } : {}),
    attempts,
  };
  return lastOutcome.ok ? { result, output, patches: collector.patches } : { result, output: undefined, patches: [] };
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
