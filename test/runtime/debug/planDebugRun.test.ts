// A plan run under the debugger, over real processes: stop on entry, line breakpoints, stepping into NDJSON events, next, stepOut, exception filters, pause and terminate.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PlanDocument } from '../../../src/runtime/authoring/planDocument.js';
import { BreakpointSet } from '../../../src/runtime/debug/breakpointSet.js';
import { PLAN_THREAD_ID, PlanDebugRun, type DebugStop } from '../../../src/runtime/debug/planDebugRun.js';
import type { Plan } from '../../../src/runtime/contractTypes/plan.js';
import { isProcessAlive, waitForProcessExit } from '../../support/processes.js';

const story = path.resolve(import.meta.dirname, '../../fixtures/story');
let scratch: string;
before(() => (scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-debug-run-'))));
after(() => rmSync(scratch, { recursive: true, force: true }));

const echo = 'skills/helpers/scripts/echo.js';
/** Margin: a safety net so a run that never stops fails the test instead of hanging it; each wait is for a real stop. */
const TEST_TIMEOUT_MS = 120_000;
const plan: Plan = {
  requestId: '1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  tools: [
    { toolId: 'first', toolPath: echo, input: { patch: { step: 1 } } },
    { toolId: 'second', toolPath: echo, input: { patch: { step: 2 } }, dependencies: ['first'] },
    { toolId: 'third', toolPath: echo, dependencies: ['second'] },
  ],
};
const text = JSON.stringify(plan, null, 2);
const lineOf = (needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

/** Collects stops; `next()` resolves with the next one (Deterministic: each wait is for a real stop event). */
function stopsOf(run: PlanDebugRun): { next(): Promise<DebugStop> } {
  const queue: DebugStop[] = [];
  const waiters: ((stop: DebugStop) => void)[] = [];
  run.onDidStop((stop) => {
    const waiter = waiters.shift();
    if (waiter) waiter(stop);
    else queue.push(stop);
  });
  return { next: () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise((resolve) => waiters.push(resolve))) };
}

test('stop on entry, a line breakpoint with the state so far, stepping into events, next to the next tool, then continue to the end', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const breakpoints = new BreakpointSet();
  const [status] = breakpoints.setLineBreakpoints(PlanDocument.parse(text), [{ line: lineOf('"toolId": "second"') + 1 }]);
  assert.equal(status!.verified, true);
  const run = new PlanDebugRun(plan, { root: story, breakpoints, stopOnEntry: true });
  const stops = stopsOf(run);
  const result = run.start();

  const entry = await stops.next();
  assert.deepEqual([entry.reason, entry.toolId, entry.kind], ['entry', 'first', 'tool']);
  assert.deepEqual(
    run.threads().map((thread) => thread.name),
    ['plan', 'first'],
  );
  assert.equal(run.threads()[0]!.id, PLAN_THREAD_ID);
  run.continue();

  const atSecond = await stops.next();
  assert.deepEqual([atSecond.reason, atSecond.toolId, atSecond.kind, atSecond.hitBreakpointIds], ['breakpoint', 'second', 'tool', [status!.id]]);
  assert.deepEqual(atSecond.state, { step: 1 }, 'the state as the tool will receive it');
  assert.deepEqual(atSecond.input, { patch: { step: 2 } });
  assert.ok('first' in atSecond.dependencies);

  run.stepIn(atSecond.threadId);
  const patchEvent = await stops.next();
  assert.deepEqual([patchEvent.reason, patchEvent.kind, patchEvent.event?.type, patchEvent.eventIndex], ['step', 'event', 'state_patch', 0]);
  run.stepIn(patchEvent.threadId);
  const doneEvent = await stops.next();
  assert.deepEqual([doneEvent.kind, doneEvent.event?.type, doneEvent.eventIndex], ['event', 'done', 1]);

  // next: to the next boundary, here "second" finishing (its process ended), then "third" starting.
  run.next(doneEvent.threadId);
  const finished = await stops.next();
  assert.deepEqual([finished.reason, finished.toolId, finished.kind], ['step', 'second', 'finish']);
  run.next(finished.threadId);
  const atThird = await stops.next();
  assert.deepEqual([atThird.reason, atThird.toolId, atThird.kind], ['step', 'third', 'tool']);
  assert.deepEqual(atThird.state, { step: 2 });
  run.continue();
  const final = await result;
  assert.equal(final.success, true);
  assert.deepEqual(final.aggregatedState, { step: 2 });
  assert.deepEqual(
    run.threads().map((thread) => thread.name),
    ['plan'],
    'tool threads exit when their tools finish',
  );
  run.dispose();
});

