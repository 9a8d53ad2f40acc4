// The story root of a plan file: the nearest ancestor folder with a skills/ folder, else a fallback (the workspace folder).
import { statSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The nearest ancestor of `planFile` (its own folder first) that holds a `skills/` folder; when none
 * does, `fallback`, or else the plan's own folder. Relative toolPaths of the plan resolve against it.
 */
export function findStoryRoot(planFile: string, fallback?: string): string {
  let directory = path.dirname(path.resolve(planFile));
  for (;;) {
    if (isDirectory(path.join(directory, 'skills'))) return directory;
    const parent = path.dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return fallback ?? path.dirname(path.resolve(planFile));
}

function isDirectory(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}
