// The `narratoria` process around a command line: Ctrl+C and SIGTERM cancel, a closed stdout ends quietly, and the exit code is set from the result.
import * as path from 'node:path';
import { ExitCode, type CliIo } from './cliSupport.js';

/** Runs `entry` on this process's arguments (after node and script) as the program; `directory` is the bundle's own folder. */
export function startProgram(entry: (args: readonly string[], io: CliIo, signal: AbortSignal) => Promise<ExitCode>, directory: string): void {
  const controller = new AbortController();
  let interrupts = 0;
  const interrupt = () => {
    interrupts++;
    if (interrupts > 1) process.exit(ExitCode.Failure);
    process.stderr.write('\nCancelling… (press Ctrl+C again to quit at once)\n');
    controller.abort();
  };
  // A reader that stops early (`narratoria skills | head`) closes the pipe: stop quietly, as Unix tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') {
      controller.abort();
      process.exit(ExitCode.Success);
    }
    throw error;
  });
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  const io: CliIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    // Opened only by the commands that read it (play): creating the stream costs every other command ~1 ms.
    get stdin() {
      return process.stdin;
    },
    cwd: process.cwd(),
    env: process.env,
    // dist/<bundle>.cjs -> <package>/skills
    bundledSkillsDirectory: path.join(directory, '..', 'skills'),
  };
  void entry(process.argv.slice(2), io, controller.signal).then((code) => {
    process.exitCode = code;
  });
}
