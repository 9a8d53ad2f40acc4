// What the editor shows of a lore file: the code lens line, and for the chunk preview each chunk's label, range and flags (over the limit, a paragraph cut). Pure.
import * as path from 'node:path';
import { leavesFolder } from '../../common/pathContainment.js';
import { plural } from '../../common/humanText.js';
import { MAX_LORE_CHUNK_TOKENS } from '../lore/loreChunking.js';
import { LORE_EXTENSIONS, LORE_FOLDER } from '../lore/loreFiles.js';
import type { LoreChunk, LoreChunkMethod, LoreFileSummary } from '../lore/loreTypes.js';

/** The lens on a lore file's first line: "7 chunks · largest 412 tokens" ("no text to chunk" for an empty file). */
export function loreLensTitle(summary: LoreFileSummary): string {
  if (summary.chunks === 0) return 'no text to chunk';
  const split = summary.sentenceSplit > 0 ? ` · ${plural(summary.sentenceSplit, 'paragraph')} split` : '';
  return `${plural(summary.chunks, 'chunk')} · largest ${plural(summary.largestChunk, 'token')}${split}`;
}

/** One chunk as the preview draws it. Lines and columns are 1-based; the end column is just after the chunk. */
export interface LoreChunkMark {
  readonly index: number;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly tokenCount: number;
  readonly method: LoreChunkMethod;
  /** "#3 · 214 tokens" (with "· split" when its paragraph was cut). */
  readonly label: string;
  /** Why the chunk is flagged; empty when it is not. */
  readonly warnings: readonly string[];
  /** The hover text (Markdown-free sentences, one per line). */
  readonly hover: string;
}

/**
 * The preview's marks of a file's chunks. A chunk is flagged when it holds more than `maxTokens` tokens (chunking
 * keeps them under, unless the limit changed), or when its paragraph was over the limit and was cut at sentence ends
 * (or, for a sentence still too long, at token boundaries): such a chunk may lose the context of its paragraph.
 */
export function loreChunkMarks(chunks: readonly LoreChunk[], maxTokens = MAX_LORE_CHUNK_TOKENS): LoreChunkMark[] {
  const piecesOf = new Map<number, number>();
  for (const chunk of chunks) piecesOf.set(chunk.paragraphId, (piecesOf.get(chunk.paragraphId) ?? 0) + 1);
  return chunks.map((chunk) => {
    const warnings: string[] = [];
    if (chunk.tokenCount > maxTokens) warnings.push(`It holds ${chunk.tokenCount} tokens, over the limit of ${maxTokens}.`);
    const pieces = piecesOf.get(chunk.paragraphId) ?? 1;
    if (chunk.method !== 'paragraph') {
      const how = chunk.method === 'sentence' ? 'at sentence ends' : 'inside a sentence too long to fit, at a token boundary';
      warnings.push(
        `Paragraph ${chunk.paragraphId + 1} is over ${maxTokens} tokens and was cut ${how} into ${plural(pieces, 'chunk')}: ` +
          'each may lose the context of the others. Splitting the paragraph yourself keeps related sentences together.',
      );
    }
    const split = chunk.method === 'paragraph' ? '' : ' · split';
    const hover = [
      `Lore chunk ${chunk.chunkIndex} of ${chunk.file}: ${plural(chunk.tokenCount, 'token')} (cl100k_base), paragraph ${chunk.paragraphId + 1}, cut by ${chunk.method}.`,
      ...(chunk.heading !== undefined ? [`Under the heading "${chunk.heading}".`] : []),
      ...warnings,
    ].join('\n');
    return {
      index: chunk.chunkIndex,
      line: chunk.line,
      column: chunk.column,
      endLine: chunk.endLine,
      endColumn: chunk.endColumn,
      tokenCount: chunk.tokenCount,
      method: chunk.method,
      label: `#${chunk.chunkIndex} · ${plural(chunk.tokenCount, 'token')}${split}`,
      warnings,
      hover,
    };
  });
}

/**
 * The lore path (`lore/places/harbour.md`) of `file` (absolute) in the campaign at `campaignFolder` (absolute), or
 * undefined when it is not a lore text file of that campaign.
 */
export function loreFileOf(campaignFolder: string, file: string): string | undefined {
  const relative = path.relative(campaignFolder, file);
  if (relative === '' || leavesFolder(relative)) return undefined;
  const parts = relative.split(path.sep);
  if (parts[0] !== LORE_FOLDER || parts.length < 2 || parts.some((part) => part.startsWith('.'))) return undefined;
  return LORE_EXTENSIONS.includes(path.extname(file).toLowerCase()) ? parts.join('/') : undefined;
}
