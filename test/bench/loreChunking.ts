// Bench (l): chunking 5 MB of generated lore (files read from disk, paragraphs counted with cl100k_base, long ones cut) against a 2 s budget, and ranking queries over the chunks.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chunkCampaignLore, indexLoreChunks, loadTokenCounter, rankLoreChunks } from '../../src/runtime/campaign/lore/index.js';
import {
  check,
  collectGarbage,
  median,
  meetsTarget,
  ms,
  ratioText,
  seededRandom,
  targetText,
  type BenchOptions,
  type BenchResult,
  type BenchTarget,
} from './benchUtil.js';

/** Issue 43 asks for the figure only; 2 s for 5 MB (2.5 MB/s) keeps a large campaign's lore under a couple of seconds. */
const BUDGET_MS = 2_000;
const TARGET: BenchTarget = { op: '<=', value: 1 };
const LORE_BYTES = 5 * 1024 * 1024;

const NAMES = ['Mara Vey', 'Aldric', 'the Iron Guild', 'Eowyn', 'the Salt Court', 'Captain Roan', 'the Drowned King', 'Old Tamsin'];
const PLACES = ['the harbour', 'the lighthouse', 'the salt marshes', 'the northern sea', 'Greywater', 'the sunken chapel', 'the market'];
const VERBS = ['guards', 'remembers', 'betrayed', 'trades with', 'fears', 'searches for', 'rules', 'once burned'];
const THINGS = ['a silver key', 'the royal fleet', 'an old debt', 'the green lanterns', 'a sealed letter', 'the tide charts', 'a cursed bell'];

/** Writes about `bytes` of lore as Markdown files in nested folders: headings, paragraphs of 1-12 sentences, some long ones and a few run-on sentences. */
function writeLore(folder: string, bytes: number): { files: number; bytes: number } {
  const random = seededRandom(43);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const sentence = () =>
    `${pick(NAMES)} ${pick(VERBS)} ${pick(THINGS)} near ${pick(PLACES)}${random() < 0.2 ? `, since the ${Math.floor(random() * 900) + 100} winter` : ''}.`;
  writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify({ title: 'Bench', version: '1.0.0' }));
  let written = 0;
  let files = 0;
  while (written < bytes) {
    const parts: string[] = [`# ${pick(NAMES)} and ${pick(PLACES)}`];
    for (let paragraph = 0; paragraph < 40; paragraph++) {
      const roll = random();
      // 2% paragraphs over 512 tokens (cut at sentence ends), 0.5% with a run-on sentence (cut at token boundaries).
      const count = roll < 0.02 ? 60 + Math.floor(random() * 40) : 1 + Math.floor(random() * 12);
      const sentences = Array.from({ length: count }, sentence);
      if (roll > 0.995) sentences.push(Array.from({ length: 500 }, () => pick(THINGS)).join(' and ') + '.');
      parts.push(sentences.join(random() < 0.3 ? '\n' : ' '));
    }
    const text = `${parts.join('\n\n')}\n`;
    const sub = path.join(folder, 'lore', `region-${files % 7}`, `area-${files % 3}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(sub, `entry-${files}.md`), text);
    written += Buffer.byteLength(text);
    files++;
  }
  return { files, bytes: written };
}

export async function runLoreChunking(options: BenchOptions): Promise<BenchResult> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-bench-lore-'));
  try {
    const written = writeLore(folder, LORE_BYTES);
    const megabytes = written.bytes / (1024 * 1024);
    // The first call pays for loading the encoding (once per process); it is reported apart.
    let started = performance.now();
    await loadTokenCounter();
    const loadMs = performance.now() - started;
    started = performance.now();
    const first = await chunkCampaignLore(folder);
    const firstMs = performance.now() - started;
    check(first.files.length === written.files, `${first.files.length} of ${written.files} files chunked`);
    check(
      first.chunks.every((chunk) => chunk.tokenCount <= 512),
      'every chunk within 512 tokens',
    );
    const methods = { paragraph: 0, sentence: 0, token: 0 };
    for (const chunk of first.chunks) methods[chunk.method]++;
    check(methods.sentence > 0 && methods.token > 0, 'the generated lore exercises sentence and token cuts');

    const rounds = options.quick ? 2 : 5;
    const chunking: number[] = [];
    for (let round = 0; round < rounds; round++) {
      collectGarbage();
      started = performance.now();
      const again = await chunkCampaignLore(folder);
      chunking.push(performance.now() - started);
      check(again.chunks.length === first.chunks.length, 'the same chunks every round');
    }

    // Retrieval over the same chunks, as play would: the index once, then queries.
    started = performance.now();
    const index = indexLoreChunks(first.chunks);
    const indexMs = performance.now() - started;
    const queries = ['who guards the silver key', 'the drowned king and the royal fleet', 'what does Old Tamsin fear at the lighthouse', 'salt court debt'];
    const querying: number[] = [];
    for (let round = 0; round < (options.quick ? 10 : 40); round++) {
      const query = queries[round % queries.length]!;
      started = performance.now();
      check(rankLoreChunks(query, index).length === 5, `"${query}" retrieves 5 chunks`);
      querying.push(performance.now() - started);
    }

    const chunkMs = median(chunking);
    const ratio = chunkMs / BUDGET_MS;
    const tokens = first.files.reduce((sum, file) => sum + file.tokens, 0);
    const line =
      `(l) lore chunking: ${megabytes.toFixed(1)} MB in ${written.files} files -> ${first.chunks.length} chunks, ${tokens} tokens ` +
      `(${methods.sentence} sentence and ${methods.token} token pieces) in ${ms(chunkMs)} = ${(megabytes / (chunkMs / 1000)).toFixed(2)} MB/s ` +
      `(first call ${ms(firstMs)}, encoding load ${ms(loadMs)}); budget ${ms(BUDGET_MS)} = ${ratioText(ratio)} ${targetText(ratio, TARGET)}; ` +
      `ranking: index ${ms(indexMs)}, query p50 ${ms(median(querying))}`;
    return {
      id: 'l',
      title: 'lore chunking (5 MB)',
      line,
      ratio,
      target: TARGET,
      met: meetsTarget(ratio, TARGET),
      medians: { chunkMs, budgetMs: BUDGET_MS, firstMs, loadMs, indexMs, queryMs: median(querying), megabytesPerSecond: megabytes / (chunkMs / 1000) },
      samples: { chunkMs: chunking, queryMs: querying },
      details: { rounds, files: written.files, bytes: written.bytes, chunks: first.chunks.length, tokens, methods },
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
