// Time travel in the real `narratoria debug-adapter`: stepBack and reverseContinue show the values as they were, setVariable reaches the script's stdin, restartFrame forks the run.
import { after, afterEach, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { launch, nextStop, scopeValue, startClient, stopAfter, topFrame } from '../support/debugClient.js';

const story = path.resolve(import.meta.dirname, '../fixtures/story');
/** Margin: a safety net so a session that never stops fails its test instead of hanging the suite. */
const TEST_TIMEOUT_MS = 180_000;
const PLAN_THREAD = 1;
let scratch: string;
let client: DebugClient | undefined;
before(() => (scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-dap-travel-'))));
afterEach(async () => {
  await client?.stop();
  client = undefined;
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const echo = 'skills/helpers/scripts/echo.js';
const counter = [
  { toolId: 't1', toolPath: echo, input: { patch: { n: 1 } } },
  { toolId: 't2', toolPath: echo, input: { patch: { n: 2 } }, dependencies: ['t1'] },
  { toolId: 't3', toolPath: echo, input: { patch: { n: 3 } }, dependencies: ['t2'] },
];
const text = JSON.stringify({ requestId: '2d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d', tools: counter }, null, 2);
const lineOf = (needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

function writePlan(name: string): string {
  const file = path.join(scratch, `${name}.plan.json`);
  writeFileSync(file, text);
  return file;
}

async function stepAndFrame(
  session: DebugClient,
  request: Promise<unknown>,
  threadId: number,
): Promise<{ stop: DebugProtocol.StoppedEvent; frame: DebugProtocol.StackFrame }> {
  const [stop] = await Promise.all([nextStop(session), request]);
  assert.equal(stop.body.threadId, threadId);
  return { stop, frame: await topFrame(session, threadId) };
}

/** Sets a variable inside a scope, by the path of names from the scope down. */
async function setVariable(session: DebugClient, frameId: number, scopeName: string, names: readonly string[], value: string): Promise<void> {
  const scope = (await session.scopesRequest({ frameId })).body.scopes.find((candidate) => candidate.name === scopeName)!;
  let reference = scope.variablesReference;
  for (const name of names.slice(0, -1)) {
    reference = (await session.variablesRequest({ variablesReference: reference })).body.variables.find(
      (variable) => variable.name === name,
    )!.variablesReference;
  }
  const response = await session.setVariableRequest({ variablesReference: reference, name: names.at(-1)!, value });
  assert.equal(response.success, true);
}

test('stepBack and reverseContinue move back through the recorded points with the state as it was, and breakpoints hold both ways', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const plan = writePlan('travel');
  client = await startClient(scratch);
  const atT3 = await (await launch(client, { plan, root: story }, { planFile: plan, lineBreakpoints: [{ line: lineOf('"toolId": "t3"') }] })).firstStop;
  const live = atT3.body.threadId!;
  assert.deepEqual(await scopeValue(client, (await topFrame(client, live)).id, 'State'), { n: 2 });

  const back1 = await stepAndFrame(client, client.stepBackRequest({ threadId: live }), PLAN_THREAD);
  assert.equal(back1.frame.name, 't2 · finished');
  const back2 = await stepAndFrame(client, client.stepBackRequest({ threadId: PLAN_THREAD }), PLAN_THREAD);
  assert.equal(back2.frame.name, 'done ok');
  const back3 = await stepAndFrame(client, client.stepBackRequest({ threadId: PLAN_THREAD }), PLAN_THREAD);
  assert.equal(back3.frame.name, 'state_patch n');
  assert.deepEqual(await scopeValue(client, back3.frame.id, 'State'), { n: 1 }, 'the state before t2 patched it');

  await client.setFunctionBreakpointsRequest({ breakpoints: [{ name: 't1' }] });
  const first = await stepAndFrame(client, client.reverseContinueRequest({ threadId: PLAN_THREAD }), PLAN_THREAD);
  assert.equal(first.stop.body.reason, 'breakpoint');
  assert.equal(first.frame.name, 't1');
  assert.deepEqual(await scopeValue(client, first.frame.id, 'State'), {});

  // Forward again through the history: the line breakpoint on t3 holds there too.
  const forward = await stepAndFrame(client, client.continueRequest({ threadId: PLAN_THREAD }), PLAN_THREAD);
  assert.equal(forward.stop.body.reason, 'breakpoint');
  assert.equal(forward.frame.name, 't3');
  // Past the end of the history the live run carries on to its end.
  await Promise.all([client.waitForEvent('terminated'), client.continueRequest({ threadId: PLAN_THREAD })]);
});

test('setVariable edits the input and the state a held tool receives on stdin', { timeout: TEST_TIMEOUT_MS }, async () => {
  const plan = writePlan('edit');
  client = await startClient(scratch);
  const atT2 = await (
    await launch(client, { plan, root: story }, { planFile: plan, lineBreakpoints: [{ line: lineOf('"toolId": "t2"') }, { line: lineOf('"toolId": "t3"') }] })
  ).firstStop;
  const frame = await topFrame(client, atT2.body.threadId!);
  await setVariable(client, frame.id, 'Input', ['patch', 'n'], '42');
  await setVariable(client, frame.id, 'State', ['n'], '"edited"');
  assert.deepEqual(await scopeValue(client, (await topFrame(client, atT2.body.threadId!)).id, 'Input'), { patch: { n: 42 } });
  const atT3 = await stopAfter(client, () => client!.continueRequest({ threadId: atT2.body.threadId! }));
  const t3 = await topFrame(client, atT3.body.threadId!);
  assert.equal(t3.name, 't3');
  assert.deepEqual(await scopeValue(client, t3.id, 'State'), { n: 42 }, 't2 patched the state with its edited input');
  const dependencies = (await scopeValue(client, t3.id, 'Dependencies')) as { t2: { result: { state: unknown; input: unknown } } };
  assert.deepEqual(dependencies.t2.result.state, { n: 'edited' }, 't2 received the edited state on stdin');
  assert.deepEqual(dependencies.t2.result.input, { patch: { n: 42 } });
  await Promise.all([client.waitForEvent('terminated'), client.continueRequest({ threadId: atT3.body.threadId! })]);
});

test('restartFrame forks the run: earlier tools keep their results, the tool gets the edited input, and it runs again with everything after it', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const plan = writePlan('restart');
  client = await startClient(scratch);
  const outputs: string[] = [];
  client.on('output', (event: { body: { output: string } }) => outputs.push(event.body.output));
  const atT3 = await (await launch(client, { plan, root: story }, { planFile: plan, lineBreakpoints: [{ line: lineOf('"toolId": "t3"') }] })).firstStop;
  assert.deepEqual(await scopeValue(client, (await topFrame(client, atT3.body.threadId!)).id, 'State'), { n: 2 });

  // Back to where t2 was about to start, edit its input there, and restart it.
  await client.setFunctionBreakpointsRequest({ breakpoints: [{ name: 't2' }] });
  const atT2 = await stepAndFrame(client, client.reverseContinueRequest({ threadId: atT3.body.threadId! }), PLAN_THREAD);
  assert.equal(atT2.frame.name, 't2');
  await setVariable(client, atT2.frame.id, 'Input', ['patch', 'n'], '7');
  await client.setFunctionBreakpointsRequest({ breakpoints: [] });
  const [restarted] = await Promise.all([nextStop(client), client.restartFrameRequest({ frameId: atT2.frame.id })]);
  assert.equal(restarted.body.reason, 'restart');
  const again = await topFrame(client, restarted.body.threadId!);
  assert.equal(again.name, 't2');
  assert.deepEqual(await scopeValue(client, again.id, 'Input'), { patch: { n: 7 } });
  assert.deepEqual(await scopeValue(client, again.id, 'State'), { n: 1 }, "t1's recorded result is kept");
  assert.ok(
    outputs.some((line) => line.includes('1 earlier tool(s) keep their results')),
    outputs.join(''),
  );

  const atT3Again = await stopAfter(client, () => client!.continueRequest({ threadId: restarted.body.threadId! }));
  assert.deepEqual(await scopeValue(client, (await topFrame(client, atT3Again.body.threadId!)).id, 'State'), { n: 7 });
  await Promise.all([client.waitForEvent('terminated'), client.continueRequest({ threadId: atT3Again.body.threadId! })]);
});
