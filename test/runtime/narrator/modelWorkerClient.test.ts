// Tests of the model worker process and its client: the bundled worker (dist/modelWorker.cjs), restart after a native crash, cancel, and no worker left behind on dispose, host exit or host kill.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { CancellationError } from '../../../src/runtime/common/errors.js';
import { ModelWorkerClient, ModelWorkerError, type WorkerCommand } from '../../../src/runtime/narrator/modelWorkerClient.js';
import { createModelDirectory, REPOSITORY_ROOT, TSX_WORKER, type ModelDirectory } from './narratorFixtures.js';
import { isProcessAlive, waitForProcessExit } from '../../support/processes.js';

const BUNDLE = path.join(REPOSITORY_ROOT, 'dist', 'modelWorker.cjs');
/** The bundle (built by test/runTests.mjs before the tests) exercises the CommonJS import() path; tsx when it is missing. */
const WORKER: WorkerCommand = fs.existsSync(BUNDLE) ? { command: process.execPath, args: [BUNDLE] } : TSX_WORKER;

/** Margin: a host loads tsx, starts a worker and loads the tiny model in ~2 s; a loaded 2-core machine stays far below 2 min. */
const HOST_TIMEOUT_MS = 120_000;

describe(`model worker (${WORKER === TSX_WORKER ? 'tsx source' : 'dist/modelWorker.cjs'})`, () => {
  let models: ModelDirectory;
  let modelPath: string;
  // A long string the grammar forces (at least 700 characters, ~700 tokens of the byte-level tiny vocabulary): a
  // generation that takes long enough to be cancelled mid-way.
  const schema = { type: 'object', properties: { narrative: { type: 'string', minLength: 700, maxLength: 800 } } };
  const generateRequest = { systemPrompt: 'You write Plan JSON.', prompt: 'Roll a d20.', grammarSchema: schema, seed: 3, temperature: 0.8 };

  before(() => {
    models = createModelDirectory();
    modelPath = models.model('tiny.gguf');
  });
  after(() => models.remove());

  test('restarts after a native crash, generates, cancels a generation without being killed, and exits on dispose', async () => {
    const logs: string[] = [];
    // Margin: the worker answers a cancel within milliseconds (it checks the signal between tokens); 30 s of grace
    // (the default, CANCEL_GRACE_MS) keeps a loaded 2-core machine from getting it killed, which would restart it.
    const client = new ModelWorkerClient({ command: WORKER, onLog: (message) => logs.push(message), cancelGraceMs: 30_000 });
    try {
      const crashing = models.model('no-ffn.gguf', { omitKeys: ['llama.feed_forward_length'] });
      await assert.rejects(client.load({ modelPath: crashing, contextSize: 512, threads: 1 }), (error: unknown) => {
        assert.ok(error instanceof ModelWorkerError);
        assert.equal(error.code, 'exited');
        assert.match(error.message, /GGML_ASSERT/);
        return true;
      });
      assert.equal(client.running, false);

      const loaded = await client.load({ modelPath, contextSize: 2048, threads: 1 });
      assert.equal(client.startCount, 2);
      assert.equal(loaded.trainContextSize, 4096);
      const generated = await client.generate({ ...generateRequest, maxTokens: 1200 });
      assert.ok(generated.generationMs > 0 && generated.tokens > 0);
      assert.equal(generated.text.startsWith('{'), true);

      // Deterministic outcome: whether the abort lands before the worker starts the generation or during it, the
      // request rejects with CancellationError and the worker answers the cancel itself. The generation (hundreds
      // of tokens) cannot finish within 30 ms of being sent, and load only makes it slower.
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 30);
      await assert.rejects(client.generate({ ...generateRequest, maxTokens: 5000 }, controller.signal), CancellationError);
      // The cancelled generation may still be in its last step: a turn waits for the worker to be idle before its budget starts.
      await client.whenIdle();
      const idle = client.whenIdle();
      let idleResolved = false;
      void idle.then(() => (idleResolved = true));
      await idle;
      assert.equal(idleResolved, true, 'an idle worker resolves at once');
      const afterCancel = await client.generate({ ...generateRequest, maxTokens: 1200 });
      assert.ok(afterCancel.tokens > 0);
      assert.equal(client.startCount, 2, 'the worker stopped the cancelled generation itself');
      assert.ok(!logs.some((message) => /did not stop request/.test(message)), logs.join('\n'));

      const pid = client.pid;
      assert.ok(pid !== undefined && isProcessAlive(pid));
      await client.dispose();
      // Deterministic: waits for the exit (30 s safety net), a zombie counting as gone.
      assert.ok(await waitForProcessExit(pid), 'worker still running after dispose');
      await assert.rejects(client.load({ modelPath, contextSize: 512, threads: 1 }), /disposed/);
    } finally {
      await client.dispose();
    }
  });

  test('a request cancelled while it waits behind another is answered at once: the worker is not killed, the running one finishes', async () => {
    const logs: string[] = [];
    // A short grace: a worker that left the queued request unanswered until the long one ended would be killed.
    const client = new ModelWorkerClient({ command: WORKER, onLog: (message) => logs.push(message), cancelGraceMs: 100 });
    try {
      await client.load({ modelPath, contextSize: 2048, threads: 1 });
      const long = client.generate({ ...generateRequest, maxTokens: 1200 });
      const controller = new AbortController();
      const queued = client.generate({ ...generateRequest, maxTokens: 1200 }, controller.signal);
      controller.abort();
      await assert.rejects(queued, CancellationError);
      let idle = false;
      const whenIdle = client.whenIdle().then(() => (idle = true));
      const finished = await long;
      await whenIdle;
      assert.equal(idle, true, 'idle once the running generation answered');
      assert.ok(finished.tokens > 0);
      assert.equal(client.startCount, 1, 'the worker was not killed');
      assert.ok(!logs.some((message) => /did not stop request/.test(message)), logs.join('\n'));
    } finally {
      await client.dispose();
    }
  });

  /** A host script that loads the model in a worker, prints the worker's pid, then runs `ending`. */
  const hostScript = (ending: string): string[] => {
    const clientModule = path.join(REPOSITORY_ROOT, 'src/runtime/narrator/modelWorkerClient.ts');
    const script = [
      `const { ModelWorkerClient } = await import(${JSON.stringify(clientModule)});`,
      `const client = new ModelWorkerClient({ command: ${JSON.stringify(WORKER)} });`,
      `await client.load({ modelPath: ${JSON.stringify(modelPath)}, contextSize: 512, threads: 1 });`,
      'console.log(client.pid);',
      ending,
    ].join('\n');
    return ['--import', 'tsx', '--input-type=module', '-e', script];
  };

  test('a host that exits without dispose takes its worker with it (exit hook)', async () => {
    const host = spawnSync(process.execPath, hostScript('process.exit(0);'), { encoding: 'utf8', timeout: HOST_TIMEOUT_MS });
    assert.equal(host.status, 0, host.stderr);
    const pid = Number(host.stdout.trim());
    assert.ok(Number.isInteger(pid) && pid > 0, host.stdout);
    // Deterministic: the orphaned worker may stay a zombie until PID 1 reaps it; waitForProcessExit counts that as gone.
    assert.ok(await waitForProcessExit(pid), `worker ${pid} outlived its host`);
  });

  test('a host killed with SIGKILL (no exit hook runs) still takes its worker with it (stdin closes)', async () => {
    const host = spawn(process.execPath, hostScript('setInterval(() => {}, 1000);'), { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [line] = (await once(readline.createInterface({ input: host.stdout }), 'line')) as [string];
      const pid = Number(line.trim());
      assert.ok(Number.isInteger(pid) && isProcessAlive(pid), line);
      host.kill('SIGKILL');
      // Deterministic: waits for the worker to notice its closed stdin and exit (30 s safety net), a zombie counting as gone.
      assert.ok(await waitForProcessExit(pid), `worker ${pid} outlived its killed host`);
    } finally {
      host.kill('SIGKILL');
    }
  });
});
