// Program of `narratoria run` (bundled as dist/cliRun.cjs, started by launcher.ts): the same command line as cliMain's, with run's code only.
import { UsageError } from './cliSupport.js';
import { runCommandLine } from './commandLine.js';
import { runCommand } from './commands/runCommand.js';
import { startProgram } from './program.js';

startProgram(
  (args, io, signal) =>
    runCommandLine(args, io, signal, (command, rest, commandIo, commandSignal) => {
      if (command !== 'run') throw new UsageError(`this program runs plans only ("narratoria run"), not "${command ?? ''}"`);
      return runCommand(rest, commandIo, commandSignal);
    }),
  __dirname,
);
