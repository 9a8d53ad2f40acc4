// Keeps the Inspector's last two runs of each script on disk (as recordings), so a reloaded window shows the last run and can compare it with the one before.
import { createHash } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { metaFileOf, readRecording, writeRecording, type Recording } from './recording.js';

/** The runs kept for one script. */
export interface StoredRuns {
  readonly last?: Recording;
  readonly previous?: Recording;
}

export class ScriptRuns {
  constructor(private readonly directory: string) {}

  /** Saves `recording` as the script's last run; the run that was last becomes the previous one. */
  async save(scriptPath: string, recording: Recording): Promise<void> {
    const { last, previous } = this.files(scriptPath);
    await moveRecording(last, previous);
    await writeRecording(last, recording);
  }

  /** The kept runs; a missing or unreadable file is simply not there (it is a cache). */
  async load(scriptPath: string): Promise<StoredRuns> {
    const { last, previous } = this.files(scriptPath);
    const [lastRun, previousRun] = await Promise.all([readRecording(last).catch(() => undefined), readRecording(previous).catch(() => undefined)]);
    return { ...(lastRun ? { last: lastRun } : {}), ...(previousRun ? { previous: previousRun } : {}) };
  }

  private files(scriptPath: string): { readonly last: string; readonly previous: string } {
    const key = createHash('sha256').update(path.resolve(scriptPath)).digest('hex').slice(0, 16);
    return { last: path.join(this.directory, `${key}.last.ndjson`), previous: path.join(this.directory, `${key}.previous.ndjson`) };
  }
}

/** Renames both files of a recording; a missing source leaves the target removed. */
async function moveRecording(from: string, to: string): Promise<void> {
  await rm(to, { force: true });
  await rm(metaFileOf(to), { force: true });
  await rename(from, to).catch(() => undefined);
  await rename(metaFileOf(from), metaFileOf(to)).catch(() => undefined);
}
