// A new story folder (`narratoria init`): the sample skills, an example plan and playtest, a README, and a starter campaign if asked. Never deletes; replaces a file only when asked.
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { EXAMPLE_PLAN_FOLDER, examplePlanText, STARTER_EXAMPLE_PLAN } from './examplePlan.js';
import { STARTER_PLAYTEST, starterPlaytestText, starterReadmeText } from './storyStarter.js';
import { starterCampaignFiles, starterCampaignReadme, type StarterCampaign } from '../campaign/starterCampaigns.js';
import { starterPlaythroughFiles } from '../campaign/starterPlaythrough.js';

/** One file of the new story: copied from `source`, or holding `text` or `bytes`. */
export interface ScaffoldFile {
  /** Its path in the story, with `/` separators. */
  readonly path: string;
  readonly source?: string;
  readonly text?: string;
  readonly bytes?: Uint8Array;
}

export interface ScaffoldSources {
  /** The sample skills shipped with Narratoria (`<install>/skills`). */
  readonly sampleSkillsDirectory: string;
  /** The example plans shipped with Narratoria (`<install>/contracts/examples`). */
  readonly examplesDirectory: string;
}

/** What a folder holds before `init`: whether it may be filled without --force. */
export type FolderState =
  | { readonly kind: 'missing' }
  | { readonly kind: 'notFolder' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'notEmpty'; readonly entries: readonly string[] };

export interface WrittenFile {
  readonly path: string;
  /** A file of that name was there and was replaced (only with `replace`). */
  readonly replaced: boolean;
}

export interface ScaffoldResult {
  readonly written: readonly WrittenFile[];
  /** The file that could not be written, and why (the files before it were written). */
  readonly failure?: { readonly path: string; readonly message: string };
}

/** A sample skill's files that are not part of it: what it saved while running, and a configuration that may hold secrets. */
const SKIPPED_IN_SKILL = new Set(['data', 'config.json', 'node_modules']);

/**
 * Every file of a new story, in the order they are written (README last: a story with a README is complete). With
 * `campaign`, the story's folder is also a campaign: the starter campaign's files, and a README section about it.
 */
export async function storyScaffoldFiles(sources: ScaffoldSources, storyName: string, campaign?: StarterCampaign): Promise<ScaffoldFile[]> {
  const files: ScaffoldFile[] = [];
  const skills = (await readdir(sources.sampleSkillsDirectory, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const skill of skills) {
    for (const relative of await filesUnder(path.join(sources.sampleSkillsDirectory, skill), true)) {
      files.push({ path: `skills/${skill}/${relative}`, source: path.join(sources.sampleSkillsDirectory, skill, ...relative.split('/')) });
    }
  }
  const plan = `${EXAMPLE_PLAN_FOLDER}/${STARTER_EXAMPLE_PLAN}`;
  files.push({ path: plan, text: await examplePlanText(sources.examplesDirectory) });
  files.push({ path: STARTER_PLAYTEST, text: starterPlaytestText() });
  // What the story keeps while it plays (sessions and their skills' data, run records, logs) stays out of git.
  files.push({ path: '.gitignore', text: "# Narratoria: saved sessions, their skills' data, run records and logs\n.narratoria/\n" });
  if (campaign !== undefined) files.push(...starterCampaignFiles(campaign));
  if (campaign === 'complete') files.push(...starterPlaythroughFiles());
  const readme = starterReadmeText(storyName, plan);
  files.push({ path: 'README.md', text: campaign === undefined ? readme : `${readme}\n${starterCampaignReadme(campaign)}` });
  return files;
}

/** The files under `directory` (relative, `/`-separated, sorted); at a skill's top, its data and configuration are left out. */
async function filesUnder(directory: string, skillTop: boolean): Promise<string[]> {
  const found: string[] = [];
  for (const entry of (await readdir(directory, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (skillTop && SKIPPED_IN_SKILL.has(entry.name)) continue;
    if (entry.isDirectory()) found.push(...(await filesUnder(path.join(directory, entry.name), false)).map((inner) => `${entry.name}/${inner}`));
    else if (entry.isFile()) found.push(entry.name);
  }
  return found;
}

/** Whether `folder` is there, and what it holds (names only). */
export async function folderState(folder: string): Promise<FolderState> {
  try {
    if (!(await lstat(folder)).isDirectory()) return { kind: 'notFolder' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  const entries = (await readdir(folder)).sort();
  return entries.length === 0 ? { kind: 'empty' } : { kind: 'notEmpty', entries };
}

/**
 * The paths (in the story) where something is in the way of a file: a folder where a file goes, or a file (or link)
 * where a folder goes. Nothing is written while there are any, since writing would need deleting.
 */
export async function scaffoldConflicts(root: string, files: readonly ScaffoldFile[]): Promise<string[]> {
  const conflicts = new Set<string>();
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.path.split('/');
    for (let depth = 1; depth < parts.length; depth++) folders.add(parts.slice(0, depth).join('/'));
  }
  for (const folder of folders) {
    const kind = await entryKind(path.join(root, ...folder.split('/')));
    if (kind !== 'missing' && kind !== 'folder') conflicts.add(folder);
  }
  for (const file of files) {
    const kind = await entryKind(path.join(root, ...file.path.split('/')));
    if (kind !== 'missing' && kind !== 'file') conflicts.add(file.path);
  }
  return [...conflicts].sort();
}

async function entryKind(target: string): Promise<'missing' | 'file' | 'folder' | 'other'> {
  try {
    const stats = await lstat(target);
    return stats.isFile() ? 'file' : stats.isDirectory() ? 'folder' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a file stands where a folder above it goes; that folder is reported.
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    throw error;
  }
}

/**
 * Writes `files` under `root` (created if needed). Without `replace`, an existing file stops the writing at that
 * file (EEXIST), never overwritten; with it, a file of the same name is replaced and reported as such. Nothing is
 * ever deleted. Scripts keep their mode (copyFile copies it).
 */
export async function writeStoryScaffold(root: string, files: readonly ScaffoldFile[], replace: boolean): Promise<ScaffoldResult> {
  const written: WrittenFile[] = [];
  for (const file of files) {
    const target = path.join(root, ...file.path.split('/'));
    try {
      const replaced = replace && (await entryKind(target)) === 'file';
      await mkdir(path.dirname(target), { recursive: true });
      if (file.source !== undefined) await copyFile(file.source, target, replace ? 0 : constants.COPYFILE_EXCL);
      else await writeFile(target, file.bytes ?? file.text ?? '', { flag: replace ? 'w' : 'wx' });
      written.push({ path: file.path, replaced });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return {
        written,
        failure: { path: file.path, message: code === 'EEXIST' ? 'a file of that name is already there' : (code ?? (error as Error).message) },
      };
    }
  }
  return { written };
}
