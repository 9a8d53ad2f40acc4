// The standalone `narratoria debug-adapter` without a live plan: replays of real run records and ExecutionResults (nothing runs), one skill script on its own, and launches that fail with a clear message.
import { after, afterEach, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { narratoria } from '../cli/cliHarness.js';
import { launch, scopeValue, SessionEvents, startClient, topFrame } from '../support/debugClient.js';

const story = path.resolve(import.meta.dirname, '../fixtures/story');
/** Margin: a safety net so a session that never stops fails its test instead of hanging the suite. */
const TEST_TIMEOUT_MS = 180_000;
/** Margin: the before hook runs the real CLI twice over real processes. */
const RECORD_TIMEOUT_MS = 120_000;
const requestId = '4c5d6e7f-8091-4a2b-9c3d-4e5f6a7b8c9d';
let scratch: string;
let client: DebugClient | undefined;

/** A copy of the story the recorded plan ran in; its helper scripts are deleted once the run is recorded. */
let storyCopy: string;
/** The recorded plan: `roll` writes two patches, `mark` writes the marker file, `narrate` writes one patch. */
let plan: { file: string; text: string; lineOf: (needle: string) => number };
/** The run record `narratoria run` wrote, and the ExecutionResult `narratoria run --format json` printed. */
let recordFile: string;
let resultFile: string;
/** Written by the `mark` tool whenever its script runs. */
let marker: string;

before(
  async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-dap-replay-'));
    storyCopy = path.join(scratch, 'story');
    cpSync(story, storyCopy, { recursive: true });
    marker = path.join(scratch, 'marker');
    const tools = [
      { toolId: 'roll', toolPath: 'skills/helpers/scripts/patches.js', input: { patches: [{ roll: { total: 12 } }, { roll: { die: 'd20' } }] } },
      { toolId: 'mark', toolPath: 'skills/helpers/scripts/flaky.js', input: { counterFile: marker, failTimes: 0 }, dependencies: ['roll'] },
      { toolId: 'narrate', toolPath: 'skills/helpers/scripts/echo.js', input: { patch: { told: true } }, dependencies: ['mark'] },
    ];
    const text = JSON.stringify({ requestId, tools }, null, 2);
    plan = { file: path.join(scratch, 'recorded.plan.json'), text, lineOf: (needle) => text.slice(0, text.indexOf(needle)).split('\n').length };
    writeFileSync(plan.file, text);

    const recorded = await narratoria(['run', plan.file, '--root', storyCopy]);
    assert.equal(recorded.code, 0, recorded.stderr);
    recordFile = path.join(storyCopy, '.narratoria', 'runs', `${requestId}.json`);
    assert.ok(existsSync(recordFile), 'narratoria run wrote its run record');
    assert.ok(existsSync(marker), 'the recorded run ran the marker script');
    // flaky.js counts its runs in the marker: remove it so the second run records "attempt 1" too.
    rmSync(marker);
    const json = await narratoria(['run', plan.file, '--root', storyCopy, '--format', 'json', '--no-save']);
    assert.equal(json.code, 0, json.stderr);
    resultFile = path.join(scratch, 'result.json');
    writeFileSync(resultFile, json.stdout);
    assert.ok(existsSync(marker), 'the second run ran the marker script');
    // From here on a replay that started any script would write the marker again, or fail on the missing scripts.
    rmSync(marker);
    rmSync(path.join(storyCopy, 'skills', 'helpers', 'scripts'), { recursive: true });
  },
  { timeout: RECORD_TIMEOUT_MS },
);
afterEach(async () => {
  await client?.stop();
  client = undefined;
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Starts a client that records its events. */
async function start(): Promise<{ session: DebugClient; events: SessionEvents }> {
  const session = await startClient(scratch);
  client = session;
  return { session, events: new SessionEvents(session) };
}

/** Sends a step request and returns the stop it leads to, with the stop's top frame. */
async function step(
  session: DebugClient,
  events: SessionEvents,
  request: (threadId: number) => Promise<unknown>,
  threadId: number,
): Promise<{ stop: DebugProtocol.StoppedEvent; frame: DebugProtocol.StackFrame }> {
  await request(threadId);
  const stop = await events.stop();
  return { stop, frame: await topFrame(session, stop.body.threadId!) };
}

/** Asserts that the replay started nothing: no marker, no tool thread, no stderr (the scripts no longer exist). */
function assertNothingRan(events: SessionEvents): void {
  assert.equal(existsSync(marker), false, 'the marker script did not run');
  assert.deepEqual(events.threads, [], 'no tool thread started');
  assert.deepEqual(
    events.outputs.filter((output) => output.category === 'stderr'),
    [],
  );
  assert.ok(
    events.outputs.some((output) => /nothing runs/.test(output.output)),
    events.outputs.map((output) => output.output).join(''),
  );
}

test('a replay of a run record stops at a line breakpoint in the plan file, steps through the recorded events and back, and starts no process', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { session, events } = await start();
  const rollLine = plan.lineOf('"toolId": "roll"');
  const narrateLine = plan.lineOf('"toolId": "narrate"');
  const { lines } = await launch(
    session,
    { replay: recordFile, plan: plan.file },
    { planFile: plan.file, lineBreakpoints: [{ line: rollLine }, { line: narrateLine }] },
  );
  assert.deepEqual(
    lines!.body.breakpoints.map((breakpoint) => breakpoint.verified),
    [true, true],
  );

  const atRoll = await events.stop();
  assert.equal(atRoll.body.reason, 'breakpoint');
  const thread = atRoll.body.threadId!;
  const rollFrame = await topFrame(session, thread);
  assert.equal(rollFrame.name, 'roll');
  assert.equal(rollFrame.source?.path, plan.file);
  assert.ok(rollFrame.line <= rollLine && (rollFrame.endLine ?? 0) >= rollLine, 'the frame spans the tool object');
  assert.deepEqual(await scopeValue(session, rollFrame.id, 'State'), {});
  assert.deepEqual(await scopeValue(session, rollFrame.id, 'Input'), { patches: [{ roll: { total: 12 } }, { roll: { die: 'd20' } }] });
  assert.deepEqual(
    (await session.threadsRequest()).body.threads.map((candidate) => candidate.name),
    ['plan'],
  );

  // stepIn walks the recorded events of the tool, with the state before each.
  const walked: [string, number, unknown][] = [];
  for (let index = 0; index < 3; index++) {
    const { stop, frame } = await step(session, events, (threadId) => session.stepInRequest({ threadId }), thread);
    assert.equal(stop.body.reason, 'step');
    assert.equal(frame.source?.name, 'roll.ndjson');
    walked.push([frame.name, frame.line, await scopeValue(session, frame.id, 'State')]);
  }
  assert.deepEqual(walked, [
    ['state_patch roll', 1, {}],
    ['state_patch roll', 2, { roll: { total: 12 } }],
    ['done ok', 3, { roll: { total: 12, die: 'd20' } }],
  ]);
  const topOfStack = await topFrame(session, thread);
  const output = await session.sourceRequest({ source: topOfStack.source!, sourceReference: topOfStack.source!.sourceReference! });
  assert.deepEqual(
    output.body.content
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { type: string }).type),
    ['state_patch', 'state_patch', 'done'],
    'the recorded output lines',
  );

  // stepBack returns through them to the state before the tool.
  const back = await step(session, events, (threadId) => session.stepBackRequest({ threadId }), thread);
  assert.deepEqual([back.frame.name, back.frame.line], ['state_patch roll', 2]);
  assert.deepEqual(await scopeValue(session, back.frame.id, 'State'), { roll: { total: 12 } });
  await step(session, events, (threadId) => session.stepBackRequest({ threadId }), thread);
  const atStart = await step(session, events, (threadId) => session.stepBackRequest({ threadId }), thread);
  assert.equal(atStart.frame.name, 'roll');
  assert.deepEqual(await scopeValue(session, atStart.frame.id, 'State'), {});

  // continue reaches the next breakpoint with the recorded state, then the end of the replay.
  const atNarrate = await step(session, events, (threadId) => session.continueRequest({ threadId }), thread);
  assert.equal(atNarrate.stop.body.reason, 'breakpoint');
  assert.equal(atNarrate.frame.name, 'narrate');
  assert.deepEqual(await scopeValue(session, atNarrate.frame.id, 'State'), { roll: { total: 12, die: 'd20' } });

  // Breakpoints hold backwards too: reverseContinue goes back to the breakpoint on `roll`.
  const reversed = await step(session, events, (threadId) => session.reverseContinueRequest({ threadId }), thread);
  assert.equal(reversed.stop.body.reason, 'breakpoint');
  assert.equal(reversed.frame.name, 'roll');
  assert.equal((await step(session, events, (threadId) => session.continueRequest({ threadId }), thread)).frame.name, 'narrate');
  await Promise.all([events.end(), session.continueRequest({ threadId: thread })]);
  assertNothingRan(events);
});

