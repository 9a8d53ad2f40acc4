// The standalone `narratoria debug-adapter` on failing tools over real processes: each exception filter, data breakpoints on state paths, and terminate killing a hanging tool's whole process tree.
import { after, afterEach, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { launch, scopeValue, SessionEvents, startClient, topFrame } from '../support/debugClient.js';
import { isProcessAlive, waitForProcessExit } from '../support/processes.js';

const story = path.resolve(import.meta.dirname, '../fixtures/story');
/** Margin: a safety net so a session that never stops fails its test instead of hanging the suite. */
const TEST_TIMEOUT_MS = 180_000;
/** Tool processes the terminate tests look at, with their command lines (a pid can be reused once it is gone). */
const watched = new Map<number, string>();
function commandLineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
}
function watch(...pids: number[]): void {
  for (const pid of pids) {
    const commandLine = commandLineOf(pid);
    if (commandLine !== undefined) watched.set(pid, commandLine);
  }
}

let scratch: string;
let client: DebugClient | undefined;
before(() => (scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-dap-faults-'))));
afterEach(async () => {
  await client?.stop();
  client = undefined;
});
after(() => {
  rmSync(scratch, { recursive: true, force: true });
  // A failed terminate test must not leave its processes behind: kill what is still running the same command line.
  for (const [pid, commandLine] of watched) if (isProcessAlive(pid) && commandLineOf(pid) === commandLine) process.kill(pid, 'SIGKILL');
});

const faults = 'skills/faults/scripts';
const helpers = 'skills/helpers/scripts';

/** Writes a plan into the scratch folder and returns its path and line lookup (the story root is passed at launch). */
function writePlan(
  name: string,
  tools: readonly Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): { file: string; lineOf: (needle: string) => number } {
  const text = JSON.stringify({ requestId: '3b4c5d6e-7f80-4a91-8b2c-3d4e5f6a7b8c', ...extra, tools }, null, 2);
  const file = path.join(scratch, `${name}.plan.json`);
  writeFileSync(file, text);
  return { file, lineOf: (needle) => text.slice(0, text.indexOf(needle)).split('\n').length };
}

/** Starts a client that records its stopped and terminated events. */
async function start(): Promise<{ session: DebugClient; events: SessionEvents }> {
  const session = await startClient(scratch);
  client = session;
  return { session, events: new SessionEvents(session) };
}

// ——— exception filters ———

/** One tool per failure category (and kind of protocol error), none required (so all of them run), no retries; `retried` fails once and then succeeds. */
function faultPlan(name: string): { file: string } {
  const noRetry = { required: false, retryPolicy: { maxRetries: 0 } };
  return writePlan(name, [
    {
      toolId: 'retried',
      toolPath: `${helpers}/flaky.js`,
      input: { counterFile: path.join(scratch, `${name}.counter`), failTimes: 1 },
      retryPolicy: { maxRetries: 1, backoffMs: 0 },
    },
    { toolId: 'fail', toolPath: `${faults}/done-not-ok.js`, ...noRetry },
    { toolId: 'garbage', toolPath: `${faults}/garbage-line.js`, ...noRetry },
    { toolId: 'telepathy', toolPath: `${faults}/unknown-type.js`, ...noRetry },
    // A malformed event: version "1".
    { toolId: 'future', toolPath: `${faults}/bad-version.js`, ...noRetry },
    // The tool's own timeout, so the test never waits for the default one; nothing here measures it.
    { toolId: 'hang', toolPath: `${faults}/hang.js`, timeoutMs: 1000, ...noRetry },
  ]);
}

/** Runs the fault plan with the given filters and returns each exception stop as "toolId category" (checking the stop, its frame and exceptionInfo). */
async function exceptionStops(name: string, filters: readonly string[]): Promise<string[]> {
  const plan = faultPlan(name);
  const { session, events } = await start();
  await launch(session, { plan: plan.file, root: story }, { exceptionFilters: filters });
  const seen: string[] = [];
  for (;;) {
    const event = await events.next();
    if (event.event === 'terminated') return seen;
    const stop = event as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'exception');
    const description = stop.body.description ?? '';
    const category = description.split(':')[0]!;
    assert.match(description, /^[a-z_]+: \S/, 'the description names the failure category, then its message');
    const frame = await topFrame(session, stop.body.threadId!);
    const toolId = frame.name.split(' ')[0]!;
    assert.equal(frame.name, `${toolId} · failed: ${category}`);
    assert.equal(frame.source?.path, plan.file);
    const info = await session.exceptionInfoRequest({ threadId: stop.body.threadId! });
    assert.equal(info.body.exceptionId, category);
    assert.equal(info.body.description, description);
    assert.equal(info.body.breakMode, 'always');
    const result = (await scopeValue(session, frame.id, 'Result')) as { error?: { category: string } } | undefined;
    assert.equal(result?.error?.category, category, 'the Result scope holds the failed attempt');
    seen.push(`${toolId} ${category}`);
    await session.continueRequest({ threadId: stop.body.threadId! });
  }
}

test('the toolFailure filter stops where a tool ends failed (not at a failure that is retried), and exceptionInfo names the category', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  assert.deepEqual(await exceptionStops('tool-failure', ['toolFailure']), [
    'fail tool_failure',
    'garbage invalid_json',
    'telepathy protocol_violation',
    'future protocol_violation',
    'hang timeout',
  ]);
});

