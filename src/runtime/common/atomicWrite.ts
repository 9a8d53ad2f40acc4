// Writes files atomically (temp file in the same directory, fsync, rename) so readers never see partial data.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Temp names are unique per process (pid), per write (count) and across threads sharing a pid (random part). */
let temporaryCount = 0;

/** Atomically replaces `filePath` with `content` (pieces are written in order, in one vectored write), creating parent directories as needed. */
export async function writeFileAtomic(filePath: string, content: string | Uint8Array | readonly Uint8Array[]): Promise<void> {
  const directory = path.dirname(filePath);
  const temporary = path.join(
    directory,
    `.${path.basename(filePath)}.${process.pid}.${(temporaryCount++).toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`,
  );
  // The folder is made only when it is missing: a run record is written after every tool, into a folder that exists.
  const handle = await fs.open(temporary, 'w').catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    await fs.mkdir(directory, { recursive: true });
    return fs.open(temporary, 'w');
  });
  try {
    if (Array.isArray(content)) await writePieces(handle, content as readonly Uint8Array[]);
    else await handle.writeFile(content as string | Uint8Array);
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

/** Writes every piece, in order: writev, again from where a short write stopped. */
async function writePieces(handle: fs.FileHandle, pieces: readonly Uint8Array[]): Promise<void> {
  let rest = pieces.filter((piece) => piece.byteLength > 0);
  while (rest.length > 0) {
    let { bytesWritten } = await handle.writev(rest as Uint8Array[]);
    if (bytesWritten === 0) throw new Error(`could not write ${handle.fd}: no progress`);
    let index = 0;
    while (index < rest.length && bytesWritten >= rest[index]!.byteLength) bytesWritten -= rest[index++]!.byteLength;
    rest = rest.slice(index);
    if (bytesWritten > 0) rest[0] = rest[0]!.subarray(bytesWritten);
  }
}

/** Atomically writes `value` as pretty-printed JSON with a trailing newline. */
export async function writeJsonAtomic(filePath: string, value: unknown): Promise<void> {
  await writeFileAtomic(filePath, JSON.stringify(value, null, 2) + '\n');
}
