// Finding the campaigns of an editor's workspace: which manifest.json folders are campaigns, and which campaign a file belongs to.
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { isPathInside } from '../../common/pathContainment.js';
import { detectCampaignFormat } from '../index.js';
import { CAMPAIGN_FOLDERS, MANIFEST_FILE } from '../folderLayout.js';
import { campaignJson } from './campaignJson.js';
import { asRecord } from '../modelReading.js';

/** How deep below a workspace folder a campaign may sit: the folder itself, a child or a grandchild. */
export const CAMPAIGN_DEPTH = 2;

/** Folders only a campaign has (art/ and music/ are common elsewhere). */
const CONTENT_FOLDERS: readonly string[] = CAMPAIGN_FOLDERS.filter((folder) => folder !== 'art' && folder !== 'music');

/** The manifests of possible campaigns, relative to a workspace folder (a glob). */
export const MANIFEST_GLOB = `{${Array.from({ length: CAMPAIGN_DEPTH + 1 }, (_, depth) => `${'*/'.repeat(depth)}${MANIFEST_FILE}`).join(',')}}`;

/** The folders whose creation or removal can make a folder a campaign or stop it being one (a glob, like MANIFEST_GLOB). */
export const CONTENT_FOLDERS_GLOB = `{${Array.from({ length: CAMPAIGN_DEPTH + 1 }, (_, depth) =>
  CONTENT_FOLDERS.map((folder) => `${'*/'.repeat(depth)}${folder}`),
)
  .flat()
  .join(',')}}`;

/**
 * Whether `folder` (absolute) holds a campaign an editor should check. A format must recognise it (a manifest.json),
 * and since many projects have a manifest.json of another kind (web apps, browser extensions), the folder must also
 * look like a story: world/, characters/, plot/ or lore/ beside the manifest, or a manifest with a `title` and no
 * `manifest_version` (a browser extension's).
 */
export async function looksLikeCampaign(folder: string): Promise<boolean> {
  if (!(await detectCampaignFormat(folder))) return false;
  for (const name of CONTENT_FOLDERS) {
    if (await isFolder(path.join(folder, name))) return true;
  }
  let text: string;
  try {
    text = await readFile(path.join(folder, MANIFEST_FILE), 'utf8');
  } catch {
    return false;
  }
  const manifest = asRecord(campaignJson(MANIFEST_FILE, text).value);
  return typeof manifest?.['title'] === 'string' && !Object.hasOwn(manifest, 'manifest_version');
}

/** The campaign (of `folders`, absolute) that `file` (absolute) belongs to: the deepest folder holding it. */
export function campaignFolderOf(folders: Iterable<string>, file: string): string | undefined {
  let found: string | undefined;
  for (const folder of folders) {
    if (isPathInside(file, folder, { allowSame: true }) && (found === undefined || folder.length > found.length)) found = folder;
  }
  return found;
}

/** A file's path relative to its campaign's folder, with / separators ('' for the folder itself). */
export function campaignRelative(folder: string, file: string): string {
  return path.relative(folder, file).split(path.sep).join('/');
}

async function isFolder(candidate: string): Promise<boolean> {
  try {
    return (await stat(candidate)).isDirectory();
  } catch {
    return false;
  }
}