test('the protocolError filter stops at invalid JSON, an unknown event type and a malformed event, and nowhere else', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  assert.deepEqual(await exceptionStops('protocol-error', ['protocolError']), [
    'garbage invalid_json',
    'telepathy protocol_violation',
    'future protocol_violation',
  ]);
});

test('the timeout filter stops where a tool attempt times out, and nowhere else', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.deepEqual(await exceptionStops('timeout', ['timeout']), ['hang timeout']);
});

test('the timeout filter stops at each timed-out attempt and says when the tool will be retried', { timeout: TEST_TIMEOUT_MS }, async () => {
  const plan = writePlan('timeout-retry', [{ toolId: 'hang', toolPath: `${faults}/hang.js`, timeoutMs: 1000, retryPolicy: { maxRetries: 1, backoffMs: 0 } }]);
  const { session, events } = await start();
  await launch(session, { plan: plan.file, root: story }, { exceptionFilters: ['timeout'] });
  const first = await events.stop();
  assert.equal(first.body.reason, 'exception');
  assert.match(first.body.description ?? '', /^timeout: .*\(it will be retried\)$/);
  assert.equal((await topFrame(session, first.body.threadId!)).name, 'hang · failed: timeout');
  await session.continueRequest({ threadId: first.body.threadId! });
  const second = await events.stop();
  assert.equal(second.body.reason, 'exception');
  assert.match(second.body.description ?? '', /^timeout: /);
  assert.doesNotMatch(second.body.description ?? '', /retried/);
  const frame = await topFrame(session, second.body.threadId!);
  assert.equal(frame.name, 'hang (attempt 2) · failed: timeout');
  const flags = (await scopeValue(session, frame.id, 'Plan')) as { attempt: number; retries: number };
  assert.deepEqual([flags.attempt, flags.retries], [2, 1]);
  await Promise.all([events.end(), session.continueRequest({ threadId: second.body.threadId! })]);
});

test('with no exception filter the same plan runs to the end without stopping', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.deepEqual(await exceptionStops('no-filter', []), []);
});

test('the protocolError filter stops at output after done', { timeout: TEST_TIMEOUT_MS }, async () => {
  const plan = writePlan('after-done', [{ toolId: 'late', toolPath: `${faults}/events-after-done.js` }]);
  const { session, events } = await start();
  await launch(session, { plan: plan.file, root: story }, { exceptionFilters: ['protocolError'] });
  const stop = await events.stop();
  assert.equal(stop.body.reason, 'exception');
  assert.match(stop.body.description ?? '', /after/);
  await Promise.all([events.end(), session.continueRequest({ threadId: stop.body.threadId! })]);
});

test('the replan filter stops on the plan thread before the planner is asked for more steps', { timeout: TEST_TIMEOUT_MS }, async () => {
  const plan = writePlan('replan', [{ toolId: 'ask', toolPath: `${helpers}/needs-context.js`, input: { suggestion: 'Which door?' } }]);
  const { session, events } = await start();
  const outputs: string[] = [];
  session.on('output', (event: DebugProtocol.OutputEvent) => outputs.push(event.body.output));
  await launch(session, { plan: plan.file, root: story }, { exceptionFilters: ['replan'] });
  const stop = await events.stop();
  assert.equal(stop.body.reason, 'exception');
  assert.equal(stop.body.description, 'replan: "ask" asked for more context (Which door?)');
  const frame = await topFrame(session, stop.body.threadId!);
  assert.equal(frame.name, 'replan after ask (iteration 1)');
  assert.equal((await session.threadsRequest()).body.threads.find((thread) => thread.id === stop.body.threadId)?.name, 'plan');
  assert.deepEqual(await scopeValue(session, frame.id, 'Event'), { iteration: 1, toolId: 'ask', suggestion: 'Which door?' });
  const info = await session.exceptionInfoRequest({ threadId: stop.body.threadId! });
  assert.equal(info.body.exceptionId, 'replan');
  assert.equal(info.body.description, stop.body.description);
  assert.ok(
    outputs.some((output) => output.startsWith('re-planning (iteration 1): "ask" asked for more context')),
    outputs.join(''),
  );
  // Whatever the planner adds, the run goes on to its end (each further re-planning stops again, on the plan thread).
  let threadId = stop.body.threadId!;
  for (;;) {
    await session.continueRequest({ threadId });
    const event = await events.next();
    if (event.event === 'terminated') break;
    const again = event as DebugProtocol.StoppedEvent;
    assert.match(again.body.description ?? '', /^replan: /);
    threadId = again.body.threadId!;
  }
});

