// Runs one skill script and reports, line by line, what the runtime makes of its output (contracts/inspect-report.schema.json).
import * as path from 'node:path';
import { realpath } from 'node:fs/promises';
import type { ErrorCategory } from '../model/executionResult.js';
import type { ToolEvent } from '../model/toolEvent.js';
import { commandForScript } from '../process/interpreter.js';
import { buildScriptEnvironment } from '../process/scriptEnvironment.js';
import { launchScript } from '../process/scriptLauncher.js';
import { ProtocolSession, type LineStatus } from '../protocol/protocolSession.js';
import { ManifestSkillContextProvider, type SkillContextProvider } from '../skills/skillContext.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../model/plan.js';

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
  readonly verdict: { readonly ok: boolean; readonly message: string; readonly category?: ErrorCategory; readonly code?: string };
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
}

const TEXT_LIMIT = 2000;

/** Runs the script once (no retries) and keeps reading after protocol errors so every line is reported. */
export async function inspectScript(options: InspectOptions): Promise<InspectReport> {
  const root = path.resolve(options.root ?? process.cwd());
  const scriptPath = path.resolve(root, options.scriptPath);
  const commandResult = await commandForScript(scriptPath);
  if (!commandResult.ok) {
    return {
      script: scriptPath, command: [], durationMs: 0, lines: [], stderr: '', exitCode: null, signal: null, timedOut: false,
      verdict: { ok: false, message: commandResult.message, category: 'process_error', code: commandResult.code },
    };
  }
  const real = await realpath(scriptPath);
  const skills = await Promise.all([path.join(root, 'skills'), path.dirname(path.dirname(path.dirname(real)))].map((directory) => realpath(directory).catch(() => directory)));
  const context = await (options.skillContext ?? new ManifestSkillContextProvider(skills)).contextFor(real);
  const timeoutMs = options.timeoutMs ?? context.manifestTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const session = new ProtocolSession(options.maxLineBytes);
  const lines: InspectedLine[] = [];
  const outcome = await launchScript({
    command: commandResult.command,
    cwd: root,
    env: { ...buildScriptEnvironment({ root, skillDirectory: context.skillDirectory, skillDataDirectory: context.dataDirectory, skillConfigJson: context.configJson, toolId: 'inspect', requestId: 'inspect' }), ...options.extraEnv, ...context.env },
    stdinText: JSON.stringify({ requestId: 'inspect', tool: 'inspect', input: options.input ?? {}, dependencies: {}, state: {} }),
    timeoutMs,
    signal: options.signal,
    maxLineBytes: options.maxLineBytes,
    onStdout: (item) => {
      const report = session.accept(item);
      const line: InspectedLine = {
        lineNumber: item.lineNumber,
        elapsedMs: item.elapsedMs,
        status: report.status,
        ...(item.kind === 'line' ? { text: item.line.length > TEXT_LIMIT ? item.line.slice(0, TEXT_LIMIT) + '…' : item.line, byteLength: Buffer.byteLength(item.line) } : { byteLength: item.byteLength }),
        ...(report.event ? { event: report.event } : {}),
        ...(report.problem ?? report.warning ? { problem: report.problem ?? report.warning!.message } : {}),
      };
      lines.push(line);
      options.onLine?.(line);
      return 'continue';
    },
  });
  const verdict = session.verdict(outcome, timeoutMs, scriptPath);
  return {
    script: scriptPath,
    command: [commandResult.command.file, ...commandResult.command.args],
    durationMs: outcome.durationMs,
    lines,
    stderr: outcome.stderrTail,
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    timedOut: outcome.timedOut,
    verdict: verdict.ok
      ? { ok: true, message: session.done?.summary ? `ok: ${session.done.summary}` : 'ok: the script followed the protocol and reported success' }
      : { ok: false, message: verdict.error!.message, category: verdict.error!.category, code: verdict.error!.code },
  };
}