test('a replay without a plan shows the recorded plan as a read-only document whose breakpoints are verified and hit', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { session, events } = await start();
  await launch(session, { replay: recordFile, stopOnEntry: true });
  const entry = await events.stop();
  assert.equal(entry.body.reason, 'entry');
  const entryFrame = await topFrame(session, entry.body.threadId!);
  assert.equal(entryFrame.name, 'roll');
  const source = entryFrame.source!;
  assert.equal(source.path, undefined, 'the recorded plan has no file');
  assert.ok((source.sourceReference ?? 0) > 0, 'the recorded plan is a virtual document');
  const document = await session.sourceRequest({ source, sourceReference: source.sourceReference! });
  const recordedPlan = (JSON.parse(readFileSync(recordFile, 'utf8')) as { plan: unknown }).plan;
  assert.deepEqual(JSON.parse(document.body.content), recordedPlan);

  const text = document.body.content;
  const narrateLine = text.slice(0, text.indexOf('"toolId": "narrate"')).split('\n').length;
  const set = await session.setBreakpointsRequest({ source: { sourceReference: source.sourceReference! }, breakpoints: [{ line: narrateLine }] });
  assert.equal(set.body.breakpoints[0]!.verified, true);
  assert.equal(set.body.breakpoints[0]!.source?.sourceReference, source.sourceReference);
  const onDisk = await session.setBreakpointsRequest({ source: { path: plan.file }, breakpoints: [{ line: narrateLine }] });
  assert.equal(onDisk.body.breakpoints[0]!.verified, false, 'a file is not the replayed plan');
  assert.match(onDisk.body.breakpoints[0]!.message ?? '', /breakpoints apply to the plan being debugged/);

  const hit = await step(session, events, (threadId) => session.continueRequest({ threadId }), entry.body.threadId!);
  assert.equal(hit.stop.body.reason, 'breakpoint');
  assert.deepEqual(hit.stop.body.hitBreakpointIds, [set.body.breakpoints[0]!.id]);
  assert.equal(hit.frame.name, 'narrate');
  assert.equal(hit.frame.source?.sourceReference, source.sourceReference);
  assert.ok(hit.frame.line <= narrateLine && (hit.frame.endLine ?? 0) >= narrateLine);
  await Promise.all([events.end(), session.continueRequest({ threadId: hit.stop.body.threadId! })]);
  assertNothingRan(events);
});

