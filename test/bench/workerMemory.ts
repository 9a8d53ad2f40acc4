// Bench helper (Linux): samples the memory of a model worker started by another process (a `narratoria play` child) every 200 ms: its peak RSS, and the most anonymous and file-backed RSS seen.
import { readdirSync, readFileSync } from 'node:fs';
import { processMemory } from '../../src/runtime/narrator/processMemory.js';

/** The worker's memory over a run, in bytes. */
export interface WorkerMemoryPeak {
  readonly pid: number;
  readonly samples: number;
  /** VmHWM at the last sample: the peak of the worker's resident size. */
  readonly peakRssBytes: number;
  readonly maxAnonBytes: number;
  readonly maxFileBytes: number;
}

/** The child of `parent` whose command line names the model worker. */
function findWorker(parent: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent's pid (after the command in parentheses, which may hold spaces).
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parentPid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parentPid === parent && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('modelWorker')) return Number(entry);
    } catch {
      // the process ended meanwhile
    }
  }
  return undefined;
}

/** Samples the model worker that `parent` starts, until `stop()`. Without /proc it finds nothing and stops with undefined. */
export class WorkerMemorySampler {
  private worker: number | undefined;
  private samples = 0;
  private peakRssBytes = 0;
  private maxAnonBytes = 0;
  private maxFileBytes = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly parent: number,
    intervalMs = 200,
  ) {
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): WorkerMemoryPeak | undefined {
    clearInterval(this.timer);
    if (this.worker === undefined || this.samples === 0) return undefined;
    const { worker: pid, samples, peakRssBytes, maxAnonBytes, maxFileBytes } = this;
    return { pid, samples, peakRssBytes, maxAnonBytes, maxFileBytes };
  }

  private sample(): void {
    if (process.platform !== 'linux') return;
    this.worker ??= findWorker(this.parent);
    if (this.worker === undefined) return;
    const memory = processMemory(this.worker);
    if (!memory) return;
    this.samples++;
    this.peakRssBytes = Math.max(this.peakRssBytes, memory.peakRssBytes);
    this.maxAnonBytes = Math.max(this.maxAnonBytes, memory.anonBytes ?? 0);
    this.maxFileBytes = Math.max(this.maxFileBytes, memory.fileBytes ?? 0);
  }
}
