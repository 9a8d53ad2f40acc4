// The reaper: a small process per runtime that outlives it. The runtime tells it over a pipe each process group it starts and ends; it kills those left when the runtime dies.
// It learns of the death as end-of-file on the pipe, so any death counts, SIGKILL included; it then kills the groups it holds and exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

/** How the Node reaper reads its pipe: `+pid` / `-pid` lines into `groups`, then `reap()` at end-of-file. */
const NODE_REAPER_READER = `
const groups = new Set();
let pending = '';
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  for (let end = pending.indexOf('\\n'); end >= 0; end = pending.indexOf('\\n')) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    const pid = Number(line.slice(1));
    if (!Number.isInteger(pid) || pid <= 1) continue;
    if (line[0] === '+') groups.add(pid);
    else if (line[0] === '-') groups.delete(pid);
  }
});
process.stdin.on('end', () => (groups.size === 0 ? process.exit(0) : reap()));
`;

/**
 * The reaper's program (run with `node -e`, so no file has to ship beside the bundles). It ignores the signals a
 * terminal sends to its foreground group, holds `+pid` / `-pid` lines, and on end-of-file sends SIGTERM to every
 * group it holds, then SIGKILL half a second later, and exits.
 */
export const REAPER_PROGRAM = `${NODE_REAPER_READER}
const signalAll = (signal) => { for (const pid of groups) { try { process.kill(-pid, signal); } catch {} } };
function reap() {
  signalAll('SIGTERM');
  setTimeout(() => { signalAll('SIGKILL'); process.exit(0); }, 500);
}
`;

/**
 * The reaper on Windows, which has no process groups and whose Node offers no Job object: at end-of-file it ends each
 * script it holds with its whole tree (`taskkill /T /F`, which ships with Windows), then exits. A grandchild whose
 * parent already exited is no longer in that tree: the limit of this design against a Job object with kill-on-close.
 */
export const REAPER_WINDOWS_PROGRAM = `${NODE_REAPER_READER}
const { spawnSync } = require('node:child_process');
function reap() {
  for (const pid of groups) {
    try { spawnSync('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true }); } catch {}
  }
  process.exit(0);
}
`;

/**
 * The same program in bash, used when /bin/bash exists: it starts in ~2 ms where Node takes ~40 ms of CPU, which a
 * 2-core machine running scripts notices (bench b2). Groups are kept as a space-separated list.
 */
export const REAPER_SCRIPT = `
trap '' INT TERM HUP
groups=' '
while IFS= read -r line; do
  pid=\${line#?}
  case $pid in ''|*[!0-9]*) continue;; esac
  case $line in
    +*) groups="$groups$pid ";;
    -*) groups=\${groups/ $pid / };;
  esac
done
[ "$groups" = ' ' ] && exit 0
for group in $groups; do kill -TERM -- "-$group" 2>/dev/null; done
sleep 0.5
for group in $groups; do kill -KILL -- "-$group" 2>/dev/null; done
exit 0
`;

const BASH = '/bin/bash';

/**
 * The same program in Perl, preferred where /usr/bin/perl exists (Debian's perl-base is essential, macOS ships it): it
 * starts in ~2 ms and reads its pipe in blocks, where bash's read takes a system call per byte (bench b2). After each
 * read it sleeps 50 ms: a write to a pipe wakes the reader waiting on it, and that wake-up (a context switch, on a
 * busy machine often a wait for the CPU) was most of what the runtime's writes cost. Lines written meanwhile wait in
 * the pipe; the runtime's end is seen at most 50 ms later. Lines that are not `+pid` or `-pid` are ignored.
 */
