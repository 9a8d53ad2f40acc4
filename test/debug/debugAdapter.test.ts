// The standalone `narratoria debug-adapter` driven by a real DAP client over real processes: breakpoints, conditions, hit counts, logpoints, function breakpoints, stepping and pause.
import { after, afterEach, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { launch, nextStop, type Launched, scopeValue, startClient, stopAfter, topFrame } from '../support/debugClient.js';

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
  const { lines, firstStop } = await launch(
    client,
    { plan: plan.file, root: story },
    { planFile: plan.file, lineBreakpoints: [{ line: breakpointLine }, { line: 1 }] },
  );
  assert.equal(lines!.body.breakpoints[0]!.verified, true);
  assert.equal(lines!.body.breakpoints[1]!.verified, true, 'a line outside every tool moves to the nearest tool');
  assert.match(lines!.body.breakpoints[1]!.message ?? '', /moved to "first"/);
  const stop = await firstStop;
  assert.equal(stop.body.reason, 'breakpoint');
  const frame = await topFrame(client, stop.body.threadId!);
  assert.equal(frame.source?.path, plan.file);
  // The moved breakpoint (line 1 → "first") hits first.
  assert.equal(frame.name, 'first');
  const second = await stopAfter(client, () => client!.continueRequest({ threadId: stop.body.threadId! }));
  const secondFrame = await topFrame(client, second.body.threadId!);
  assert.equal(secondFrame.name, 'second');
  assert.ok(secondFrame.line <= breakpointLine && (secondFrame.endLine ?? 0) >= breakpointLine, 'the frame spans the tool object');
  assert.deepEqual(await scopeValue(client, secondFrame.id, 'State'), { step: 1 });
  assert.deepEqual(await scopeValue(client, secondFrame.id, 'Input'), { patch: { step: 2, roll: { total: 17 } } });
  await Promise.all([client.waitForEvent('terminated'), client.continueRequest({ threadId: second.body.threadId! })]);
});

const counter = [
  { toolId: 't1', toolPath: echo, input: { patch: { n: 1 } } },
  { toolId: 't2', toolPath: echo, input: { patch: { n: 2 } }, dependencies: ['t1'] },
  { toolId: 't3', toolPath: echo, input: { patch: { n: 3 } }, dependencies: ['t2'] },
  { toolId: 't4', toolPath: echo, dependencies: ['t3'] },
];

/** The names of the top frames at each stop until the run ends, continuing after each. */
async function stopsUntilEnd(session: DebugClient, launched: Launched): Promise<string[]> {
  const names: string[] = [];
  const terminated = launched.terminated.then(() => undefined);
  let stopped = launched.firstStop;
  for (;;) {
    const next = await Promise.race([stopped, terminated]);
    if (!next) return names;
    const frame = await topFrame(session, next.body.threadId!);
    names.push(`${next.body.reason}:${frame.name}`);
    stopped = nextStop(session);
    await session.continueRequest({ threadId: next.body.threadId! });
  }
}

test('a function breakpoint on a skill with a condition stops only where the condition holds', { timeout: TEST_TIMEOUT_MS }, async () => {
  const plan = writePlan('condition', counter);
  client = await startClient(scratch);
  const launched = await launch(client, { plan: plan.file, root: story }, { functionBreakpoints: [{ name: 'helpers', condition: 'state.n >= 2' }] });
  const { functions } = launched;
  assert.equal(functions!.body.breakpoints[0]!.verified, true);
  assert.deepEqual(
    await stopsUntilEnd(client, launched),
    ['function breakpoint:t3', 'function breakpoint:t4'].map((name) => name.replace('function breakpoint', 'breakpoint')),
  );
});

test('hit counts, a function breakpoint by toolId, and an unknown name reported unverified', { timeout: TEST_TIMEOUT_MS }, async () => {
  const plan = writePlan('hits', counter);
  client = await startClient(scratch);
  const launched = await launch(
    client,
    { plan: plan.file, root: story },
    {
      functionBreakpoints: [{ name: 'helpers', hitCondition: '== 2' }, { name: 't4' }, { name: 'no-such-tool' }],
    },
  );
  const { functions } = launched;
  assert.equal(functions!.body.breakpoints[2]!.verified, false);
  assert.match(functions!.body.breakpoints[2]!.message ?? '', /no tool or skill named "no-such-tool"/);
  assert.deepEqual(await stopsUntilEnd(client, launched), ['breakpoint:t2', 'breakpoint:t4']);
});

test('a logpoint prints the state it interpolates and does not stop', { timeout: TEST_TIMEOUT_MS }, async () => {
  const plan = writePlan('logpoint', counter);
  client = await startClient(scratch);
  const outputs: string[] = [];
  client.on('output', (event: { body: { output: string } }) => outputs.push(event.body.output));
  const line = plan.lineOf('"toolId": "t3"');
  const launched = await launch(
    client,
    { plan: plan.file, root: story },
    { planFile: plan.file, lineBreakpoints: [{ line, logMessage: 'n before t3 is {state.n}' }] },
  );
  assert.deepEqual(await stopsUntilEnd(client, launched), []);
  assert.ok(outputs.includes('n before t3 is 2\n'), outputs.join(''));
});

