// The chunk counts of a loaded campaign's lore, from the texts the campaign was read with (an editor's unsaved text too); a file's count is kept while its text is the same. Pure.
import * as path from 'node:path';
import type { Campaign } from '../campaignModel.js';
import { chunkLoreText } from '../lore/loreChunking.js';
import { LORE_EXTENSIONS } from '../lore/loreFiles.js';
import type { LoreFileSummary, SkippedLoreFile } from '../lore/loreTypes.js';
import type { TokenCounter } from '../lore/tokenCounter.js';

/** The chunk counts of a campaign's lore files, and the files under lore/ that are not chunked. */
export interface LoreCounts {
  readonly files: ReadonlyMap<string, LoreFileSummary>;
  readonly skipped: ReadonlyMap<string, SkippedLoreFile>;
}

/** Counts one campaign's lore again and again (after each change), chunking only the files whose text changed. */
export class LoreCounter {
  private cache = new Map<string, { readonly text: string; readonly summary: LoreFileSummary }>();

  /** The counts of `campaign`'s lore, as `narratoria lore` would chunk the same texts. */
  count(campaign: Campaign, counter: TokenCounter): LoreCounts {
    const files = new Map<string, LoreFileSummary>();
    const skipped = new Map<string, SkippedLoreFile>();
    const cache = new Map<string, { readonly text: string; readonly summary: LoreFileSummary }>();
    for (const { file } of campaign.lore) {
      if (!LORE_EXTENSIONS.includes(path.posix.extname(file.path).toLowerCase())) {
        skipped.set(file.path, { file: file.path, reason: `not a lore text file (${LORE_EXTENSIONS.join(', ')})`, kind: 'not-text' });
        continue;
      }
      const text = campaign.documents.get(file.path)?.text;
      if (text === undefined) {
        skipped.set(file.path, { file: file.path, reason: 'could not be read', kind: 'unreadable' });
        continue;
      }
      if (text.includes('\u0000')) {
        skipped.set(file.path, { file: file.path, reason: 'binary data (NUL bytes), not text', kind: 'binary' });
        continue;
      }
      const known = this.cache.get(file.path);
      const summary = known?.text === text ? known.summary : chunkLoreText(text.replace(/^\uFEFF/, ''), file.path, counter).summary;
      cache.set(file.path, { text, summary });
      files.set(file.path, summary);
    }
    this.cache = cache;
    return { files, skipped };
  }
}
