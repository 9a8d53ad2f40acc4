// One command line, whichever bundle runs it: --help, the --root check, the command's own code (a dispatch), and errors mapped to exit codes.
import { ExitCode, UsageError, type CliIo } from './cliSupport.js';
import { checkStoryRoot, helpRequested } from './commonOptions.js';
import { commandHelp, isCommandName, overviewHelp, takesRoot, usageHint } from './usage.js';

/** Runs `command` with its arguments (a UsageError for one it does not know). */
export type Dispatch = (command: string | undefined, rest: readonly string[], io: CliIo, signal: AbortSignal) => Promise<ExitCode>;

/**
 * Runs `args` (without node and script) through `dispatch` and returns the exit code. `--help` runs no command, and
 * a `--root` that names no folder stops a command before its code runs (nothing is created).
 */
export async function runCommandLine(args: readonly string[], io: CliIo, signal: AbortSignal, dispatch: Dispatch): Promise<ExitCode> {
  const [command, ...rest] = args;
  try {
    if (isCommandName(command)) {
      if (helpRequested(rest)) {
        io.stdout.write(commandHelp(command));
        return ExitCode.Success;
      }
      if (takesRoot(command)) await checkStoryRoot(rest, io.cwd);
    }
    return await dispatch(command, rest, io, signal);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`narratoria: ${error.message}\n\n${isCommandName(command) ? usageHint(command) : overviewHelp()}`);
      return ExitCode.Usage;
    }
    io.stderr.write(`narratoria: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return ExitCode.Usage;
  }
}
