// signalGroup reaches every process of a group (grandchildren included) and reports an empty group as false, through Node's raw kill and through process.kill where the raw one is absent.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { isProcessAlive } from '../../support/processes.js';

type ProcessGroups = typeof import('../../../src/runtime/process/processGroups.js');

/** A detached shell (its own group) with a grandchild `sleep`; resolves with both process ids once the grandchild runs. */
async function startGroup(): Promise<{ leader: number; grandchild: number; exited: Promise<unknown> }> {
  const child = spawn('/bin/sh', ['-c', 'sleep 30 & echo $!; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = once(child, 'exit');
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  return { leader: child.pid!, grandchild: Number(line.toString().trim()), exited };
}

async function waitUntil(condition: () => boolean): Promise<void> {
  // Deterministic: polls until the kernel has delivered the signal; no time limit is asserted.
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function exercise(groups: ProcessGroups): Promise<void> {
  const { leader, grandchild, exited } = await startGroup();
  assert.equal(groups.groupAlive(leader), true);
  assert.equal(groups.signalGroup(leader, 'SIGKILL'), true);
  await exited;
  await waitUntil(() => !isProcessAlive(grandchild));
  // No live process is left (a zombie not yet reaped counts as dead).
  await waitUntil(() => !groups.groupAlive(leader));
  // Once reaped, the group is empty: every signal, 0 included, says so without throwing.
  await waitUntil(() => !groups.signalGroup(leader, 0));
  assert.equal(groups.signalGroup(leader, 'SIGKILL'), false);
  assert.equal(groups.signalGroup(leader, 'SIGTERM'), false);
}

test('signalGroup kills the leader and its grandchild, then reports the empty group (raw kill)', { skip: process.platform === 'win32' }, async () => {
  assert.equal(typeof (process as unknown as { _kill?: unknown })._kill, 'function', 'this Node has the raw kill the fast path uses');
  await exercise(await import('../../../src/runtime/process/processGroups.js'));
});

test('the same through process.kill when the runtime has no raw kill', { skip: process.platform === 'win32' }, async () => {
  const processWithKill = process as unknown as { _kill?: unknown };
  const rawKill = processWithKill._kill;
  // A second instance of the module, loaded while the raw kill is hidden, takes the fallback path for good.
  delete processWithKill._kill;
  let fallback: ProcessGroups;
  try {
    // A query string makes a separate module instance (a variable, so the type checker does not resolve it as a file).
    const secondInstance = '../../../src/runtime/process/processGroups.js?without-raw-kill';
    fallback = (await import(secondInstance)) as ProcessGroups;
  } finally {
    processWithKill._kill = rawKill;
  }
  // (process.kill itself calls the raw kill, which is back by now.)
  await exercise(fallback);
});

test('groupAlive counts a zombie as dead: terminating a tree does not wait out the grace period for one', { skip: process.platform !== 'linux' }, async () => {
  const groups = await import('../../../src/runtime/process/processGroups.js');
  const { leader, grandchild, exited } = await startGroup();
  // The grace is far beyond any machine's kill latency, so the only way to meet it is for the group to end or its
  // members to be zombies; the test asserts the state after, not the time taken.
  await groups.terminateGroup(leader, 60_000);
  await exited;
  assert.equal(groups.groupAlive(leader), false);
  assert.equal(isProcessAlive(grandchild), false);
});
