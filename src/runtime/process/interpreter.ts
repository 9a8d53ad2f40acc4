// The one table of interpreters by script extension (docs/writing-skills.md#interpreters), the PATH lookup of their programs, and how a script is started.
import { promises as fs, constants as fsConstants, accessSync, statSync } from 'node:fs';
import * as path from 'node:path';

export interface ScriptCommand {
  readonly file: string;
  readonly args: readonly string[];
  /** Variables the command itself needs (e.g. ELECTRON_RUN_AS_NODE for Node inside VS Code). */
  readonly env: Readonly<Record<string, string>>;
}

/** Why a script cannot be started: stable codes, which a failed tool's error carries. */
export type ScriptCommandFailureCode = 'SCRIPT_NOT_FOUND' | 'SCRIPT_NOT_EXECUTABLE' | 'INTERPRETER_NOT_FOUND';

export type ScriptCommandResult =
  | { readonly ok: true; readonly command: ScriptCommand }
  | { readonly ok: false; readonly code: ScriptCommandFailureCode; readonly message: string };

/** How scripts of some extensions are started when they are not executable files. */
export interface Interpreter {
  /** Lower-case file extensions, with the dot. */
  readonly extensions: readonly string[];
  /** What people call it, in messages: "Dart". */
  readonly name: string;
  /** The program looked for on PATH and started; null for the runtime's own Node (always there). */
  readonly program: string | null;
  /** Arguments before the script's path: `dart run <script>`. */
  readonly args: readonly string[];
  /** What to do when the program is not on PATH. */
  readonly install: string;
}

/**
 * Every interpreter the runtime knows, by extension. An executable file runs directly (its shebang decides);
 * any other script runs with the interpreter of its extension. Adding a language is adding a row.
 */
export const INTERPRETERS: readonly Interpreter[] = [
  {
    extensions: ['.js', '.mjs', '.cjs'],
    name: 'Node.js',
    // The runtime's own Node (inside VS Code, its Electron with ELECTRON_RUN_AS_NODE=1): no system Node needed.
    program: null,
    args: [],
    install: 'nothing to install: the runtime runs them with its own Node',
  },
  {
    extensions: ['.py'],
    name: 'Python 3',
    program: process.platform === 'win32' ? 'python' : 'python3',
    args: [],
    install: `install Python 3 (https://www.python.org/downloads/) and put ${process.platform === 'win32' ? 'python' : 'python3'} on PATH`,
  },
  {
    extensions: ['.sh'],
    name: 'Bash',
    program: 'bash',
    args: [],
    install: 'install bash and put it on PATH (on Windows, Git for Windows or WSL provides it)',
  },
  {
    extensions: ['.dart'],
    name: 'Dart',
    program: 'dart',
    args: ['run'],
    install: 'install the Dart SDK (https://dart.dev/get-dart) and put dart on PATH',
  },
];

/** The extensions of {@link INTERPRETERS}, for scripts without the executable bit. */
export const INTERPRETED_EXTENSIONS: readonly string[] = INTERPRETERS.flatMap((interpreter) => interpreter.extensions);

/** The interpreter of a file's extension, or undefined when none is known. */
export function interpreterFor(file: string): Interpreter | undefined {
  const extension = path.extname(file).toLowerCase();
  return extension === '' ? undefined : INTERPRETERS.find((interpreter) => interpreter.extensions.includes(extension));
}

/** Programs looked up on PATH, by PATH and program: one lookup per process and PATH, not one per script. */
const programLookups = new Map<string, string | null>();

/** Forgets what {@link findProgram} found: skill discovery calls it, so a refresh sees an interpreter installed since. */
export function forgetProgramLookups(): void {
  programLookups.clear();
}

/**
 * The absolute path of `program` in the folders of `searchPath` (PATH; on Windows also with each PATHEXT
 * extension), or undefined when it is in none. Cached by PATH and program; no process is started.
 */
