// Tests of the model downloader against a local HTTP server on 127.0.0.1 serving a tiny GGUF: progress, resume after a cut connection, cancel, checksum mismatch.
import { after, before, beforeEach, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { CancellationError } from '../../../src/runtime/common/errors.js';
import { downloadModel, modelUrl, type DownloadProgress } from '../../../src/runtime/narrator/modelDownload.js';
import { DEFAULT_MODEL, modelStatus, partialFilePath, sha256OfFile, type ModelCatalogEntry } from '../../../src/runtime/narrator/modelStore.js';
import { createModelDirectory, type ModelDirectory } from './narratorFixtures.js';

/** How the server answers the next requests. */
interface ServerBehaviour {
  /** Close the connection after this many body bytes, on the first request only. */
  cutAfter?: number;
  /** Answer 200 with the whole file even to a Range request. */
  ignoreRange?: boolean;
  /** Pause between 16 KiB chunks (ms). */
  chunkDelayMs?: number;
}

const CHUNK = 16 * 1024;

/**
 * Resolves once `file` holds at least `bytes` bytes, polling. The 30 s deadline is only a safety net (it then
 * resolves anyway and the test's own assertions report what is missing), never a timing assertion.
 */
async function waitForFileSize(file: string, bytes: number, deadlineMs = 30_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  const size = (): number => {
    try {
      return fs.statSync(file).size;
    } catch {
      return 0;
    }
  };
  while (size() < bytes && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('downloadModel', () => {
  let models: ModelDirectory;
  let server: http.Server;
  let baseUrl: string;
  let modelBytes: Buffer;
  let entry: ModelCatalogEntry;
  let behaviour: ServerBehaviour = {};
  let requests: { url: string; range: string | undefined }[] = [];
  let directoryIndex = 0;
  let directory = '';

  before(async () => {
    models = createModelDirectory();
    const source = models.model('served.gguf');
    modelBytes = fs.readFileSync(source);
    entry = {
      ...DEFAULT_MODEL,
      repository: 'test/tiny-GGUF',
      revision: 'abc123',
      file: 'tiny.gguf',
      sizeBytes: modelBytes.length,
      sha256: await sha256OfFile(source),
    };
    server = http.createServer((request, response) => {
      const range = request.headers.range;
      requests.push({ url: request.url ?? '', range });
      if (request.url !== `/${entry.repository}/resolve/${entry.revision}/${entry.file}`) {
        response.writeHead(404).end('not found');
        return;
      }
      const start = range && !behaviour.ignoreRange ? Number(/^bytes=(\d+)-$/.exec(range)?.[1] ?? 0) : 0;
      const body = modelBytes.subarray(start);
      const headers = { 'content-length': String(body.length), 'content-type': 'application/octet-stream' };
      if (start > 0) response.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${modelBytes.length - 1}/${modelBytes.length}` });
      else response.writeHead(200, headers);
      const cutAfter = requests.length === 1 ? behaviour.cutAfter : undefined;
      void (async () => {
        for (let offset = 0; offset < body.length; offset += CHUNK) {
          if (response.destroyed) return;
          if (cutAfter !== undefined && offset >= cutAfter) {
            // Deterministic: drop the connection mid-body only once the client has written every byte sent so far
            // to its .partial file. A fixed pause could end before a loaded client has read them, and bytes still
            // queued in its stream when the connection fails are dropped, leaving nothing to resume from.
            await waitForFileSize(partialFilePath(path.join(directory, entry.file)), offset);
            response.socket?.destroy();
            return;
          }
          await new Promise((resolve) => response.write(body.subarray(offset, offset + CHUNK), resolve));
          if (behaviour.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.chunkDelayMs));
        }
        response.end();
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    models.remove();
  });
  beforeEach(() => {
    behaviour = {};
    requests = [];
    directory = path.join(models.directory, `cache-${directoryIndex++}`);
  });

  test('downloads with progress into the cache, verifies, then serves the cached copy without a request', async () => {
    const progress: DownloadProgress[] = [];
    const result = await downloadModel({ entry, directory, baseUrl, progressIntervalMs: 0, onProgress: (event) => progress.push(event) });
    assert.equal(result.ok, true);
    assert.equal(result.ok && result.downloaded, true);
    assert.equal(result.ok && result.sha256, entry.sha256);
    assert.equal(requests.length, 1);
    assert.equal(requests[0]?.range, undefined);
    assert.ok(progress.length >= 3, `${progress.length} progress events`);
    assert.ok(progress.every((event, index) => index === 0 || event.receivedBytes >= (progress[index - 1]?.receivedBytes ?? 0)));
    assert.deepEqual(progress.at(-1), { receivedBytes: modelBytes.length, totalBytes: modelBytes.length, resumedFrom: 0 });
    assert.deepEqual(await modelStatus({ entry, directory }), {
      state: 'present',
      path: path.join(directory, entry.file),
      bytes: modelBytes.length,
      verified: true,
    });
    const again = await downloadModel({ entry, directory, baseUrl });
    assert.equal(again.ok && again.downloaded, false);
    assert.equal(requests.length, 1);
  });

  test('a cut connection leaves a .partial file; the next call resumes it with a Range request', async () => {
    behaviour = { cutAfter: 5 * CHUNK };
    const first = await downloadModel({ entry, directory, baseUrl, retries: 0 });
    assert.equal(first.ok ? 'ok' : first.code, 'network');
    const status = await modelStatus({ entry, directory });
    assert.equal(status.state, 'partial');
    const partialBytes = status.state === 'partial' ? status.bytes : 0;
    assert.equal(partialBytes, 5 * CHUNK, 'the .partial file holds exactly the bytes sent before the cut');
    const progress: DownloadProgress[] = [];
    const second = await downloadModel({ entry, directory, baseUrl, retries: 0, onProgress: (event) => progress.push(event) });
    assert.equal(second.ok, true, second.ok ? '' : second.message);
    assert.equal(requests[1]?.range, `bytes=${partialBytes}-`);
    assert.equal(progress.at(-1)?.resumedFrom, partialBytes);
    assert.deepEqual(fs.readFileSync(path.join(directory, entry.file)), modelBytes);
    assert.equal(fs.existsSync(partialFilePath(path.join(directory, entry.file))), false);
  });

  test('with retries, one call survives a cut connection by resuming', async () => {
    behaviour = { cutAfter: 3 * CHUNK };
    const result = await downloadModel({ entry, directory, baseUrl, retries: 1, retryDelayMs: 10 });
    assert.equal(result.ok, true, result.ok ? '' : result.message);
    assert.equal(requests.length, 2);
    assert.match(requests[1]?.range ?? '', /^bytes=\d+-$/);
  });

  test('a server that ignores Range restarts the download from the beginning', async () => {
    const target = path.join(directory, entry.file);
    fs.mkdirSync(directory, { recursive: true });
    fs.writeFileSync(partialFilePath(target), modelBytes.subarray(0, 1000));
    behaviour = { ignoreRange: true };
    const result = await downloadModel({ entry, directory, baseUrl });
    assert.equal(result.ok, true, result.ok ? '' : result.message);
    assert.equal(requests[0]?.range, 'bytes=1000-');
    assert.deepEqual(fs.readFileSync(target), modelBytes);
  });

  test('cancel: rejects with CancellationError and keeps the .partial file for a later resume', async () => {
    // Deterministic: the abort happens inside onProgress, while the body is still streaming (the model is ~30 chunks).
    behaviour = { chunkDelayMs: 20 };
    const controller = new AbortController();
    const download = downloadModel({
      entry,
      directory,
      baseUrl,
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: (event) => {
        if (event.receivedBytes >= 2 * CHUNK) controller.abort();
      },
    });
    await assert.rejects(download, CancellationError);
    const status = await modelStatus({ entry, directory });
    assert.equal(status.state, 'partial');
  });

  test('checksum mismatch: the file is removed and the error says why', async () => {
    const wrong = { ...entry, sha256: 'f'.repeat(64) };
    const result = await downloadModel({ entry: wrong, directory, baseUrl });
    assert.equal(result.ok ? 'ok' : result.code, 'checksum_mismatch');
    assert.match(result.ok ? '' : result.message, /does not match the published f{64}; the downloaded file was removed/);
    assert.deepEqual(await modelStatus({ entry: wrong, directory }), { state: 'absent', path: path.join(directory, entry.file) });
  });

  test('HTTP errors come back as data', async () => {
    const missing = { ...entry, file: 'missing.gguf' };
    const result = await downloadModel({ entry: missing, directory, baseUrl });
    assert.equal(result.ok ? 'ok' : result.code, 'http');
    assert.match(result.ok ? '' : result.message, /HTTP 404/);
    assert.equal(
      modelUrl(DEFAULT_MODEL),
      `https://huggingface.co/bartowski/Phi-3.5-mini-instruct-GGUF/resolve/${DEFAULT_MODEL.revision}/Phi-3.5-mini-instruct-Q4_K_M.gguf`,
    );
  });
});