test('stepping: stepIn enters the NDJSON events, stepOut runs to the end of the tool, next to the next tool', { timeout: TEST_TIMEOUT_MS }, async () => {
  const plan = writePlan('stepping', counter);
  client = await startClient(scratch);
  const entry = await (await launch(client, { plan: plan.file, root: story, stopOnEntry: true })).firstStop;
  assert.equal(entry.body.reason, 'entry');
  const thread = entry.body.threadId!;
  assert.equal((await topFrame(client, thread)).name, 't1');
  const threads = (await client.threadsRequest()).body.threads.map((candidate) => candidate.name);
  assert.deepEqual(threads, ['plan', 't1']);

  assert.equal((await stopAfter(client, () => client!.stepInRequest({ threadId: thread }))).body.reason, 'step');
  const patchFrame = await topFrame(client, thread);
  assert.equal(patchFrame.name, 'state_patch n');
  assert.equal(patchFrame.line, 1);
  assert.equal(patchFrame.source?.name, 't1.ndjson');
  const document = await client.sourceRequest({ source: patchFrame.source!, sourceReference: patchFrame.source!.sourceReference! });
  const line = JSON.parse(document.body.content.split('\n')[0]!) as Record<string, unknown>;
  assert.deepEqual([line['type'], line['patch']], ['state_patch', { n: 1 }]);
  const event = (await scopeValue(client, patchFrame.id, 'Event')) as Record<string, unknown>;
  assert.deepEqual([event['type'], event['patch']], ['state_patch', { n: 1 }]);
  assert.deepEqual(await scopeValue(client, patchFrame.id, 'State'), {}, 'the state before the patch applies');

  await stopAfter(client, () => client!.stepOutRequest({ threadId: thread }));
  const finished = await topFrame(client, thread);
  assert.equal(finished.name, 't1 · finished');
  assert.deepEqual(await scopeValue(client, finished.id, 'State'), { n: 1 });
  const result = (await scopeValue(client, finished.id, 'Result')) as Record<string, unknown>;
  assert.equal(result['ok'], true);
  assert.equal(result['exitCode'], 0);

  const atT2 = await stopAfter(client, () => client!.nextRequest({ threadId: thread }));
  assert.equal((await topFrame(client, atT2.body.threadId!)).name, 't2');
  const evaluated = await client.evaluateRequest({ expression: '/n', frameId: (await topFrame(client, atT2.body.threadId!)).id, context: 'watch' });
  assert.equal(evaluated.body.result, '1');
  const condition = await client.evaluateRequest({ expression: 'state.n == 1', frameId: (await topFrame(client, atT2.body.threadId!)).id, context: 'repl' });
  assert.equal(condition.body.result, 'true');
  const hover = await client.evaluateRequest({ expression: 'patch', frameId: (await topFrame(client, atT2.body.threadId!)).id, context: 'hover' });
  assert.equal(hover.body.result, '{"n":2}', "a hovered word is looked up in the state, then the tool's input");
  await Promise.all([client.waitForEvent('terminated'), client.continueRequest({ threadId: atT2.body.threadId! })]);
});

test('pause holds the run at its next event', { timeout: TEST_TIMEOUT_MS }, async () => {
  const patches = Array.from({ length: 400 }, (_, index) => ({ count: index }));
  const plan = writePlan('pause', [{ toolId: 'slow', toolPath: 'skills/helpers/scripts/patches.js', input: { patches, delayMs: 50 } }]);
  client = await startClient(scratch);
  const entry = await (await launch(client, { plan: plan.file, root: story, stopOnEntry: true })).firstStop;
  await client.continueRequest({ threadId: entry.body.threadId! });
  // Deterministic: the script writes 400 patches 50 ms apart, so the run is still going when pause arrives.
  const paused = await stopAfter(client, () => client!.pauseRequest({ threadId: entry.body.threadId! }));
  assert.equal(paused.body.reason, 'pause');
  assert.match((await topFrame(client, paused.body.threadId!)).name, /^state_patch count$/);
  await Promise.all([client.waitForEvent('terminated'), client.terminateRequest({})]);
});

test('the replan filter stops before the narrator is asked for more steps, on the plan thread', { timeout: TEST_TIMEOUT_MS }, async () => {
  const plan = writePlan('replan', [{ toolId: 'ask', toolPath: 'skills/helpers/scripts/needs-context.js', input: { suggestion: 'Which door?' } }]);
  client = await startClient(scratch);
  const outputs: string[] = [];
  client.on('output', (event: { body: { output: string } }) => outputs.push(event.body.output));
  const stop = await (await launch(client, { plan: plan.file, root: story }, { exceptionFilters: ['replan'] })).firstStop;
  assert.deepEqual([stop.body.reason, stop.body.threadId], ['exception', 1]);
  assert.match(stop.body.description ?? '', /^replan: "ask" asked for more context \(Which door\?\)/);
  const frame = await topFrame(client, 1);
  assert.equal(frame.name, 'replan after ask (iteration 1)');
  const info = await client.exceptionInfoRequest({ threadId: 1 });
  assert.equal(info.body.exceptionId, 'replan');
  await Promise.all([client.waitForEvent('terminated'), client.continueRequest({ threadId: 1 })]);
  assert.ok(
    outputs.some((line) => line.startsWith('re-planning (iteration 1): "ask" asked for more context')),
    outputs.join(''),
  );
});