// ——— data breakpoints ———

/** `setup` writes /roll/total; `roller` writes /note, then /roll/die, then /roll/total (only its third patch changes the total). */
function rollPlan(name: string): { file: string; lineOf: (needle: string) => number } {
  return writePlan(name, [
    { toolId: 'setup', toolPath: `${helpers}/echo.js`, input: { patch: { roll: { total: 5, die: 'd20' } } } },
    {
      toolId: 'roller',
      toolPath: `${helpers}/patches.js`,
      input: { patches: [{ note: 'x' }, { roll: { die: 'd6' } }, { roll: { total: 17 } }, { roll: { total: 17 } }] },
      dependencies: ['setup'],
    },
  ]);
}

/** The id of a variable's children in a scope (for dataBreakpointInfo). */
async function childReference(session: DebugClient, frameId: number, scopeName: string, variable: string): Promise<{ scope: number; child: number }> {
  const scope = (await session.scopesRequest({ frameId })).body.scopes.find((candidate) => candidate.name === scopeName);
  assert.ok(scope, `a ${scopeName} scope`);
  const found = (await session.variablesRequest({ variablesReference: scope.variablesReference })).body.variables.find(
    (candidate) => candidate.name === variable,
  );
  assert.ok(found && found.variablesReference > 0, `${scopeName} has an object named ${variable}`);
  return { scope: scope.variablesReference, child: found.variablesReference };
}

test('a data breakpoint on a State variable stops at the state_patch that changes it, in the tool output document', { timeout: TEST_TIMEOUT_MS }, async () => {
  const plan = rollPlan('data-variable');
  const { session, events } = await start();
  await launch(session, { plan: plan.file, root: story }, { functionBreakpoints: [{ name: 'roller' }] });
  const atRoller = await events.stop();
  const rollerFrame = await topFrame(session, atRoller.body.threadId!);
  assert.equal(rollerFrame.name, 'roller');
  const references = await childReference(session, rollerFrame.id, 'State', 'roll');
  const info = await session.dataBreakpointInfoRequest({ variablesReference: references.child, name: 'total' });
  assert.equal(info.body.dataId, '/roll/total');
  assert.deepEqual(info.body.accessTypes, ['write']);
  const inputReference = await childReference(session, rollerFrame.id, 'Input', 'patches');
  assert.equal(
    (await session.dataBreakpointInfoRequest({ variablesReference: inputReference.scope, name: 'patches' })).body.dataId,
    null,
    'only State values can be watched',
  );
  const set = await session.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.body.dataId!, accessType: 'write' }] });
  assert.equal(set.body.breakpoints[0]!.verified, true);

  await session.continueRequest({ threadId: atRoller.body.threadId! });
  const changed = await events.stop();
  assert.equal(changed.body.reason, 'data breakpoint');
  assert.deepEqual(changed.body.hitBreakpointIds, [set.body.breakpoints[0]!.id]);
  assert.match(changed.body.description ?? '', /\/roll\/total/);
  const frame = await topFrame(session, changed.body.threadId!);
  assert.equal(frame.name, 'state_patch roll');
  assert.equal(frame.source?.name, 'roller.ndjson');
  assert.equal(frame.source?.path, undefined);
  assert.equal(frame.line, 3, 'the third output line: the patch that changes the total');
  const document = await session.sourceRequest({ source: frame.source!, sourceReference: frame.source!.sourceReference! });
  const lines = document.body.content
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { type: string; patch?: unknown });
  assert.deepEqual(
    lines.slice(0, 3).map((line) => [line.type, line.patch]),
    [
      ['state_patch', { note: 'x' }],
      ['state_patch', { roll: { die: 'd6' } }],
      ['state_patch', { roll: { total: 17 } }],
    ],
  );
  assert.deepEqual(await scopeValue(session, frame.id, 'State'), { roll: { total: 5, die: 'd6' }, note: 'x' }, 'the state before the patch applies');
  const event = (await scopeValue(session, frame.id, 'Event')) as Record<string, unknown>;
  assert.deepEqual(event['patch'], { roll: { total: 17 } });
  // The fourth patch writes the same total again: no change, no stop.
  await Promise.all([events.end(), session.continueRequest({ threadId: changed.body.threadId! })]);
});