test('a replay of an ExecutionResult printed by `narratoria run --format json` stops at a breakpoint with the recorded state', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { planId: string; toolResults: unknown[] };
  assert.equal(result.planId, requestId);
  const { session, events } = await start();
  const markLine = plan.lineOf('"toolId": "mark"');
  await launch(session, { replay: resultFile, plan: plan.file }, { planFile: plan.file, lineBreakpoints: [{ line: markLine }] });
  const atMark = await events.stop();
  assert.equal(atMark.body.reason, 'breakpoint');
  const frame = await topFrame(session, atMark.body.threadId!);
  assert.equal(frame.name, 'mark');
  assert.equal(frame.source?.path, plan.file);
  assert.deepEqual(await scopeValue(session, frame.id, 'State'), { roll: { total: 12, die: 'd20' } });
  assert.deepEqual(await scopeValue(session, frame.id, 'Input'), { counterFile: marker, failTimes: 0 });
  const dependencies = (await scopeValue(session, frame.id, 'Dependencies')) as { roll: { summary: string } };
  assert.equal(dependencies.roll.summary, 'emitted 2 patches');
  const finished = await step(session, events, (threadId) => session.stepOutRequest({ threadId }), atMark.body.threadId!);
  assert.equal(finished.frame.name, 'mark · finished');
  const recordedResult = (await scopeValue(session, finished.frame.id, 'Result')) as { output?: { summary?: string } } | undefined;
  assert.equal(recordedResult?.output?.summary, 'succeeded on attempt 1', 'the recorded result');
  await Promise.all([events.end(), session.continueRequest({ threadId: atMark.body.threadId! })]);
  assertNothingRan(events);
});

