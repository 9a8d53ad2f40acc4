// Tracks the process groups of running scripts and kills whole trees (SIGTERM, then SIGKILL after a grace period).
import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { reaperAdd, reaperRemove } from './processReaper.js';

const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Registers a process-group leader so it is killed if this process exits first: by the exit hook when this process
 * exits normally, and by the reaper (processReaper.ts) when it dies without running its exit hooks (SIGKILL, the OOM
 * killer, a crashed host).
 */
export function trackProcessGroup(pid: number): void {
  liveGroups.add(pid);
  reaperAdd(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const group of liveGroups) signalGroup(group, 'SIGKILL');
    });
  }
}

export function untrackProcessGroup(pid: number): void {
  liveGroups.delete(pid);
  reaperRemove(pid);
}

/** Node's raw kill (process.kill without the exception): an errno, 0 on success. Absent on other runtimes. */
const rawKill = (process as unknown as { _kill?: (pid: number, signal: number) => number })._kill;
const { signals } = constants;

/**
 * Sends `signal` to every process of the group led by `pid`; false when none is left. A tool's group is usually
 * empty by the time it is signalled, so the common answer comes without building an exception (bench b2).
 */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  const target = process.platform === 'win32' ? pid : -pid;
  const number = signal === 0 ? 0 : signals[signal];
  if (typeof rawKill === 'function' && number !== undefined) return rawKill.call(process, target, number) === 0;
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    process.kill(target, signal);
    return true;
  } catch {
    return false;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/**
 * True while any process of the group is alive. A zombie is dead: where nothing reaps orphans (a container whose
 * first process does not), an exited grandchild stays in the group as a zombie, and the group would seem alive for
 * the whole grace period. On Linux the members are read from /proc when the group still answers the null signal.
 */
export function groupAlive(pid: number): boolean {
  if (!signalGroup(pid, 0)) return false;
  return process.platform !== 'linux' || groupHasLiveMember(pid);
}

/** Whether some process of group `pid` is not a zombie (by /proc/<pid>/stat); true when /proc cannot be read. */
function groupHasLiveMember(pid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    const code = entry.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // gone since the listing
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so fields are read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
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
