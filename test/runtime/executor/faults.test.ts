// Executor integration tests with real processes: every fault-injection fixture ends in the right state and category.
// Margin: the scripts meant to finish do so in well under a second; the default 30 s tool and 60 s plan timeouts are
// far beyond what a loaded 2-core machine needs. The tests about timeouts, kills and cancels say how each is made safe.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, symlinkSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { executePlan, startPlanRun, type ExecutePlanOptions } from '../../../src/runtime/executor/planExecutor.js';
import type { ExecutionResult, ToolResult } from '../../../src/runtime/contractTypes/executionResult.js';
import type { ToolInvocation } from '../../../src/runtime/contractTypes/plan.js';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';
import { waitForProcessExit } from '../../support/processes.js';

const story = path.resolve(import.meta.dirname, '../../fixtures/story');
let scratch: string;

before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-faults-'));
});
after(() => {
  rmSync(scratch, { recursive: true, force: true });
});

let planCounter = 0;
function planId(): string {
  planCounter++;
  return `00000000-0000-4000-8000-${String(planCounter).padStart(12, '0')}`;
}

async function runOne(
  toolPath: string,
  extra: Partial<ToolInvocation> = {},
  options: Partial<ExecutePlanOptions> = {},
): Promise<{ result: ExecutionResult; tool: ToolResult }> {
  const result = await executePlan(
    { requestId: planId(), tools: [{ toolId: 't', toolPath, retryPolicy: { maxRetries: 0, backoffMs: 0 }, ...extra }] },
    { root: story, ...options },
  );
  assert.deepEqual(validateAgainst('execution-result.schema.json', result), [], 'result must match the contract');
  return { result, tool: result.toolResults[0]! };
}

const faults = 'skills/faults/scripts';
const helpers = 'skills/helpers/scripts';

/** Longer than any test here lasts: a tool timeout that must never race the cancel a test is about. */
const NEVER_MS = 10 * 60_000;

/**
 * Runs `toolPath` (a fixture that writes a pid to input.pidFile, logs, then hangs forever) until its tool timeout
 * kills it, and returns the result and the pid it wrote. Deterministic: a timeout that fires while Node is still
 * starting the script (a loaded 2-core machine can take longer than any short fixed timeout for that) would kill a
 * process that never reached the state under test, so the run is repeated with a doubled timeout, from 800 ms up to
 * ~100 s, until the script had logged — pid written, SIGTERM handler installed — before the timeout fired. Every
 * pid a run wrote must die, whether or not its script got as far as logging.
 */
async function timeOutOnceRunning(toolPath: string, pidFile: string, killGraceMs: number): Promise<{ tool: ToolResult; pid: number }> {
  for (let toolTimeoutMs = 800; ; toolTimeoutMs *= 2) {
    rmSync(pidFile, { force: true });
    const { tool } = await runOne(toolPath, { input: { pidFile } }, { toolTimeoutMs, killGraceMs });
    assert.equal(tool.state, 'timeout');
    assert.equal(tool.error?.code, 'TOOL_TIMEOUT');
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : undefined;
    if (pid !== undefined) assert.ok(await waitForProcessExit(pid), `process ${pid} survived a ${toolTimeoutMs} ms timeout`);
    if (pid !== undefined && tool.events?.some((event) => event.type === 'log')) return { tool, pid };
    assert.ok(toolTimeoutMs < 100_000, `${toolPath} did not start within a ${toolTimeoutMs} ms timeout`);
  }
}

test('crash mid-stream is a process error', async () => {
  const { result, tool } = await runOne(`${faults}/crash-mid-stream.js`);
  assert.equal(tool.state, 'failed');
  assert.equal(tool.error?.category, 'process_error');
  assert.equal(tool.error?.code, 'NONZERO_EXIT');
  assert.equal(tool.exitCode, 3);
  assert.equal(result.success, false);
  assert.equal(result.canReplan, true);
  assert.deepEqual(result.disabledSkills, ['faults']);
  assert.equal(tool.events?.[0]?.type, 'log', 'events before the crash are kept');
});

test('a hanging script times out and is killed', async () => {
  // Deterministic, no wall-clock bound: hang.js never exits by itself, so the run returning at all proves the kill.
  const { tool } = await runOne(`${faults}/hang.js`, {}, { toolTimeoutMs: 800, killGraceMs: 200 });
  assert.equal(tool.state, 'timeout');
  assert.equal(tool.error?.category, 'timeout');
  assert.equal(tool.error?.code, 'TOOL_TIMEOUT');
  assert.equal(tool.exitCode, null, 'ended by a signal, not an exit');
});

