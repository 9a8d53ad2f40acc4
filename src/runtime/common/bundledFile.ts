// Where a file the runtime reads at run time lies: beside the bundle in dist/ when running bundled, else beside the source module that asks.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `bundledPath` (relative to the bundle's folder) when running from a bundle that has it, else `sourceName` beside the
 * module whose `import.meta.url` is `sourceUrl` (only reached from sources: a bundle has no `import.meta.url`, and then
 * this throws).
 */
export function bundledOrSourceFile(bundledPath: string, sourceName: string, sourceUrl: string): string {
  if (typeof __dirname === 'string') {
    const bundled = path.join(__dirname, bundledPath);
    if (existsSync(bundled)) return bundled;
  }
  return fileURLToPath(new URL(sourceName, sourceUrl));
}

/** A loader that reads its data file on first call and keeps the result: null when the file is missing or unreadable (callers then work without it). */
export function loadedOnce<T>(file: () => string, load: (file: string) => T | null): () => T | null {
  let loaded: T | null | undefined;
  return () => {
    if (loaded === undefined) {
      let found: string | undefined;
      try {
        found = file();
      } catch {
        // A bundle without the file (and so no source beside it either).
      }
      loaded = found ? load(found) : null;
    }
    return loaded;
  };
}
