// Tests of the input checks: a tool's input against its script's inputSchema from the skill catalog (codes, severities, pointers, ranges).
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { DiagnosticCode, validatePlanText, validatePlanValue, type PlanValidationOptions } from '../../../src/runtime/validation/index.js';
import { inputValidator } from '../../../src/runtime/validation/inputChecks.js';
import { createCatalogStory, ROLL, WEATHER, weatherInputSchema, type CatalogStory } from './catalogFixture.js';
import { only, planText, REQUEST_ID } from './planHelpers.js';
import { positionOf } from './storyFixture.js';

/** The range of `length` characters starting `delta` characters into the `occurrence`-th match of `needle` (one line). */
function rangeIn(text: string, needle: string, delta = 0, length = needle.length - delta, occurrence = 0) {
  const start = positionOf(text, needle, occurrence);
  return { start: { line: start.line, column: start.column + delta }, end: { line: start.line, column: start.column + delta + length } };
}

describe('validatePlanText: tool inputs against input schemas', () => {
  let fixture: CatalogStory;
  let options: PlanValidationOptions;
  before(async () => {
    fixture = await createCatalogStory();
    options = { root: fixture.root, skills: fixture.catalog };
  });
  after(() => fixture.story.remove());

  test('valid inputs (and tools without input when nothing is required) give no diagnostics', async () => {
    const text = planText([
      `{ "toolId": "roll", "toolPath": "${ROLL}", "input": { "formula": "1d20+5", "dc": 12, "seed": "abc" } }`,
      `{ "toolId": "bare", "toolPath": "${ROLL}" }`,
      `{ "toolId": "w", "toolPath": "${WEATHER}", "input": { "sky": "rain", "mode": "instant", "intensity": 3, "options": { "fade": true } } }`,
    ]);
    const result = await validatePlanText(text, options);
    assert.deepEqual(result.diagnostics, []);
    assert.equal(result.valid, true);
  });

  test('INPUT_TYPE_MISMATCH: "formula": 3 for dice-roller roll is an error on the value', async () => {
    const text = planText([`{ "toolId": "roll", "toolPath": "${ROLL}", "input": { "formula": 3 } }`]);
    const result = await validatePlanText(text, options);
    const diagnostic = only(result, DiagnosticCode.INPUT_TYPE_MISMATCH);
    assert.equal(diagnostic.severity, 'error');
    assert.equal(diagnostic.pointer, '/tools/0/input/formula');
    assert.equal(diagnostic.message, '"roll": input.formula must be a string (skills/dice-roller/scripts/roll.js inputSchema), got number');
    assert.deepEqual(diagnostic.range, rangeIn(text, '"formula": 3', '"formula": '.length, 1));
    assert.equal(result.valid, false);
    assert.equal(result.diagnostics.length, 1, 'no second problem at the same place (minLength does not apply to numbers)');
  });

  test('INPUT_TYPE_MISMATCH: a union type lists every allowed type', async () => {
    const text = planText([`{ "toolId": "roll", "toolPath": "${ROLL}", "input": { "seed": true } }`]);
    const diagnostic = only(await validatePlanText(text, options), DiagnosticCode.INPUT_TYPE_MISMATCH);
    assert.equal(diagnostic.pointer, '/tools/0/input/seed');
    assert.match(diagnostic.message, /input\.seed must be an integer or a string \(.*\), got boolean$/);
  });

  test('INPUT_NOT_IN_ENUM: enum and const mismatches list the allowed values', async () => {
    const text = planText([`{ "toolId": "w", "toolPath": "${WEATHER}", "input": { "sky": "snow", "mode": "slow" } }`]);
    const result = await validatePlanText(text, options);
    const found = result.diagnostics.filter((diagnostic) => diagnostic.code === DiagnosticCode.INPUT_NOT_IN_ENUM);
    assert.deepEqual(
      found.map((diagnostic) => [diagnostic.severity, diagnostic.pointer, diagnostic.message]),
      [
        ['error', '/tools/0/input/sky', '"w": input.sky must be one of "clear", "rain", "storm" (skills/weather/scripts/set.js inputSchema), got "snow"'],
        ['error', '/tools/0/input/mode', '"w": input.mode must be "instant" (skills/weather/scripts/set.js inputSchema), got "slow"'],
      ],
    );
    assert.deepEqual(found[0]!.range, rangeIn(text, '"snow"'));
    assert.deepEqual(found[1]!.range, rangeIn(text, '"slow"'));
    assert.equal(result.diagnostics.length, 2);
  });

  test('INPUT_REQUIRED_MISSING: on the input object, or on the toolPath when the tool has no input', async () => {
    const text = planText([`{ "toolId": "w1", "toolPath": "${WEATHER}", "input": { "mode": "instant" } }`, `{ "toolId": "w2", "toolPath": "${WEATHER}" }`]);
    const result = await validatePlanText(text, options);
    const found = result.diagnostics.filter((diagnostic) => diagnostic.code === DiagnosticCode.INPUT_REQUIRED_MISSING);
    assert.deepEqual(
      found.map((diagnostic) => [diagnostic.severity, diagnostic.pointer, diagnostic.message]),
      [
        ['error', '/tools/0/input/sky', '"w1": input is missing the required property "sky" (skills/weather/scripts/set.js inputSchema)'],
        ['error', '/tools/1/input/sky', '"w2": input is missing the required property "sky" (skills/weather/scripts/set.js inputSchema)'],
      ],
    );
    assert.deepEqual(found[0]!.range, rangeIn(text, '{ "mode": "instant" }'));
    assert.deepEqual(found[1]!.range, rangeIn(text, `"${WEATHER}"`, 0, WEATHER.length + 2, 1));
    assert.equal(result.diagnostics.length, 2);
    assert.equal(result.valid, false);
  });

  test('INPUT_SCHEMA_VIOLATION: other keywords (minimum, minLength) with the value found', async () => {
    const text = planText([`{ "toolId": "w", "toolPath": "${WEATHER}", "input": { "sky": "rain", "intensity": 0, "label": "" } }`]);
    const result = await validatePlanText(text, options);
    const found = result.diagnostics.filter((diagnostic) => diagnostic.code === DiagnosticCode.INPUT_SCHEMA_VIOLATION);
    assert.deepEqual(
      found.map((diagnostic) => [diagnostic.severity, diagnostic.pointer, diagnostic.message]),
      [
        ['error', '/tools/0/input/intensity', '"w": input.intensity must be >= 1 (skills/weather/scripts/set.js inputSchema), got 0'],
        ['error', '/tools/0/input/label', '"w": input.label must not be empty (skills/weather/scripts/set.js inputSchema), got ""'],
      ],
    );
    assert.deepEqual(found[0]!.range, rangeIn(text, '"intensity": 0', '"intensity": '.length, 1));
    assert.equal(result.diagnostics.length, 2);
  });

  test('INPUT_UNKNOWN_PROPERTY: a warning on the key with "did you mean", also when additionalProperties allows it', async () => {
    const text = planText([`{ "toolId": "roll", "toolPath": "${ROLL}", "input": { "fromula": "1d20", "banana": 1 } }`]);
    const result = await validatePlanText(text, options);
    const found = result.diagnostics.filter((diagnostic) => diagnostic.code === DiagnosticCode.INPUT_UNKNOWN_PROPERTY);
    assert.deepEqual(
      found.map((diagnostic) => [diagnostic.severity, diagnostic.pointer, diagnostic.message]),
      [
        [
          'warning',
          '/tools/0/input/fromula',
          '"roll": input.fromula is not a property of input (skills/dice-roller/scripts/roll.js inputSchema); did you mean "formula"?',
        ],
        [
          'warning',
          '/tools/0/input/banana',
          '"roll": input.banana is not a property of input (skills/dice-roller/scripts/roll.js inputSchema); known properties: formula, reason, dc, label, bands, seed',
        ],
      ],
    );
    assert.deepEqual(found[0]!.range, rangeIn(text, '"fromula"'));
    assert.deepEqual(found[1]!.range, rangeIn(text, '"banana"'));
    assert.equal(result.valid, true, 'unknown properties are warnings');
  });

  test('INPUT_UNKNOWN_PROPERTY: with additionalProperties false it is still one warning (no schema error), nested objects too', async () => {
    const text = planText([`{ "toolId": "w", "toolPath": "${WEATHER}", "input": { "sky": "rain", "skye": "rain", "options": { "fdae": true } } }`]);
    const result = await validatePlanText(text, options);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.pointer]),
      [
        [DiagnosticCode.INPUT_UNKNOWN_PROPERTY, 'warning', '/tools/0/input/skye'],
        [DiagnosticCode.INPUT_UNKNOWN_PROPERTY, 'warning', '/tools/0/input/options/fdae'],
      ],
    );
    assert.match(result.diagnostics[0]!.message, /; did you mean "sky"\?$/);
    assert.equal(
      result.diagnostics[1]!.message,
      '"w": input.options.fdae is not a property of input.options (skills/weather/scripts/set.js inputSchema); did you mean "fade"?',
    );
    assert.deepEqual(result.diagnostics[1]!.range, rangeIn(text, '"fdae"'));
  });

  test('an input that is not an object is left to the plan schema', async () => {
    const text = planText([`{ "toolId": "w", "toolPath": "${WEATHER}", "input": "rain" }`]);
    const result = await validatePlanText(text, options);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => diagnostic.code),
      [DiagnosticCode.SCHEMA_TYPE],
    );
  });

  test('no catalog, or toolPaths not checked: no input checks', async () => {
    const text = planText([`{ "toolId": "roll", "toolPath": "${ROLL}", "input": { "formula": 3 } }`]);
    assert.deepEqual((await validatePlanText(text, { root: fixture.root })).diagnostics, []);
    assert.deepEqual((await validatePlanText(text, { ...options, checkToolPaths: false })).diagnostics, []);
  });

  test('validatePlanValue reports the same codes and pointers, without ranges', async () => {
    const plan = { requestId: REQUEST_ID, tools: [{ toolId: 'roll', toolPath: ROLL, input: { formula: 3, fromula: 'x' } }] };
    const result = await validatePlanValue(plan, options);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.pointer, diagnostic.range]),
      [
        [DiagnosticCode.INPUT_TYPE_MISMATCH, '/tools/0/input/formula', undefined],
        [DiagnosticCode.INPUT_UNKNOWN_PROPERTY, '/tools/0/input/fromula', undefined],
      ],
    );
  });

  test('each schema object compiles once; a copy with the same $id (a rebuilt catalog) compiles too', () => {
    const schema = structuredClone(weatherInputSchema) as Record<string, unknown>;
    const first = inputValidator(schema);
    assert.ok(first);
    assert.equal(inputValidator(schema), first);
    const copy = inputValidator(structuredClone(weatherInputSchema) as Record<string, unknown>);
    assert.ok(copy);
    assert.notEqual(copy, first);
    assert.equal(first({ sky: 'rain' }), true);
    assert.equal(first({ sky: 'hail' }), false);
    assert.equal(inputValidator({ type: 'no-such-type' }), null, 'a schema that does not compile is not checked against');
  });

  test('1,000 tools of one script: one diagnostic per bad tool, every tool checked', async () => {
    const tools = Array.from({ length: 1000 }, (_, index) => ({ toolId: `r${index}`, toolPath: ROLL, input: { formula: index % 100 === 0 ? index : '1d6' } }));
    const result = await validatePlanText(JSON.stringify({ requestId: REQUEST_ID, tools }), options);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => diagnostic.pointer),
      Array.from({ length: 10 }, (_, index) => `/tools/${index * 100}/input/formula`),
    );
  });
});