test('a data breakpoint on a JSON pointer stops at every change of that path, and a name that is not a pointer is refused', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const plan = rollPlan('data-pointer');
  const { session, events } = await start();
  await launch(session, { plan: plan.file, root: story, stopOnEntry: true });
  const entry = await events.stop();
  assert.equal(entry.body.reason, 'entry');
  assert.equal((await session.dataBreakpointInfoRequest({ name: 'roll.total' })).body.dataId, null);
  const info = await session.dataBreakpointInfoRequest({ name: '/roll/total' });
  assert.equal(info.body.dataId, '/roll/total');
  const set = await session.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.body.dataId! }, { dataId: 'roll.total' }] });
  assert.equal(set.body.breakpoints[0]!.verified, true);
  assert.equal(set.body.breakpoints[1]!.verified, false);
  assert.match(set.body.breakpoints[1]!.message ?? '', /not a JSON pointer/);

  const stops: string[] = [];
  await session.continueRequest({ threadId: entry.body.threadId! });
  for (;;) {
    const event = await events.next();
    if (event.event === 'terminated') break;
    const stop = event as DebugProtocol.StoppedEvent;
    assert.equal(stop.body.reason, 'data breakpoint');
    const frame = await topFrame(session, stop.body.threadId!);
    stops.push(`${frame.source?.name}:${frame.line} ${frame.name}`);
    await session.continueRequest({ threadId: stop.body.threadId! });
  }
  assert.deepEqual(stops, ['setup.ndjson:1 state_patch roll', 'roller.ndjson:3 state_patch roll']);
});

// ——— terminate ———

/** Launches the grandchild spawner and holds it at its log event (stepped into from entry): the script and its grandchild are running. */
async function spawnerHeldAtItsLog(name: string) {
  const pidFile = path.join(scratch, `${name}.pid`);
  const plan = writePlan(name, [{ toolId: 'spawner', toolPath: `${faults}/spawn-grandchild.js`, input: { pidFile } }]);
  const { session, events } = await start();
  await launch(session, { plan: plan.file, root: story, stopOnEntry: true, toolTimeoutMs: 300_000 });
  const entry = await events.stop();
  await session.stepInRequest({ threadId: entry.body.threadId! });
  const atLog = await events.stop();
  const frame = await topFrame(session, atLog.body.threadId!);
  const { pid, grandchildPid } = ((await scopeValue(session, frame.id, 'Event')) as { fields: { pid: number; grandchildPid: number } }).fields;
  watch(pid, grandchildPid);
  return { session, events, pid, grandchildPid };
}

test('terminate kills a tool held in its events with its whole process tree (the script and its grandchild)', { timeout: TEST_TIMEOUT_MS }, async () => {
  const pidFile = path.join(scratch, 'grandchild.pid');
  const plan = writePlan('grandchild', [{ toolId: 'spawner', toolPath: `${faults}/spawn-grandchild.js`, input: { pidFile } }]);
  const { session, events } = await start();
  // A tool timeout far beyond the test: the tool must die by terminate, not by its own 2 s manifest timeout.
  await launch(session, { plan: plan.file, root: story, stopOnEntry: true, toolTimeoutMs: 300_000 });
  const entry = await events.stop();
  assert.equal((await topFrame(session, entry.body.threadId!)).name, 'spawner');
  await session.stepInRequest({ threadId: entry.body.threadId! });
  const atLog = await events.stop();
  const frame = await topFrame(session, atLog.body.threadId!);
  assert.equal(frame.name, 'log info: spawned a grandchild');
  const event = (await scopeValue(session, frame.id, 'Event')) as { fields: { pid: number; grandchildPid: number } };
  const { pid, grandchildPid } = event.fields;
  // The script writes the pid file before the log event the debugger holds.
  assert.equal(Number(readFileSync(pidFile, 'utf8')), grandchildPid);
  watch(pid, grandchildPid);
  assert.ok(isProcessAlive(pid), 'the script is running while its event is held');
  assert.ok(isProcessAlive(grandchildPid), 'the grandchild is running');

  await Promise.all([events.end(), session.terminateRequest({})]);
  assert.equal(await waitForProcessExit(pid), true, `script ${pid} survived terminate`);
  assert.equal(await waitForProcessExit(grandchildPid), true, `grandchild ${grandchildPid} survived terminate`);
});