test('the manifest timeout applies when nothing overrides it', async () => {
  // Deterministic: hang.js never finishes, so the 2 s manifest timeout always fires; only the message is checked.
  const { tool } = await runOne(`${faults}/hang.js`, {}, { killGraceMs: 200 });
  assert.equal(tool.state, 'timeout');
  assert.match(tool.error!.message, /2000ms/);
});

test('a script ignoring SIGTERM is SIGKILLed after the grace period', async () => {
  // Deterministic: see timeOutOnceRunning; it also waits (30 s safety net) for the pid to be dead, zombies counting as dead.
  const { tool, pid } = await timeOutOnceRunning(`${faults}/ignore-sigterm.js`, path.join(scratch, 'ignore.pid'), 300);
  assert.ok(pid > 0);
  // It had installed its SIGTERM handler before it logged, so only the SIGKILL after the grace period could end it.
  assert.equal(tool.attempts?.[0]?.signal, 'SIGKILL');
});

test('no grandchild survives a timeout', async () => {
  // Deterministic: see timeOutOnceRunning. The grandchild is re-parented when its parent dies and may stay a zombie
  // until PID 1 reaps it; waitForProcessExit counts a zombie as dead.
  const { pid } = await timeOutOnceRunning(`${faults}/spawn-grandchild.js`, path.join(scratch, 'grandchild.pid'), 200);
  assert.ok(pid > 0);
});

test('no grandchild survives a cancel', async () => {
  // Deterministic: the cancel comes with the script's first event (logged after the grandchild was spawned and its
  // pid written), and the tool timeout is too long to race it on any machine.
  const pidFile = path.join(scratch, 'grandchild-cancel.pid');
  const run = startPlanRun(
    { requestId: planId(), tools: [{ toolId: 't', toolPath: `${faults}/spawn-grandchild.js`, input: { pidFile } }] },
    { root: story, killGraceMs: 200, toolTimeoutMs: NEVER_MS },
  );
  run.onDidEmitEvent(() => run.cancel());
  const result = await run.result;
  assert.equal(result.status, 'cancelled');
  assert.equal(result.canReplan, false);
  assert.equal(result.toolResults[0]!.state, 'cancelled');
  const pid = Number(readFileSync(pidFile, 'utf8'));
  assert.ok(pid > 0);
  assert.ok(await waitForProcessExit(pid), `grandchild ${pid} survived the cancel`);
});

test('a garbage line is invalid_json', async () => {
  const { tool } = await runOne(`${faults}/garbage-line.js`);
  assert.equal(tool.state, 'failed');
  assert.equal(tool.error?.category, 'invalid_json');
  assert.equal(tool.error?.code, 'INVALID_JSON');
});

test('a cut-off last line is invalid_json (truncated)', async () => {
  const { tool } = await runOne(`${faults}/partial-last-line.js`);
  assert.equal(tool.error?.category, 'invalid_json');
  assert.equal(tool.error?.code, 'TRUNCATED_OUTPUT');
});

test('a 5 MiB line is rejected without buffering it, and accepted under a higher limit', async () => {
  const { tool } = await runOne(`${faults}/huge-line.js`);
  assert.equal(tool.error?.category, 'protocol_violation');
  assert.equal(tool.error?.code, 'LINE_TOO_LONG');
  const relaxed = await runOne(`${faults}/huge-line.js`, {}, { maxLineBytes: 8 * 1024 * 1024 });
  assert.equal(relaxed.tool.state, 'success');
});

test('non-UTF-8 bytes never crash: replaced, with a warning', async () => {
  const { result, tool } = await runOne(`${faults}/non-utf8.js`);
  assert.equal(tool.state, 'success');
  assert.ok(result.warnings.some((warning) => warning.code === 'INVALID_UTF8'));
});

test('an unknown event type is a protocol violation', async () => {
  const { tool } = await runOne(`${faults}/unknown-type.js`);
  assert.equal(tool.error?.category, 'protocol_violation');
  assert.equal(tool.error?.code, 'UNKNOWN_EVENT_TYPE');
});

test('a wrong protocol version is a protocol violation', async () => {
  const { tool } = await runOne(`${faults}/bad-version.js`);
  assert.equal(tool.error?.code, 'INVALID_EVENT');
});

