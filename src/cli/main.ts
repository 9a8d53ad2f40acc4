// Entry point of the `narratoria` command: dispatches subcommands, maps errors to exit codes, handles Ctrl+C.
import { ExitCode, UsageError, type CliIo } from './cliSupport.js';
import { debugAdapterUsage, exploreUsage, graphUsage, inspectUsage, modelUsage, playUsage, runsUsage, runUsage, skillsUsage, testUsage, validateUsage } from './usage.js';

declare const NARRATORIA_VERSION: string | undefined;

const usage = `Usage:
  ${validateUsage}
  ${runUsage}
  ${inspectUsage}
  ${runsUsage}
  ${playUsage}
  ${testUsage}
  ${exploreUsage}
  ${skillsUsage}
  ${modelUsage}
  ${graphUsage}
  ${debugAdapterUsage}
  narratoria --help | --version

Exit codes: 0 success, 1 failure (invalid plan file for validate; the plan ran and failed for run; a playtest failed for test; problems found (or cancelled) for explore; graph drawn but the plan has cycles or unknown dependencies), 2 usage error, unreadable file, (run) invalid plan or (test) invalid playtest file.
`;

/**
 * Runs the CLI with `args` (without node and script) and returns the exit code. Each command's module is loaded
 * when it runs: a command does not initialise (nor load the Node built-ins of) the others.
 */
export async function main(args: readonly string[], io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'validate':
        return await (await import('./commands/validateCommand.js')).validateCommand(rest, io);
      case 'run':
        return await (await import('./commands/runCommand.js')).runCommand(rest, io, signal);
      case 'inspect':
        return await (await import('./commands/inspectCommand.js')).inspectCommand(rest, io, signal);
      case 'runs':
        return await (await import('./commands/runsCommand.js')).runsCommand(rest, io, signal);
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
      case 'debug-adapter':
        return await (await import('./commands/debugAdapterCommand.js')).debugAdapterCommand(rest, io, signal);
      case '--version':
      case '-v':
        io.stdout.write(`${typeof NARRATORIA_VERSION === 'string' ? NARRATORIA_VERSION : 'dev'}\n`);
        return ExitCode.Success;
      case '--help':
      case '-h':
      case 'help':
        io.stdout.write(usage);
        return ExitCode.Success;
      case undefined:
        io.stderr.write(usage);
        return ExitCode.Usage;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`narratoria: ${error.message}\n\n${usage}`);
      return ExitCode.Usage;
    }
    io.stderr.write(`narratoria: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return ExitCode.Usage;
  }
}
