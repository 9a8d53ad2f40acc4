// The trimmed node-llama-cpp tree inside this machine's VSIX really runs: the packaged model worker, unzipped, loads a tiny GGUF and generates grammar-constrained JSON, offline.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModelWorkerClient } from '../../src/runtime/narrator/modelWorkerClient.js';
import { buildDecisionGrammar } from '../../src/runtime/narrator/narratorDecision.js';
import { createModelDirectory, planRequest } from '../runtime/narrator/narratorFixtures.js';
import { readArchive } from './vsixArchive.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const hostTarget = `${process.platform}-${process.arch}`;
const vsix = path.join(projectRoot, `narratoria-${hostTarget}.vsix`);
const scratch = mkdtempSync(path.join(tmpdir(), 'narratoria-packaged-worker-'));
const models = createModelDirectory();
after(() => {
  rmSync(scratch, { recursive: true, force: true });
  models.remove();
});

test(`the model worker packaged in narratoria-${hostTarget}.vsix loads a model and generates from its trimmed node_modules`, async () => {
  assert.ok(existsSync(vsix), `${vsix} is missing: run npm run package first`);
  const { files } = await readArchive(vsix, (name) => name.startsWith('extension/'));
  for (const [name, bytes] of files) {
    const target = path.join(scratch, name);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  }
  const worker = path.join(scratch, 'extension', 'dist', 'modelWorker.cjs');
  assert.ok(existsSync(worker));
  // Nothing outside the unzipped extension can help: no node_modules above the scratch folder.
  assert.ok(!existsSync(path.join(path.dirname(scratch), 'node_modules')));

  const logs: string[] = [];
  const client = new ModelWorkerClient({ command: { command: process.execPath, args: [worker] }, onLog: (message) => logs.push(message) });
  try {
    const loaded = await client.load({ modelPath: models.model('tiny.gguf'), contextSize: 2048, threads: 1 });
    assert.equal(loaded.trainContextSize, 4096);
    const schema = buildDecisionGrammar(planRequest());
    const generated = await client.generate({
      systemPrompt: 'You choose scripts.',
      prompt: 'Roll a d20.',
      grammarSchema: schema,
      seed: 3,
      temperature: 0.8,
      maxTokens: 600,
    });
    assert.ok(generated.tokens > 0, logs.join('\n'));
    assert.ok(generated.text.trimStart().startsWith('['), generated.text);
  } finally {
    await client.dispose();
  }
});
