// How many cores other processes keep busy (sampled from the OS, this process's own use taken out), and the CPU threads the model should use then.
import * as os from 'node:os';

/**
 * The threads a generation uses when other processes keep `busyCores` cores busy: the cores left to it (a core more
 * than three quarters free counts), at least one, at most `configured`. llama.cpp's threads wait for each other at
 * every step: one of two threads sharing a core with a busy process held both back (2 threads were 4-6x slower
 * than 1 on this 2-core machine under load, measured).
 */
export function threadsUnderLoad(configured: number, cores: number, busyCores: number): number {
  const free = cores - Math.max(0, busyCores);
  return Math.max(1, Math.min(configured, Math.floor(free + 0.25)));
}

/** CPU time of every core, and this process's, at one moment (ms). */
interface Reading {
  readonly at: number;
  readonly busyMs: number;
  readonly ownMs: number;
}

function read(): Reading {
  let busyMs = 0;
  for (const cpu of os.cpus()) busyMs += cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.irq;
  const own = process.cpuUsage();
  return { at: performance.now(), busyMs, ownMs: (own.user + own.system) / 1000 };
}

/**
 * Samples how many cores other processes keep busy, every `intervalMs` (the timer never keeps the process alive).
 * `busyCores` is the last full interval's figure, 0 before the first.
 */
export class CpuLoadSampler {
  private last: Reading = read();
  private busy = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    intervalMs = 1000,
    private readonly onSample?: (busyCores: number) => void,
  ) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  /** Cores kept busy by other processes over the last interval. */
  get busyCores(): number {
    return this.busy;
  }

  dispose(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    const now = read();
    const elapsed = now.at - this.last.at;
    if (elapsed > 0) {
      const others = now.busyMs - this.last.busyMs - (now.ownMs - this.last.ownMs);
      this.busy = Math.max(0, others / elapsed);
      this.onSample?.(this.busy);
    }
    this.last = now;
  }
}