export function findProgram(program: string, searchPath: string = process.env['PATH'] ?? ''): string | undefined {
  const key = `${searchPath}\0${program}`;
  let found = programLookups.get(key);
  if (found === undefined) {
    found = lookUpProgram(program, searchPath) ?? null;
    programLookups.set(key, found);
  }
  return found ?? undefined;
}

function lookUpProgram(program: string, searchPath: string): string | undefined {
  const windows = process.platform === 'win32';
  const suffixes = windows ? ['', ...(process.env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  for (const folder of searchPath.split(path.delimiter)) {
    if (folder === '') continue;
    for (const suffix of suffixes) {
      const candidate = path.resolve(folder, program + suffix);
      try {
        if (!statSync(candidate).isFile()) continue;
        if (!windows) accessSync(candidate, fsConstants.X_OK);
        return candidate;
      } catch {
        // Not here (or not executable): the next folder.
      }
    }
  }
  return undefined;
}

/** What a script whose interpreter is missing needs, in words: `needs Dart, and "dart" is not on PATH: install the Dart SDK (...) and put dart on PATH`. */
export function missingInterpreterText(interpreter: Interpreter): string {
  return `needs ${interpreter.name}, and "${interpreter.program}" is not on PATH: ${interpreter.install}`;
}

/**
 * The interpreter a script needs and that is not on PATH, or undefined when it can run (an executable file runs
 * directly; Node is always there; an unknown extension is another problem). `executable` is the file's executable bit.
 */
export function missingInterpreterOf(file: string, executable: boolean, searchPath?: string): Interpreter | undefined {
  if (executable && process.platform !== 'win32') return undefined;
  const interpreter = interpreterFor(file);
  if (!interpreter || interpreter.program === null) return undefined;
  return findProgram(interpreter.program, searchPath) === undefined ? interpreter : undefined;
}

/**
 * Executable files run directly (their shebang decides). Otherwise the script runs with its extension's
 * interpreter ({@link INTERPRETERS}): `.js/.mjs/.cjs` with the current Node (`ELECTRON_RUN_AS_NODE=1`, so this also
 * works inside VS Code's Electron), `.py` with python3, `.sh` with bash, `.dart` with `dart run`. An interpreter
 * that is not on PATH is INTERPRETER_NOT_FOUND, with what to install, before any process starts.
 */
export async function commandForScript(scriptPath: string, nodePath: string = process.execPath, searchPath?: string): Promise<ScriptCommandResult> {
  let stat;
  try {
    stat = await fs.stat(scriptPath);
  } catch {
    return { ok: false, code: 'SCRIPT_NOT_FOUND', message: `Script not found: ${scriptPath}` };
  }
  if (!stat.isFile()) return { ok: false, code: 'SCRIPT_NOT_FOUND', message: `Not a file: ${scriptPath}` };
  if (process.platform !== 'win32' && (stat.mode & 0o111) !== 0 && (await isExecutable(scriptPath))) {
    return { ok: true, command: { file: scriptPath, args: [], env: {} } };
  }
  const interpreter = interpreterFor(scriptPath);
  if (!interpreter) {
    return {
      ok: false,
      code: 'SCRIPT_NOT_EXECUTABLE',
      message: `Script is not executable and has no known extension (${INTERPRETED_EXTENSIONS.join(', ')}): ${scriptPath}. Run "chmod +x" on it or rename it.`,
    };
  }
  if (interpreter.program === null) {
    return { ok: true, command: { file: nodePath, args: [...interpreter.args, scriptPath], env: { ELECTRON_RUN_AS_NODE: '1' } } };
  }
  const program = findProgram(interpreter.program, searchPath);
  if (program === undefined) {
    return { ok: false, code: 'INTERPRETER_NOT_FOUND', message: `${scriptPath} ${missingInterpreterText(interpreter)}.` };
  }
  return { ok: true, command: { file: program, args: [...interpreter.args, scriptPath], env: {} } };
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await fs.access(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}
