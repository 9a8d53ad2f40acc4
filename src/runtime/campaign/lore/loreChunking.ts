// Chunks one lore file's text (spec 007, FR-022, FR-023): a chunk per paragraph; a paragraph over the limit is cut at sentence ends, and a sentence still over it at token boundaries.
import { headingsOf, lineSpans, LinePositions, paragraphSpans, sentenceSpans, spanText, trimmed, type Heading, type Span } from './loreText.js';
import type { TokenCounter } from './tokenCounter.js';
import type { LoreChunk, LoreChunkMethod, LoreFileSummary } from './loreTypes.js';

/** At most this many cl100k_base tokens per chunk (FR-022). */
export const MAX_LORE_CHUNK_TOKENS = 512;

/** The chunks of one file and what they add up to. */
export interface ChunkedLoreFile {
  readonly chunks: readonly LoreChunk[];
  readonly summary: LoreFileSummary;
}

/** A cut of a paragraph: its span, its text as counted, its tokens and how it was cut. */
interface Piece {
  readonly span: Span;
  readonly text: string;
  readonly tokens: number;
  readonly method: LoreChunkMethod;
}

/**
 * Chunks `text`, the content of the lore file `file` (relative to the campaign, forward slashes). Paragraphs are runs
 * of non-blank lines; each becomes one chunk when it holds at most `maxTokens` tokens. A longer one is cut at sentence
 * ends (`.`, `!`, `?`), consecutive sentences packed while they fit; a sentence longer than the limit is cut where the
 * text before holds the most tokens that fit, at blank space when there is some near. Every chunk holds at most
 * `maxTokens` tokens, counted on its text with `\n` line endings, so CRLF and LF files chunk alike.
 */
export function chunkLoreText(text: string, file: string, count: TokenCounter, maxTokens = MAX_LORE_CHUNK_TOKENS): ChunkedLoreFile {
  const lines = lineSpans(text);
  const positions = new LinePositions(lines);
  const headings = headingsOf(text, lines);
  const paragraphs = paragraphSpans(text, lines);
  const chunks: LoreChunk[] = [];
  const headingAt = headingCursor(headings);
  let sentenceSplit = 0;
  let tokenSplit = 0;
  paragraphs.forEach((paragraph, paragraphId) => {
    const whole = spanText(text, paragraph);
    const tokens = count(whole);
    let pieces: readonly Piece[] = [{ span: paragraph, text: whole, tokens, method: 'paragraph' }];
    if (tokens > maxTokens) {
      pieces = splitParagraph(text, paragraph, count, maxTokens);
      sentenceSplit++;
      if (pieces.some((piece) => piece.method === 'token')) tokenSplit++;
    }
    for (const piece of pieces) {
      const start = positions.positionOf(piece.span.start);
      const end = positions.positionOf(piece.span.end);
      const heading = headingAt(piece.span.start);
      chunks.push({
        id: `${file}#${chunks.length}`,
        file,
        chunkIndex: chunks.length,
        paragraphId,
        tokenCount: piece.tokens,
        method: piece.method,
        text: piece.text,
        ...(heading === undefined ? {} : { heading }),
        start: piece.span.start,
        end: piece.span.end,
        line: start.line,
        column: start.column,
        endLine: end.line,
        endColumn: end.column,
      });
    }
  });
  const summary: LoreFileSummary = {
    file,
    paragraphs: paragraphs.length,
    chunks: chunks.length,
    tokens: chunks.reduce((sum, chunk) => sum + chunk.tokenCount, 0),
    largestChunk: chunks.reduce((largest, chunk) => Math.max(largest, chunk.tokenCount), 0),
    sentenceSplit,
    tokenSplit,
  };
  return { chunks, summary };
}

/** The heading in force at each offset, asked in increasing order. */
function headingCursor(headings: readonly Heading[]): (offset: number) => string | undefined {
  let index = -1;
  return (offset) => {
    while (index + 1 < headings.length && headings[index + 1]!.offset <= offset) index++;
    return index >= 0 ? headings[index]!.text : undefined;
  };
}

/** Cuts a paragraph over the limit: sentences packed while they fit, a sentence over the limit cut at token boundaries. */
function splitParagraph(text: string, paragraph: Span, count: TokenCounter, maxTokens: number): Piece[] {
  const pieces: Piece[] = [];
  let group: { readonly span: Span; readonly tokens: number }[] = [];
  let groupTokens = 0;
  const flush = () => {
    // The sum of the sentences' counts is an estimate of the joined text's; the joined text is counted, and the last
    // sentence put back while it does not fit (one sentence alone always does).
    while (group.length > 0) {
      let take = group.length;
      let piece: Piece;
      for (;;) {
        const span = { start: group[0]!.span.start, end: group[take - 1]!.span.end };
        const joined = spanText(text, span);
        piece = { span, text: joined, tokens: take === 1 ? group[0]!.tokens : count(joined), method: 'sentence' };
        if (piece.tokens <= maxTokens || take === 1) break;
        take--;
      }
      pieces.push(piece);
      group = group.slice(take);
    }
    groupTokens = 0;
  };
  for (const sentence of sentenceSpans(text, paragraph)) {
    const tokens = count(spanText(text, sentence));
    if (tokens > maxTokens) {
      flush();
      pieces.push(...tokenPieces(text, sentence, count, maxTokens));
      continue;
    }
    // One token of slack for the line break or space between two sentences.
    if (group.length > 0 && groupTokens + tokens + 1 > maxTokens) flush();
    group.push({ span: sentence, tokens });
    groupTokens += tokens;
  }
  flush();
  return pieces;
}

/**
 * The last resort for a sentence over the limit: cut where the text before holds the most tokens that fit (found by
 * bisection over a window that grows until it holds more), moved back to blank space in the last quarter if any.
 */
function tokenPieces(text: string, sentence: Span, count: TokenCounter, maxTokens: number): Piece[] {
  const pieces: Piece[] = [];
  let start = sentence.start;
  const fits = (end: number) => count(spanText(text, { start, end })) <= maxTokens;
  while (start < sentence.end) {
    let window = Math.min(sentence.end - start, maxTokens * 8);
    while (start + window < sentence.end && fits(start + window)) window = Math.min(sentence.end - start, window * 2);
    let end = start + window;
    if (!fits(end)) {
      // Bisection: `low` fits (one character always does), `high` does not.
      let low = start + 1;
      let high = end;
      while (high - low > 1) {
        const middle = (low + high) >> 1;
        if (fits(middle)) low = middle;
        else high = middle;
      }
      end = low;
      const space = lastBlank(text, start, end);
      if (space > start + ((end - start) * 3) / 4) end = space;
      // Never between the two halves of a surrogate pair.
      if (end - start > 1 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    }
    const span = trimmed(text, { start, end });
    if (span.end > span.start) {
      const pieceText = spanText(text, span);
      pieces.push({ span, text: pieceText, tokens: count(pieceText), method: 'token' });
    }
    start = end;
  }
  return pieces;
}

/** The offset of the last blank character in [start, end), or -1. */
function lastBlank(text: string, start: number, end: number): number {
  for (let index = end - 1; index > start; index--) if (/\s/.test(text[index]!)) return index;
  return -1;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