test('events after done are ignored with a warning', async () => {
  const { result, tool } = await runOne(`${faults}/events-after-done.js`);
  assert.equal(tool.state, 'success');
  assert.ok(result.warnings.some((warning) => warning.code === 'EVENT_AFTER_DONE'));
  assert.equal(result.aggregatedState['afterDone'], undefined);
});

test('missing done with exit 0 is a protocol violation; with exit 1 a process error', async () => {
  const zero = await runOne(`${faults}/no-done-exit0.js`);
  assert.equal(zero.tool.error?.category, 'protocol_violation');
  assert.equal(zero.tool.error?.code, 'MISSING_DONE');
  const one = await runOne(`${faults}/no-done-exit1.js`);
  assert.equal(one.tool.error?.category, 'process_error');
  assert.match(one.tool.error!.message, /without a done event/);
});

test('done ok:false is a tool failure and keeps the error event', async () => {
  const { tool } = await runOne(`${faults}/done-not-ok.js`);
  assert.equal(tool.error?.category, 'tool_failure');
  assert.ok(tool.events?.some((event) => event.type === 'error'));
});

test('a stderr flood is drained and only its tail kept', async () => {
  const { tool } = await runOne(`${faults}/stderr-flood.js`);
  assert.equal(tool.state, 'success');
  assert.ok((tool.stderr ?? '').length <= 64 * 1024);
  assert.ok((tool.stderr ?? '').length > 0);
});

test('a non-executable file without a known extension fails without retries', async () => {
  const { tool } = await runOne(`${faults}/not-executable.data`, { retryPolicy: { maxRetries: 3, backoffMs: 1 } });
  assert.equal(tool.state, 'failed');
  assert.equal(tool.error?.code, 'SCRIPT_NOT_EXECUTABLE');
  assert.equal(tool.retryCount, 0);
});

test('a missing script is rejected before anything runs', async () => {
  const { result } = await runOne(`${faults}/does-not-exist.js`);
  assert.equal(result.failureReason, 'invalid_plan');
  assert.equal(result.toolResults.length, 0);
  assert.ok(result.warnings.some((warning) => warning.code === 'TOOL_PATH_NOT_FOUND'));
});

test('interpreters by extension: .py with python3, .sh with bash', async () => {
  const python = await runOne(`${helpers}/python-echo.py`);
  assert.equal(python.tool.state, 'success');
  assert.deepEqual(python.tool.output?.result, { via: 'python' });
  const shell = await runOne(`${helpers}/shell-echo.sh`);
  assert.deepEqual(shell.tool.output?.result, { via: 'bash' });
});

test('retries follow retryPolicy with exponential backoff', async () => {
  // Deterministic: the backoffs checked are the ones the executor recorded, not measured sleeps.
  const counterFile = path.join(scratch, 'flaky.count');
  const { tool } = await runOne(`${helpers}/flaky.js`, { input: { counterFile, failTimes: 2 }, retryPolicy: { maxRetries: 3, backoffMs: 40 } });
  assert.equal(tool.state, 'success');
  assert.equal(tool.retryCount, 2);
  assert.deepEqual(
    tool.attempts?.map((attempt) => attempt.backoffMs),
    [undefined, 40, 80],
  );
  assert.equal(readFileSync(counterFile, 'utf8').trim(), '3');
});

test('scripts get a minimal environment and the skill context', async () => {
  process.env['NARRATORIA_TEST_SECRET'] = 'do-not-leak';
  try {
    const { tool } = await runOne(`${helpers}/echo.js`, { input: { hello: 'world' } });
    const output = tool.output?.result as { input: unknown; env: Record<string, string>; cwd: string };
    assert.deepEqual(output.input, { hello: 'world' });
    assert.equal(output.env['SECRET'], undefined);
    assert.equal(output.env['NARRATORIA_SKILL_DIR'], path.join(story, 'skills/helpers'));
    assert.equal(output.cwd, story);
    const dump = await runOne(`${helpers}/env-dump.js`);
    const keys = (dump.tool.output?.result as { keys: string[] }).keys;
    assert.ok(!keys.includes('NARRATORIA_TEST_SECRET'));
    assert.ok(
      keys.every((key) =>
        /^(NARRATORIA_|PATH$|HOME$|USER$|LOGNAME$|SHELL$|LANG|LC_|TZ$|TMP|TEMP$|ELECTRON_RUN_AS_NODE$|NODE_EXTRA_CA_CERTS$|SSL_CERT_|HTTPS?_PROXY$|NO_PROXY$|https?_proxy$|no_proxy$)/.test(
          key,
        ),
      ),
      keys.join(','),
    );
  } finally {
    delete process.env['NARRATORIA_TEST_SECRET'];
  }
});

