// Starts a skill script's process in its own group: child_process.spawn on POSIX (the fast path, bench b2), execa on Windows (where its command resolution and shell handling matter).
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { ScriptCommand } from './interpreter.js';

/** How the process ended; `spawnError` when it never started. */
export interface ProcessEnd {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly spawnError?: { readonly code: string; readonly message: string } | undefined;
}

export interface ScriptProcess {
  readonly pid: number | undefined;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Called once when the main process exits (its pipes may still be open). */
  onExit(listener: () => void): void;
  /** Settles when the process has exited and its stdio has closed (or it failed to start). */
  readonly ended: Promise<ProcessEnd>;
}

export interface ProcessOptions {
  readonly command: ScriptCommand;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed. */
  readonly stdinText: string;
}

/**
 * Starts the script detached (its own process group, so timeouts and cancellation kill the whole tree). The fast
 * path measured 1.4× cheaper per process than execa with the same options (docs/benchmarks.md#b2-per-tool-overhead); execa stays for
 * Windows, where there are no process groups and its command resolution (PATHEXT, shebangs) is what matters.
 */
export function startScriptProcess(options: ProcessOptions, platform: NodeJS.Platform = process.platform): ScriptProcess | Promise<ScriptProcess> {
  // execa is loaded only where it is used: on POSIX no command pays for its ~3 ms of module set-up. The POSIX path
  // returns the process itself, not a promise: one tick less per tool (bench b2).
  if (platform === 'win32') return import('./execaProcess.js').then((execa) => execa.startWithExeca(options, environmentOf(options)));
  return startWithSpawn(options);
}

/** The script's environment plus the variables its command needs; the same object when the command needs none. */
function environmentOf(options: ProcessOptions): Readonly<Record<string, string>> {
  let merged: Record<string, string> | undefined;
  for (const name in options.command.env) {
    merged ??= { ...options.env };
    merged[name] = options.command.env[name]!;
  }
  return merged ?? options.env;
}

function startWithSpawn(options: ProcessOptions): ScriptProcess {
  const child = spawn(options.command.file, options.command.args, {
    cwd: options.cwd,
    env: environmentOf(options),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    windowsHide: true,
  });
  const ended = new Promise<ProcessEnd>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      // Failed to start (ENOENT, EACCES, EAGAIN…): no 'close' follows for a process that never was.
      if (child.pid === undefined) resolve({ exitCode: null, signal: null, spawnError: { code: error.code ?? 'SPAWN_FAILED', message: error.message } });
    });
    child.once('close', (code, signal) => resolve({ exitCode: code, signal }));
  });
  // A script that exits without reading its stdin closes the pipe: that is not an error of the run.
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.stdinText);
  return { pid: child.pid, stdout: child.stdout, stderr: child.stderr, onExit: (listener) => void child.once('exit', listener), ended };
}
