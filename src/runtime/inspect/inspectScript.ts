// Runs one skill script and reports, line by line, what the runtime makes of its output (contracts/inspect-report.schema.json).
import { DEFAULT_SESSION_ID, prepareSkillData, sessionScope, skillFolders } from '../skills/skillDataScope.js';
import * as path from 'node:path';
import { realpath } from 'node:fs/promises';
import type { ErrorCategory } from '../contractTypes/executionResult.js';
import type { ToolEvent } from '../contractTypes/toolEvent.js';
import { commandForScript } from '../process/interpreter.js';
import { buildScriptEnvironment } from '../process/scriptEnvironment.js';
import { launchScript } from '../process/scriptLauncher.js';
import { ProtocolSession, type LineStatus, type ProcessEnd, type ProtocolInput } from '../skillProtocol/protocolSession.js';
import type { RecordedLine, Recording } from './recording.js';
import { ManifestSkillContextProvider, type SkillContextProvider } from '../skills/skillContext.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../contractTypes/plan.js';

/** Mirrors `lines[]` of contracts/inspect-report.schema.json. */
export interface InspectedLine {
  readonly lineNumber: number;
  readonly elapsedMs: number;
  readonly status: LineStatus;
  readonly text?: string;
  readonly byteLength?: number;
  readonly event?: ToolEvent;
  readonly problem?: string;
}

/** Mirrors contracts/inspect-report.schema.json. */
export interface InspectReport {
  readonly script: string;
  readonly command: readonly string[];
  readonly durationMs: number;
  readonly lines: readonly InspectedLine[];
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly verdict: {
    readonly ok: boolean;
    readonly message: string;
    readonly category?: ErrorCategory;
    readonly code?: string;
    /** Whether a plan with a retry policy would retry this failure: ProtocolSession.verdict's `retryable`, the flag the executor reads. */
    readonly retryable?: boolean;
  };
}

export interface InspectOptions {
  readonly scriptPath: string;
  readonly input?: Record<string, unknown> | undefined;
  /** Story root: working directory and NARRATORIA_ROOT (default: the current directory). */
  readonly root?: string | undefined;
  readonly timeoutMs?: number | undefined;
  readonly maxLineBytes?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Where the skill's directory, data directory and effective config come from (default: its manifest and raw config.json). */
  readonly skillContext?: SkillContextProvider | undefined;
  /** Extra environment for the script (e.g. NARRATORIA_MODEL_PATH), as plan runs get it. */
  readonly extraEnv?: Readonly<Record<string, string>> | undefined;
  /** Called as each line is classified (live views). */
  readonly onLine?: ((line: InspectedLine) => void) | undefined;
  /** Called with each stderr chunk and its time since start (live views). */
  readonly onStderr?: ((chunk: { readonly elapsedMs: number; readonly text: string }) => void) | undefined;
  /** Keep the raw lines and stderr with their timing, for a recording (report.recording). */
  readonly record?: boolean | undefined;
}

/** An inspection, and (when asked for) its recording. */
export type InspectResult = InspectReport & { readonly recording?: Recording | undefined };

/** What the runtime makes of one stdout item: the one classification shared by inspect, its replays and the inspector. */
export function inspectLine(session: ProtocolSession, item: ProtocolInput & { readonly elapsedMs: number }): InspectedLine {
  const report = session.accept(item);
  return {
    lineNumber: item.lineNumber,
    elapsedMs: Math.round(item.elapsedMs),
    status: report.status,
    ...(item.kind === 'line'
      ? { text: item.line.length > TEXT_LIMIT ? item.line.slice(0, TEXT_LIMIT) + '…' : item.line, byteLength: Buffer.byteLength(item.line) }
      : { byteLength: item.byteLength }),
    ...(report.event ? { event: report.event } : {}),
    ...((report.problem ?? report.warning) ? { problem: report.problem ?? report.warning!.message } : {}),
  };
}

/** The verdict part of a report, from the session and how the process ended. */
export function inspectVerdict(session: ProtocolSession, end: ProcessEnd, timeoutMs: number, scriptPath: string): InspectReport['verdict'] {
  const verdict = session.verdict(end, timeoutMs, scriptPath);
  return verdict.ok
    ? { ok: true, message: session.done?.summary ? `ok: ${session.done.summary}` : 'ok: the script followed the protocol and reported success' }
    : { ok: false, message: verdict.error!.message, category: verdict.error!.category, code: verdict.error!.code, retryable: verdict.retryable };
}

