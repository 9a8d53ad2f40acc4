// Parity of the Ajv standalone validators the bundles ship (standaloneValidators.ts) with the validators compiled at run time from sources: same keys, same verdicts, same errors.
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- invalid variants of real values are made by mutating untyped copies */
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ValidateFunction } from 'ajv';
import type { PrecompiledValidators } from '../../../src/runtime/contracts/precompiledValidators.js';
import { contractValidator, type ContractName } from '../../../src/runtime/contracts/schemas.js';
import { precompiledValidatorKeys, standaloneValidatorSource } from '../../../src/runtime/contracts/standaloneValidators.js';
import { executePlan } from '../../../src/runtime/executor/planExecutor.js';

const projectRoot = path.resolve(import.meta.dirname, '../../..');
const story = path.join(projectRoot, 'test', 'fixtures', 'story');

/** What `module._compile` needs, which @types/node does not declare. */
type CompilableModule = Module & { paths: string[]; _compile(source: string, filename: string): void };
const ModuleClass = Module as unknown as { new (id: string): CompilableModule; _nodeModulePaths(from: string): string[] };

let scratch: string;
let generatedSource: string;
let precompiled: PrecompiledValidators;
/** JSON copies of real executor results (real processes of the fixture story), shared by the tool-event and execution-result tests. */
let executionResults: Record<string, unknown>[];

/**
 * Loads `file` as a real CommonJS module whose requires resolve from the repository's node_modules, as they do for
 * the generated code inlined into dist/*.cjs (the temp file itself lives outside the repository).
 */
function loadCommonJs(file: string): Record<string, unknown> {
  const loaded = new ModuleClass(file);
  loaded.filename = file;
  loaded.paths = ModuleClass._nodeModulePaths(projectRoot);
  loaded._compile(readFileSync(file, 'utf8'), file);
  return loaded.exports as Record<string, unknown>;
}

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-precompiled-'));
  generatedSource = standaloneValidatorSource();
  const file = path.join(scratch, 'precompiledValidators.cjs');
  writeFileSync(file, generatedSource);
  precompiled = loadCommonJs(file)['precompiledValidators'] as PrecompiledValidators;

  // Real tool events and execution results: one tool per event type, run by the executor on the fixture story.
  const plan = {
    requestId: '7c9e6679-7425-40de-944b-e07fc1f950a1',
    tools: [
      { toolId: 'asset', toolPath: 'skills/helpers/scripts/asset.js', input: { outPath: path.join(scratch, 'portrait.svg') } },
      { toolId: 'patches', toolPath: 'skills/helpers/scripts/patches.js', input: { patches: [{ flags: { doorOpen: true } }, { count: 2 }] } },
      { toolId: 'choices', toolPath: 'skills/helpers/scripts/choices.js', input: { choices: ['Enter', 'Wait'] }, dependencies: ['patches'] },
      { toolId: 'log', toolPath: 'skills/faults/scripts/no-done-exit0.js', required: false, retryPolicy: { maxRetries: 0 } },
      { toolId: 'error', toolPath: 'skills/faults/scripts/done-not-ok.js', required: false, retryPolicy: { maxRetries: 0 } },
    ],
  };
  const results = [
    await executePlan(plan, { root: story }),
    ...(await Promise.all(
      ['set-flag.plan.json', 'failing.plan.json'].map(async (file) =>
        executePlan(JSON.parse(readFileSync(path.join(story, 'plans', file), 'utf8')), { root: story }),
      ),
    )),
  ];
  executionResults = results.map((result) => JSON.parse(JSON.stringify(result)) as Record<string, unknown>);
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The parts of Ajv's errors a caller sees; `null` when the validator left none (a valid value). */
function outcome(validate: ValidateFunction, value: unknown): { valid: boolean; errors: unknown } {
  const valid = validate(value) as boolean;
  const errors =
    validate.errors === null || validate.errors === undefined
      ? null
      : validate.errors.map(({ instancePath, schemaPath, keyword, params, message }) => ({ instancePath, schemaPath, keyword, params, message }));
  return { valid, errors };
}

