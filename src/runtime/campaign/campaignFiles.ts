// Lists a campaign folder: the files of its known folders (nested), its root files and folders, and what could not be read. The only directory walk of campaigns.
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { CAMPAIGN_FOLDERS } from './folderLayout.js';

export interface ListedFile {
  /** Campaign-relative path with / separators. */
  readonly path: string;
  readonly size: number;
}

export interface FolderListing {
  /** Every file under the campaign's folders, plus the files at its root; sorted by path. */
  readonly files: readonly ListedFile[];
  /** Every folder walked below the root (campaign-relative), sorted. */
  readonly folders: readonly string[];
  /** The names of all folders at the root, known or not (hidden ones left out). */
  readonly rootFolders: readonly string[];
  /** Entries that could not be read, and why. */
  readonly unreadable: readonly { readonly path: string; readonly message: string }[];
}

const KNOWN_FOLDERS: ReadonlySet<string> = new Set(CAMPAIGN_FOLDERS);

/** Lists `folder` (absolute). Hidden entries (a leading dot) are skipped; a link is followed to a file, never to a folder. */
export async function listCampaignFolder(folder: string): Promise<FolderListing> {
  const files: ListedFile[] = [];
  const folders: string[] = [];
  const rootFolders: string[] = [];
  const unreadable: { path: string; message: string }[] = [];

  const visit = async (relative: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(folder, ...relative.split('/').filter(Boolean)), { withFileTypes: true });
    } catch (error) {
      unreadable.push({ path: relative, message: messageOf(error) });
      return;
    }
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.name.startsWith('.')) return;
        const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
        const absolute = path.join(folder, ...child.split('/'));
        try {
          if (entry.isDirectory()) {
            if (relative === '') rootFolders.push(entry.name);
            if (relative !== '' || KNOWN_FOLDERS.has(entry.name)) {
              folders.push(child);
              await visit(child);
            }
            return;
          }
          if (!entry.isFile() && !entry.isSymbolicLink()) return;
          const stats = await stat(absolute);
          if (stats.isFile()) files.push({ path: child, size: stats.size });
        } catch (error) {
          unreadable.push({ path: child, message: messageOf(error) });
        }
      }),
    );
  };
  await visit('');
  const byPath = (left: { path: string } | string, right: { path: string } | string): number => {
    const a = typeof left === 'string' ? left : left.path;
    const b = typeof right === 'string' ? right : right.path;
    return a < b ? -1 : a > b ? 1 : 0;
  };
  return { files: files.sort(byPath), folders: folders.sort(byPath), rootFolders: rootFolders.sort(), unreadable: unreadable.sort(byPath) };
}

function messageOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT') return 'it is a link to nothing';
  if (code === 'ELOOP') return 'it is a loop of links';
  return code ?? (error instanceof Error ? error.message : String(error));
}
