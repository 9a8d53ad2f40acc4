// Which file an asset event shows in the Inspector: resolved against the run's root, only inside the allowed folders (symlinks followed), else a reason.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AssetFiles, skillFolderOf } from '../../../src/runtime/inspect/assetFiles.js';
import type { AssetEvent } from '../../../src/runtime/contractTypes/toolEvent.js';

const temporary = mkdtempSync(path.join(tmpdir(), 'narratoria-assets-'));
const story = path.join(temporary, 'story');
const outside = path.join(temporary, 'elsewhere');
for (const folder of [path.join(story, 'data'), path.join(story, 'skills', 'portraits', 'scripts'), outside]) mkdirSync(folder, { recursive: true });
writeFileSync(path.join(story, 'data', 'map.png'), 'png');
writeFileSync(path.join(story, 'skills', 'portraits', 'skill.json'), '{}');
writeFileSync(path.join(outside, 'secret.png'), 'png');
symlinkSync(path.join(outside, 'secret.png'), path.join(story, 'data', 'link.png'));
after(() => rmSync(temporary, { recursive: true, force: true }));

const asset = (assetPath: string, mediaType = 'image/png'): AssetEvent => ({
  version: '0',
  type: 'asset',
  assetId: 'a',
  kind: 'image',
  mediaType,
  path: assetPath,
});
const files = new AssetFiles({ base: story, allowed: [story], outsideReason: 'outside' });

test('a relative path resolves against the root; an absolute one is taken as it is', () => {
  assert.deepEqual(files.resolve(asset('data/map.png')), { file: path.join(story, 'data', 'map.png') });
  assert.deepEqual(files.resolve(asset(path.join(story, 'data', 'map.png'))), { file: path.join(story, 'data', 'map.png') });
});

test('media that cannot be drawn, missing files, files outside and symlinks leading outside get a reason', () => {
  assert.deepEqual(files.resolve(asset('data/map.png', 'application/pdf')), { reason: 'application/pdf cannot be previewed' });
  assert.match((files.resolve(asset('data/gone.png')) as { reason: string }).reason, /gone\.png does not exist/);
  assert.match((files.resolve(asset('data')) as { reason: string }).reason, /is not a file/);
  assert.deepEqual(files.resolve(asset(path.join(outside, 'secret.png'))), { reason: 'outside' });
  assert.deepEqual(files.resolve(asset('../elsewhere/secret.png')), { reason: 'outside' });
  assert.deepEqual(files.resolve(asset('data/link.png')), { reason: 'outside' }, 'a symlink inside the root that leads out of it');
});

test('with no known root, only absolute paths resolve', () => {
  const unrooted = new AssetFiles({ base: undefined, allowed: [story], outsideReason: 'outside' });
  assert.match((unrooted.resolve(asset('data/map.png')) as { reason: string }).reason, /does not say which folder/);
  assert.deepEqual(unrooted.resolve(asset(path.join(story, 'data', 'map.png'))), { file: path.join(story, 'data', 'map.png') });
});

test('a script’s skill folder is the one holding skill.json', () => {
  assert.equal(skillFolderOf(path.join(story, 'skills', 'portraits', 'scripts', 'draw.js')), path.join(story, 'skills', 'portraits'));
  assert.equal(skillFolderOf(path.join(outside, 'a', 'scripts', 'x.js')), path.join(outside, 'a'), 'without one: the script’s grandparent');
});
