// Starts a skill script's process with execa: the Windows path of scriptProcess.ts, loaded only there.
import { execa } from 'execa';
import { trackProcessGroup, untrackProcessGroup } from './processGroups.js';
import type { ProcessOptions, ScriptProcess } from './scriptProcess.js';

/** Starts the script with execa (Windows: no process groups; execa resolves PATHEXT and shebangs). */
export function startWithExeca(options: ProcessOptions, env: Readonly<Record<string, string>>): ScriptProcess {
  const subprocess = execa(options.command.file, [...options.command.args], {
    cwd: options.cwd,
    env,
    extendEnv: false,
    input: options.stdinText,
    buffer: false,
    cleanup: false,
    reject: false,
    stripFinalNewline: false,
    windowsHide: true,
  });
  const ended = subprocess.then((result) => {
    const failure = result as unknown as { code?: string; originalMessage?: string; shortMessage?: string };
    const spawnError =
      subprocess.pid === undefined || (result.exitCode === undefined && result.signal === undefined && failure.code)
        ? { code: failure.code ?? 'SPAWN_FAILED', message: failure.originalMessage ?? failure.shortMessage ?? 'The process could not be started' }
        : undefined;
    return { exitCode: result.exitCode ?? null, signal: result.signal ?? null, spawnError };
  });
  // The reaper ends the script's tree (taskkill /T) if this process dies first; untracked once it has exited.
  const pid = subprocess.pid;
  if (pid !== undefined) {
    trackProcessGroup(pid);
    void ended.finally(() => untrackProcessGroup(pid));
  }
  return { pid: subprocess.pid, stdout: subprocess.stdout!, stderr: subprocess.stderr!, onExit: (listener) => void subprocess.once('exit', listener), ended };
}
