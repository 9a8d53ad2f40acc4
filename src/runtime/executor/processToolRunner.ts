// ToolRunner that starts the script as an OS process and applies the NDJSON protocol rules (docs/plan-json-and-protocol.md#the-ndjson-protocol).
import { commandForScript, type ScriptCommandResult } from '../process/interpreter.js';
import { launchScript, type LineVerdict, type StdoutItem } from '../process/scriptLauncher.js';
import { ProtocolSession } from '../skillProtocol/protocolSession.js';
import type { ToolAttemptOutcome, ToolAttemptRequest, ToolRunner } from './toolRunner.js';

export interface ProcessToolRunnerOptions {
  readonly maxLineBytes?: number | undefined;
  readonly killGraceMs?: number | undefined;
  /** Node used for .js scripts (defaults to the running one). */
  readonly nodePath?: string | undefined;
}

/** Runs each attempt as a real process; protocol problems become categorised ToolErrors. */
export class ProcessToolRunner implements ToolRunner {
  /** How each script is started, worked out once per runner (one plan run). */
  private readonly commands = new Map<string, Promise<ScriptCommandResult>>();
  /** The same answers once known: later tools of a script start without waiting a tick (bench b2). */
  private readonly knownCommands = new Map<string, ScriptCommandResult>();

  constructor(private readonly options: ProcessToolRunnerOptions = {}) {}

  private commandFor(scriptPath: string): Promise<ScriptCommandResult> {
    let command = this.commands.get(scriptPath);
    if (!command) {
      command = commandForScript(scriptPath, this.options.nodePath);
      this.commands.set(scriptPath, command);
      command.then(
        (known) => this.knownCommands.set(scriptPath, known),
        () => undefined,
      );
    }
    return command;
  }

  async run(request: ToolAttemptRequest): Promise<ToolAttemptOutcome> {
    const commandResult = this.knownCommands.get(request.scriptPath) ?? (await this.commandFor(request.scriptPath));
    if (!commandResult.ok) {
      return {
        ok: false,
        retryable: false,
        timedOut: false,
        cancelled: false,
        exitCode: null,
        signal: null,
        stderrTail: '',
        durationMs: 0,
        error: { code: commandResult.code, message: commandResult.message, category: 'process_error' },
      };
    }
    const session = new ProtocolSession(this.options.maxLineBytes);
    const onStdout = (item: StdoutItem): LineVerdict | Promise<LineVerdict> => {
      const report = session.accept(item);
      if (report.warning) request.onWarning({ ...report.warning, toolId: request.tool.toolId });
      if (report.fatal) return 'stop';
      if (report.status !== 'event' || !report.event) return 'continue';
      const held = request.onEvent(report.event);
      return held ? held.then(() => 'continue' as const) : 'continue';
    };
    const outcome = await launchScript({
      command: commandResult.command,
      cwd: request.cwd,
      env: request.env,
      stdinText: JSON.stringify(request.stdin),
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      maxLineBytes: this.options.maxLineBytes,
      killGraceMs: this.options.killGraceMs,
      onStdout,
      onStderr: request.onStderr,
    });
    const verdict = session.verdict(outcome, request.timeoutMs, request.scriptPath);
    return {
      ok: verdict.ok,
      error: verdict.error,
      retryable: verdict.retryable,
      done: session.done,
      timedOut: outcome.timedOut,
      cancelled: outcome.cancelled,
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      stderrTail: outcome.stderrTail,
      durationMs: outcome.durationMs,
    };
  }
}
