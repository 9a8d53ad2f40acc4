// The options every command shares, read before a command's module loads: --help/-h, and --root (which must name an existing folder). Reads only; creates nothing.
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { UsageError } from './cliSupport.js';

/** The arguments before a `--` terminator: after it, `--help` or `--root` is a value, not an option. */
function optionArguments(args: readonly string[]): readonly string[] {
  const end = args.indexOf('--');
  return end === -1 ? args : args.slice(0, end);
}

/** Whether `-h` or `--help` is among the options. */
export function helpRequested(args: readonly string[]): boolean {
  return optionArguments(args).some((argument) => argument === '--help' || argument === '-h');
}

/** The value of the last `--root DIR` or `--root=DIR` (as the commands' parser takes it), if any. */
export function rootOption(args: readonly string[]): string | undefined {
  const options = optionArguments(args);
  let value: string | undefined;
  options.forEach((argument, index) => {
    if (argument.startsWith('--root=')) value = argument.slice('--root='.length);
    // `--root --format` leaves --root without a value: the command's own parser says so.
    else if (argument === '--root' && index + 1 < options.length && !options[index + 1]!.startsWith('-')) value = options[index + 1];
  });
  return value;
}

/** A command line argument as a shell would take it back (quoted when it holds anything but safe characters). */
export function shellWord(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Throws a UsageError when `--root` names no folder: the commands would otherwise start skill scripts in a folder
 * that is not there (spawn ... ENOENT) or create it to save a session in. An empty value keeps the current folder.
 */
export async function checkStoryRoot(args: readonly string[], cwd: string): Promise<void> {
  const given = rootOption(args);
  if (given === undefined || given === '') return;
  const folder = path.resolve(cwd, given);
  let isFolder: boolean;
  try {
    isFolder = (await stat(folder)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new UsageError(`cannot read the story folder ${given} (--root): ${code ?? (error as Error).message}`);
    throw new UsageError(`the story folder ${given} (--root) does not exist; create one with "narratoria init ${shellWord(given)}"`);
  }
  if (!isFolder) throw new UsageError(`--root ${given} is not a folder; a story is a folder (create one with "narratoria init DIR")`);
}
