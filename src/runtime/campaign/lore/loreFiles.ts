// Finds a campaign's lore (every Markdown and text file under its lore/ folder, nested folders too: FR-024) and chunks it; files that are not lore text are listed with the reason.
import type { Dirent, Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { chunkLoreText, MAX_LORE_CHUNK_TOKENS } from './loreChunking.js';
import { loadTokenCounter, LORE_TOKENIZER, type TokenCounter } from './tokenCounter.js';
import type { LoreChunk, LoreChunking, LoreFileSummary, SkippedLoreFile } from './loreTypes.js';

/** The campaign's lore folder (spec 007, FR-002). */
export const LORE_FOLDER = 'lore';

/** The file name endings chunked as lore: Markdown (FR-004) and plain text. */
export const LORE_EXTENSIONS: readonly string[] = ['.md', '.markdown', '.txt'];

export interface LoreChunkingOptions {
  /** The token counter (default: cl100k_base, loaded on first use). */
  readonly count?: TokenCounter;
  /** At most this many tokens per chunk (default 512). */
  readonly maxTokens?: number;
}

/** A lore file found: its path on disk and relative to the campaign folder (forward slashes). */
export interface LoreFile {
  readonly path: string;
  readonly file: string;
}

/** The lore files of the campaign in `campaignFolder`, sorted by path, and the entries under lore/ that are not lore text. */
export async function findLoreFiles(
  campaignFolder: string,
): Promise<{ readonly exists: boolean; readonly files: LoreFile[]; readonly skipped: SkippedLoreFile[] }> {
  const root = path.join(campaignFolder, LORE_FOLDER);
  try {
    if (!(await stat(root)).isDirectory())
      return { exists: false, files: [], skipped: [{ file: LORE_FOLDER, reason: 'lore is a file, not a folder', kind: 'not-text' }] };
  } catch {
    return { exists: false, files: [], skipped: [] };
  }
  const files: LoreFile[] = [];
  const skipped: SkippedLoreFile[] = [];
  const visit = async (folder: string, relative: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      skipped.push({
        file: relative,
        reason: `cannot read the folder: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        kind: 'unreadable',
      });
      return;
    }
    for (const entry of entries) {
      // Hidden files and folders (.DS_Store, .git) are no one's lore.
      if (entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      const file = `${relative}/${entry.name}`;
      let isFolder = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        let target: Stats;
        try {
          target = await stat(full);
        } catch (error) {
          skipped.push({
            file,
            reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message} (a broken link)`,
            kind: 'unreadable',
          });
          continue;
        }
        if (target.isDirectory()) {
          // Not followed: a link can lead out of the campaign, or around in a loop.
          skipped.push({ file, reason: 'a link to a folder (not followed)', kind: 'link' });
          continue;
        }
        isFolder = false;
        isFile = target.isFile();
      }
      if (isFolder) await visit(full, file);
      else if (isFile && LORE_EXTENSIONS.includes(path.extname(entry.name).toLowerCase())) files.push({ path: full, file });
      else skipped.push({ file, reason: `not a lore text file (${LORE_EXTENSIONS.join(', ')})`, kind: 'not-text' });
    }
  };
  await visit(root, LORE_FOLDER);
  const byFile = (left: { file: string }, right: { file: string }) => (left.file < right.file ? -1 : left.file > right.file ? 1 : 0);
  return { exists: true, files: files.sort(byFile), skipped: skipped.sort(byFile) };
}

/**
 * Chunks every lore file of the campaign in `campaignFolder` (a folder with a manifest.json; lore is optional, so a
 * campaign without lore/ gives no chunks). Files are read as UTF-8 (a byte order mark dropped, as editors do, so
 * offsets match theirs); a file holding NUL bytes is binary and skipped.
 */
export async function chunkCampaignLore(campaignFolder: string, options: LoreChunkingOptions = {}): Promise<LoreChunking> {
  const maxTokens = options.maxTokens ?? MAX_LORE_CHUNK_TOKENS;
  const found = await findLoreFiles(campaignFolder);
  const count = options.count ?? (found.files.length > 0 ? await loadTokenCounter() : () => 0);
  const summaries: LoreFileSummary[] = [];
  const chunks: LoreChunk[] = [];
  const skipped = [...found.skipped];
  const decoder = new TextDecoder('utf-8');
  for (const lore of found.files) {
    let bytes: Buffer;
    try {
      bytes = await readFile(lore.path);
    } catch (error) {
      skipped.push({ file: lore.file, reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, kind: 'unreadable' });
      continue;
    }
    if (bytes.includes(0)) {
      skipped.push({ file: lore.file, reason: 'binary data (NUL bytes), not text', kind: 'binary' });
      continue;
    }
    const chunked = chunkLoreText(decoder.decode(bytes), lore.file, count, maxTokens);
    summaries.push(chunked.summary);
    chunks.push(...chunked.chunks);
  }
  skipped.sort((left, right) => (left.file < right.file ? -1 : left.file > right.file ? 1 : 0));
  return { hasLoreFolder: found.exists, tokenizer: LORE_TOKENIZER, maxTokens, files: summaries, skipped, chunks };
}
