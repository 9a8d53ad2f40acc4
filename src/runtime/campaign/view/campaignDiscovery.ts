// Finds the campaigns of a workspace: each workspace folder, or a folder up to two levels below it, that a campaign format recognizes; and which campaign holds a file.
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { isPathInside } from '../../common/pathContainment.js';
import type { CampaignFormat } from '../campaignModel.js';
import { CAMPAIGN_FOLDERS, STORY_FOLDERS } from '../folderLayout.js';
import { CAMPAIGN_FORMATS, detectCampaignFormat } from '../index.js';

/** How deep below a workspace folder campaigns are looked for (the folder itself is depth 0). */
export const CAMPAIGN_SEARCH_DEPTH = 2;

/** Folders never searched: hidden ones, a story's own folders, a campaign's parts. */
const SKIPPED: ReadonlySet<string> = new Set([...STORY_FOLDERS, ...CAMPAIGN_FOLDERS, 'build', 'target', 'vendor']);

export interface CampaignSearch {
  readonly depth?: number;
  readonly formats?: readonly CampaignFormat[];
}

/**
 * The campaign folders (absolute, sorted) in `roots` and up to `depth` levels below them. A campaign's own folders are
 * not searched further; links to folders are not followed; a folder that cannot be read is skipped.
 */
export async function findCampaignFolders(roots: readonly string[], search: CampaignSearch = {}): Promise<string[]> {
  const depth = search.depth ?? CAMPAIGN_SEARCH_DEPTH;
  const formats = search.formats ?? CAMPAIGN_FORMATS;
  const found = new Set<string>();
  const visit = async (folder: string, level: number): Promise<void> => {
    if (await detectCampaignFormat(folder, formats)) {
      found.add(folder);
      return;
    }
    if (level >= depth) return;
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    const folders = entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !SKIPPED.has(entry.name));
    await Promise.all(folders.map((entry) => visit(path.join(folder, entry.name), level + 1)));
  };
  await Promise.all(roots.map((root) => visit(path.resolve(root), 0)));
  return [...found].sort();
}

/** The campaign of `campaignFolders` that holds `file` (the deepest one), if any. */
export function campaignHolding(campaignFolders: readonly string[], file: string): string | undefined {
  let best: string | undefined;
  for (const folder of campaignFolders)
    if (isPathInside(file, folder, { allowSame: true }) && (best === undefined || folder.length > best.length)) best = folder;
  return best;
}
