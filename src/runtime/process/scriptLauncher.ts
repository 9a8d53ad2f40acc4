// Runs one skill script as its own process group (scriptProcess.ts), streams stdout lines to a handler, enforces timeout/cancel.
import { LineSplitter, DEFAULT_MAX_LINE_BYTES } from '../skillProtocol/lineSplitter.js';
import { monotonicMs } from '../common/monotonicClock.js';
import type { ScriptCommand } from './interpreter.js';
import { signalGroup, terminateGroup, trackProcessGroup, untrackProcessGroup } from './processGroups.js';
import { startScriptProcess } from './scriptProcess.js';

/** What the line handler wants next: keep reading, or stop this invocation (the tree is killed). */
export type LineVerdict = 'continue' | 'stop';

export type StdoutItem =
  | {
      readonly kind: 'line';
      readonly line: string;
      readonly lineNumber: number;
      readonly partial: boolean;
      readonly elapsedMs: number;
      readonly mayHaveReplacements: boolean;
    }
  | { readonly kind: 'oversized'; readonly lineNumber: number; readonly byteLength: number; readonly elapsedMs: number };

export interface LaunchOptions {
  readonly command: ScriptCommand;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Written to stdin as one JSON document, then stdin is closed. */
  readonly stdinText: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly maxLineBytes?: number | undefined;
  /** Delay between SIGTERM and SIGKILL when the tree must die (default 1000 ms). */
  readonly killGraceMs?: number | undefined;
  /** Bytes of stderr kept (the tail) for the result (default 64 KiB). */
  readonly stderrTailBytes?: number | undefined;
  /**
   * Called for each stdout line in order. Returning a promise holds the stream (stdout is paused
   * until it settles) — a debugger uses this to step event by event.
   */
  readonly onStdout: (item: StdoutItem) => LineVerdict | void | Promise<LineVerdict | void>;
  readonly onStderr?: ((text: string) => void) | undefined;
}

export interface LaunchOutcome {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /** True when the handler asked to stop and the tree was killed. */
  readonly stopped: boolean;
  readonly spawnError?: { readonly code: string; readonly message: string } | undefined;
  readonly stderrTail: string;
  readonly durationMs: number;
  readonly pid: number | undefined;
}

/** Starts the script and resolves when it has exited and every stdout line has been handled. */
export async function launchScript(options: LaunchOptions): Promise<LaunchOutcome> {
  const started = monotonicMs();
  const graceMs = options.killGraceMs ?? 1000;
  const tailLimit = options.stderrTailBytes ?? 64 * 1024;
  let timedOut = false;
  let cancelled = false;
  let stopped = false;
  let terminating: Promise<void> | undefined;
  let stderrTail = '';

  if (options.signal?.aborted) {
    return { exitCode: null, signal: null, timedOut, cancelled: true, stopped, stderrTail, durationMs: 0, pid: undefined };
  }

  const starting = startScriptProcess({ command: options.command, cwd: options.cwd, env: options.env, stdinText: options.stdinText });
  const subprocess = starting instanceof Promise ? await starting : starting;
  const pid = subprocess.pid;
  if (pid !== undefined) trackProcessGroup(pid);

  const terminate = (): Promise<void> => {
    if (!terminating) {
      terminating = pid === undefined ? Promise.resolve() : terminateGroup(pid, graceMs);
    }
    return terminating;
  };

  const timer = setTimeout(() => {
    timedOut = true;
    void terminate();
  }, options.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    void terminate();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // Aborted while the process was starting: the listener came too late to hear it.
  if (options.signal?.aborted) onAbort();

  // Lines are queued and handled one at a time; a handler returning a promise pauses stdout.
  const queue: StdoutItem[] = [];
  let head = 0;
  let draining = false;
  let finishedReading!: () => void;
  const readingDone = new Promise<void>((resolve) => (finishedReading = resolve));
  let streamEnded = false;
  const stdout = subprocess.stdout;

  const maybeFinish = () => {
    if (streamEnded && head >= queue.length && !draining) finishedReading();
  };
  const handleVerdict = (verdict: LineVerdict | void) => {
    if (verdict === 'stop' && !stopped) {
      stopped = true;
      void terminate();
    }
  };
  const drain = () => {
    if (draining) return;
    draining = true;
    while (head < queue.length) {
      const item = queue[head++]!;
      if (stopped) continue;
      const verdict = options.onStdout(item);
      if (verdict !== undefined && typeof verdict === 'object' && typeof (verdict as Promise<unknown>).then === 'function') {
        stdout.pause();
        (verdict as Promise<LineVerdict | void>).then(
          (resolved) => {
            handleVerdict(resolved);
            draining = false;
            if (!streamEnded) stdout.resume();
            drain();
          },
          () => {
            handleVerdict('stop');
            draining = false;
            drain();
          },
        );
        return;
      }
      handleVerdict(verdict as LineVerdict | void);
    }
    queue.length = 0;
    head = 0;
    draining = false;
    maybeFinish();
  };

  const elapsed = () => Math.round(monotonicMs() - started);
  let chunkElapsed = 0;
  const splitter = new LineSplitter(
    {
      onLine: (line, lineNumber, partial, mayHaveReplacements) =>
        queue.push({ kind: 'line', line, lineNumber, partial, elapsedMs: chunkElapsed, mayHaveReplacements }),
      onOversizedLine: (lineNumber, byteLength) => queue.push({ kind: 'oversized', lineNumber, byteLength, elapsedMs: chunkElapsed }),
    },
    options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
  );
  stdout.on('data', (chunk: Buffer) => {
    if (stopped) return;
    // Every line of a chunk arrived at the same moment: one clock read per chunk.
    chunkElapsed = elapsed();
    splitter.push(chunk);
    drain();
  });
  stdout.on('end', () => {
    chunkElapsed = elapsed();
    splitter.end();
    streamEnded = true;
    drain();
  });
  stdout.on('error', () => {
    streamEnded = true;
    drain();
  });
  subprocess.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    stderrTail = (stderrTail + text).slice(-tailLimit);
    options.onStderr?.(text);
  });
  // When the main process exits, anything left in its group (stray grandchildren) dies too, so
  // inherited pipes close and nothing outlives the tool.
  // An empty group stays empty: no second kill is needed at the end (and none can hit a reused process id).
  let groupEmpty = false;
  subprocess.onExit(() => {
    if (pid !== undefined) groupEmpty = !signalGroup(pid, 'SIGKILL');
  });

  const result = await subprocess.ended;
  await readingDone;
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  if (terminating) await terminating;
  if (pid !== undefined) {
    if (!groupEmpty) signalGroup(pid, 'SIGKILL');
    untrackProcessGroup(pid);
  }
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut,
    cancelled,
    stopped,
    spawnError: result.spawnError ?? (pid === undefined ? { code: 'SPAWN_FAILED', message: 'The process could not be started' } : undefined),
    stderrTail,
    durationMs: Math.round(monotonicMs() - started),
    pid,
  };
}
