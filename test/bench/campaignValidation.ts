// Bench (k): validating a generated 500-file campaign with seeded mistakes, in-process and as `narratoria validate DIR`, against spec 007's SC-003 (errors within 2 s).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { validateCampaign } from '../../src/runtime/campaign/index.js';
import { foghornWav, pngImage } from '../../src/runtime/campaign/starterMedia.js';
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

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.cjs');
/** SC-003: a campaign's errors are reported within 2 seconds. The ratio is the measured time over it. */
const BUDGET_MS = 2000;
const TARGET: BenchTarget = { op: '<=', value: 1 };
const run = promisify(execFile);

const NPCS = 40;
const BEATS = 300;
const ENDINGS = 5;
const LORE = 280;
const PORTRAITS = 40;
const SOUNDS = 24;

/** Writes a campaign of exactly 500 files with 3 unknown beat links and 2 missing portraits; returns its folder. */
export function writeGeneratedCampaign(seed = 11): { folder: string; files: number } {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-bench-campaign-'));
  const random = seededRandom(seed);
  let files = 0;
  const write = (file: string, content: string | Uint8Array): void => {
    const target = path.join(folder, ...file.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
    files++;
  };
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  const paragraph = (words: number): string =>
    Array.from({ length: words }, (_, index) => `word${Math.floor(random() * 900)}${index % 12 === 11 ? '.' : ''}`).join(' ');
  write(
    'manifest.json',
    json({
      title: 'Generated',
      version: '1.0.0',
      author: 'bench',
      description: 'A generated campaign of 500 files.',
      genre: 'Test',
      tone: 'Flat',
      content_rating: 'Everyone',
    }),
  );
  for (const name of ['setting', 'rules', 'constraints']) write(`world/${name}.md`, `# ${name}\n\n${paragraph(120)}\n`);
  write('plot/premise.md', `# Premise\n\n${paragraph(100)}\n`);
  for (let index = 0; index < ENDINGS; index++) write(`plot/endings/ending-${index}.md`, `# Ending ${index}\n\n${paragraph(80)}\n`);
  write('characters/player/template.json', json({ character_creation: { mode: 'guided' }, starting_items: ['a lamp'] }));
  for (let index = 0; index < NPCS; index++) {
    const portrait = index < PORTRAITS - 2 ? `art/characters/npc-${index}.png` : `art/characters/missing-${index}.png`;
    write(
      `characters/npcs/npc_${index}/profile.json`,
      json({
        name: `Npc ${index}`,
        role: 'Someone in the crowd',
        personality: { traits: ['plain'] },
        motivations: ['to be counted'],
        relationships: { [`npc_${(index + 1) % NPCS}`]: 'neighbour' },
        speech_patterns: { style: 'terse' },
        secrets: 'secrets.md',
        portrait,
      }),
    );
    write(`characters/npcs/npc_${index}/secrets.md`, `# Secrets\n\n${paragraph(40)}\n`);
  }
  const beats = Array.from({ length: BEATS }, (_, index) => {
    const id = `beat_${String(index + 1).padStart(3, '0')}`;
    const earlier = (back: number): string => `beat_${String(Math.max(1, index + 1 - back)).padStart(3, '0')}`;
    const conditions: Record<string, unknown> = { scene_count: { min: index % 5, max: (index % 5) + 4 } };
    if (index > 0) conditions['requires_beat'] = index % 100 === 50 ? `beat_9${String(index).padStart(2, '0')}` : earlier(1);
    if (index > 3) conditions['requires_any_beat'] = [earlier(2), earlier(3)];
    if (index % 7 === 0) conditions['npc_state'] = { [`npc_${index % NPCS}`]: 'awake' };
    return { id, title: `Beat ${index + 1}`, description: `What happens in beat ${index + 1}.`, conditions, priority: 'medium' };
  });
  write('plot/beats.json', json({ beats }));
  for (let index = 0; index < LORE; index++)
    write(`lore/topic-${index % 10}/entry-${index}.md`, `# Entry ${index}\n\n${[1, 2, 3, 4, 5].map(() => paragraph(50)).join('\n\n')}\n`);
  const image = pngImage((x, y) => [x * 4, y * 4, 128]);
  for (let index = 0; index < PORTRAITS; index++) {
    write(`art/characters/npc-${index}.png`, image);
    write(`art/characters/npc-${index}.png.keywords.txt`, `# npc ${index}\nnpc\nface\n`);
  }
  const sound = foghornWav(0.1);
  for (let index = 0; index < SOUNDS; index++) {
    write(`music/ambient/loop-${index}.wav`, sound);
    write(`music/ambient/loop-${index}.wav.meta.json`, json({ generated: false, loop: true }));
  }
  return { folder, files };
}

export async function runCampaignValidation(options: BenchOptions): Promise<BenchResult> {
  const { folder, files } = writeGeneratedCampaign();
  try {
    check(files === 500, `the generated campaign has 500 files (${files})`);
    collectGarbage();
    let started = performance.now();
    const first = await validateCampaign(folder);
    const firstMs = performance.now() - started;
    const codes = first?.diagnostics.map((diagnostic) => diagnostic.code).sort();
    check(
      JSON.stringify(codes) ===
        JSON.stringify(['CAMPAIGN_PATH_NOT_FOUND', 'CAMPAIGN_PATH_NOT_FOUND', 'CAMPAIGN_UNKNOWN_BEAT', 'CAMPAIGN_UNKNOWN_BEAT', 'CAMPAIGN_UNKNOWN_BEAT']),
      `the seeded mistakes and only them are found: ${JSON.stringify(codes)}`,
    );
    const rounds = options.quick ? 5 : 15;
    const inProcess: number[] = [];
    for (let round = 0; round < rounds; round++) {
      collectGarbage();
      started = performance.now();
      await validateCampaign(folder);
      inProcess.push(performance.now() - started);
    }
    // The whole command, as an author runs it: process start, loading, validation, the JSON report.
    const cli: number[] = [];
    if (existsSync(CLI)) {
      for (let round = 0; round < (options.quick ? 3 : 7); round++) {
        started = performance.now();
        const outcome = await run(process.execPath, [CLI, 'validate', folder, '--format', 'json'], { maxBuffer: 1 << 24 }).catch(
          (error: { code?: number; stdout?: string }) => error,
        );
        cli.push(performance.now() - started);
        check('code' in outcome ? outcome.code === 1 : false, 'narratoria validate exits 1 on the seeded errors');
      }
    }
    const medians: Record<string, number> = { firstMs, inProcessMs: median(inProcess), budgetMs: BUDGET_MS };
    if (cli.length > 0) medians['cliMs'] = median(cli);
    const headline = medians['cliMs'] ?? medians['inProcessMs']!;
    const ratio = headline / BUDGET_MS;
    const cliText = cli.length > 0 ? `narratoria validate as a process ${ms(medians['cliMs']!)}; ` : '(dist/cli.cjs not built: in-process only) ';
    const line =
      `(k) campaign validation, 500 files (${LORE} lore, ${BEATS} beats, ${NPCS} NPCs, ${PORTRAITS + SOUNDS} assets), 5 seeded mistakes: ` +
      `${cliText}in-process median ${ms(medians['inProcessMs']!)} (first ${ms(firstMs)}, ${rounds} rounds) against the 2 s of SC-003 = ${ratioText(ratio)} ${targetText(ratio, TARGET)}`;
    return {
      id: 'k',
      title: 'campaign validation',
      line,
      ratio,
      target: TARGET,
      met: meetsTarget(ratio, TARGET),
      medians,
      samples: { inProcessMs: inProcess, cliMs: cli },
      details: { files, lore: LORE, beats: BEATS, npcs: NPCS, assets: PORTRAITS + SOUNDS, rounds },
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
