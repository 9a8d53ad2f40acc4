// Writes files atomically (temp file in the same directory, fsync, rename) so readers never see partial data.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Temp names are unique per process (pid), per write (count) and across threads sharing a pid (random part). */
let temporaryCount = 0;

/** Atomically replaces `filePath` with `content`, creating parent directories as needed. */
export async function writeFileAtomic(filePath: string, content: string | Uint8Array): Promise<void> {
  const directory = path.dirname(filePath);
  await fs.mkdir(directory, { recursive: true });
  const temporary = path.join(
    directory,
    `.${path.basename(filePath)}.${process.pid}.${(temporaryCount++).toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`,
  );
  const handle = await fs.open(temporary, 'w');
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(temporary, filePath);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

/** Atomically writes `value` as pretty-printed JSON with a trailing newline. */
export async function writeJsonAtomic(filePath: string, value: unknown): Promise<void> {
  await writeFileAtomic(filePath, JSON.stringify(value, null, 2) + '\n');
}
