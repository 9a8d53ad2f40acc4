// Finds playtest files: every **/*.playtest.json under a folder, skipping node_modules, .narratoria and .git, in a stable order.
import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { PLAYTEST_SUFFIX } from './playtestDocument.js';

/** Folders never searched: dependencies, the runtime's own records (copies of playtests may sit there), version control. */
const SKIPPED = new Set(['node_modules', '.narratoria', '.git']);

/** Whether a file lies in a folder never searched (its path's folders name one). */
export function inSkippedFolder(file: string): boolean {
  return file
    .split(/[\\/]/)
    .slice(0, -1)
    .some((folder) => SKIPPED.has(folder));
}

/** The folders never searched as one glob pattern, for a host's own file search (VS Code's findFiles). */
export function skippedFoldersGlob(): string {
  return `{${[...SKIPPED].map((folder) => `**/${folder}/**`).join(',')}}`;
}

/** Whether a file name is a playtest's. */
export function isPlaytestFile(file: string): boolean {
  return path.basename(file).toLowerCase().endsWith(PLAYTEST_SUFFIX);
}

/** The playtest files under `folder`, sorted by path. */
export async function findPlaytests(folder: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (directory: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) await visit(full);
      } else if (entry.isFile() && isPlaytestFile(entry.name)) {
        found.push(full);
      }
    }
  };
  await visit(folder);
  return found.sort();
}

/** The files that FILE and DIR arguments name (a folder: its playtests). Throws with a reason for a path that does not exist. */
export async function resolvePlaytestArguments(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const given of paths) {
    let info;
    try {
      info = await stat(given);
    } catch {
      throw new Error(`${given}: no such file or folder`);
    }
    if (info.isDirectory()) files.push(...(await findPlaytests(given)));
    else files.push(given);
  }
  return [...new Set(files)];
}
