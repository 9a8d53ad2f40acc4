// Finding and chunking a campaign's lore on disk (real files): nested folders, the files that are skipped and why, a byte order mark, a campaign without lore.
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chunkCampaignLore, findLoreFiles } from '../../../../src/runtime/campaign/lore/index.js';

const temporary: string[] = [];
after(() => {
  for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
});

/** A campaign folder holding `files` (relative path -> content). */
function campaign(files: Record<string, string | Buffer>): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-lore-'));
  temporary.push(folder);
  writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify({ title: 'Test', version: '1.0.0' }));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    writeFileSync(path.join(folder, file), content);
  }
  return folder;
}

test('every Markdown and text file under lore/, nested folders too (FR-024), in path order, with forward slashes', async () => {
  const folder = campaign({
    'lore/zeta.md': 'Zeta.',
    'lore/places/harbour.markdown': 'The harbour.\n\nThe docks.',
    'lore/places/deep/wreck.TXT': 'A wreck.',
    'lore/alpha.txt': 'Alpha.',
    'world/setting.md': 'Not lore.',
  });
  const chunking = await chunkCampaignLore(folder);
  assert.equal(chunking.hasLoreFolder, true);
  assert.equal(chunking.tokenizer, 'cl100k_base');
  assert.equal(chunking.maxTokens, 512);
  assert.deepEqual(
    chunking.files.map((file) => [file.file, file.chunks]),
    [
      ['lore/alpha.txt', 1],
      ['lore/places/deep/wreck.TXT', 1],
      ['lore/places/harbour.markdown', 2],
      ['lore/zeta.md', 1],
    ],
  );
  assert.deepEqual(
    chunking.chunks.map((chunk) => chunk.id),
    ['lore/alpha.txt#0', 'lore/places/deep/wreck.TXT#0', 'lore/places/harbour.markdown#0', 'lore/places/harbour.markdown#1', 'lore/zeta.md#0'],
  );
  assert.deepEqual(chunking.skipped, []);
});

test('files that are not lore text are skipped with their reason; hidden ones silently; an empty file has no chunks', async () => {
  const folder = campaign({
    'lore/map.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]),
    'lore/notes.json': '{}',
    'lore/binary.md': Buffer.from('text\u0000more'),
    'lore/.DS_Store': 'x',
    'lore/.drafts/secret.md': 'Hidden.',
    'lore/empty.md': '',
    'lore/real.md': 'Real lore.',
  });
  const chunking = await chunkCampaignLore(folder);
  assert.deepEqual(
    chunking.files.map((file) => [file.file, file.chunks]),
    [
      ['lore/empty.md', 0],
      ['lore/real.md', 1],
    ],
  );
  assert.deepEqual(
    chunking.skipped.map((skipped) => [skipped.file, skipped.kind]),
    [
      ['lore/binary.md', 'binary'],
      ['lore/map.png', 'not-text'],
      ['lore/notes.json', 'not-text'],
    ],
  );
  assert.match(chunking.skipped[1]!.reason, /not a lore text file \(\.md, \.markdown, \.txt\)/);
});

test('a byte order mark is dropped, so offsets are those an editor shows', async () => {
  const folder = campaign({ 'lore/bom.md': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('First.\n\nSecond.')]) });
  const [first, second] = (await chunkCampaignLore(folder)).chunks;
  assert.deepEqual([first!.text, first!.start, second!.start, second!.line], ['First.', 0, 8, 3]);
});

test('a campaign without lore/ has no chunks (lore is optional); a lore file in its place is reported', async () => {
  const none = await chunkCampaignLore(campaign({}));
  assert.deepEqual(none, { hasLoreFolder: false, tokenizer: 'cl100k_base', maxTokens: 512, files: [], skipped: [], chunks: [] });
  const file = await chunkCampaignLore(campaign({ lore: 'not a folder' }));
  assert.equal(file.hasLoreFolder, false);
  assert.deepEqual(
    file.skipped.map((skipped) => [skipped.file, skipped.kind]),
    [['lore', 'not-text']],
  );
});

test('links: a linked file is lore, a linked folder is not followed', {
  skip: process.platform === 'win32' && 'symbolic links need rights on Windows',
}, async () => {
  const folder = campaign({ 'shared/common.md': 'Shared lore.', 'lore/own.md': 'Own lore.' });
  symlinkSync(path.join(folder, 'shared', 'common.md'), path.join(folder, 'lore', 'common.md'));
  symlinkSync(path.join(folder, 'shared'), path.join(folder, 'lore', 'shared'));
  const found = await findLoreFiles(folder);
  assert.deepEqual(
    found.files.map((file) => file.file),
    ['lore/common.md', 'lore/own.md'],
  );
  assert.deepEqual(
    found.skipped.map((skipped) => [skipped.file, skipped.kind]),
    [['lore/shared', 'link']],
  );
});

test('a broken link is skipped as unreadable (the CLI exits 1 for it)', {
  skip: process.platform === 'win32' && 'symbolic links need rights on Windows',
}, async () => {
  const folder = campaign({ 'lore/own.md': 'Own lore.' });
  symlinkSync(path.join(folder, 'nowhere.md'), path.join(folder, 'lore', 'gone.md'));
  const chunking = await chunkCampaignLore(folder);
  assert.deepEqual(
    chunking.skipped.map((skipped) => [skipped.file, skipped.kind, skipped.reason]),
    [['lore/gone.md', 'unreadable', 'cannot read: ENOENT (a broken link)']],
  );
  assert.equal(chunking.chunks.length, 1);
});
