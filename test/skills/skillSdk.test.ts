// Tests the skill SDK (packages/skill-sdk) once, in a real process from a skill folder of its own: every event type valid against contracts/tool-event.schema.json, seeded random numbers, fail codes, bad stdin, config and context.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { inspectScript } from '../../src/runtime/inspect/inspectScript.js';
import type { ToolEvent } from '../../src/runtime/contractTypes/toolEvent.js';
import type { EventBody, ToolEvent as SdkToolEvent } from '../../packages/skill-sdk/index.js';
import { assertProtocol, eventsOfType, repoRoot, runScript, type RunOptions, type ScriptRun } from './skillTestKit.js';

// The SDK's declared events and the runtime's contract types (both mirror tool-event.schema.json) are the same union: tsc checks both ways.
export const sdkEventsAreContractEvents = (event: SdkToolEvent): ToolEvent => event;
export const contractEventsAreSdkEvents = (event: ToolEvent): SdkToolEvent => event;
export const choicesAreAnEventBody: EventBody = { type: 'ui_event', event: 'narrative_choice', payload: { choices: ['Run'] } };

/** A story with one skill, skills/sdk-check/, holding its own copy of the SDK and the exercise script. */
async function withSkill(run: (paths: { root: string; skill: string; script: string; data: string }) => Promise<void>): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'narratoria-skill-sdk-'));
  try {
    const skill = path.join(root, 'skills', 'sdk-check');
    await mkdir(path.join(skill, 'lib'), { recursive: true });
    await mkdir(path.join(skill, 'scripts'), { recursive: true });
    await copyFile(path.join(repoRoot, 'packages', 'skill-sdk', 'index.js'), path.join(skill, 'lib', 'narratoria-skill-sdk.js'));
    await copyFile(path.join(repoRoot, 'test', 'fixtures', 'skill-sdk', 'exercise.js'), path.join(skill, 'scripts', 'exercise.js'));
    await writeFile(path.join(skill, 'package.json'), '{ "type": "commonjs" }\n');
    await run({ root, skill, script: path.join(skill, 'scripts', 'exercise.js'), data: path.join(root, 'data') });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Runs the exercise script in `mode` with a clean NARRATORIA_* environment plus `env`. */
function exercise(script: string, stdin: unknown, env: Record<string, string | undefined> = {}, options: RunOptions = {}): Promise<ScriptRun> {
  const cleared = Object.fromEntries(
    [
      'NARRATORIA_SEED',
      'NARRATORIA_SKILL_DATA',
      'NARRATORIA_SKILL_SHARED',
      'NARRATORIA_SESSION_ID',
      'NARRATORIA_ROOT',
      'NARRATORIA_TOOL_ID',
      'NARRATORIA_REQUEST_ID',
      'NARRATORIA_MODEL_ENDPOINT',
    ].map((name) => [name, undefined]),
  );
  return runScript(script, stdin, { ...options, env: { ...cleared, ...env } });
}

test('every event type the SDK writes is valid against contracts/tool-event.schema.json, and the runtime accepts the run', async () => {
  await withSkill(async ({ root, script, data }) => {
    const run = await exercise(script, { requestId: 'req-1', input: { mode: 'everyEvent' } }, { NARRATORIA_SKILL_DATA: data });
    const { events, done } = assertProtocol(run);
    assert.deepEqual(
      events.map((event) => event.type),
      ['log', 'log', 'state_patch', 'asset', 'ui_event', 'ui_event', 'error', 'done'],
    );
    assert.ok(events.every((event) => event.version === '0' && event.requestId === 'req-1'));
    // The envelope's order: version first, requestId last (as the hand-written helpers wrote it).
    assert.equal(run.lines[0], '{"version":"0","type":"log","level":"info","message":"Starting","fields":{"step":1},"requestId":"req-1"}');
    assert.deepEqual(eventsOfType(events, 'asset')[0]?.path, path.join(data, 'note.txt'));
    assert.deepEqual(eventsOfType(events, 'ui_event')[1]?.payload, { choices: ['Open the door', 'Walk away'], hints: ['loud', 'safe'] });
    assert.deepEqual(done, { version: '0', type: 'done', ok: true, summary: 'Every event sent', output: { events: 6 }, requestId: 'req-1' });

    const report = await inspectScript({ scriptPath: script, input: { mode: 'everyEvent' }, root });
    assert.equal(report.verdict.ok, true, JSON.stringify(report.verdict));
  });
});

test('random numbers repeat under the same NARRATORIA_SEED, differ under another, and come from Math.random without one', async () => {
  await withSkill(async ({ script }) => {
    const draw = async (seed: string | undefined) => {
      const { done } = assertProtocol(await exercise(script, { input: { mode: 'random' } }, { NARRATORIA_SEED: seed }));
      return done.output as { draws: [number, number, number, string]; fixed: number[]; seed: number | null };
    };
    const [first, again, other, unseeded] = [await draw('12345'), await draw('12345'), await draw('777'), await draw(undefined)];
    assert.deepEqual(again, first);
    assert.equal(first.seed, 12345);
    assert.notDeepEqual(other.draws, first.draws);
    assert.equal(unseeded.seed, null);
    for (const result of [first, other, unseeded]) {
      assert.ok(result.draws[0] >= 0 && result.draws[0] < 1);
      assert.ok(Number.isInteger(result.draws[2]) && result.draws[2] >= 1 && result.draws[2] <= 6);
      assert.ok(['a', 'b', 'c'].includes(result.draws[3]));
    }
    // seededRandom(seed) is the same generator everywhere (the dice-roller's rolls depend on it).
    assert.deepEqual(other.fixed, first.fixed);
    assert.deepEqual(unseeded.fixed, first.fixed);
  });
});

test('failures: a ToolError keeps its code and details, InputError is INVALID_INPUT, a bug is INTERNAL_ERROR; exit code 0, one done', async () => {
  await withSkill(async ({ script }) => {
    const failure = async (input: Record<string, unknown>) => {
      const run = await exercise(script, { input });
      const { events, done } = assertProtocol(run);
      assert.equal(done.ok, false);
      const errors = eventsOfType(events, 'error');
      assert.equal(errors.length, 1);
      return { error: errors[0]!, done, run };
    };
    for (const code of ['NETWORK_ERROR', 'STORE_BUSY', 'MY_OWN_CODE']) {
      const { error, done } = await failure({ mode: 'toolError', code });
      assert.deepEqual([error.errorCode, error.errorMessage, error.details], [code, `failed with ${code}`, { why: 'asked to' }]);
      assert.equal(done.summary, `failed with ${code}`);
    }
    assert.equal((await failure({ mode: 'inputError' })).error.errorCode, 'INVALID_INPUT');
    const bug = await failure({ mode: 'bug' });
    assert.equal(bug.error.errorCode, 'INTERNAL_ERROR');
    assert.match(bug.error.errorMessage, /^sdk-check failed unexpectedly: /);
    assert.match(bug.run.stderr, /sdk-check: unexpected error: TypeError/);
    const direct = await failure({ mode: 'failDirectly' });
    assert.equal(direct.error.errorCode, 'STORE_BUSY');
    assert.equal(direct.done.summary, 'Try again later');
    assert.equal(direct.run.lines.length, 2, 'the log after done and a second done are dropped');
  });
});

test('bad stdin: not JSON, empty, not an object, or an input that is not an object, each fails clearly', async () => {
  await withSkill(async ({ script }) => {
    const cases: [string, string, RegExp][] = [
      ['{"input": {', 'INVALID_STDIN', /^stdin is not valid JSON: /],
      ['', 'INVALID_STDIN', /^stdin was empty; expected one JSON object like \{"input":\{"mode":"everyEvent"\}\}$/],
      ['[1, 2]', 'INVALID_STDIN', /^stdin must be a JSON object like /],
      ['{"input": "everyEvent"}', 'INVALID_INPUT', /^input must be an object; stdin looks like /],
    ];
    for (const [stdin, code, message] of cases) {
      const { events, done } = assertProtocol(await exercise(script, stdin));
      assert.deepEqual(
        events.map((event) => event.type),
        ['error', 'done'],
        stdin,
      );
      const [error] = eventsOfType(events, 'error');
      assert.equal(error?.errorCode, code, stdin);
      assert.match(error?.errorMessage ?? '', message, stdin);
      assert.equal(done.ok, false);
    }
  });
});

test('config and context: NARRATORIA_SKILL_CONFIG over config-schema.json defaults, a checked value falls back with a warning, the NARRATORIA_* context', async () => {
  await withSkill(async ({ root, skill, script, data }) => {
    await writeFile(
      path.join(skill, 'config-schema.json'),
      JSON.stringify({ type: 'object', properties: { tone: { type: 'string', default: 'dramatic' }, size: { type: 'integer', default: 3 } } }),
    );
    const env = {
      NARRATORIA_SKILL_CONFIG: JSON.stringify({ size: 5, tone: 'shouting' }),
      NARRATORIA_SKILL_DATA: data,
      NARRATORIA_SKILL_SHARED: path.join(root, 'shared', 'sdk-check'),
      NARRATORIA_SESSION_ID: 'session-7',
      NARRATORIA_ROOT: root,
      NARRATORIA_TOOL_ID: 'check1',
      NARRATORIA_REQUEST_ID: 'plan-1',
      NARRATORIA_SEED: '42',
    };
    const { events, done } = assertProtocol(await exercise(script, { input: { mode: 'context' } }, env));
    const output = done.output as { config: unknown; checked: unknown; context: Record<string, unknown>; dataExists: boolean };
    assert.deepEqual(output.config, { builtIn: 'yes', tone: 'shouting', size: 5 });
    assert.deepEqual(output.checked, { tone: 'plain' });
    assert.match(eventsOfType(events, 'log')[0]?.message ?? '', /Invalid config value tone="shouting"; using "plain"/);
    assert.deepEqual(output.context, {
      root,
      skillName: 'sdk-check',
      skillDirectory: skill,
      dataDirectory: data,
      sharedDirectory: path.join(root, 'shared', 'sdk-check'),
      sessionId: 'session-7',
      toolId: 'check1',
      requestId: 'plan-1',
      protocolVersion: '0',
      seed: 42,
    });
    assert.equal(output.dataExists, false, 'dataDirectory(false) does not create the folder');

    // Without the variables: config.json in the skill folder, the data folder beside it.
    await writeFile(path.join(skill, 'config.json'), JSON.stringify({ tone: 'plain' }));
    const plain = assertProtocol(await exercise(script, { input: { mode: 'context' } })).done.output as typeof output;
    assert.deepEqual(plain.checked, { tone: 'plain' });
    assert.equal(plain.context['dataDirectory'], path.join(skill, 'data'));
    assert.equal(plain.context['sharedDirectory'], path.join(skill, 'shared'));
    assert.equal(plain.context['sessionId'], undefined);
  });
});
