// Extension-host test of the local-model narrator: a real node-llama-cpp worker on a tiny generated GGUF, started from the extension host.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
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
    await api.context.narrator.reset();
    rmSync(directory, { recursive: true, force: true });
  });

  test('starts as the pattern narrator without loading any model', () => {
    assert.notEqual(api.context.narrator.status.state, 'ready');
  });

  test('with a model path set, the model loads in its own process and a turn uses it or falls back with a reason', async function () {
    this.timeout(60_000);
    const model = makeTinyGguf(path.join(directory, 'tiny.gguf'), { contextLength: 4096 }).path;
    await settings().update('mode', 'llm', vscode.ConfigurationTarget.Workspace);
    await settings().update('modelPath', model, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => api.context.narrator.status.state !== 'ready', 'the narrator to be chosen again');
    await api.context.narrator.prepare();
    assert.equal(api.context.narrator.status.state, 'ready', `${api.context.narrator.status.label}: ${api.context.narrator.status.detail}`);
    const result = await api.context.play!.play('I roll to pick the lock');
    assert.ok(typeof result === 'object');
    const first = result.attempts[0]!;
    assert.ok(first.narrator === 'llm' || (first.narrator === 'pattern' && typeof first.fallbackReason === 'string' && first.fallbackReason.length > 0), JSON.stringify({ narrator: first.narrator, reason: first.fallbackReason }));
    assert.ok(result.narrative.length > 0);
  });
});
