// Runs one tool to its final state: hold hook, attempts through the ToolRunner, retries with exponential backoff.
import { formatCount } from '../common/humanText.js';
import { monotonicMs } from '../common/monotonicClock.js';
import type { Emitter } from '../common/event.js';
import type { AttemptRecord, RunWarning, ToolError, ToolResult } from '../contractTypes/executionResult.js';
import { DEFAULT_TOOL_TIMEOUT_MS, retryDelayMs, type NormalizedTool } from '../contractTypes/plan.js';
import { buildScriptEnvironment } from '../process/scriptEnvironment.js';
import { toolSeed } from '../common/seed.js';
import type { SkillContext, SkillContextProvider } from '../skills/skillContext.js';
import { prepareSkillData, skillFolders, type SkillDataScope, type SkillFolders } from '../skills/skillDataScope.js';
import type { JsonObject } from '../state/deepMerge.js';
import { AttemptCollector } from './attemptCollector.js';
import type {
  ExecutionHooks,
  RetryScheduledEvent,
  StateChangedEvent,
  StderrEvent,
  ToolEventEmittedEvent,
  ToolFinishedEvent,
  ToolStartedEvent,
} from './executionEvents.js';
import type { ExecutePlanOptions } from './planExecutor.js';
import type { ToolAttemptRequest, ToolOutput, ToolRunner, ToolStdin } from './toolRunner.js';
import type { ToolEvent } from '../contractTypes/toolEvent.js';

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
  /** Where the run's skills keep their data (the options' scope, else the story's default session). */
  readonly dataScope: SkillDataScope;
  /** The run's plan timeout, in milliseconds (said in a PLAN_TIMEOUT error). */
  readonly planTimeoutMs: number;
  readonly warn: (warning: RunWarning) => void;
  readonly committedState: () => JsonObject;
  /** Allowlisted host environment, read once per run. */
  readonly hostEnvironment: Readonly<Record<string, string>>;
  /** The run's seed (ExecutePlanOptions.seed, or a fresh one). */
  readonly runSeed: number;
  /**
   * Each skill's folders in this run's data scope, by skill name, worked out once per run (not once per tool); a skill
   * is in it once its data folder has been prepared.
   */
  readonly preparedSkills: Map<string, SkillFolders>;
  /** Skill contexts already looked up during this run, by script path. */
  readonly knownSkillContexts: Map<string, SkillContext>;
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
  // Resolved once per script and run; later tools of the same script skip the await.
  let skillContext = context.knownSkillContexts.get(scriptPath);
  if (!skillContext) {
    skillContext = await context.skillContext.contextFor(scriptPath);
    context.knownSkillContexts.set(scriptPath, skillContext);
  }
  const skill = skillContext.skill ?? context.skillOf(tool);
  const timeoutMs = context.options.toolTimeoutMs ?? tool.timeoutMs ?? skillContext.manifestTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  // A skill's data belongs to the session (never its own folder, nor the installation's); created once per run.
  let folders = skill ? context.preparedSkills.get(skill) : undefined;
  if (skill && !folders) {
    folders = skillFolders(context.dataScope, skill);
    context.preparedSkills.set(skill, folders);
    await prepareSkillData(context.dataScope, skill, skillContext.skillDirectory).catch(() => undefined);
  }
  // Built on first read: an in-process runner never pays for the environment it does not use.
  let env: Record<string, string> | undefined;
  const environment = () =>
    (env ??= buildScriptEnvironment(
      {
        root: context.root,
        skillDirectory: skillContext.skillDirectory,
        skillDataDirectory: folders?.data,
        skillSharedDirectory: folders?.shared,
        sessionId: context.dataScope.sessionId,
        skillConfigJson: skillContext.configJson,
        toolId: tool.toolId,
        requestId: context.planId,
      },
      context.options.extraEnv || skillContext.env ? { ...context.options.extraEnv, ...skillContext.env } : undefined,
      context.hostEnvironment,
    ));
  let dependencies: Record<string, ToolOutput | null> | undefined;
  const lazyDependencies = () => (dependencies ??= dependencyOutputs());
  const attempts: AttemptRecord[] = [];
  const startedAt = isoTime(Date.now());
  const started = monotonicMs();
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
    let stdin: ToolStdin = new LazyToolStdin(context.planId, tool.toolId, tool.input, lazyDependencies, stateFor);
    if (context.hooks?.beforeToolStart) {
      const edit = await context.hooks.beforeToolStart({ planId: context.planId, tool, attempt, stdin });
      if (edit && (edit.input || edit.state)) {
        stdin = {
          requestId: stdin.requestId,
          tool: stdin.tool,
          input: edit.input ?? stdin.input,
          dependencies: stdin.dependencies,
          state: edit.state ?? stdin.state,
        };
      }
    }
    if (context.stopReason()) break;
    if (context.emitters.startedTool.hasListeners) {
      context.emitters.startedTool.fire({ planId: context.planId, toolId: tool.toolId, attempt, scriptPath, skill, startedAt: isoTime(Date.now()) });
    }
    const current = new AttemptCollector(context, tool.toolId, attempt);
    collector = current;
    const stderrEmitter = context.emitters.stderr;
    const runner = tool.subPlan !== undefined ? context.subPlanRunner : context.runner;
    const outcome = await runner.run(
      new AttemptRequest(
        tool,
        scriptPath,
        skill,
        attempt,
        stdin,
        timeoutMs,
        context.root,
        () => seeded(environment(), context.runSeed, tool.toolId, attempt, context.options.extraEnv),
        context.abortSignal,
        current,
        context.warn,
        stderrEmitter.hasListeners ? (text) => stderrEmitter.fire({ planId: context.planId, toolId: tool.toolId, attempt, text }) : undefined,
      ),
    );
    lastOutcome = outcome;
    lastError = outcome.error;
    const record: { -readonly [K in keyof AttemptRecord]: AttemptRecord[K] } = {
      attempt,
      durationMs: Math.round(outcome.durationMs),
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      ok: outcome.ok,
    };
    if (outcome.error) record.error = outcome.error;
    if (attempt > 1) record.backoffMs = backoffMs;
    attempts.push(record);
    const decided = outcome.ok || !outcome.retryable || attempt > tool.maxRetries;
    if (context.hooks?.afterToolAttempt) {
      await context.hooks.afterToolAttempt({
        planId: context.planId,
        tool,
        attempt,
        ok: outcome.ok,
        timedOut: outcome.timedOut === true,
        error: outcome.error,
        exitCode: outcome.exitCode,
        durationMs: record.durationMs,
        output: current.output(outcome.ok),
        willRetry: !decided && !context.stopReason(),
      });
    }
    if (decided) break;
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
      error = {
        code: 'PLAN_TIMEOUT',
        message: `the plan timeout (${formatCount(context.planTimeoutMs)} ms) expired while this tool was running`,
        category: 'timeout',
        details: { planTimeoutMs: context.planTimeoutMs },
      };
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
    executionTimeMs: Math.round(monotonicMs() - started),
    retryCount: Math.max(0, attempts.length - 1),
    startedAt,
    finishedAt: isoTime(Date.now()),
    exitCode: lastOutcome.exitCode,
    ...(lastOutcome.stderrTail ? { stderr: lastOutcome.stderrTail } : {}),
    ...(error ? { error } : {}),
    attempts,
  };
  return lastOutcome.ok ? { result, output, patches: collector.patches } : { result, output: undefined, patches: [] };
}

