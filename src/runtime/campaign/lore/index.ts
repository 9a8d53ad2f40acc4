// The lore of a campaign (spec 007, FR-022 to FR-024): chunking by paragraph under a cl100k_base token limit, and the lexical ranking that retrieves chunks for a query.
export { chunkCampaignLore, findLoreFiles, LORE_EXTENSIONS, LORE_FOLDER, type LoreChunkingOptions, type LoreFile } from './loreFiles.js';
export { chunkLoreText, MAX_LORE_CHUNK_TOKENS, type ChunkedLoreFile } from './loreChunking.js';
export {
  DEFAULT_LORE_LIMIT,
  indexLoreChunks,
  loreTermsOf,
  rankLoreChunks,
  type LoreIndex,
  type LoreRankingOptions,
  type RankedLoreChunk,
} from './loreRanking.js';
export { loadTokenCounter, LORE_TOKENIZER, type TokenCounter } from './tokenCounter.js';
export type { LoreChunk, LoreChunking, LoreChunkMethod, LoreFileSummary, LoreTextRange, SkippedLoreFile, SkippedLoreKind } from './loreTypes.js';
