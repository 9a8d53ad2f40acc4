// The launcher sizes libuv's thread pool for `run` (threadPool.ts): two threads unless the user chose, no other command touched, and no script sees the variable.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RUN_THREAD_POOL_SIZE, sizeThreadPool } from '../../src/cli/threadPool.js';
import { narratoria } from './cliHarness.js';

test('run gets the small pool; a chosen size and every other command are left alone', () => {
  const run: NodeJS.ProcessEnv = {};
  sizeThreadPool(['run', 'plan.json'], run);
  assert.equal(run['UV_THREADPOOL_SIZE'], String(RUN_THREAD_POOL_SIZE));

  const chosen: NodeJS.ProcessEnv = { UV_THREADPOOL_SIZE: '8' };
  sizeThreadPool(['run', 'plan.json'], chosen);
  assert.equal(chosen['UV_THREADPOOL_SIZE'], '8');

  for (const args of [['play'], ['validate', 'plan.json'], ['--version'], [], ['plan.json', 'run']]) {
    const env: NodeJS.ProcessEnv = {};
    sizeThreadPool(args, env);
    assert.deepEqual(env, {}, args.join(' '));
  }
});

let story: string;
before(() => {
  story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-thread-pool-'));
  const scripts = path.join(story, 'skills', 'probe', 'scripts');
  mkdirSync(scripts, { recursive: true });
  // Reports how many threads its parent (the runtime) has, and what it sees of UV_THREADPOOL_SIZE.
  writeFileSync(
    path.join(scripts, 'threads.sh'),
    [
      '#!/bin/sh',
      'cat > /dev/null',
      'threads=$(ls /proc/$PPID/task | wc -l)',
      'echo "{\\"version\\":\\"0\\",\\"type\\":\\"state_patch\\",\\"patch\\":{\\"threads\\":$threads,\\"pool\\":\\"${UV_THREADPOOL_SIZE:-unset}\\"}}"',
      'echo \'{"version":"0","type":"done","ok":true}\'',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  writeFileSync(
    path.join(story, 'probe.plan.json'),
    JSON.stringify({ requestId: '44444444-3333-4444-8555-666666666666', tools: [{ toolId: 'probe', toolPath: 'skills/probe/scripts/threads.sh' }] }),
  );
});
after(() => rmSync(story, { recursive: true, force: true }));

/** The runtime's thread count as its script saw it, and the script's view of UV_THREADPOOL_SIZE. */
async function probe(env: NodeJS.ProcessEnv): Promise<{ threads: number; pool: string }> {
  const run = await narratoria(['run', path.join(story, 'probe.plan.json'), '--root', story, '--format', 'json', '--no-save'], story, env);
  assert.equal(run.code, 0, run.stderr + run.stdout);
  return (JSON.parse(run.stdout) as { aggregatedState: { threads: number; pool: string } }).aggregatedState;
}

test('a real run has two pool threads fewer, and its script never sees the variable', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const small = await probe({ UV_THREADPOOL_SIZE: undefined });
  const four = await probe({ UV_THREADPOOL_SIZE: '4' });
  assert.equal(four.threads - small.threads, 4 - RUN_THREAD_POOL_SIZE, JSON.stringify({ small, four }));
  assert.equal(small.pool, 'unset');
  assert.equal(four.pool, 'unset');
});