test('assets are registered only when the file exists', async () => {
  const outPath = path.join(scratch, 'portrait.svg');
  const { result } = await runOne(`${helpers}/asset.js`, { input: { outPath, assetId: 'hero' } });
  assert.deepEqual(
    result.aggregatedAssets.map((asset) => [asset.assetId, asset.toolId, asset.path]),
    [['hero', 't', outPath]],
  );
  const missing = await runOne(`${helpers}/asset.js`, { input: { outPath: path.join(scratch, 'nope.svg'), skipWrite: true } });
  assert.equal(missing.result.aggregatedAssets.length, 0);
  assert.ok(missing.result.warnings.some((warning) => warning.code === 'ASSET_MISSING'));
});

test('required failure skips dependents; independent tools still run; non-required failure passes null', async () => {
  const result = await executePlan(
    {
      requestId: planId(),
      parallel: true,
      tools: [
        { toolId: 'bad', toolPath: `${faults}/done-not-ok.js`, retryPolicy: { maxRetries: 0 }, async: true },
        { toolId: 'after-bad', toolPath: `${helpers}/echo.js`, dependencies: ['bad'], async: true },
        { toolId: 'soft', toolPath: `${faults}/done-not-ok.js`, required: false, retryPolicy: { maxRetries: 0 }, async: true },
        { toolId: 'after-soft', toolPath: `${helpers}/echo.js`, dependencies: ['soft'], async: true },
        { toolId: 'free', toolPath: `${helpers}/echo.js`, input: { patch: { free: true } }, async: true },
      ],
    },
    { root: story },
  );
  const byId = Object.fromEntries(result.toolResults.map((tool) => [tool.toolId, tool]));
  assert.equal(byId['bad']!.state, 'failed');
  assert.equal(byId['after-bad']!.state, 'skipped');
  assert.equal(byId['after-bad']!.skipReason, 'dependency_failed');
  assert.equal(byId['soft']!.state, 'failed');
  assert.equal(byId['after-soft']!.state, 'success');
  assert.deepEqual((byId['after-soft']!.output?.result as { dependencies: unknown }).dependencies, { soft: null });
  assert.equal(byId['free']!.state, 'success');
  assert.equal(result.success, false);
  assert.deepEqual([...result.failedTools].sort(), ['bad', 'soft']);
  assert.deepEqual(result.aggregatedState, { free: true });
});

test('dependents receive the outputs of their dependencies and the committed state', async () => {
  const result = await executePlan(
    {
      requestId: planId(),
      tools: [
        { toolId: 'first', toolPath: `${helpers}/echo.js`, input: { patch: { room: { lit: true } } } },
        { toolId: 'second', toolPath: `${helpers}/echo.js`, dependencies: ['first'] },
      ],
    },
    { root: story, initialState: { hp: 10 } },
  );
  const second = result.toolResults[1]!.output?.result as { dependencies: Record<string, { state: unknown }>; state: unknown };
  assert.deepEqual(second.dependencies['first']!.state, { room: { lit: true } });
  assert.deepEqual(second.state, { hp: 10, room: { lit: true } });
  assert.deepEqual(result.aggregatedState, { hp: 10, room: { lit: true } });
});

test('a symlink escaping skills/ is refused unless explicitly allowed', async () => {
  const root = mkdtempSync(path.join(scratch, 'escape-'));
  mkdirSync(path.join(root, 'skills', 'evil'), { recursive: true });
  const outside = path.join(root, 'outside.js');
  writeFileSync(outside, `process.stdin.resume();process.stdin.on('end',()=>console.log(JSON.stringify({version:'0',type:'done',ok:true})));`);
  symlinkSync(outside, path.join(root, 'skills', 'evil', 'link.js'));
  const plan = { requestId: planId(), tools: [{ toolId: 't', toolPath: 'skills/evil/link.js' }] };
  const refused = await executePlan(plan, { root });
  assert.equal(refused.failureReason, 'invalid_plan');
  assert.ok(refused.warnings.some((warning) => warning.code === 'TOOL_PATH_OUTSIDE_SKILLS'));
  const allowed = await executePlan({ ...plan, requestId: planId() }, { root, allowOutsideSkills: true });
  assert.equal(allowed.success, true);
  assert.ok(existsSync(outside));
});