test('script mode stops on entry at the script, steps through its NDJSON events and ends', { timeout: TEST_TIMEOUT_MS }, async () => {
  const script = path.join(story, 'skills', 'helpers', 'scripts', 'echo.js');
  const { session, events } = await start();
  await launch(session, { script, input: { patch: { a: 1 } }, root: story });
  const entry = await events.stop();
  assert.equal(entry.body.reason, 'entry');
  const thread = entry.body.threadId!;
  const entryFrame = await topFrame(session, thread);
  assert.equal(entryFrame.name, 'echo');
  assert.equal(entryFrame.source?.path, script);
  assert.deepEqual(await scopeValue(session, entryFrame.id, 'Input'), { patch: { a: 1 } });

  const patch = await step(session, events, (threadId) => session.stepInRequest({ threadId }), thread);
  assert.equal(patch.frame.name, 'state_patch a');
  assert.equal(patch.frame.line, 1);
  const patchEvent = (await scopeValue(session, patch.frame.id, 'Event')) as Record<string, unknown>;
  assert.deepEqual([patchEvent['type'], patchEvent['patch']], ['state_patch', { a: 1 }]);
  const stack = (await session.stackTraceRequest({ threadId: thread })).body.stackFrames;
  assert.equal(stack[1]?.source?.path, script, 'below the event, the tool frame is the script itself');
  const done = await step(session, events, (threadId) => session.stepInRequest({ threadId }), thread);
  assert.equal(done.frame.name, 'done ok');
  assert.equal(done.frame.line, 2);
  assert.deepEqual(await scopeValue(session, done.frame.id, 'State'), { a: 1 });
  const output = await session.sourceRequest({ source: done.frame.source!, sourceReference: done.frame.source!.sourceReference! });
  assert.deepEqual(
    output.body.content
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { type: string }).type),
    ['state_patch', 'done'],
  );

  // Stepping on reaches the end of the script's process (a tool boundary), then the end of the run.
  const beyond: string[] = [];
  for (;;) {
    await session.stepInRequest({ threadId: thread });
    const event = await events.next();
    if (event.event === 'terminated') break;
    beyond.push((await topFrame(session, thread)).name);
  }
  assert.deepEqual(beyond, ['echo · finished']);
});