/** The precompiled validator and the run-time one agree on `value` (verdict and errors), and the verdict is `expectValid`. */
function assertParity(name: ContractName, fragment: string, label: string, value: unknown, expectValid: boolean): void {
  const key = name + fragment;
  const standalone = precompiled.get(key);
  assert.ok(standalone, `no precompiled validator for ${key}`);
  const runtime = outcome(contractValidator(name, fragment), structuredClone(value));
  const generated = outcome(standalone, structuredClone(value));
  assert.equal(
    runtime.valid,
    expectValid,
    `${key} ${label}: expected ${expectValid ? 'valid' : 'invalid'}, run-time Ajv says ${JSON.stringify(runtime.errors)}`,
  );
  if (!expectValid) assert.ok(Array.isArray(runtime.errors) && runtime.errors.length > 0, `${key} ${label}: invalid without errors`);
  assert.deepEqual(generated, runtime, `${key} ${label}: precompiled and run-time validators differ`);
}

/** A deep copy of `base` changed by `change` (for invalid variants of a real value). */
function variant<T>(base: T, change: (draft: any) => void): T {
  const draft = structuredClone(base);
  change(draft);
  return draft;
}

/** Every file called `fileName` under `directories` (relative to the repository), skipping node_modules. */
function fixtureFiles(fileName: RegExp, ...directories: string[]): string[] {
  const found: string[] = [];
  for (const directory of directories) {
    for (const entry of readdirSync(path.join(projectRoot, directory), { recursive: true }) as string[]) {
      if (!entry.split(path.sep).includes('node_modules') && fileName.test(path.basename(entry))) found.push(path.join(directory, entry));
    }
  }
  return found.sort();
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(path.join(projectRoot, file), 'utf8'));
}

