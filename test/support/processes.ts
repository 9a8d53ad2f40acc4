// Test support: whether a process is still alive (a zombie counts as dead) and a patient wait for one to go.
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * True while `pid` is a live process. A zombie (state `Z` in /proc/<pid>/stat: it has exited but no parent
 * has reaped it yet, as happens to a killed grandchild re-parented to PID 1) is dead: it runs no code and
 * holds no resources but its table entry, yet it still answers kill(pid, 0).
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the pid exists but belongs to someone else, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // /proc/<pid>/stat is "pid (comm) state …"; comm may hold spaces or parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    // The entry vanished between the two reads (reaped), or there is no /proc (macOS): kill(0) said alive.
    return process.platform !== 'linux';
  }
}

/**
 * Waits until `pid` is dead (see isProcessAlive) and tells whether it went. The deadline is a safety net,
 * not a timing assertion: 30 s is far beyond what a SIGKILL takes on a loaded 2-core machine, so a test
 * that fails on it has found a process that really survived.
 */
export async function waitForProcessExit(pid: number, deadlineMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) return false;
    await delay(20);
  }
  return true;
}
