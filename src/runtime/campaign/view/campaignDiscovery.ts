// Finds the campaigns of a workspace by walking it: each folder, or one up to two levels below, that looks like a campaign to the editor.
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { CAMPAIGN_DEPTH, campaignFolderOf, looksLikeCampaign } from '../authoring/campaignDiscovery.js';
import { CAMPAIGN_FOLDERS, STORY_FOLDERS } from '../folderLayout.js';

/** Folders never searched: hidden ones, a story's own folders, a campaign's parts. */
const SKIPPED: ReadonlySet<string> = new Set([...STORY_FOLDERS, ...CAMPAIGN_FOLDERS, 'build', 'target', 'vendor']);

/**
 * The campaign folders (absolute, sorted) in `roots` and up to `depth` levels below them, by the editor's test
 * ({@link looksLikeCampaign}: a web app's manifest.json is no campaign). A campaign's own folders are not searched
 * further; links to folders are not followed; a folder that cannot be read is skipped.
 */
export async function findCampaignFolders(roots: readonly string[], depth: number = CAMPAIGN_DEPTH): Promise<string[]> {
  const found = new Set<string>();
  const visit = async (folder: string, level: number): Promise<void> => {
    if (await looksLikeCampaign(folder)) {
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
export const campaignHolding = (campaignFolders: readonly string[], file: string): string | undefined => campaignFolderOf(campaignFolders, file);
