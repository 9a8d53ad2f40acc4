// A skill's sample inputs: the `samples/*.json` files that Run, Debug and Inspect Skill Script offer, sorted by name.
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';

/** Absolute paths of the skill's `samples/*.json`, sorted; none when the folder is missing. */
export async function sampleInputFiles(skillDirectory: string): Promise<string[]> {
  const directory = path.join(skillDirectory, 'samples');
  const files = await readdir(directory).catch(() => [] as string[]);
  return files
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => path.join(directory, file));
}