/** A launch that must fail: its error message, after checking that the session also ends. */
async function failedLaunch(args: Record<string, unknown>): Promise<string> {
  const { session, events } = await start();
  const initialized = await session.initializeRequest({ adapterID: 'narratoria', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
  assert.equal(initialized.success, true);
  const message = await session.launchRequest(args as DebugProtocol.LaunchRequestArguments).then(
    () => assert.fail(`launch ${JSON.stringify(args)} should have failed`),
    (error: Error) => error.message,
  );
  await events.end();
  // Several failed launches run in one test: each client is stopped here, not in afterEach.
  await session.stop();
  client = undefined;
  return message;
}

test('a bad launch fails the launch request with a clear message and ends the session', { timeout: TEST_TIMEOUT_MS }, async () => {
  const missing = path.join(scratch, 'missing.plan.json');
  assert.match(await failedLaunch({ plan: missing, root: story }), /"plan": cannot read .*missing\.plan\.json \(ENOENT\)/);

  const invalidMarker = path.join(scratch, 'invalid-marker');
  const invalid = path.join(scratch, 'invalid.plan.json');
  writeFileSync(
    invalid,
    JSON.stringify(
      {
        requestId,
        tools: [
          { toolId: 'mark', toolPath: 'skills/helpers/scripts/flaky.js', input: { counterFile: invalidMarker, failTimes: 0 } },
          { toolId: 'broken', toolPath: 'skills/helpers/scripts/echo.js', dependencies: ['nowhere'] },
        ],
      },
      null,
      2,
    ),
  );
  const invalidMessage = await failedLaunch({ plan: invalid, root: story });
  assert.match(invalidMessage, /The plan is invalid; nothing ran/);
  assert.match(invalidMessage, /invalid\.plan\.json:\d+:\d+ UNKNOWN_DEPENDENCY .*"nowhere"/);
  assert.equal(existsSync(invalidMarker), false, 'an invalid plan starts no process');

  // What VS Code sends for a launch configuration with neither "plan", "replay" nor "script".
  assert.match(await failedLaunch({ type: 'narratoria', request: 'launch', name: 'Debug nothing' }), /Nothing to debug: set "plan".*"replay".*"script"/);
  assert.match(await failedLaunch({ replay: path.join(scratch, 'missing-record.json') }), /"replay": cannot read .*missing-record\.json \(ENOENT\)/);
  assert.match(await failedLaunch({ replay: plan.file }), /neither a run record .* nor an ExecutionResult/);
  assert.match(
    await failedLaunch({ script: path.join(story, 'skills', 'helpers', 'scripts', 'echo.js'), plan: plan.file }),
    /"script" debugs one skill script on its own/,
  );
  assert.match(await failedLaunch({ plan: 42 }), /"plan" must be a path/);
  const badState = path.join(scratch, 'state.json');
  writeFileSync(badState, '[1, 2]');
  assert.match(await failedLaunch({ plan: plan.file, root: story, state: badState }), /"state": .*state\.json must hold a JSON object/);
});

test('a launch request without arguments fails with the same clear message', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.match(await failedLaunch({}), /Nothing to debug: set "plan".*"replay".*"script"/);
});

/** The "reason:frame" of each stop until the replay ends, continuing after each. */
async function replayStops(session: DebugClient, events: SessionEvents): Promise<string[]> {
  const stops: string[] = [];
  for (;;) {
    const event = await events.next();
    if (event.event === 'terminated') return stops;
    const stop = event as DebugProtocol.StoppedEvent;
    stops.push(`${stop.body.reason}:${(await topFrame(session, stop.body.threadId!)).name}`);
    await session.continueRequest({ threadId: stop.body.threadId! });
  }
}

test('a replay honours hit counts as the live run does', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { session, events } = await start();
  await launch(session, { replay: recordFile, plan: plan.file }, { functionBreakpoints: [{ name: 'helpers', hitCondition: '== 2' }] });
  assert.deepEqual(await replayStops(session, events), ['breakpoint:mark']);
});

test('a replay prints logpoints as the live run does', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { session, events } = await start();
  await launch(
    session,
    { replay: recordFile, plan: plan.file },
    { planFile: plan.file, lineBreakpoints: [{ line: plan.lineOf('"toolId": "narrate"'), logMessage: 'total before narrate is {state.roll.total}' }] },
  );
  assert.deepEqual(await replayStops(session, events), []);
  assert.ok(
    events.outputs.some((output) => output.output === 'total before narrate is 12\n'),
    events.outputs.map((output) => output.output).join(''),
  );
});
