// `narratoria lore [DIR] [--format text|json] [--query TEXT] [--limit N] [--queries FILE]`: a campaign's lore chunks (FR-022 to FR-024), a query's chunks, or a query set's precision.
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { plural, formatCount } from '../../runtime/common/humanText.js';
import { chunkCampaignLore, DEFAULT_LORE_LIMIT, loreTermsOf, rankLoreChunks, type LoreChunk, type LoreChunking } from '../../runtime/campaign/lore/index.js';
import { ExitCode, parseFormat, parseOptions, parsePositiveInteger, styler, toJson, UsageError, type CliIo, type Styler } from '../cliSupport.js';
import { measureLoreQueries, readLoreQueries, type LorePrecisionReport } from '../../runtime/campaign/play/loreQueries.js';

/** Exit 1 when a lore file or folder could not be read; files that are not lore text are only listed. */
export async function loreCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, {
    format: { type: 'string' },
    query: { type: 'string' },
    limit: { type: 'string' },
    queries: { type: 'string' },
  });
  const format = parseFormat(values.format);
  const limit = parsePositiveInteger('limit', values.limit);
  if (limit !== undefined && values.query === undefined) throw new UsageError('--limit goes with --query');
  if (values.query !== undefined && values.query.trim() === '') throw new UsageError('--query needs some words');
  if (positionals.length > 1) throw new UsageError(`lore takes one campaign folder (got ${positionals.length})`);
  const given = positionals[0] ?? '.';
  const folder = path.resolve(io.cwd, given);
  await checkCampaignFolder(folder, given, io);
  if (values.queries !== undefined) {
    if (values.query !== undefined || limit !== undefined) throw new UsageError('--queries goes without --query and --limit (the file says its limit)');
    return await queriesReport(given, folder, values.queries, format, io);
  }
  const chunking = await chunkCampaignLore(folder);
  const failed = chunking.skipped.some((skipped) => skipped.kind === 'unreadable');
  const query = values.query === undefined ? undefined : retrieval(values.query, chunking.chunks, limit ?? DEFAULT_LORE_LIMIT);
  if (format === 'json') io.stdout.write(toJson(jsonReport(given, chunking, query)));
  else io.stdout.write(query ? queryText(query, chunking, styler(io.stdout, io.env)) : chunksText(given, chunking, styler(io.stdout, io.env)));
  return failed ? ExitCode.Failure : ExitCode.Success;
}

/** A usage error when DIR is not a folder; a warning (and on with it) when it has no manifest.json. */
async function checkCampaignFolder(folder: string, given: string, io: CliIo): Promise<void> {
  let isFolder: boolean;
  try {
    isFolder = (await stat(folder)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`the campaign folder ${given} does not exist`);
    throw new UsageError(`cannot read the campaign folder ${given}: ${code ?? (error as Error).message}`);
  }
  if (!isFolder) throw new UsageError(`${given} is not a folder; a campaign is a folder with a manifest.json`);
  const manifest = await stat(path.join(folder, 'manifest.json')).catch(() => undefined);
  if (!manifest?.isFile())
    io.stderr.write(`narratoria: warning: ${given} has no manifest.json, so it is not a campaign (spec 007, FR-001); its lore/ is chunked all the same\n`);
}

interface Retrieval {
  readonly text: string;
  readonly terms: readonly string[];
  readonly limit: number;
  /** Chunks holding at least one of the terms, before the limit. */
  readonly matched: number;
  readonly results: readonly { readonly score: number; readonly matchedTerms: readonly string[]; readonly chunk: LoreChunk }[];
}

function retrieval(text: string, chunks: readonly LoreChunk[], limit: number): Retrieval {
  const all = rankLoreChunks(text, chunks, { limit: chunks.length });
  return { text, terms: [...new Set(loreTermsOf(text))], limit, matched: all.length, results: all.slice(0, limit) };
}

/** contracts/campaign/lore-chunks.schema.json. */
function jsonReport(given: string, chunking: LoreChunking, query: Retrieval | undefined): unknown {
  return {
    campaign: given,
    hasLoreFolder: chunking.hasLoreFolder,
    tokenizer: chunking.tokenizer,
    maxTokens: chunking.maxTokens,
    totals: { files: chunking.files.length, chunks: chunking.chunks.length, tokens: totalTokens(chunking) },
    files: chunking.files,
    skipped: chunking.skipped,
    ...(query
      ? {
          query: {
            ...query,
            results: query.results.map((result, index) => ({
              rank: index + 1,
              score: Math.round(result.score * 10_000) / 10_000,
              matchedTerms: result.matchedTerms,
              chunk: result.chunk,
            })),
          },
        }
      : { chunks: chunking.chunks }),
  };
}

function totalTokens(chunking: LoreChunking): number {
  return chunking.files.reduce((sum, file) => sum + file.tokens, 0);
}

/** The first words of a chunk on one line, at most `width` characters. */
function preview(text: string, width: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= width) return line;
  const cut = line.lastIndexOf(' ', width - 3);
  return `${line.slice(0, cut > width / 2 ? cut : width - 3)}...`;
}

function linesOf(chunk: LoreChunk): string {
  return chunk.line === chunk.endLine ? `line ${chunk.line}` : `lines ${chunk.line}-${chunk.endLine}`;
}

