// Extension-host test of the local-model narrator: a real node-llama-cpp worker on a tiny generated GGUF, started from the extension host.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { NarratoriaApi } from '../../src/extension/main.js';
import { makeTinyGguf } from '../fixtures/models/makeTinyGguf.js';
import { narratoriaApi, waitFor } from './api.js';

suite('Narrator model', () => {
  let api: NarratoriaApi;
  let directory: string;
  const settings = () => vscode.workspace.getConfiguration('narratoria.narrator');

  suiteSetup(async () => {
    api = await narratoriaApi();
    directory = mkdtempSync(path.join(tmpdir(), 'narratoria-eh-model-'));
  });

  suiteTeardown(async () => {
    await settings().update('modelPath', undefined, vscode.ConfigurationTarget.Workspace);
    await settings().update('mode', undefined, vscode.ConfigurationTarget.Workspace);
    await settings().update('downloadBaseUrl', undefined, vscode.ConfigurationTarget.Workspace);
    await api.context.narrator.reset();
    rmSync(directory, { recursive: true, force: true });
  });

  test('starts as the pattern narrator without loading any model', () => {
    assert.notEqual(api.context.narrator.status.state, 'ready');
  });

  test('with a model path set, the model loads in its own process and a turn uses it or falls back with a reason', async function () {
    // Margin: a safety net for a model load and a turn on a loaded machine, not a time limit.
    this.timeout(180_000);
    const model = makeTinyGguf(path.join(directory, 'tiny.gguf'), { contextLength: 4096 }).path;
    await settings().update('mode', 'llm', vscode.ConfigurationTarget.Workspace);
    await settings().update('modelPath', model, vscode.ConfigurationTarget.Workspace);
    // Deterministic: the settings change reaches the extension as an event, and only then does the narrator
    // service choose again. Wait until its status names this model (idle, loading or ready with the local model's
    // reason); "not ready" held already before the change, so prepare() could run on the old pattern choice.
    const modelFile = path.basename(model);
    await waitFor(() => (api.context.narrator.status.detail ?? '').includes(modelFile), `the narrator to choose ${modelFile}`);
    await api.context.narrator.prepare();
    assert.equal(api.context.narrator.status.state, 'ready', `${api.context.narrator.status.label}: ${api.context.narrator.status.detail}`);
    const result = await api.context.play!.play('I roll to pick the lock');
    assert.ok(typeof result === 'object');
    const first = result.attempts[0]!;
    assert.ok(
      first.narrator === 'llm' || (first.narrator === 'pattern' && typeof first.fallbackReason === 'string' && first.fallbackReason.length > 0),
      JSON.stringify({ narrator: first.narrator, reason: first.fallbackReason }),
    );
    assert.ok(result.narrative.length > 0);
  });

  test('Download Narrator Model reports a failing mirror and keeps the pattern narrator', async function () {
    // Margin: a safety net (the mirror answers 404 at once), not a time limit.
    this.timeout(120_000);
    const requests: string[] = [];
    const server: Server = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.writeHead(404).end('no such model here');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await settings().update('downloadBaseUrl', `http://127.0.0.1:${(server.address() as AddressInfo).port}`, vscode.ConfigurationTarget.Workspace);
      const outcome = await vscode.commands.executeCommand<string>('narratoria.downloadModel');
      assert.equal(outcome, 'http');
      assert.ok(
        requests.some((url) => url.endsWith('/Phi-3.5-mini-instruct-Q4_K_M.gguf')),
        `the mirror was asked for the pinned file (${requests.join(', ')})`,
      );
      assert.notEqual(api.context.narrator.status.state, 'downloading');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
