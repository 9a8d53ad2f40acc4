// New Campaign: writes a starter campaign (the files of `narratoria init --campaign`) into a folder, never over anything that is there.
import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import { scaffoldConflicts, writeStoryScaffold, type ScaffoldResult } from '../../authoring/storyScaffold.js';
import { starterCampaignFiles, type StarterCampaign } from '../starterCampaigns.js';
import { MANIFEST_FILE } from '../folderLayout.js';

/** The starter campaigns as a picker shows them. */
export const STARTER_CHOICES: readonly { readonly kind: StarterCampaign; readonly label: string; readonly detail: string }[] = [
  {
    kind: 'complete',
    label: 'Complete: The Salt Lantern',
    detail: 'Every part of the format: world, three NPCs, a player template, six beats, endings, lore, art and music.',
  },
  {
    kind: 'minimal',
    label: 'Minimal: The Night Train to Wrenhollow',
    detail: 'Three files: manifest.json, world/setting.md and plot/premise.md. The narrator invents the rest.',
  },
];

/** What writing a starter campaign into a folder would do. */
export type NewCampaignPlan =
  | { readonly kind: 'ready'; readonly files: readonly string[] }
  /** The folder is a campaign already (it has a manifest.json). */
  | { readonly kind: 'isCampaign' }
  /** Files or folders of the starter are there already: nothing is written. */
  | { readonly kind: 'conflicts'; readonly paths: readonly string[] };

/** Whether the starter `kind` can be written into `folder` (absolute; it may not exist yet). */
export async function planNewCampaign(folder: string, kind: StarterCampaign): Promise<NewCampaignPlan> {
  if (await pathExists(path.join(folder, MANIFEST_FILE))) return { kind: 'isCampaign' };
  const files = starterCampaignFiles(kind);
  const blocked = await scaffoldConflicts(folder, files);
  const existing = await Promise.all(files.map(async (file) => ((await pathExists(path.join(folder, ...file.path.split('/')))) ? file.path : undefined)));
  const paths = [...new Set([...blocked, ...existing.filter((file): file is string => file !== undefined)])].sort();
  return paths.length > 0 ? { kind: 'conflicts', paths } : { kind: 'ready', files: files.map((file) => file.path) };
}

/** Writes the starter `kind` into `folder` (created if needed); an existing file stops the writing, never replaced. */
export async function writeNewCampaign(folder: string, kind: StarterCampaign): Promise<ScaffoldResult> {
  return writeStoryScaffold(folder, starterCampaignFiles(kind), false);
}

async function pathExists(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch {
    return false;
  }
}