function chunksText(given: string, chunking: LoreChunking, style: Styler): string {
  const out: string[] = [];
  if (!chunking.hasLoreFolder) out.push(`${given} has no lore/ folder: no chunks (lore is optional).`);
  else if (chunking.files.length === 0) out.push('lore/ holds no lore files (.md, .markdown, .txt).');
  const byFile = new Map<string, LoreChunk[]>();
  for (const chunk of chunking.chunks) {
    const list = byFile.get(chunk.file);
    if (list) list.push(chunk);
    else byFile.set(chunk.file, [chunk]);
  }
  for (const file of chunking.files) {
    const splits = [
      file.sentenceSplit > 0 ? `${plural(file.sentenceSplit, 'paragraph')} over ${chunking.maxTokens} tokens cut at sentence ends` : '',
      file.tokenSplit > 0 ? `${formatCount(file.tokenSplit)} of them also at token boundaries` : '',
    ].filter(Boolean);
    const largest = file.chunks > 0 ? ` (largest ${formatCount(file.largestChunk)})` : '';
    out.push(
      style.bold(`${file.file}: ${plural(file.chunks, 'chunk')}, ${plural(file.tokens, 'token')}${largest}${splits.length ? `; ${splits.join(', ')}` : ''}`),
    );
    for (const chunk of byFile.get(file.file) ?? []) {
      const method = chunk.method === 'token' ? style.yellow('token    ') : chunk.method.padEnd(9);
      const where = linesOf(chunk).padEnd(13);
      out.push(
        `  ${String(chunk.chunkIndex).padStart(4)}  para ${String(chunk.paragraphId).padEnd(4)} ${String(chunk.tokenCount).padStart(4)} tokens  ${method}  ${where} ${preview(chunk.text, 60)}`,
      );
    }
  }
  for (const skipped of chunking.skipped) {
    const line = `skipped ${skipped.file}: ${skipped.reason}`;
    out.push(skipped.kind === 'unreadable' ? style.red(line) : style.dim(line));
  }
  const splitParagraphs = chunking.files.reduce((sum, file) => sum + file.sentenceSplit, 0);
  const tokenSplit = chunking.files.reduce((sum, file) => sum + file.tokenSplit, 0);
  out.push(
    '',
    `${plural(chunking.files.length, 'file')}, ${plural(chunking.chunks.length, 'chunk')}, ${plural(totalTokens(chunking), 'token')} ` +
      `(${chunking.tokenizer}, at most ${chunking.maxTokens} per chunk)` +
      (splitParagraphs > 0 ? `; ${plural(splitParagraphs, 'long paragraph')} cut at sentence ends` : '') +
      (tokenSplit > 0 ? `, ${formatCount(tokenSplit)} of them at token boundaries` : ''),
  );
  return `${out.join('\n')}\n`;
}

function queryText(query: Retrieval, chunking: LoreChunking, style: Styler): string {
  const out: string[] = [];
  const terms = query.terms.length > 0 ? query.terms.join(', ') : 'none: only common words';
  out.push(`Query "${query.text}" (terms: ${terms}): ${formatCount(query.matched)} of ${plural(chunking.chunks.length, 'chunk')} match`);
  if (query.results.length === 0) out.push('No chunk holds any of the terms.');
  query.results.forEach((result, index) => {
    const chunk = result.chunk;
    out.push(
      `${String(index + 1).padStart(3)}. ${style.bold(result.score.toFixed(3))}  ${chunk.id}  ${linesOf(chunk)}, ${chunk.tokenCount} tokens  [${result.matchedTerms.join(', ')}]`,
      `     ${preview(chunk.text, 160)}`,
    );
  });
  if (query.matched > query.results.length) out.push(`(best ${query.results.length} shown; --limit N shows more)`);
  return `${out.join('\n')}\n`;
}

/** `--queries FILE`: each query retrieved as play retrieves lore; exit 1 below the file's minPrecision or when it names chunks the lore lacks. */
async function queriesReport(given: string, folder: string, file: string, format: 'text' | 'json', io: CliIo): Promise<ExitCode> {
  const where = path.resolve(io.cwd, file);
  let text: string;
  try {
    text = await readFile(where, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the query set ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const read = readLoreQueries(text);
  if ('problems' in read) throw new UsageError(`${file} is not a lore query set (contracts/campaign/lore-queries.schema.json): ${read.problems.join('; ')}`);
  const chunking = await chunkCampaignLore(folder);
  const report = measureLoreQueries(read.set, chunking.chunks, { campaign: given, file });
  io.stdout.write(format === 'json' ? toJson(report) : precisionText(report, styler(io.stdout, io.env)));
  return report.passed ? ExitCode.Success : ExitCode.Failure;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

function precisionText(report: LorePrecisionReport, style: Styler): string {
  const out: string[] = [];
  for (const result of report.results) {
    const mark = result.relevant ? (result.topHit ? style.green('found ') : style.yellow('lower ')) : style.red('missed');
    out.push(`${mark} ${result.query}`);
    out.push(style.dim(`    retrieved: ${result.retrieved.map((entry) => `${entry.id} (${entry.score.toFixed(2)})`).join(', ') || 'nothing'}`));
    if (result.missed.length > 0) out.push(style.dim(`    missed: ${result.missed.join(', ')}`));
  }
  for (const problem of report.problems) out.push(style.red(`problem: ${problem}`));
  out.push(
    '',
    `${report.relevant} of ${plural(report.queries, 'query', 'queries')} got relevant context: precision ${percent(report.precision)} ` +
      `(SC-004 asks ${percent(report.minPrecision)}; at most ${report.limit} chunks each)`,
    `best chunk expected: ${percent(report.topPrecision)}; retrieved chunks expected: ${percent(report.retrievedPrecision)}; expected chunks retrieved: ${percent(report.recall)}`,
    report.passed ? style.green('passed') : style.red('below the target'),
  );
  return `${out.join('\n')}\n`;
}