export const REAPER_PERL = [
  "$SIG{INT} = $SIG{TERM} = $SIG{HUP} = 'IGNORE';",
  "my %groups; my $pending = '';",
  'while (sysread(STDIN, my $chunk, 65536)) {',
  '$pending .= $chunk;',
  'while ((my $end = index($pending, "\\n")) >= 0) { my $line = substr($pending, 0, $end + 1, \'\'); chomp $line;',
  'if ($line =~ /^\\+(\\d+)$/) { $groups{$1} = 1 } elsif ($line =~ /^-(\\d+)$/) { delete $groups{$1} } }',
  'select(undef, undef, undef, 0.05); }',
  'exit 0 unless %groups;',
  'kill "-TERM", grep { $_ > 1 } keys %groups;',
  'select(undef, undef, undef, 0.5);',
  'kill "-KILL", grep { $_ > 1 } keys %groups;',
].join(' ');
const PERL = '/usr/bin/perl';

let reaper: ChildProcess | undefined;
let failed = false;

/** Starts the reaper on first use: perl, else bash, else Node on POSIX; Node with taskkill on Windows. */
function reaperProcess(): ChildProcess | undefined {
  if (reaper || failed) return reaper;
  try {
    // Its own process group (detached): Ctrl+C in a terminal reaches the runtime, not the reaper. ELECTRON_RUN_AS_NODE:
    // inside VS Code, process.execPath is Electron.
    const [command, args] = reaperCommand();
    const env: Record<string, string> = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ELECTRON_RUN_AS_NODE: '1' };
    // taskkill lives in %SystemRoot%\System32, which Windows finds through these.
    for (const name of ['SystemRoot', 'SYSTEMROOT', 'windir', 'PATHEXT', 'ComSpec']) if (process.env[name] !== undefined) env[name] = process.env[name]!;
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'ignore'], detached: true, windowsHide: true, env });
    child.on('error', () => {
      failed = true;
      reaper = undefined;
    });
    child.stdin!.on('error', () => undefined);
    // Never keeps the runtime alive: neither the process nor its pipe.
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    reaper = child;
  } catch {
    failed = true;
  }
  return reaper;
}

function reaperCommand(): [string, string[]] {
  if (process.platform === 'win32') return [process.execPath, ['-e', REAPER_WINDOWS_PROGRAM]];
  if (existsSync(PERL)) return [PERL, ['-e', REAPER_PERL]];
  if (existsSync(BASH)) return [BASH, ['-c', REAPER_SCRIPT]];
  return [process.execPath, ['-e', REAPER_PROGRAM]];
}

/** Groups started and ended since the last write, sent together once per event-loop turn. */
const pendingAdds = new Set<number>();
const pendingRemoves = new Set<number>();
let flushScheduled = false;

/**
 * Tells the reaper a process group was started: it is killed if this process dies before saying it ended. The line
 * goes out at the end of this event-loop turn, with the others of the turn (one pipe write, one wake-up of the
 * reaper: bench b2); a group that starts and ends within one turn is never sent.
 */
export function reaperAdd(pid: number): void {
  if (!reaperProcess()) return;
  pendingRemoves.delete(pid);
  pendingAdds.add(pid);
  scheduleFlush();
}

/** Tells the reaper a process group ended (or was killed by the runtime itself). */
export function reaperRemove(pid: number): void {
  if (!reaper) return;
  if (pendingAdds.delete(pid)) return;
  pendingRemoves.add(pid);
  scheduleFlush();
}

function scheduleFlush(): void {
  if (flushScheduled) return;
  flushScheduled = true;
  // setImmediate: after this turn's I/O callbacks, so the spawns and exits of one turn share a write. Referenced: an
  // unreferenced immediate does not wake the event loop, so the write waited for the next I/O event, and a silent
  // script's group stayed unknown to the reaper until then. It runs in this loop iteration, so it never keeps the
  // runtime alive.
  setImmediate(flushToReaper);
}

/** Writes what is pending now (also called by the tests). */
export function flushToReaper(): void {
  flushScheduled = false;
  if (pendingAdds.size === 0 && pendingRemoves.size === 0) return;
  let lines = '';
  for (const pid of pendingAdds) lines += `+${pid}\n`;
  for (const pid of pendingRemoves) lines += `-${pid}\n`;
  pendingAdds.clear();
  pendingRemoves.clear();
  reaper?.stdin?.write(lines);
}

/** The reaper's pid, for tests. */
export function reaperPid(): number | undefined {
  return reaper?.pid;
}
