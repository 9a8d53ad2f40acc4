// Tracks the process groups of running scripts and kills whole trees (SIGTERM, then SIGKILL after a grace period).

const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** Registers a process-group leader so it is killed if this process exits first. */
export function trackProcessGroup(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const group of liveGroups) signalGroup(group, 'SIGKILL');
    });
  }
}

export function untrackProcessGroup(pid: number): void {
  liveGroups.delete(pid);
}

/** Sends `signal` to every process of the group led by `pid`; false when none is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  // Every tool ends with a kill of its (usually empty) group: the ESRCH error it throws is thrown away, so it
  // captures no stack (that capture was most of the cost, bench b2).
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    if (process.platform === 'win32') process.kill(pid, signal);
    else process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/** True while any process of the group is alive. */
export function groupAlive(pid: number): boolean {
  return signalGroup(pid, 0 as unknown as NodeJS.Signals);
}

/**
 * Kills the whole tree: SIGTERM now, SIGKILL after `graceMs` for anything still alive (including
 * grandchildren that ignore SIGTERM). Resolves as soon as the group is empty, at the latest after
 * the SIGKILL stage.
 */
export function terminateGroup(pid: number, graceMs: number): Promise<void> {
  signalGroup(pid, 'SIGTERM');
  return new Promise((resolve) => {
    const started = Date.now();
    const check = () => {
      if (!groupAlive(pid)) return resolve();
      if (Date.now() - started >= graceMs) {
        signalGroup(pid, 'SIGKILL');
        return resolve();
      }
      setTimeout(check, Math.min(25, graceMs));
    };
    setTimeout(check, Math.min(10, graceMs));
  });
}