test('the generated module exports a lazy map of exactly the precompiled keys, needing only Ajv runtime helpers and ajv-formats', () => {
  const expected = precompiledValidatorKeys().map(({ name, fragment }) => name + fragment);
  assert.deepEqual([...precompiled.keys()], expected);
  assert.equal(new Set(expected).size, expected.length, 'keys are unique');
  // Each validator is made on first use, once: a command builds only those it asks for.
  for (const key of expected) {
    const made = precompiled.get(key);
    assert.equal(typeof made, 'function', key);
    assert.equal(precompiled.get(key), made, `${key} is made once`);
  }
  assert.equal(precompiled.get('no-such.schema.json'), undefined);
  assert.equal(precompiled.has('no-such.schema.json'), false);
  // Every contract, and each tool-event $defs entry (what eventDecoder.ts asks for).
  for (const type of ['log', 'state_patch', 'asset', 'ui_event', 'error', 'done']) assert.ok(precompiled.has(`tool-event.schema.json#/$defs/${type}`), type);
  const requires = [...new Set([...generatedSource.matchAll(/require\((["'])([^"']+)\1\)/g)].map((match) => match[2]!))];
  assert.ok(requires.length > 0);
  for (const request of requires) assert.match(request, /^(ajv\/dist\/runtime\/[\w-]+|ajv-formats\/dist\/formats)$/, `unexpected require("${request}")`);
});

test('plan-json: repository plans and invalid variants (required, type, enum-like pattern, format, additional properties, ranges, oneOf)', () => {
  const files = [...fixtureFiles(/\.plan\.json$/, 'contracts/examples', 'test/fixtures/plans', 'test/fixtures/story/plans')];
  assert.ok(files.length >= 6, `found plan fixtures: ${files.join(', ')}`);
  for (const file of files) assertParity('plan-json.schema.json', '', file, readJson(file), true);

  const base = readJson('contracts/examples/pick-the-lock.plan.json') as Record<string, unknown>;
  const invalid: [string, unknown][] = [
    ['missing requestId', variant(base, (plan) => delete plan.requestId)],
    ['missing tools', variant(base, (plan) => delete plan.tools)],
    ['missing toolId and toolPath', variant(base, (plan) => (plan.tools[0] = { description: 'nothing' }))],
    ['tools not an array', variant(base, (plan) => (plan.tools = 'roll'))],
    ['requestId not a uuid', variant(base, (plan) => (plan.requestId = 'not-a-uuid'))],
    ['requestId a number', variant(base, (plan) => (plan.requestId = 42))],
    ['misspelt top-level property', variant(base, (plan) => (plan.dependancies = []))],
    ['misspelt tool property', variant(base, (plan) => (plan.tools[1].dependancies = plan.tools[1].dependencies))],
    ['toolId with spaces', variant(base, (plan) => (plan.tools[0].toolId = 'bad id!'))],
    ['empty toolPath', variant(base, (plan) => (plan.tools[0].toolPath = ''))],
    ['parallel a string', variant(base, (plan) => (plan.parallel = 'yes'))],
    ['plan timeoutMs too small', variant(base, (plan) => (plan.timeoutMs = 10))],
    ['tool timeoutMs not an integer', variant(base, (plan) => (plan.tools[0].timeoutMs = 1500.5))],
    ['maxRetries above the maximum', variant(base, (plan) => (plan.tools[0].retryPolicy.maxRetries = 11))],
    ['unknown retry property', variant(base, (plan) => (plan.tools[0].retryPolicy.jitter = true))],
    ['rollback without toolPath', variant(base, (plan) => (plan.tools[0].rollback = { input: {} }))],
    ['condition too long', variant(base, (plan) => (plan.tools[0].condition = 'x'.repeat(501)))],
    ['input not an object', variant(base, (plan) => (plan.tools[0].input = [1, 2]))],
    ['metadata.createdAt not a date-time', variant(base, (plan) => (plan.metadata.createdAt = 'yesterday at noon'))],
    ['metadata.createdAt without a time zone', variant(base, (plan) => (plan.metadata.createdAt = '2024-05-01T10:00:00'))],
    ['metadata.parentPlanId not a uuid', variant(base, (plan) => (plan.metadata.parentPlanId = 'parent'))],
    ['metadata.parentPlanId a number (oneOf)', variant(base, (plan) => (plan.metadata.parentPlanId = 7))],
    ['metadata.generationAttempt zero', variant(base, (plan) => (plan.metadata.generationAttempt = 0))],
    [
      'many problems at once',
      variant(base, (plan) => {
        plan.requestId = 'nope';
        plan.extra = true;
        plan.tools[0].toolId = '';
        plan.tools[1].async = 'no';
        delete plan.tools[1].toolPath;
      }),
    ],
    ['an array', []],
    ['null', null],
  ];
  for (const [label, value] of invalid) assertParity('plan-json.schema.json', '', label, value, false);
  // Valid edge cases the variants border on.
  assertParity(
    'plan-json.schema.json',
    '',
    'metadata with a uuid parent and a date-time',
    variant(base, (plan) => Object.assign(plan.metadata, { parentPlanId: base['requestId'], createdAt: '2024-05-01T10:00:00Z', extra: 1 })),
    true,
  );
  assertParity('plan-json.schema.json', '', 'no tools', { requestId: base['requestId'], tools: [] }, true);
});

test('tool events: each $defs type with real script output and invalid variants, and the whole event schema', () => {
  const events = executionResults.flatMap((result) => (result['toolResults'] as { events?: Record<string, unknown>[] }[]).flatMap((tool) => tool.events ?? []));
  const byType = new Map<string, Record<string, unknown>[]>();
  for (const event of events) byType.set(String(event['type']), [...(byType.get(String(event['type'])) ?? []), event]);
  const types = ['log', 'state_patch', 'asset', 'ui_event', 'error', 'done'];
  assert.deepEqual([...byType.keys()].sort(), [...types].sort(), 'the fixture run emits every event type');

  for (const type of types) {
    for (const [index, event] of byType.get(type)!.entries()) {
      assertParity('tool-event.schema.json', `#/$defs/${type}`, `real ${type} #${index}`, event, true);
      assertParity('tool-event.schema.json', '', `real ${type} #${index}`, event, true);
    }
  }
  const first = (type: string): Record<string, unknown> => byType.get(type)![0]!;
  const invalid: Record<string, [string, unknown][]> = {
    log: [
      ['missing message', variant(first('log'), (event) => delete event.message)],
      ['level not in the enum', variant(first('log'), (event) => (event.level = 'loud'))],
      ['message a number', variant(first('log'), (event) => (event.message = 5))],
      ['fields not an object', variant(first('log'), (event) => (event.fields = 'x'))],
      ['type of another event', variant(first('log'), (event) => (event.type = 'done'))],
    ],
    state_patch: [
      ['patch an array', variant(first('state_patch'), (event) => (event.patch = [1]))],
      ['patch null', variant(first('state_patch'), (event) => (event.patch = null))],
      ['missing patch', variant(first('state_patch'), (event) => delete event.patch)],
    ],
    asset: [
      ['mediaType without a subtype', variant(first('asset'), (event) => (event.mediaType = 'svg'))],
      ['empty assetId', variant(first('asset'), (event) => (event.assetId = ''))],
      ['missing path and kind', variant(first('asset'), (event) => (delete event.path, delete event.kind))],
      ['metadata an array', variant(first('asset'), (event) => (event.metadata = []))],
    ],
    ui_event: [
      ['narrative_choice without payload', variant(first('ui_event'), (event) => delete event.payload)],
      ['narrative_choice payload without choices', variant(first('ui_event'), (event) => (event.payload = { options: ['a'] }))],
      ['choices not strings', variant(first('ui_event'), (event) => (event.payload.choices = [1, 'two']))],
      ['empty event name', variant(first('ui_event'), (event) => (event.event = ''))],
      ['other event with a payload array', variant(first('ui_event'), (event) => ((event.event = 'dice_roll'), (event.payload = [])))],
    ],
    error: [
      ['missing errorCode', variant(first('error'), (event) => delete event.errorCode)],
      ['errorMessage a number', variant(first('error'), (event) => (event.errorMessage = 1))],
      ['details a string', variant(first('error'), (event) => (event.details = 'x'))],
    ],
    done: [
      ['ok a string', variant(first('done'), (event) => (event.ok = 'true'))],
      ['missing ok', variant(first('done'), (event) => delete event.ok)],
      ['output an array', variant(first('done'), (event) => (event.output = []))],
      ['needsMoreContext a string', variant(first('done'), (event) => (event.needsMoreContext = 'yes'))],
    ],
  };
  for (const type of types) {
    for (const [label, value] of invalid[type]!) {
      assertParity('tool-event.schema.json', `#/$defs/${type}`, label, value, false);
      assertParity('tool-event.schema.json', '', label, value, false);
    }
  }
  // Properties of the whole event only (version, timestamp format, type enum), and a ui_event that is not a choice.
  const done = first('done');
  assertParity(
    'tool-event.schema.json',
    '',
    'version "1"',
    variant(done, (event) => (event.version = '1')),
    false,
  );
  assertParity(
    'tool-event.schema.json',
    '',
    'timestamp not a date-time',
    variant(done, (event) => (event.timestamp = 'tuesday')),
    false,
  );
  assertParity(
    'tool-event.schema.json',
    '',
    'unknown type',
    variant(done, (event) => (event.type = 'stat_patch')),
    false,
  );
  assertParity(
    'tool-event.schema.json',
    '',
    'missing version',
    variant(done, (event) => delete event.version),
    false,
  );
  assertParity(
    'tool-event.schema.json',
    '',
    'timestamp and extra fields',
    variant(done, (event) => Object.assign(event, { timestamp: '2024-05-01T10:00:00.123+02:00', extra: 1 })),
    true,
  );
  assertParity('tool-event.schema.json', '#/$defs/ui_event', 'plain ui_event', { type: 'ui_event', event: 'shake_screen' }, true);
});

test('skill-manifest: every skill.json in the repository and invalid variants (pattern, format uri, ranges, cross-contract $ref)', () => {
  const files = fixtureFiles(/^skill\.json$/, 'skills', 'test/fixtures');
  assert.ok(files.length >= 10, `found manifests: ${files.join(', ')}`);
  for (const file of files) assertParity('skill-manifest.schema.json', '', file, readJson(file), true);

  const base = readJson('skills/dice-roller/skill.json') as Record<string, unknown>;
  const invalid: [string, unknown][] = [
    ['missing description', variant(base, (manifest) => delete manifest.description)],
    ['name with capitals and spaces', variant(base, (manifest) => (manifest.name = 'Dice Roller'))],
    ['name too long', variant(base, (manifest) => (manifest.name = 'd'.repeat(65)))],
    ['version not semver', variant(base, (manifest) => (manifest.version = '1.0'))],
    ['homepage not a uri', variant(base, (manifest) => (manifest.homepage = 'not a uri'))],
    ['priority above 100', variant(base, (manifest) => (manifest.priority = 101))],
    ['script timeout too small', variant(base, (manifest) => (manifest.scripts[0].timeout = 10))],
    ['script without path', variant(base, (manifest) => delete manifest.scripts[0].path)],
    ['empty keyword', variant(base, (manifest) => (manifest.keywords = ['dice', '']))],
    ['dependency name pattern', variant(base, (manifest) => (manifest.dependencies = ['Other Skill']))],
    ['retryPolicy (plan-json $ref) out of range', variant(base, (manifest) => (manifest.retryPolicy = { maxRetries: -1, backoffMs: 100 }))],
    ['retryPolicy (plan-json $ref) with an unknown property', variant(base, (manifest) => (manifest.retryPolicy = { retries: 2 }))],
    ['capabilities not strings', variant(base, (manifest) => (manifest.capabilities = [1]))],
  ];
  for (const [label, value] of invalid) assertParity('skill-manifest.schema.json', '', label, value, false);
  assertParity(
    'skill-manifest.schema.json',
    '',
    'homepage uri and retryPolicy',
    variant(base, (manifest) => Object.assign(manifest, { homepage: 'https://example.org/dice', retryPolicy: { maxRetries: 1 } })),
    true,
  );
});

test('execution-result: real executor results and invalid variants (uuid, date-time, enums, nested $defs, union types)', () => {
  assert.equal(executionResults.length, 3);
  for (const [index, result] of executionResults.entries()) assertParity('execution-result.schema.json', '', `real result #${index}`, result, true);

  const base = executionResults[0]!;
  const tool = (draft: any): any => draft.toolResults[0];
  const invalid: [string, unknown][] = [
    ['planId not a uuid', variant(base, (result) => (result.planId = 'plan-1'))],
    ['missing success', variant(base, (result) => delete result.success)],
    ['status not in the enum', variant(base, (result) => (result.status = 'exploded'))],
    ['failureReason not a category', variant(base, (result) => (result.failureReason = 'meh'))],
    ['startedAt not a date-time', variant(base, (result) => (result.startedAt = 'noon'))],
    ['tool state not in the enum', variant(base, (result) => (tool(result).state = 'exploded'))],
    ['tool finishedAt not a date-time', variant(base, (result) => (tool(result).finishedAt = '2024-13-40T99:00:00Z'))],
    ['tool exitCode not an integer', variant(base, (result) => (tool(result).exitCode = 1.5))],
    ['tool skill neither string nor null', variant(base, (result) => (tool(result).skill = 5))],
    ['tool error without category', variant(base, (result) => (tool(result).error = { code: 'X', message: 'y' }))],
    ['attempt number zero', variant(base, (result) => (tool(result).attempts[0].attempt = 0))],
    ['event without type', variant(base, (result) => (tool(result).events[0] = { version: '0' }))],
    ['asset reference without path', variant(base, (result) => (result.aggregatedAssets = [{ assetId: 'a', kind: 'image', mediaType: 'image/png' }]))],
    ['skipReason not in the enum', variant(base, (result) => (tool(result).skipReason = 'bored'))],
    ['negative executionTimeMs', variant(base, (result) => (result.executionTimeMs = -1))],
    ['toolResults an object', variant(base, (result) => (result.toolResults = {}))],
  ];
  for (const [label, value] of invalid) assertParity('execution-result.schema.json', '', label, value, false);
});

test('config-schema-meta: every config-schema.json in the repository and a few invalid ones', () => {
  const files = fixtureFiles(/^config-schema\.json$/, 'skills', 'test/fixtures');
  assert.ok(files.length >= 10, `found config schemas: ${files.join(', ')}`);
  for (const file of files) assertParity('config-schema-meta.schema.json', '', file, readJson(file), true);
  const base = readJson(files[0]!) as Record<string, unknown>;
  assertParity(
    'config-schema-meta.schema.json',
    '',
    'type array',
    variant(base, (schema) => (schema.type = 'array')),
    false,
  );
  assertParity(
    'config-schema-meta.schema.json',
    '',
    'missing properties',
    variant(base, (schema) => delete schema.properties),
    false,
  );
  assertParity(
    'config-schema-meta.schema.json',
    '',
    'wrong $schema',
    variant(base, (schema) => (schema.$schema = 'http://json-schema.org/draft-04/schema#')),
    false,
  );
});

test('every precompiled key: values of the wrong shape give the same verdict and errors', () => {
  const shapes: [string, unknown][] = [
    ['empty object', {}],
    ['empty array', []],
    ['array of junk', [{}, 1, 'x', null]],
    ['null', null],
    ['number', 42],
    ['string', 'plan'],
    ['object of junk', { type: 'log', version: 0, requestId: 1, tools: {}, name: 'X', formatVersion: 'one', createdAt: 'then' }],
  ];
  for (const { name, fragment } of precompiledValidatorKeys()) {
    for (const [label, value] of shapes) {
      const key = name + fragment;
      const standalone = precompiled.get(key)!;
      const runtime = outcome(contractValidator(name, fragment), structuredClone(value));
      assert.deepEqual(outcome(standalone, structuredClone(value)), runtime, `${key} ${label}: precompiled and run-time validators differ`);
    }
  }
});
