// Entry point of the `narratoria` command (dist/cliMain.cjs): dispatches every subcommand, --version and help through commandLine.ts.
import { ExitCode, UsageError, type CliIo } from './cliSupport.js';
import { runCommandLine } from './commandLine.js';
import { commandHelp, isCommandName, overviewHelp } from './usage.js';

declare const NARRATORIA_VERSION: string | undefined;

/**
 * Runs the CLI with `args` (without node and script) and returns the exit code. Each command's module is loaded
 * when it runs: a command does not initialise (nor load the Node built-ins of) the others. `--help` loads none, and
 * a `--root` that names no folder stops a command before it loads (nothing is created).
 */
export function main(args: readonly string[], io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  return runCommandLine(args, io, signal, dispatch);
}

async function dispatch(command: string | undefined, rest: readonly string[], io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  switch (command) {
    case 'init':
      return await (await import('./commands/initCommand.js')).initCommand(rest, io);
    case 'validate':
      return await (await import('./commands/validateCommand.js')).validateCommand(rest, io);
    case 'run':
      return await (await import('./commands/runCommand.js')).runCommand(rest, io, signal);
    case 'inspect':
      return await (await import('./commands/inspectCommand.js')).inspectCommand(rest, io, signal);
    case 'runs':
      return await (await import('./commands/runsCommand.js')).runsCommand(rest, io, signal);
    case 'sessions':
      return await (await import('./commands/sessionsCommand.js')).sessionsCommand(rest, io);
    case 'play':
      return await (await import('./commands/playCommand.js')).playCommand(rest, io, signal);
    case 'test':
      return await (await import('./commands/testCommand.js')).testCommand(rest, io, signal);
    case 'explore':
      return await (await import('./commands/exploreCommand.js')).exploreCommand(rest, io, signal);
    case 'skills':
      return await (await import('./commands/skillsCommand.js')).skillsCommand(rest, io);
    case 'model':
      return await (await import('./commands/modelCommand.js')).modelCommand(rest, io, signal);
    case 'graph':
      return await (await import('./commands/graphCommand.js')).graphCommand(rest, io);
    case 'lore':
      return await (await import('./commands/loreCommand.js')).loreCommand(rest, io);
    case 'debug-adapter':
      return await (await import('./commands/debugAdapterCommand.js')).debugAdapterCommand(rest, io, signal);
    case '--version':
    case '-v':
      io.stdout.write(`${typeof NARRATORIA_VERSION === 'string' ? NARRATORIA_VERSION : 'dev'}\n`);
      return ExitCode.Success;
    case '--help':
    case '-h':
    case 'help':
      return help(rest[0], io);
    case undefined:
      io.stderr.write(overviewHelp());
      return ExitCode.Usage;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** `narratoria help [COMMAND]`: the overview, or one command's help. */
function help(topic: string | undefined, io: CliIo): ExitCode {
  if (topic !== undefined && !isCommandName(topic)) throw new UsageError(`unknown command "${topic}"`);
  io.stdout.write(topic === undefined ? overviewHelp() : commandHelp(topic));
  return ExitCode.Success;
}
