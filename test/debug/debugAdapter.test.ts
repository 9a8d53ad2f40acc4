// The standalone `narratoria debug-adapter` driven by a real DAP client over real processes: breakpoints, conditions, hit counts, logpoints, function breakpoints, stepping and pause.
import { after, afterEach, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { launch, nextStop, scopeValue, startClient, topFrame } from '../support/debugClient.js';

const story = path.resolve(import.meta.dirname, '../fixtures/story');
/** Margin: a safety net so a session that never stops fails its test instead of hanging the suite. */
const TEST_TIMEOUT_MS = 180_000;
let scratch: string;
let client: DebugClient | undefined;
before(() => (scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-dap-'))));
afterEach(async () => {
  await client?.stop();
  client = undefined;
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const echo = 'skills/helpers/scripts/echo.js';

/** Writes a plan into the story (so its root is found by the skills/ folder) and returns its path and line lookup. */
function writePlan(name: string, tools: readonly Record<string, unknown>[]): { file: string; lineOf: (needle: string) => number } {
  const text = JSON.stringify({ requestId: '1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d', tools }, null, 2);
  const file = path.join(scratch, `${name}.plan.json`);
  writeFileSync(file, text);
  return { file, lineOf: (needle) => text.slice(0, text.indexOf(needle)).split('\n').length };
}

const threeTools = [
  { toolId: 'first', toolPath: echo, input: { patch: { step: 1 } } },
  { toolId: 'second', toolPath: echo, input: { patch: { step: 2, roll: { total: 17 } } }, dependencies: ['first'] },
  { toolId: 'third', toolPath: echo, dependencies: ['second'] },
];

test('a line breakpoint stops before its tool starts, with the tool range and the state so far', { timeout: TEST_TIMEOUT_MS }, async () => {
  const plan = writePlan('line', threeTools);
  client = await startClient(scratch);
  const breakpointLine = plan.lineOf('"toolId": "second"') + 1;
  const { lines } = await launch(client, { plan: plan.file, root: story }, { planFile: plan.file, lineBreakpoints: [{ line: breakpointLine }, { line: 1 }] });
  assert.equal(lines!.body.breakpoints[0]!.verified, true);
  assert.equal(lines!.body.breakpoints[1]!.verified, true, 'a line outside every tool moves to the nearest tool');
  assert.match(lines!.body.breakpoints[1]!.message ?? '', /moved to "first"/);
  const stop = await nextStop(client);
  assert.equal(stop.body.reason, 'breakpoint');
  const frame = await topFrame(client, stop.body.threadId!);
  assert.equal(frame.source?.path, plan.file);
  // The moved breakpoint (line 1 → "first") hits first.
  assert.equal(frame.name, 'first');
  await client.continueRequest({ threadId: stop.body.threadId! });
  const second = await nextStop(client);
  const secondFrame = await topFrame(client, second.body.threadId!);
  assert.equal(secondFrame.name, 'second');
  assert.ok(secondFrame.line <= breakpointLine && (secondFrame.endLine ?? 0) >= breakpointLine, 'the frame spans the tool object');
  assert.deepEqual(await scopeValue(client, secondFrame.id, 'State'), { step: 1 });
  assert.deepEqual(await scopeValue(client, secondFrame.id, 'Input'), { patch: { step: 2, roll: { total: 17 } } });
  await Promise.all([client.waitForEvent('terminated'), client.continueRequest({ threadId: second.body.threadId! })]);
});
