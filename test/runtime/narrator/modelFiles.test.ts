// Tests of model file checks: the GGUF header reader, the cache directory, modelStatus and verifyModelFile (published and recorded hashes).
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readGgufHeader } from '../../../src/runtime/narrator/ggufHeader.js';
import {
  DEFAULT_MODEL,
  modelCacheDirectory,
  modelStatus,
  partialFilePath,
  sha256OfFile,
  verificationStampPath,
  verifyModelFile,
  type ModelCatalogEntry,
} from '../../../src/runtime/narrator/modelStore.js';
import { createModelDirectory, type ModelDirectory } from './narratorFixtures.js';

describe('readGgufHeader', () => {
  let models: ModelDirectory;
  before(() => {
    models = createModelDirectory();
  });
  after(() => models.remove());

  test('summarises a valid tiny model', async () => {
    const check = await readGgufHeader(models.model('valid.gguf'));
    assert.equal(check.ok, true);
    if (!check.ok) return;
    assert.equal(check.summary.version, 3);
    assert.equal(check.summary.architecture, 'llama');
    assert.equal(check.summary.contextLength, 4096);
    assert.equal(check.summary.tokenizerModel, 'llama');
    assert.equal(check.summary.vocabularySize, 390);
    assert.equal(check.summary.tensorCount, 21);
    assert.equal(check.summary.dataEnd, check.summary.fileSize);
  });

  test('a truncated file: truncated tensor data, or a corrupt header when cut inside it', async () => {
    const source = models.model('whole.gguf');
    const cutData = path.join(models.directory, 'cut-data.gguf');
    fs.writeFileSync(cutData, fs.readFileSync(source).subarray(0, 300_000));
    const data = await readGgufHeader(cutData);
    assert.equal(data.ok ? 'ok' : data.code, 'truncated');
    const cutHeader = path.join(models.directory, 'cut-header.gguf');
    fs.writeFileSync(cutHeader, fs.readFileSync(source).subarray(0, 3000));
    const header = await readGgufHeader(cutHeader);
    assert.equal(header.ok ? 'ok' : header.code, 'corrupt');
    assert.match(header.ok ? '' : header.message, /unexpected end of file/);
  });

  test('missing required metadata is named', async () => {
    const check = await readGgufHeader(models.model('no-tokenizer.gguf', { omitKeys: ['tokenizer.ggml.model', 'llama.context_length'] }));
    assert.equal(check.ok ? 'ok' : check.code, 'missing_metadata');
    assert.match(check.ok ? '' : check.message, /llama\.context_length.*tokenizer\.ggml\.model/);
  });

  test('not a GGUF, a wrong version, implausible counts, a missing file', async () => {
    const write = (name: string, bytes: Buffer): string => {
      const file = path.join(models.directory, name);
      fs.writeFileSync(file, bytes);
      return file;
    };
    const header = (version: number, tensors: bigint, entries: bigint): Buffer => {
      const bytes = Buffer.alloc(64);
      bytes.write('GGUF', 0, 'latin1');
      bytes.writeUInt32LE(version, 4);
      bytes.writeBigUInt64LE(tensors, 8);
      bytes.writeBigUInt64LE(entries, 16);
      return bytes;
    };
    const code = async (file: string): Promise<string> => {
      const check = await readGgufHeader(file);
      return check.ok ? 'ok' : check.code;
    };
    assert.equal(await code(write('text.gguf', Buffer.from('{"not": "a model"}\n'.repeat(4)))), 'not_gguf');
    assert.equal(await code(write('v1.gguf', header(1, 1n, 1n))), 'unsupported_version');
    assert.equal(await code(write('huge.gguf', header(3, 1n << 40n, 1n))), 'corrupt');
    assert.equal(await code(write('empty.gguf', header(3, 0n, 0n))), 'corrupt');
    assert.equal(await code(path.join(models.directory, 'absent.gguf')), 'unreadable');
  });
});

