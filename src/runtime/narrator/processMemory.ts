// A process's resident memory: now, at its peak, and (on Linux) split into anonymous memory and mapped files; read from /proc or from Node.
import { readFileSync } from 'node:fs';

/** Resident memory of a process, in bytes. */
export interface ProcessMemory {
  /** Resident now (VmRSS). */
  readonly rssBytes: number;
  /** Resident at the peak so far (VmHWM; maxRSS where there is no /proc). */
  readonly peakRssBytes: number;
  /** Anonymous memory (RssAnon): what only this process holds (contexts, caches, weights copied in). Linux only. */
  readonly anonBytes?: number;
  /** Pages of mapped files (RssFile): the page cache can give them back. Linux only. */
  readonly fileBytes?: number;
}

/** Parses /proc/<pid>/status; undefined when a field is missing (the process is exiting). */
export function parseProcStatus(text: string): ProcessMemory | undefined {
  const kilobytes = (key: string): number | undefined => {
    const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
    return match ? Number(match[1]) * 1024 : undefined;
  };
  const rssBytes = kilobytes('VmRSS');
  const peakRssBytes = kilobytes('VmHWM');
  if (rssBytes === undefined || peakRssBytes === undefined) return undefined;
  const anonBytes = kilobytes('RssAnon');
  const fileBytes = kilobytes('RssFile');
  return { rssBytes, peakRssBytes, ...(anonBytes !== undefined ? { anonBytes } : {}), ...(fileBytes !== undefined ? { fileBytes } : {}) };
}

/** The memory of process `pid` (Linux: /proc), or undefined when it cannot be read. */
export function processMemory(pid: number): ProcessMemory | undefined {
  try {
    return parseProcStatus(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** This process's memory: /proc where there is one, else Node's own figures (no anonymous/file split). */
export function ownMemory(): ProcessMemory {
  const fromProc = process.platform === 'linux' ? processMemory(process.pid) : undefined;
  if (fromProc) return fromProc;
  const rssBytes = process.memoryUsage.rss();
  // maxRSS is in kilobytes on every platform Node supports.
  return { rssBytes, peakRssBytes: Math.max(rssBytes, process.resourceUsage().maxRSS * 1024) };
}
