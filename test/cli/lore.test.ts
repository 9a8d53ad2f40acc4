// `narratoria lore` as a real process (dist/cli.cjs, loading dist/loreTokenizer.cjs): text, JSON valid against contracts/campaign/lore-chunks.schema.json, --query and --limit, and the exit codes.
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAjv } from '../../src/runtime/contracts/schemas.js';
import { narratoria, projectRoot, type CliRun } from './cliHarness.js';

const temporary: string[] = [];
after(() => {
  for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
});

const validate = createAjv().compile(JSON.parse(readFileSync(path.join(projectRoot, 'contracts', 'campaign', 'lore-chunks.schema.json'), 'utf8')) as object);

function show(run: CliRun): string {
  return `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
}

function assertValid(report: unknown): void {
  assert.ok(validate(report), JSON.stringify(validate.errors, null, 2));
}

const LONG = Array.from({ length: 90 }, (_, index) => `Captain ${index} sailed the northern sea and came home with silver.`).join(' ');

/** A campaign with nested lore, a long paragraph, a CRLF file, an empty file and an image. */
function campaign(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-lore-cli-'));
  temporary.push(folder);
  const files: Record<string, string | Buffer> = {
    'manifest.json': JSON.stringify({ title: 'The Salt Coast', version: '1.0.0' }),
    'lore/factions/iron-guild.md': '# The Iron Guild\n\nThe Guild controls the docks and taxes every ship.\n\nIts master, Mara Vey, was a smuggler once.\n',
    'lore/places/harbour.txt': 'Ships unload spice at the harbour.\r\n\r\nAt night the lanterns burn green.\r\n',
    'lore/captains.md': LONG,
    'lore/empty.md': '',
    'lore/map.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  };
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    writeFileSync(path.join(folder, file), content);
  }
  return folder;
}

test('the encoding is bundled apart: dist/cliMain.cjs and dist/extension.cjs require dist/loreTokenizer.cjs on first use and hold none of it', () => {
  const tokenizer = readFileSync(path.join(projectRoot, 'dist', 'loreTokenizer.cjs'), 'utf8');
  // The encoding's ranks are nearly all of the file: a piece from its middle is theirs.
  const ranks = tokenizer.slice(tokenizer.length / 2, tokenizer.length / 2 + 200);
  for (const bundle of ['cliMain.cjs', 'extension.cjs']) assert.ok(!readFileSync(path.join(projectRoot, 'dist', bundle), 'utf8').includes(ranks), bundle);
  assert.match(
    readFileSync(path.join(projectRoot, 'dist', 'cliMain.cjs'), 'utf8'),
    /require\(require\("node:path"\)\.join\(__dirname, ?"loreTokenizer\.cjs"\)\)/,
  );
});

test('lore DIR: each file with its chunks (index, paragraph, tokens, method, lines, first words), skipped files and totals', async () => {
  const folder = campaign();
  const run = await narratoria(['lore', folder]);
  assert.equal(run.code, 0, show(run));
  assert.equal(run.stderr, '');
  const lines = run.stdout.split('\n');
  assert.ok(lines.includes('lore/empty.md: 0 chunks, 0 tokens'), run.stdout);
  assert.match(run.stdout, /^lore\/captains\.md: \d chunks, [\d,]+ tokens \(largest \d+\); 1 paragraph over 512 tokens cut at sentence ends$/m);
  assert.match(run.stdout, /^lore\/factions\/iron-guild\.md: 3 chunks, \d+ tokens \(largest \d+\)$/m);
  assert.match(run.stdout, /^ {5}1 {2}para 1 +\d+ tokens {2}paragraph {2}line 3 +The Guild controls the docks and taxes every ship\.$/m);
  assert.match(run.stdout, /^ {5}0 {2}para 0 +\d+ tokens {2}sentence {3}line 1 +Captain 0 sailed the northern sea and came home with\.\.\.$/m);
  assert.match(run.stdout, /^skipped lore\/map\.png: not a lore text file \(\.md, \.markdown, \.txt\)$/m);
  assert.match(run.stdout, /\n\n4 files, \d+ chunks, [\d,]+ tokens \(cl100k_base, at most 512 per chunk\); 1 long paragraph cut at sentence ends\n$/);
  // The order: files by path.
  const order = lines.filter((line) => line.startsWith('lore/')).map((line) => line.split(':')[0]);
  assert.deepEqual(order, ['lore/captains.md', 'lore/empty.md', 'lore/factions/iron-guild.md', 'lore/places/harbour.txt']);
});

test('lore --format json: the FR-023 metadata of every chunk, valid against the schema; the current folder by default', async () => {
  const folder = campaign();
  const run = await narratoria(['lore', '--format', 'json'], folder);
  assert.equal(run.code, 0, show(run));
  const report = JSON.parse(run.stdout) as {
    campaign: string;
    totals: { files: number; chunks: number; tokens: number };
    chunks: {
      id: string;
      file: string;
      chunkIndex: number;
      paragraphId: number;
      tokenCount: number;
      method: string;
      text: string;
      line: number;
      endLine: number;
    }[];
    skipped: { file: string; kind: string }[];
  };
  assertValid(report);
  assert.equal(report.campaign, '.');
  assert.equal(report.totals.files, 4);
  assert.equal(report.totals.chunks, report.chunks.length);
  assert.equal(
    report.totals.tokens,
    report.chunks.reduce((sum, chunk) => sum + chunk.tokenCount, 0),
  );
  const harbour = report.chunks.filter((chunk) => chunk.file === 'lore/places/harbour.txt');
  assert.deepEqual(
    harbour.map((chunk) => [chunk.chunkIndex, chunk.paragraphId, chunk.method, chunk.text, chunk.line, chunk.endLine]),
    [
      [0, 0, 'paragraph', 'Ships unload spice at the harbour.', 1, 1],
      [1, 1, 'paragraph', 'At night the lanterns burn green.', 3, 3],
    ],
  );
  const captains = report.chunks.filter((chunk) => chunk.file === 'lore/captains.md');
  assert.ok(captains.length >= 2 && captains.every((chunk) => chunk.method === 'sentence' && chunk.paragraphId === 0 && chunk.tokenCount <= 512));
  assert.deepEqual(report.skipped, [{ file: 'lore/map.png', reason: 'not a lore text file (.md, .markdown, .txt)', kind: 'not-text' }]);
});

test('lore --query: the chunks a query retrieves with their scores, text and JSON; --limit', async () => {
  const folder = campaign();
  const text = await narratoria(['lore', folder, '--query', 'Who is the master of the iron guild?', '--limit', '2']);
  assert.equal(text.code, 0, show(text));
  const lines = text.stdout.split('\n');
  assert.match(lines[0]!, /^Query "Who is the master of the iron guild\?" \(terms: master, iron, faction\): \d+ of \d+ chunks match$/);
  assert.match(lines[1]!, /^ {2}1\. \d+\.\d{3} {2}lore\/factions\/iron-guild\.md#2 {2}line 5, \d+ tokens {2}\[master, iron, faction\]$/);
  assert.equal(lines[2], '     Its master, Mara Vey, was a smuggler once.');
  assert.match(lines[3]!, /^ {2}2\. .*lore\/factions\/iron-guild\.md#1 /);
  assert.equal(lines.length, 6, 'two results, each on two lines');
  const one = await narratoria(['lore', folder, '--query', 'the guild', '--limit', '1']);
  assert.match(one.stdout, /^Query "the guild" \(terms: faction\): 2 of \d+ chunks match\n {2}1\. .*\n.*\n\(best 1 shown; --limit N shows more\)\n$/);

  const json = await narratoria(['lore', folder, '--query', 'lanterns at night', '--format', 'json']);
  assert.equal(json.code, 0, show(json));
  const report = JSON.parse(json.stdout) as {
    chunks?: unknown;
    query: { terms: string[]; limit: number; matched: number; results: { rank: number; score: number; chunk: { id: string } }[] };
  };
  assertValid(report);
  assert.equal(report.chunks, undefined, 'a query lists its results, not every chunk');
  assert.ok(!validate({ ...report, chunks: [] }), 'the schema takes chunks or a query, not both');
  assert.deepEqual(report.query.terms, ['lantern', 'night']);
  assert.equal(report.query.limit, 5);
  assert.equal(report.query.results[0]!.chunk.id, 'lore/places/harbour.txt#1');
  for (const result of report.query.results) assert.equal(result.score, Math.round(result.score * 10_000) / 10_000, 'scores rounded to 4 decimals');
  assert.deepEqual(
    report.query.results.map((result) => result.rank),
    report.query.results.map((_, index) => index + 1),
  );

  const none = await narratoria(['lore', folder, '--query', 'dragons']);
  assert.equal(none.code, 0, show(none));
  assert.match(none.stdout, /^Query "dragons" \(terms: dragon\): 0 of \d+ chunks match\nNo chunk holds any of the terms\.\n$/);
});

test('a folder without lore, or without manifest.json (a warning), still answers', async () => {
  const bare = mkdtempSync(path.join(os.tmpdir(), 'narratoria-lore-cli-'));
  temporary.push(bare);
  const run = await narratoria(['lore', bare]);
  assert.equal(run.code, 0, show(run));
  assert.match(
    run.stderr,
    /^narratoria: warning: .* has no manifest\.json, so it is not a campaign \(spec 007, FR-001\); its lore\/ is chunked all the same\n$/,
  );
  assert.match(run.stdout, /has no lore\/ folder: no chunks \(lore is optional\)\.\n\n0 files, 0 chunks, 0 tokens/);
  const json = await narratoria(['lore', bare, '--format', 'json']);
  assertValid(JSON.parse(json.stdout));
});

test('exit 1 when a lore file cannot be read (a broken link), listed; exit 2 on usage errors and a missing folder', async () => {
  const folder = campaign();
  if (process.platform !== 'win32') {
    symlinkSync(path.join(folder, 'nowhere.md'), path.join(folder, 'lore', 'gone.md'));
    const broken = await narratoria(['lore', folder]);
    assert.equal(broken.code, 1, show(broken));
    assert.match(broken.stdout, /^skipped lore\/gone\.md: cannot read: ENOENT \(a broken link\)$/m);
    const json = await narratoria(['lore', folder, '--format', 'json']);
    assert.equal(json.code, 1, show(json));
    assertValid(JSON.parse(json.stdout));
  }
  const usage: [args: string[], message: RegExp][] = [
    [['lore', path.join(folder, 'missing')], /the campaign folder .*missing does not exist/],
    [['lore', path.join(folder, 'manifest.json')], /manifest\.json is not a folder; a campaign is a folder with a manifest\.json/],
    [['lore', folder, '--limit', '3'], /--limit goes with --query/],
    [['lore', folder, '--query', '  '], /--query needs some words/],
    [['lore', folder, '--query', 'x', '--limit', '0'], /--limit must be a positive integer, not "0"/],
    [['lore', folder, '--format', 'xml'], /--format must be "text" or "json"/],
    [['lore', folder, folder], /lore takes one campaign folder \(got 2\)/],
    [['lore', folder, '--bogus'], /Unknown option '--bogus'/],
  ];
  for (const [args, message] of usage) {
    const run = await narratoria(args);
    assert.equal(run.code, 2, `${args.join(' ')}\n${show(run)}`);
    assert.match(run.stderr, message);
    assert.match(run.stderr, /"narratoria lore --help" lists its flags and exit codes\.\n$/);
    assert.equal(run.stdout, '');
  }
});