const TEXT_LIMIT = 2000;

/** Runs the script once (no retries) and keeps reading after protocol errors so every line is reported. */
export async function inspectScript(options: InspectOptions): Promise<InspectResult> {
  const root = path.resolve(options.root ?? process.cwd());
  const scriptPath = path.resolve(root, options.scriptPath);
  const commandResult = await commandForScript(scriptPath);
  if (!commandResult.ok) {
    return {
      script: scriptPath,
      command: [],
      durationMs: 0,
      lines: [],
      stderr: '',
      exitCode: null,
      signal: null,
      timedOut: false,
      // As ProcessToolRunner: a script with no way to run it is never retried.
      verdict: { ok: false, message: commandResult.message, category: 'process_error', code: commandResult.code, retryable: false },
    };
  }
  const real = await realpath(scriptPath);
  const skills = await Promise.all(
    [path.join(root, 'skills'), path.dirname(path.dirname(path.dirname(real)))].map((directory) => realpath(directory).catch(() => directory)),
  );
  const context = await (options.skillContext ?? new ManifestSkillContextProvider(skills)).contextFor(real);
  const timeoutMs = options.timeoutMs ?? context.manifestTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  // An inspected script keeps its data in the story's default session, as `run`'s do.
  const scope = sessionScope(root, DEFAULT_SESSION_ID);
  const folders = context.skill ? skillFolders(scope, context.skill) : undefined;
  if (context.skill) await prepareSkillData(scope, context.skill, context.skillDirectory).catch(() => undefined);
  const session = new ProtocolSession(options.maxLineBytes);
  const lines: InspectedLine[] = [];
  const texts: string[] = [];
  const recordedLines: RecordedLine[] = [];
  const stderr: { elapsedMs: number; text: string }[] = [];
  const input = options.input ?? {};
  const started = performance.now();
  const outcome = await launchScript({
    command: commandResult.command,
    cwd: root,
    env: {
      ...buildScriptEnvironment({
        root,
        skillDirectory: context.skillDirectory,
        skillDataDirectory: folders?.data,
        skillSharedDirectory: folders?.shared,
        sessionId: scope.sessionId,
        skillConfigJson: context.configJson,
        toolId: 'inspect',
        requestId: 'inspect',
      }),
      ...options.extraEnv,
      ...context.env,
    },
    stdinText: JSON.stringify({ requestId: 'inspect', tool: 'inspect', input, dependencies: {}, state: {} }),
    timeoutMs,
    signal: options.signal,
    maxLineBytes: options.maxLineBytes,
    onStdout: (item) => {
      const line = inspectLine(session, item);
      lines.push(line);
      if (options.record) {
        texts.push(item.kind === 'line' ? item.line : '');
        recordedLines.push({
          lineNumber: item.lineNumber,
          elapsedMs: line.elapsedMs,
          byteLength: line.byteLength ?? 0,
          ...(item.kind === 'oversized' ? { oversized: true } : item.partial ? { partial: true } : {}),
        });
      }
      options.onLine?.(line);
      return 'continue';
    },
    onStderr:
      options.record || options.onStderr
        ? (text) => {
            const chunk = { elapsedMs: Math.round(performance.now() - started), text };
            if (options.record) stderr.push(chunk);
            options.onStderr?.(chunk);
          }
        : undefined,
  });
  const recording: Recording | undefined = options.record
    ? {
        texts,
        meta: {
          formatVersion: 1,
          script: scriptPath,
          command: [commandResult.command.file, ...commandResult.command.args],
          root,
          input,
          recordedAt: new Date().toISOString(),
          timeoutMs,
          ...(options.maxLineBytes ? { maxLineBytes: options.maxLineBytes } : {}),
          durationMs: Math.round(outcome.durationMs),
          lines: recordedLines,
          stderr,
          exitCode: outcome.exitCode,
          signal: outcome.signal,
          timedOut: outcome.timedOut,
          ...(outcome.spawnError ? { spawnError: outcome.spawnError } : {}),
        },
      }
    : undefined;
  return {
    ...(recording ? { recording } : {}),
    script: scriptPath,
    command: [commandResult.command.file, ...commandResult.command.args],
    durationMs: outcome.durationMs,
    lines,
    stderr: outcome.stderrTail,
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    timedOut: outcome.timedOut,
    verdict: inspectVerdict(session, outcome, timeoutMs, scriptPath),
  };
}
