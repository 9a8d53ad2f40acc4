// Shared CLI plumbing: exit codes, usage errors, option parsing helpers, output streams and colours.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { isPlainObject } from '../runtime/state/deepMerge.js';
import { ansiTextStyle, type TextStyle } from '../runtime/common/textStyle.js';

/**
 * Gathers small writes and passes them on together: a 200-tool run prints 400 progress lines, and one write call
 * each cost ~9 ms of the run (bench b2). With `intervalMs` 0 (a terminal) the text goes out once per turn of the
 * event loop; otherwise (a pipe or a file) at most once per `intervalMs`. `flush` writes what is pending at once.
 */
export function batchedWriter(write: (text: string) => void, intervalMs = 0): { readonly write: (text: string) => void; readonly flush: () => void } {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
    timer = immediate = undefined;
    if (pending.length === 0) return;
    const text = pending;
    pending = '';
    write(text);
  };
  return {
    write: (text) => {
      pending += text;
      if (timer || immediate) return;
      if (intervalMs > 0) timer = setTimeout(flush, intervalMs);
      else immediate = setImmediate(flush);
    },
    flush,
  };
}

/**
 * Sets V8 for the part of `run` that waits on skill scripts, until the returned function sets it back (bench b2):
 * - **TurboFan off.** It compiles on background threads whose malloc arenas keep MBs mid-run, and a fork copies memory
 *   outside V8's heap (which V8 marks not to be copied): 200 fast scripts took ~10 ms and 30-40 ms of CPU longer with
 *   it, a 2,000-tool plan 0.45 s longer.
 * - **Sparkplug at once.** Without TurboFan the executor's code ran in the interpreter; V8's baseline compiler makes
 *   machine code from the bytecode at once, which takes less CPU than interpreting it 200 times.
 * - **A young generation that does not grow.** Each of its 256 KB pages is a mapping of its own, and this kernel's
 *   fork walks every mapping, even those V8 marks not to be copied: 69 more mappings made each spawn ~0.12 ms slower in
 *   a bare loop. The young generation stays the size start-up left it (8 MB, not 16), 30 mappings fewer.
 * Changed around the run only, never at start-up: Node's built-in modules and the CLI's code cache are only accepted
 * under the flags they were made with. Left alone when the user chose compiler or heap flags themselves (execArgv or
 * NODE_OPTIONS).
 */
export function tuneV8ForRun(
  env: NodeJS.ProcessEnv,
  setFlags: (flags: string) => void = setFlagsFromString,
  execArgv: readonly string[] = process.execArgv,
): () => void {
  const chosen = [...execArgv, ...(env['NODE_OPTIONS'] ?? '').split(/\s+/)];
  if (chosen.some((argument) => /^--(no-)?(opt|turbofan|jitless|max-opt|sparkplug|always-sparkplug|semi-space)/.test(argument))) return () => undefined;
  for (const flag of RUN_FLAGS) setFlags(flag);
  let tuned = true;
  return () => {
    if (!tuned) return;
    tuned = false;
    for (const flag of RESTORED_FLAGS) setFlags(flag);
  };
}

/** V8's default for --semi-space-growth-factor (the same in Node 20's V8 11.3 and Node 24's V8 13.6). */
const DEFAULT_SEMI_SPACE_GROWTH_FACTOR = 2;
/** The flags of the run, and what they are otherwise (V8's defaults). */
export const RUN_FLAGS = ['--no-turbofan', '--always-sparkplug', '--semi-space-growth-factor=1'] as const;
export const RESTORED_FLAGS = ['--turbofan', '--no-always-sparkplug', `--semi-space-growth-factor=${DEFAULT_SEMI_SPACE_GROWTH_FACTOR}`] as const;

/** The exit codes other tools rely on. */
export const ExitCode = {
  Success: 0,
  /** validate: some file has errors; run: the plan ran and failed. */
  Failure: 1,
  /** Usage error, unreadable input, or (run) an invalid plan where nothing ran. */
  Usage: 2,
  /** Interactive `play` quit by Ctrl+C (at an empty prompt, or twice within 2 s): 128 + SIGINT, as shells report it. */
  Interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A problem with how the command was called; printed with the usage hint, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type OutputFormat = 'text' | 'json';

/** Where a command writes; tests substitute buffers. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown; isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; isTTY?: boolean };
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Terminal input for interactive commands (default process.stdin). */
  readonly stdin?: NodeJS.ReadableStream | undefined;
  /** The skills shipped with the CLI (`<package>/skills`), used after the story's own. */
  readonly bundledSkillsDirectory?: string | undefined;
}

/** Parses `args` strictly; unknown options become a UsageError. */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
}

export function parseFormat(value: string | undefined): OutputFormat {
  if (value === undefined || value === 'text' || value === 'json') return value ?? 'text';
  throw new UsageError(`--format must be "text" or "json", not "${value}"`);
}

/** Parses a positive integer option (milliseconds, counts). */
export function parsePositiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} must be a positive integer, not "${value}"`);
  }
  return Number(value);
}

/** ANSI styling that turns itself off when the stream is not a terminal or NO_COLOR is set. */
export function styler(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): TextStyle {
  return ansiTextStyle(Boolean(stream.isTTY) && env['NO_COLOR'] === undefined && env['TERM'] !== 'dumb');
}
export type Styler = TextStyle;

/** JSON for machine output: stable, two-space indented, newline-terminated. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** The one wording for a file the CLI could not read: "cannot read FILE: ENOENT". */
export function cannotRead(file: string, error: unknown): string {
  return `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
}

/** Reads a file named on the command line (relative to the working directory); unreadable is a UsageError. */
export async function readInputFile(file: string, io: CliIo): Promise<string> {
  try {
    return await readFile(path.resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(cannotRead(file, error));
  }
}

/** Parses `text` as a JSON object; invalid JSON or any other value is a UsageError naming `subject`. */
export function parseJsonObject(text: string, subject: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${subject} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(value)) throw new UsageError(`${subject} must hold a JSON object`);
  return value;
}
