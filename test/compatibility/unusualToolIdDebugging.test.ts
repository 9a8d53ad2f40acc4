// Compatibility (issue 41): a plan whose toolId has a space ("light torch", valid in other Narratoria runtimes) under a real DAP client and the real `narratoria debug-adapter` process: breakpoints by line and by name stop there, frames, threads and variables name it, continue finishes.
import { after, afterEach, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { launch, scopeValue, startClient, stopAfter, topFrame } from '../support/debugClient.js';

const story = path.resolve(import.meta.dirname, '../fixtures/story');
/** Margin: a safety net so a session that never stops fails its test instead of hanging the suite. */
const TEST_TIMEOUT_MS = 180_000;
const echo = 'skills/helpers/scripts/echo.js';
let scratch: string;
let client: DebugClient | undefined;

before(() => (scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-compat-dap-'))));
afterEach(async () => {
  await client?.stop();
  client = undefined;
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Our own plan in the shape other runtimes accept: an annotation, a toolId with a space, and a tool depending on it. */
function writeTorchPlan(name: string): { file: string; lineOf: (needle: string) => number } {
  const plan = {
    $comment: 'Light the torch, then look around.',
    requestId: '3f6e9a2c-1b4d-4e8f-9a0c-5d7e1f3a2b4c',
    tools: [
      { toolId: 'light torch', toolPath: echo, input: { patch: { torch: 'lit' } } },
      { toolId: 'look', toolPath: echo, input: { patch: { looked: true } }, dependencies: ['light torch'] },
    ],
  };
  const text = JSON.stringify(plan, null, 2);
  const file = path.join(scratch, `${name}.plan.json`);
  writeFileSync(file, text);
  return { file, lineOf: (needle) => text.slice(0, text.indexOf(needle)).split('\n').length };
}

test('a line breakpoint on the tool "light torch" stops there; its frame, thread and variables name it; continue finishes', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const plan = writeTorchPlan('line');
  client = await startClient(scratch);
  const line = plan.lineOf('"toolId": "light torch"');
  const { lines, firstStop, terminated } = await launch(client, { plan: plan.file, root: story }, { planFile: plan.file, lineBreakpoints: [{ line }] });
  assert.equal(lines!.body.breakpoints[0]!.verified, true, lines!.body.breakpoints[0]!.message);
  const stop = await firstStop;
  assert.equal(stop.body.reason, 'breakpoint');
  const frame = await topFrame(client, stop.body.threadId!);
  assert.equal(frame.name, 'light torch');
  assert.equal(frame.source?.path, plan.file);
  assert.ok(frame.line <= line && (frame.endLine ?? 0) >= line, 'the frame spans the tool object');
  const threads = (await client.threadsRequest()).body.threads.map((thread) => thread.name);
  assert.ok(threads.includes('light torch'), threads.join(', '));
  assert.deepEqual(await scopeValue(client, frame.id, 'Input'), { patch: { torch: 'lit' } });
  assert.deepEqual(await scopeValue(client, frame.id, 'State'), {});

  // Into its NDJSON events: the output document is named after the tool.
  const event = await stopAfter(client, () => client!.stepInRequest({ threadId: stop.body.threadId! }));
  const eventFrame = await topFrame(client, event.body.threadId!);
  assert.equal(eventFrame.source?.name, 'light torch.ndjson');
  assert.match(eventFrame.name, /^state_patch torch$/);

  const finished = await stopAfter(client, () => client!.stepOutRequest({ threadId: event.body.threadId! }));
  assert.equal((await topFrame(client, finished.body.threadId!)).name, 'light torch · finished');

  // Its dependent sees it under its name, in the Dependencies scope and in the state.
  const atLook = await stopAfter(client, () => client!.nextRequest({ threadId: finished.body.threadId! }));
  const lookFrame = await topFrame(client, atLook.body.threadId!);
  assert.equal(lookFrame.name, 'look');
  const dependencies = (await scopeValue(client, lookFrame.id, 'Dependencies')) as Record<string, unknown>;
  assert.deepEqual(Object.keys(dependencies), ['light torch']);
  assert.deepEqual(await scopeValue(client, lookFrame.id, 'State'), { torch: 'lit' });
  const evaluated = await client.evaluateRequest({ expression: '/torch', frameId: lookFrame.id, context: 'watch' });
  assert.equal(evaluated.body.result, '"lit"');

  await Promise.all([terminated, client.continueRequest({ threadId: atLook.body.threadId! })]);
});

test('a function breakpoint named "light torch" is verified and stops only there', { timeout: TEST_TIMEOUT_MS }, async () => {
  const plan = writeTorchPlan('function');
  client = await startClient(scratch);
  const outputs: string[] = [];
  client.on('output', (event: { body: { output: string } }) => outputs.push(event.body.output));
  const { functions, firstStop, terminated } = await launch(
    client,
    { plan: plan.file, root: story },
    { functionBreakpoints: [{ name: 'light torch' }, { name: 'light' }] },
  );
  assert.equal(functions!.body.breakpoints[0]!.verified, true, functions!.body.breakpoints[0]!.message);
  assert.equal(functions!.body.breakpoints[1]!.verified, false, 'a part of the name is not the name');
  const stop = await firstStop;
  assert.equal(stop.body.reason, 'breakpoint');
  assert.equal((await topFrame(client, stop.body.threadId!)).name, 'light torch');
  // Nothing else stops: the session ends after one continue.
  let stoppedAgain = false;
  client.once('stopped', () => (stoppedAgain = true));
  await Promise.all([terminated, client.continueRequest({ threadId: stop.body.threadId! })]);
  assert.equal(stoppedAgain, false);
});
