// The adapter's Restricted Mode rule, for an untrusted host (as VS Code's extension host passes it): a live launch is refused with a clear message, a replay of a recorded run still steps.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { executePlan } from '../../src/runtime/executor/planExecutor.js';
import { FileRunStore } from '../../src/runtime/persistence/runStore.js';
import { connectInProcess, launch, scopeValue, stopAfter, topFrame } from '../support/debugClient.js';

const story = path.resolve(import.meta.dirname, '../fixtures/story');
/** Margin: a safety net so a session that never stops fails its test instead of hanging the suite. */
const TEST_TIMEOUT_MS = 180_000;
let scratch: string;
before(() => (scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-dap-trust-'))));
after(() => rmSync(scratch, { recursive: true, force: true }));

const plan = {
  requestId: '5d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  tools: [
    { toolId: 'roll', toolPath: 'skills/helpers/scripts/echo.js', input: { patch: { roll: 17 } } },
    { toolId: 'narrate', toolPath: 'skills/helpers/scripts/echo.js', dependencies: ['roll'] },
  ],
};
const text = JSON.stringify(plan, null, 2);
const untrusted = { workspaceFolder: story, isTrusted: () => false };

test('an untrusted host refuses a live launch, saying why and what still works', { timeout: TEST_TIMEOUT_MS }, async () => {
  const planFile = path.join(scratch, 'live.plan.json');
  writeFileSync(planFile, text);
  const { client, close } = connectInProcess(untrusted);
  try {
    await client.initializeRequest({ adapterID: 'narratoria', pathFormat: 'path', linesStartAt1: true, columnsStartAt1: true });
    const terminated = client.waitForEvent('terminated');
    await assert.rejects(client.launchRequest({ plan: planFile, root: story } as never), /Restricted Mode.*replay a recorded run/s);
    await terminated;
  } finally {
    await close();
  }
});

test('an untrusted host replays a recorded run: it stops at the breakpoint with the recorded state and steps back', { timeout: TEST_TIMEOUT_MS }, async () => {
  const runs = path.join(scratch, 'runs');
  const recorded = await executePlan(plan, { root: story, runStore: new FileRunStore(runs) });
  assert.equal(recorded.status, 'succeeded');
  const planFile = path.join(scratch, 'replay.plan.json');
  writeFileSync(planFile, text);
  const line = text.slice(0, text.indexOf('"toolId": "narrate"')).split('\n').length;
  const { client, close } = connectInProcess(untrusted);
  try {
    const launched = await launch(client, { replay: path.join(runs, `${plan.requestId}.json`), plan: planFile }, { planFile, lineBreakpoints: [{ line }] });
    const stop = await launched.firstStop;
    assert.equal(stop.body.reason, 'breakpoint');
    const frame = await topFrame(client, stop.body.threadId!);
    assert.equal(frame.name, 'narrate');
    assert.equal(frame.source?.path, planFile);
    assert.deepEqual(await scopeValue(client, frame.id, 'State'), { roll: 17 });
    await stopAfter(client, () => client.stepBackRequest({ threadId: stop.body.threadId! }));
    const back = await topFrame(client, stop.body.threadId!);
    assert.equal(back.name, 'roll · finished');
    // Forward again: the breakpoint holds in the replay as it did the first time.
    const again = await stopAfter(client, () => client.continueRequest({ threadId: stop.body.threadId! }));
    assert.equal(again.body.reason, 'breakpoint');
    await Promise.all([launched.terminated, client.continueRequest({ threadId: stop.body.threadId! })]);
  } finally {
    await close();
  }
});
