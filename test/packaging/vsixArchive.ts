// Reads a VSIX (a zip) for the packaging tests: its entries with sizes, the head of each file, and whole small files.
import yauzl from 'yauzl';

export interface ArchiveEntry {
  readonly name: string;
  readonly size: number;
  /** The first bytes of the file (up to HEAD_BYTES): enough for an ELF, PE or Mach-O header. */
  readonly head: Buffer;
}

const HEAD_BYTES = 4096;

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (error, zip) =>
      error || !zip ? reject(error ?? new Error(`cannot open ${file}`)) : resolve(zip),
    ),
  );
}

function readStart(zip: yauzl.ZipFile, entry: yauzl.Entry, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(error ?? new Error(`cannot read ${entry.fileName}`));
      const chunks: Buffer[] = [];
      let length = 0;
      stream.on('data', (chunk: Buffer) => {
        if (length < limit) {
          chunks.push(chunk);
          length += chunk.length;
        }
      });
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(chunks).subarray(0, limit)));
    });
  });
}

/** Every file entry of the archive, with the head of each file; `whole` (names, or a test of a name) picks the files read completely. */
export async function readArchive(
  file: string,
  whole: readonly string[] | ((name: string) => boolean) = [],
): Promise<{ entries: ArchiveEntry[]; files: Map<string, Buffer> }> {
  const readWhole = typeof whole === 'function' ? whole : (name: string) => whole.includes(name);
  const zip = await openZip(file);
  const entries: ArchiveEntry[] = [];
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) return zip.readEntry();
      const wanted = readWhole(entry.fileName);
      readStart(zip, entry, wanted ? Number.MAX_SAFE_INTEGER : HEAD_BYTES).then((bytes) => {
        entries.push({ name: entry.fileName, size: entry.uncompressedSize, head: bytes.subarray(0, HEAD_BYTES) });
        if (wanted) files.set(entry.fileName, bytes);
        zip.readEntry();
      }, reject);
    });
    zip.readEntry();
  });
  return { entries, files };
}