test('disconnect kills a tool held in its events with its whole process tree', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { session, pid, grandchildPid } = await spawnerHeldAtItsLog('grandchild-disconnect');
  assert.ok(isProcessAlive(pid) && isProcessAlive(grandchildPid), 'the script and its grandchild are running');

  // The adapter answers disconnect once the run has ended, then exits: afterEach must not send a second disconnect
  // to a process that may be gone (its answer would never come), so the client is stopped here.
  await session.disconnectRequest({});
  client = undefined;
  (session as unknown as { stopAdapter(): void }).stopAdapter();
  assert.equal(await waitForProcessExit(pid), true, `script ${pid} survived disconnect`);
  assert.equal(await waitForProcessExit(grandchildPid), true, `grandchild ${grandchildPid} survived disconnect`);
});

test('terminate at a breakpoint on a later tool kills a hanging tool running in parallel', { timeout: TEST_TIMEOUT_MS }, async () => {
  const plan = writePlan(
    'parallel-hang',
    [
      { toolId: 'hang', toolPath: `${faults}/hang.js`, async: true },
      { toolId: 'other', toolPath: `${helpers}/echo.js`, async: true },
      { toolId: 'later', toolPath: `${helpers}/echo.js`, async: true, dependencies: ['other'] },
    ],
    { parallel: true },
  );
  const { session, events } = await start();
  await launch(
    session,
    { plan: plan.file, root: story, concurrency: 2, toolTimeoutMs: 300_000 },
    {
      functionBreakpoints: [{ name: 'hang' }],
      planFile: plan.file,
      lineBreakpoints: [{ line: plan.lineOf('"toolId": "later"') }],
    },
  );
  // Stops come from two threads in an order the scheduler decides: collect them by the name of their top frame.
  const held = new Map<string, { threadId: number; frameId: number }>();
  const collect = async (name: string) => {
    while (!held.has(name)) {
      const stop = await events.stop();
      const frame = await topFrame(session, stop.body.threadId!);
      held.set(frame.name, { threadId: stop.body.threadId!, frameId: frame.id });
    }
    return held.get(name)!;
  };
  const atHang = await collect('hang');
  await session.stepInRequest({ threadId: atHang.threadId });
  const atLog = await collect('log info: hanging forever');
  const event = (await scopeValue(session, atLog.frameId, 'Event')) as { fields: { pid: number } };
  const pid = event.fields.pid;
  watch(pid);
  // Let the hanging tool run on (stepOut holds it only at its end, which never comes) while `later` reaches its breakpoint.
  await session.stepOutRequest({ threadId: atLog.threadId });
  await collect('later');
  assert.ok(isProcessAlive(pid), 'the hanging tool is still running');
  const threads = (await session.threadsRequest()).body.threads.map((thread) => thread.name).sort();
  assert.deepEqual(threads, ['hang', 'later', 'plan']);

  await Promise.all([events.end(), session.terminateRequest({})]);
  assert.equal(await waitForProcessExit(pid), true, `hanging tool ${pid} survived terminate`);
});

test('issue 28: the adapter SIGKILLed while a tool is held in its events (VS Code killed outright) leaves neither the script nor its grandchild', {
  timeout: TEST_TIMEOUT_MS,
  skip: process.platform === 'win32',
}, async () => {
  const { session, pid, grandchildPid } = await spawnerHeldAtItsLog('grandchild-sigkill');
  assert.ok(isProcessAlive(pid) && isProcessAlive(grandchildPid), 'the script and its grandchild are running while its event is held');
  // The adapter dies without running any exit hook, as an extension host killed by VS Code does.
  const adapter = (session as unknown as { _adapterProcess?: import('node:child_process').ChildProcess })._adapterProcess;
  assert.ok(adapter?.pid, 'the adapter process');
  client = undefined;
  adapter.kill('SIGKILL');
  assert.equal(await waitForProcessExit(pid), true, `script ${pid} survived the adapter's SIGKILL`);
  assert.equal(await waitForProcessExit(grandchildPid), true, `grandchild ${grandchildPid} survived the adapter's SIGKILL`);
});