test('stepOut from a tool start runs to its done event; function breakpoints by skill; logpoints print without stopping', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const breakpoints = new BreakpointSet();
  breakpoints.setFunctionBreakpoints(
    [{ name: 'second' }],
    plan.tools.map((tool) => ({ toolId: tool.toolId, skill: 'helpers' })),
  );
  breakpoints.setLineBreakpoints(PlanDocument.parse(text), [{ line: lineOf('"toolId": "first"'), logMessage: 'first sees {state.step}' }]);
  const run = new PlanDebugRun(plan, { root: story, breakpoints });
  const stops = stopsOf(run);
  const output: string[] = [];
  run.onDidOutput((entry) => output.push(entry.text));
  const result = run.start();
  const atSecond = await stops.next();
  assert.deepEqual([atSecond.reason, atSecond.toolId], ['breakpoint', 'second']);
  assert.ok(output.includes('first sees undefined\n'), output.join(''));
  run.stepOut(atSecond.threadId);
  const done = await stops.next();
  assert.deepEqual([done.reason, done.toolId, done.kind], ['step', 'second', 'finish']);
  run.continue();
  assert.equal((await result).success, true);
  run.dispose();
});

test("pause holds at the next boundary; terminate kills a hanging tool's process tree", { timeout: TEST_TIMEOUT_MS }, async () => {
  const hanging: Plan = {
    requestId: '2e3d4c5b-6a7f-4b8c-9d0e-1f2a3b4c5d6e',
    tools: [
      { toolId: 'quick', toolPath: echo },
      {
        toolId: 'grandchild',
        toolPath: 'skills/faults/scripts/spawn-grandchild.js',
        input: { pidFile: path.join(scratch, 'grandchild.pid') },
        dependencies: ['quick'],
      },
    ],
  };
  const run = new PlanDebugRun(hanging, { root: story, breakpoints: new BreakpointSet() });
  const stops = stopsOf(run);
  run.pause();
  const result = run.start();
  const paused = await stops.next();
  assert.deepEqual([paused.reason, paused.toolId, paused.kind], ['pause', 'quick', 'tool']);
  run.continue();
  // Deterministic: wait until the grandchild has written its pid (the script then hangs), then terminate.
  const pidFile = path.join(scratch, 'grandchild.pid');
  for (let tries = 0; !existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === ''; tries++) {
    assert.ok(tries < 600, 'the grandchild started'); // Margin: 60 s safety net.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const grandchild = Number(readFileSync(pidFile, 'utf8').trim());
  assert.ok(isProcessAlive(grandchild));
  run.terminate();
  const final = await result;
  assert.equal(final.status, 'cancelled');
  await waitForProcessExit(grandchild);
  assert.equal(isProcessAlive(grandchild), false, 'the whole process tree is gone');
  run.dispose();
});

test('exception filters: toolFailure, protocolError (each failed attempt, also before a retry) and timeout stop with the category; without filters nothing stops', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const failing: Plan = {
    requestId: '3f4e5d6c-7b8a-4c9d-8e0f-1a2b3c4d5e6f',
    tools: [
      { toolId: 'garbage', toolPath: 'skills/faults/scripts/garbage-line.js', required: false, retryPolicy: { maxRetries: 1, backoffMs: 1 } },
      { toolId: 'refuses', toolPath: 'skills/faults/scripts/done-not-ok.js', required: false, retryPolicy: { maxRetries: 0 } },
      { toolId: 'hangs', toolPath: 'skills/faults/scripts/hang.js', required: false, retryPolicy: { maxRetries: 0 }, timeoutMs: 1000 },
    ],
  };
  const run = new PlanDebugRun(failing, { root: story, breakpoints: new BreakpointSet(), concurrency: 1 });
  // An invalid plan would end without a stop and leave this test waiting: check the plan runs at all.
  run.onDidEnd((ended) => assert.notEqual(ended.failureReason, 'invalid_plan'));
  run.setExceptionFilters(['toolFailure', 'protocolError', 'timeout', 'notAFilter']);
  const stops = stopsOf(run);
  const result = run.start();
  const seen: string[] = [];
  // Deterministic: each stop is awaited, then released; the run ends after the last tool.
  for (let index = 0; index < 4; index++) {
    const stop = await stops.next();
    assert.equal(stop.reason, 'exception');
    assert.equal(stop.kind, 'finish');
    seen.push(`${stop.toolId} ${stop.description!.split(':')[0]}${stop.description!.includes('will be retried') ? ' (retry)' : ''}`);
    run.continue();
  }
  const final = await result;
  assert.equal(final.toolResults.length, 3);
  assert.deepEqual(seen.sort(), ['garbage invalid_json', 'garbage invalid_json (retry)', 'hangs timeout', 'refuses tool_failure'].sort());
  run.dispose();

  const quiet = new PlanDebugRun(failing, { root: story, breakpoints: new BreakpointSet(), concurrency: 1 });
  let stopped = false;
  quiet.onDidStop(() => (stopped = true));
  await quiet.start();
  assert.equal(stopped, false, 'no filter, no stop');
  quiet.dispose();
});