/**
 * A script's stdin whose `dependencies` and `state` are built on first read (prototype getters keep one
 * hidden class for every instance). JSON.stringify goes through toJSON, so runners serialise it as usual.
 */
class LazyToolStdin implements ToolStdin {
  #state: JsonObject | undefined;
  readonly #dependencies: () => Record<string, ToolOutput | null>;
  readonly #stateFor: () => JsonObject;

  constructor(
    readonly requestId: string,
    readonly tool: string,
    readonly input: Record<string, unknown>,
    dependencies: () => Record<string, ToolOutput | null>,
    stateFor: () => JsonObject,
  ) {
    this.#dependencies = dependencies;
    this.#stateFor = stateFor;
  }

  get dependencies(): Record<string, ToolOutput | null> {
    return this.#dependencies();
  }

  get state(): JsonObject {
    return (this.#state ??= this.#stateFor());
  }

  toJSON(): ToolStdin {
    return { requestId: this.requestId, tool: this.tool, input: this.input, dependencies: this.dependencies, state: this.state };
  }
}

/** One attempt's request to a ToolRunner; the script environment is built only if the runner reads it. */
class AttemptRequest implements ToolAttemptRequest {
  readonly #environment: () => Record<string, string>;
  readonly #collector: AttemptCollector;

  constructor(
    readonly tool: NormalizedTool,
    readonly scriptPath: string,
    readonly skill: string | null,
    readonly attempt: number,
    readonly stdin: ToolStdin,
    readonly timeoutMs: number,
    readonly cwd: string,
    environment: () => Record<string, string>,
    readonly signal: AbortSignal,
    collector: AttemptCollector,
    readonly onWarning: (warning: RunWarning) => void,
    readonly onStderr: ((text: string) => void) | undefined,
  ) {
    this.#environment = environment;
    this.#collector = collector;
  }

  get env(): Readonly<Record<string, string>> {
    return this.#environment();
  }

  readonly onEvent = (event: ToolEvent): void | Promise<void> => this.#collector.accept(event);
}

/**
 * The tool attempt's environment with its NARRATORIA_SEED (set in place: a tool's attempts run one after another, each
 * reading it when its process starts), unless the run's extra environment fixes one.
 */
function seeded(
  env: Record<string, string>,
  runSeed: number,
  toolId: string,
  attempt: number,
  extraEnv: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  if (extraEnv?.['NARRATORIA_SEED'] === undefined) env['NARRATORIA_SEED'] = String(toolSeed(runSeed, toolId, attempt));
  return env;
}

let lastIsoMs = Number.NaN;
let lastIsoText = '';

/**
 * `new Date(ms).toISOString()`, keeping the last one made: the tools of a run start and finish many to a millisecond,
 * and the two dates of each tool's result were half of this file's own time in bench (a)'s profile.
 */
function isoTime(ms: number): string {
  if (ms !== lastIsoMs) {
    lastIsoText = new Date(ms).toISOString();
    lastIsoMs = ms;
  }
  return lastIsoText;
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
