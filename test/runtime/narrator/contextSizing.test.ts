// Sizing the model worker's contexts to what they hold (contextSizing.ts), the threads under load (cpuLoad.ts), and reading a process's memory (processMemory.ts).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  CONTEXT_ALIGNMENT,
  contextOptionsFor,
  DECISION_TURN_TOKENS,
  hasRoom,
  MAX_BATCH_TOKENS,
  RETELLING_TURN_TOKENS,
} from '../../../src/runtime/narrator/contextSizing.js';
import { CpuLoadSampler, threadsUnderLoad } from '../../../src/runtime/narrator/cpuLoad.js';
import { ownMemory, parseProcStatus } from '../../../src/runtime/narrator/processMemory.js';

test("the decision's context: its fixed prompt and a turn, rounded up to llama.cpp's alignment", () => {
  // The sample skills' fixed prompt measured 1,620 tokens (1,642 with other skills): 1,792 cells, not 2,048.
  assert.deepEqual(contextOptionsFor({ fixedTokens: 1620, turnTokens: DECISION_TURN_TOKENS }, 4096), { contextSize: 1792, batchSize: MAX_BATCH_TOKENS });
  assert.deepEqual(contextOptionsFor({ fixedTokens: 1642, turnTokens: DECISION_TURN_TOKENS }, 4096), { contextSize: 1792, batchSize: MAX_BATCH_TOKENS });
  // One token past a boundary takes the next step.
  assert.equal(contextOptionsFor({ fixedTokens: 1665, turnTokens: 128 }, 4096).contextSize, 2048);
  assert.equal(contextOptionsFor({ fixedTokens: 1664, turnTokens: 128 }, 4096).contextSize, 1792);
  for (const fixedTokens of [0, 1, 255, 256, 257, 3000]) {
    const { contextSize } = contextOptionsFor({ fixedTokens, turnTokens: 64 }, 8192);
    assert.equal(contextSize % CONTEXT_ALIGNMENT, 0);
    assert.ok(contextSize >= fixedTokens + 64 && contextSize - (fixedTokens + 64) < CONTEXT_ALIGNMENT, `${fixedTokens}: ${contextSize}`);
  }
});

test("the retelling's context: ~50 tokens of fixed prompt and a draft with its retelling fit 512 cells; a small one takes a small batch", () => {
  assert.deepEqual(contextOptionsFor({ fixedTokens: 52, turnTokens: RETELLING_TURN_TOKENS }, 4096), { contextSize: 512, batchSize: MAX_BATCH_TOKENS });
  assert.deepEqual(contextOptionsFor({ fixedTokens: 0, turnTokens: 100 }, 4096), { contextSize: 256, batchSize: 256 });
  assert.ok(MAX_BATCH_TOKENS <= 256, 'a batch of 512 doubled the compute buffer (157 MiB against 79 MiB)');
});

test('never more than the model was trained on (aligned down), however much is asked', () => {
  assert.equal(contextOptionsFor({ fixedTokens: 5000, turnTokens: 128 }, 4096).contextSize, 4096);
  assert.equal(contextOptionsFor({ fixedTokens: 5000, turnTokens: 128 }, 4000).contextSize, 3840);
  assert.deepEqual(contextOptionsFor({ fixedTokens: 10, turnTokens: 10 }, 100), { contextSize: 256, batchSize: 256 });
  // A model that does not say what it was trained on.
  assert.equal(contextOptionsFor({ fixedTokens: 5000, turnTokens: 128 }, 0).contextSize, 5376);
});

test('room: what a context holds and what a turn adds', () => {
  assert.equal(hasRoom(1792, 1620, 128), true);
  assert.equal(hasRoom(1792, 1620, 172), true);
  assert.equal(hasRoom(1792, 1620, 173), false);
});

test('threads under load: the cores other processes leave free, at least one, at most the configured number', () => {
  assert.equal(threadsUnderLoad(2, 2, 0), 2);
  assert.equal(threadsUnderLoad(2, 2, 0.2), 2, 'a little background work keeps both threads');
  assert.equal(threadsUnderLoad(2, 2, 0.5), 1, 'a core half taken holds the other thread back');
  assert.equal(threadsUnderLoad(2, 2, 1), 1, 'one busy core');
  assert.equal(threadsUnderLoad(2, 2, 2), 1, 'two busy cores: still one thread');
  assert.equal(threadsUnderLoad(4, 8, 1), 4, 'never more than configured');
  assert.equal(threadsUnderLoad(4, 8, 5.9), 2);
  assert.equal(threadsUnderLoad(1, 2, 0), 1);
});

test('the CPU sampler reports a busy figure within the machine; it never keeps the process alive', async () => {
  const samples: number[] = [];
  const sampler = new CpuLoadSampler(50, (busy) => samples.push(busy));
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (samples.length >= 2) {
        clearInterval(poll);
        resolve();
      }
    }, 10);
  });
  sampler.dispose();
  for (const busy of samples) assert.ok(busy >= 0 && Number.isFinite(busy), String(busy));
  assert.equal(sampler.busyCores, samples.at(-1));
});

test("a process's memory: /proc's status fields, or Node's own figures", () => {
  const status = 'Name:\tnode\nVmHWM:\t 5494520 kB\nVmRSS:\t 4612000 kB\nRssAnon:\t 2320000 kB\nRssFile:\t 2290000 kB\nRssShmem:\t 0 kB\n';
  assert.deepEqual(parseProcStatus(status), { rssBytes: 4612000 * 1024, peakRssBytes: 5494520 * 1024, anonBytes: 2320000 * 1024, fileBytes: 2290000 * 1024 });
  assert.equal(parseProcStatus('Name:\tzombie\n'), undefined, 'an exiting process has no memory fields');
  const own = ownMemory();
  assert.ok(own.rssBytes > 0 && own.peakRssBytes >= own.rssBytes);
  if (process.platform === 'linux') assert.ok((own.anonBytes ?? 0) > 0 && (own.fileBytes ?? 0) > 0);
});