describe('model cache', () => {
  let models: ModelDirectory;
  before(() => {
    models = createModelDirectory();
  });
  after(() => models.remove());

  test('modelCacheDirectory: override, XDG cache home, home directory', () => {
    assert.equal(modelCacheDirectory({ NARRATORIA_MODEL_DIR: '/opt/models' }), '/opt/models');
    assert.equal(modelCacheDirectory({ XDG_CACHE_HOME: '/var/cache/me' }), '/var/cache/me/narratoria/models');
    assert.match(modelCacheDirectory({ XDG_CACHE_HOME: 'relative' }), /\.cache\/narratoria\/models$/);
    assert.equal(DEFAULT_MODEL.file, 'Phi-3.5-mini-instruct-Q4_K_M.gguf');
    assert.match(DEFAULT_MODEL.sha256 ?? '', /^[0-9a-f]{64}$/);
  });

  test('modelStatus: absent, partial, present unverified, present verified', async () => {
    const directory = path.join(models.directory, 'status');
    fs.mkdirSync(directory);
    const source = models.model('source.gguf');
    const entry: ModelCatalogEntry = { ...DEFAULT_MODEL, file: 'tiny.gguf', sizeBytes: fs.statSync(source).size, sha256: await sha256OfFile(source) };
    const target = path.join(directory, entry.file);
    assert.deepEqual(await modelStatus({ entry, directory }), { state: 'absent', path: target });
    fs.writeFileSync(partialFilePath(target), fs.readFileSync(source).subarray(0, 1000));
    assert.deepEqual(await modelStatus({ entry, directory }), { state: 'partial', path: target, bytes: 1000, totalBytes: entry.sizeBytes });
    fs.rmSync(partialFilePath(target));
    fs.copyFileSync(source, target);
    assert.deepEqual(await modelStatus({ entry, directory }), { state: 'present', path: target, bytes: entry.sizeBytes, verified: false });
    const verification = await verifyModelFile(target, entry);
    assert.equal(verification.ok && verification.checksum, 'published');
    assert.deepEqual(await modelStatus({ entry, directory }), { state: 'present', path: target, bytes: entry.sizeBytes, verified: true });
    const again = await verifyModelFile(target, entry);
    assert.equal(again.ok && again.checksum, 'cached');
  });

  test('verifyModelFile: size and published hash mismatches, bad header', async () => {
    const file = models.model('checked.gguf');
    const size = fs.statSync(file).size;
    const wrongSize = await verifyModelFile(file, { sizeBytes: size + 1 });
    assert.equal(wrongSize.ok ? 'ok' : wrongSize.code, 'size_mismatch');
    const wrongHash = await verifyModelFile(file, { sizeBytes: size, sha256: '0'.repeat(64) });
    assert.equal(wrongHash.ok ? 'ok' : wrongHash.code, 'checksum_mismatch');
    assert.match(wrongHash.ok ? '' : wrongHash.message, /differs from the published 0{64}/);
    const broken = models.model('broken.gguf', { omitKeys: ['general.architecture'] });
    const invalid = await verifyModelFile(broken);
    assert.equal(invalid.ok ? 'ok' : invalid.code, 'invalid_gguf');
    const missing = await verifyModelFile(path.join(models.directory, 'nothing.gguf'));
    assert.equal(missing.ok ? 'ok' : missing.code, 'missing');
  });

  test('verifyModelFile without a published hash records the first one and detects a later change', async () => {
    const file = models.model('recorded.gguf', { seed: 5 });
    const first = await verifyModelFile(file);
    assert.equal(first.ok && first.checksum, 'recorded');
    assert.ok(fs.existsSync(verificationStampPath(file)));
    const cached = await verifyModelFile(file);
    assert.equal(cached.ok && cached.checksum, 'cached');
    // Same size, different bytes (a different seed), newer mtime: the recorded hash catches it.
    models.model('recorded.gguf', { seed: 6 });
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const changed = await verifyModelFile(file);
    assert.equal(changed.ok ? 'ok' : changed.code, 'checksum_mismatch');
    assert.match(changed.ok ? '' : changed.message, /the recorded/);
  });
});
