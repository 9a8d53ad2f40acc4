// The types of lore chunking (spec 007, FR-022 to FR-024), mirroring contracts/campaign/lore-chunks.schema.json.

/** How a chunk was cut: a whole paragraph, part of a paragraph cut at sentence ends, or (last resort) at a token boundary. */
export type LoreChunkMethod = 'paragraph' | 'sentence' | 'token';

/** Where a chunk lies in its file: UTF-16 offsets (end exclusive) as an editor counts them, and 1-based lines and columns. */
export interface LoreTextRange {
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  /** The column just after the chunk's last character. */
  readonly endColumn: number;
}

/** One chunk of lore with the metadata FR-023 asks for, and where it lies in its file. */
export interface LoreChunk extends LoreTextRange {
  /** `<file>#<chunkIndex>`: unique in the campaign. */
  readonly id: string;
  /** The lore file, relative to the campaign folder, with forward slashes (`lore/places/harbour.md`). */
  readonly file: string;
  /** 0-based, in the order of the file. */
  readonly chunkIndex: number;
  /** 0-based index of the paragraph (of the file's non-blank paragraphs) the chunk comes from. */
  readonly paragraphId: number;
  /** cl100k_base tokens of `text`; at most the chunking's `maxTokens`. */
  readonly tokenCount: number;
  readonly method: LoreChunkMethod;
  /** The chunk's text, its line endings as `\n`, without the blank space around it. */
  readonly text: string;
  /** The last Markdown heading (`#` to `######`) at or above the chunk's start, if any. */
  readonly heading?: string;
}

/** What chunking found in one lore file. */
export interface LoreFileSummary {
  readonly file: string;
  readonly paragraphs: number;
  readonly chunks: number;
  readonly tokens: number;
  /** The token count of the file's largest chunk (0 for a file without text). */
  readonly largestChunk: number;
  /** Paragraphs over the limit, cut at sentence ends. */
  readonly sentenceSplit: number;
  /** Paragraphs with a sentence still over the limit, cut at token boundaries. */
  readonly tokenSplit: number;
}

/** Why a file under lore/ is not chunked: not Markdown or text, binary, unreadable (a failure), or a link to a folder. */
export type SkippedLoreKind = 'not-text' | 'binary' | 'unreadable' | 'link';

/** A file under lore/ that is not chunked, and why. */
export interface SkippedLoreFile {
  readonly file: string;
  readonly reason: string;
  readonly kind: SkippedLoreKind;
}

/** Every chunk of a campaign's lore, with each file's summary. */
export interface LoreChunking {
  /** Whether the campaign has a lore/ folder (lore is optional: FR-003). */
  readonly hasLoreFolder: boolean;
  readonly tokenizer: 'cl100k_base';
  readonly maxTokens: number;
  readonly files: readonly LoreFileSummary[];
  readonly skipped: readonly SkippedLoreFile[];
  readonly chunks: readonly LoreChunk[];
}
