// Chunks one lore file's text (spec 007, FR-022, FR-023): a chunk per paragraph; a paragraph over the limit is cut at sentence ends, and a sentence still over it at token boundaries.
import { headingsOf, lineSpans, LinePositions, paragraphSpans, sentenceSpans, spanText, trimmed, type Heading, type Span } from './loreText.js';
import type { TokenCounter } from './tokenCounter.js';
import type { LoreChunk, LoreChunkMethod, LoreFileSummary } from './loreTypes.js';

/** At most this many cl100k_base tokens per chunk (FR-022). */
export const MAX_LORE_CHUNK_TOKENS = 512;

/** cl100k_base's longest token is 128 characters, so a text longer than 128 times the limit cannot fit: it is not counted (counting a long run of letters is slow). */
const LONGEST_TOKEN = 128;

/** The tokens of `text`, or Infinity when it is too long to fit in `maxTokens` whatever they are. */
function tokensUpTo(text: string, count: TokenCounter, maxTokens: number): number {
  return text.length > maxTokens * LONGEST_TOKEN ? Number.POSITIVE_INFINITY : count(text);
}

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
    const tokens = tokensUpTo(whole, count, maxTokens);
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
    const tokens = tokensUpTo(spanText(text, sentence), count, maxTokens);
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
 * The last resort for a sentence over the limit: cut where the text before holds the most tokens that fit, moved back
 * to blank space in the last quarter if any, never between the two halves of a surrogate pair.
 */
function tokenPieces(text: string, sentence: Span, count: TokenCounter, maxTokens: number): Piece[] {
  const pieces: Piece[] = [];
  let start = sentence.start;
  while (start < sentence.end) {
    const fitting = largestFittingEnd(text, start, sentence.end, count, maxTokens);
    let end = fitting.end;
    if (end < sentence.end) {
      const space = lastBlank(text, start, end);
      if (space > start + ((end - start) * 3) / 4) end = space;
      if (end - start > 1 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    }
    const span = trimmed(text, { start, end });
    if (span.end > span.start) {
      const pieceText = spanText(text, span);
      const unchanged = span.start === start && span.end === fitting.end;
      pieces.push({ span, text: pieceText, tokens: unchanged ? fitting.tokens : count(pieceText), method: 'token' });
    }
    start = end;
  }
  return pieces;
}

/** An end offset of a piece and the tokens of the text up to it. */
interface Bound {
  readonly end: number;
  readonly tokens: number;
}

/**
 * The largest end (up to `limit`) whose text from `start` holds at most `maxTokens` tokens, and its count. A window
 * grows from about 4 characters a token until it holds more; then the boundary is searched by interpolation on the
 * counts, with a bisection step whenever one side moved twice running. Counting is quadratic in the length of a run
 * without blank space (BPE), so the fewer and shorter the texts counted, the better: about 5 counts a piece.
 */
function largestFittingEnd(text: string, start: number, limit: number, count: TokenCounter, maxTokens: number): Bound {
  const countTo = (end: number) => count(spanText(text, { start, end }));
  let low: Bound = { end: start, tokens: 0 };
  let high: Bound;
  for (let window = Math.min(limit - start, maxTokens * 4); ; window = Math.min(limit - start, window * 2)) {
    const bound: Bound = { end: start + window, tokens: countTo(start + window) };
    if (bound.tokens > maxTokens) {
      high = bound;
      break;
    }
    low = bound;
    if (bound.end >= limit) return low;
  }
  let lastSide = 0;
  let repeats = 0;
  while (high.end - low.end > 1) {
    const interpolated: number = low.end + Math.round(((high.end - low.end) * (maxTokens + 0.5 - low.tokens)) / Math.max(1, high.tokens - low.tokens));
    const guess: number = repeats >= 2 ? (low.end + high.end) >> 1 : Math.min(high.end - 1, Math.max(low.end + 1, interpolated));
    const bound: Bound = { end: guess, tokens: countTo(guess) };
    const side = bound.tokens <= maxTokens ? -1 : 1;
    if (side < 0) low = bound;
    else high = bound;
    repeats = side === lastSide ? repeats + 1 : 0;
    lastSide = side;
  }
  // One character always fits (the window's first count proved more than that does not).
  return low.end > start ? low : { end: start + 1, tokens: countTo(start + 1) };
}

/** The offset of the last blank character in [start, end), or -1. */
function lastBlank(text: string, start: number, end: number): number {
  for (let index = end - 1; index > start; index--) if (/\s/.test(text[index]!)) return index;
  return -1;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
