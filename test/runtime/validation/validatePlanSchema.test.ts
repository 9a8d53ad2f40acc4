// Tests of plan validation, syntax and schema part: JSON_SYNTAX, JSON_COMMENT, SCHEMA_*, RETRY_POLICY_OUT_OF_RANGE, positions.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { contractValidator } from '../../../src/runtime/contracts/schemas.js';
import { DiagnosticCode, toReportDiagnostic, validatePlanText, type PlanValidationOptions } from '../../../src/runtime/validation/index.js';
import { assertAt, LIGHT, only, planText, REQUEST_ID } from './planHelpers.js';
import { createStoryFixture, positionOf, type StoryFixture } from './storyFixture.js';

describe('validatePlanText: syntax and schema', () => {
  let story: StoryFixture;
  let options: PlanValidationOptions;
  before(() => {
    story = createStoryFixture();
    options = { root: story.root };
  });
  after(() => story.remove());

  test('JSON_SYNTAX: a missing comma, at its position; no plan', async () => {
    const text = `{\n  "requestId": "${REQUEST_ID}"\n  "tools": []\n}`;
    const result = await validatePlanText(text, options);
    const diagnostic = only(result, DiagnosticCode.JSON_SYNTAX);
    assert.equal(diagnostic.severity, 'error');
    assert.match(diagnostic.message, /expected ','/);
    assert.deepEqual(diagnostic.range?.start, { line: 3, column: 3 });
    assert.equal(result.valid, false);
    assert.equal(result.plan, undefined);
    assert.equal(result.diagnostics.length, 1);
  });

  test('JSON_SYNTAX: empty text and text cut short', async () => {
    const empty = only(await validatePlanText('', options), DiagnosticCode.JSON_SYNTAX);
    assert.deepEqual(empty.range?.start, { line: 1, column: 1 });
    assert.equal(empty.pointer, '');
    const cut = await validatePlanText(`{\n  "requestId": "${REQUEST_ID}",\n  "tools": [\n`, options);
    assert.equal(cut.valid, false);
    assert.ok(cut.diagnostics.every((diagnostic) => diagnostic.code === DiagnosticCode.JSON_SYNTAX));
  });

  test('JSON_COMMENT: comments and trailing commas warn, and validation goes on', async () => {
    const text = `{\n  // written by hand\n  "requestId": "${REQUEST_ID}",\n  "tools": [],\n}`;
    const result = await validatePlanText(text, options);
    const warnings = result.diagnostics.filter((diagnostic) => diagnostic.code === DiagnosticCode.JSON_COMMENT);
    assert.deepEqual(
      warnings.map((warning) => [warning.severity, warning.range?.start]),
      [
        ['warning', { line: 2, column: 3 }],
        ['warning', { line: 4, column: 14 }],
      ],
    );
    assert.equal(result.valid, true);
    assert.deepEqual(result.plan, { requestId: REQUEST_ID, tools: [] });
    only(result, DiagnosticCode.EMPTY_PLAN);
  });

  test('SCHEMA_REQUIRED: a missing toolPath points at the tool object', async () => {
    const text = planText(['{ "toolId": "light1" }']);
    const result = await validatePlanText(text, options);
    const diagnostic = only(result, DiagnosticCode.SCHEMA_REQUIRED);
    assert.equal(diagnostic.pointer, '/tools/0/toolPath');
    assert.equal(diagnostic.message, 'tools/0: missing required property "toolPath"');
    assertAt(diagnostic, text, '{ "toolId"');
    assert.equal(result.plan, undefined);
    assert.equal(result.valid, false);
  });

  test('SCHEMA_REQUIRED: a missing requestId points at the root object', async () => {
    const result = await validatePlanText('{ "tools": [] }', options);
    const diagnostic = only(result, DiagnosticCode.SCHEMA_REQUIRED);
    assert.equal(diagnostic.pointer, '/requestId');
    assert.equal(diagnostic.message, 'missing required property "requestId"');
    assert.deepEqual(diagnostic.range, { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } });
  });

  test('UNKNOWN_PROPERTY: a typo is a warning on its key, with a suggestion; the plan stays valid', async () => {
    const text = planText([`{ "toolId": "light1", "toolPath": "${LIGHT}", "dependancies": [] }`]);
    const result = await validatePlanText(text, options);
    const diagnostic = only(result, DiagnosticCode.UNKNOWN_PROPERTY);
    assert.equal(diagnostic.severity, 'warning');
    assert.equal(result.valid, true);
    assert.equal(diagnostic.pointer, '/tools/0/dependancies');
    assert.equal(diagnostic.message, 'tools/0: unknown property "dependancies" (ignored when the plan runs); did you mean "dependencies"?');
    assertAt(diagnostic, text, '"dependancies"');
    assert.deepEqual(diagnostic.range?.end, { line: 4, column: positionOf(text, '"dependancies"').column + '"dependancies"'.length });
  });

  test('UNKNOWN_PROPERTY: far from any name, the known properties are listed; "__proto__" is still an error', async () => {
    const text = `{ "requestId": "${REQUEST_ID}", "tools": [], "__proto__": {}, "zzz": 1 }`;
    const result = await validatePlanText(text, options);
    const codes = result.diagnostics.filter((diagnostic) => diagnostic.code.includes('UNKNOWN_PROPERTY'));
    assert.deepEqual(
      codes.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.pointer]),
      [
        ['SCHEMA_UNKNOWN_PROPERTY', 'error', '/__proto__'],
        ['UNKNOWN_PROPERTY', 'warning', '/zzz'],
      ],
    );
    assert.match(codes[1]!.message, /^unknown property "zzz" \(ignored when the plan runs\); known properties: \$schema, requestId, narrative, tools/);
    assert.equal(result.valid, false);
  });

  test('SCHEMA_UNKNOWN_PROPERTY: an unknown key of a rollback (our own addition) stays an error', async () => {
    const text = planText([`{ "toolId": "a", "toolPath": "${LIGHT}", "rollback": { "toolPath": "${LIGHT}", "inptu": {}, "$comment": "undo" } }`]);
    const result = await validatePlanText(text, options);
    const diagnostic = only(result, DiagnosticCode.SCHEMA_UNKNOWN_PROPERTY);
    assert.equal(diagnostic.pointer, '/tools/0/rollback/inptu');
    assert.match(diagnostic.message, /did you mean "input"/);
    assert.equal(result.valid, false);
  });

  test('SCHEMA_TYPE: a value of the wrong type', async () => {
    const text = planText([], ',\n  "parallel": "yes"');
    const diagnostic = only(await validatePlanText(text, options), DiagnosticCode.SCHEMA_TYPE);
    assert.equal(diagnostic.pointer, '/parallel');
    assert.equal(diagnostic.message, 'parallel: expected boolean but found string "yes"');
    assertAt(diagnostic, text, '"yes"');
  });

  test('SCHEMA_FORMAT: a requestId that is not a UUID', async () => {
    const text = '{\n  "requestId": "plan-1",\n  "tools": []\n}';
    const diagnostic = only(await validatePlanText(text, options), DiagnosticCode.SCHEMA_FORMAT);
    assert.equal(diagnostic.pointer, '/requestId');
    assert.match(diagnostic.message, /^requestId: "plan-1" is not a valid uuid/);
    assert.deepEqual(diagnostic.range?.start, { line: 2, column: 16 });
  });

  test('oneOf cascades collapse to one message per location', async () => {
    const badFormat = await validatePlanText(planText([], ',\n  "metadata": { "parentPlanId": "abc" }'), options);
    assert.equal(badFormat.diagnostics.length, 2); // the format problem and EMPTY_PLAN
    const format = only(badFormat, DiagnosticCode.SCHEMA_FORMAT);
    assert.equal(format.pointer, '/metadata/parentPlanId');
    assert.match(format.message, /^metadata\/parentPlanId: "abc" is not a valid uuid/);

    const badType = await validatePlanText(planText([], ',\n  "metadata": { "parentPlanId": 5 }'), options);
    const type = only(badType, DiagnosticCode.SCHEMA_TYPE);
    assert.equal(type.message, 'metadata/parentPlanId: expected string or null but found number 5');
    assert.equal(badType.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length, 1);
  });

  test('TOOL_ID_UNUSUAL_CHARACTERS: a toolId with spaces is a warning; an empty toolId is still an error, with one message', async () => {
    const text = planText([`{ "toolId": "light one", "toolPath": "${LIGHT}" }`, `{ "toolId": "", "toolPath": "${LIGHT}" }`]);
    const result = await validatePlanText(text, options);
    const violations = result.diagnostics.filter((diagnostic) => diagnostic.pointer.endsWith('/toolId'));
    assert.deepEqual(
      violations.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.pointer, diagnostic.message]),
      [
        [
          'TOOL_ID_UNUSUAL_CHARACTERS',
          'warning',
          '/tools/0/toolId',
          'tools/0/toolId: "light one" has characters other than letters, digits and _ . : -; Narratoria runs it, but some tools (conditions that name it, other runtimes\' files) may not handle it',
        ],
        ['SCHEMA_VIOLATION', 'error', '/tools/1/toolId', 'tools/1/toolId: must not be empty'],
      ],
    );
    const spaced = await validatePlanText(planText([`{ "toolId": "light one", "toolPath": "${LIGHT}" }`]), options);
    assert.equal(spaced.valid, true);
    assert.ok(spaced.plan);
    assertAt(violations[0]!, text, '"light one"');
    assertAt(violations[1]!, text, '""');
  });

  test('RETRY_POLICY_OUT_OF_RANGE below 0 (error), RETRY_POLICY_CLAMPED above the caps (warning), instead of a generic code', async () => {
    const text = planText([
      `{ "toolId": "a", "toolPath": "${LIGHT}", "retryPolicy": { "maxRetries": 11, "backoffMs": -1 } }`,
      `{ "toolId": "b", "toolPath": "${LIGHT}", "retryPolicy": { "maxRetries": -1, "backoffMs": 60001 } }`,
      `{ "toolId": "c", "toolPath": "${LIGHT}", "retryPolicy": { "maxRetries": 10, "backoffMs": 60000 } }`,
      `{ "toolId": "d", "toolPath": "${LIGHT}", "retryPolicy": { "maxRetries": 0, "backoffMs": 0 } }`,
    ]);
    const result = await validatePlanText(text, options);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.pointer]),
      [
        ['RETRY_POLICY_CLAMPED', '/tools/0/retryPolicy/maxRetries'],
        ['RETRY_POLICY_OUT_OF_RANGE', '/tools/0/retryPolicy/backoffMs'],
        ['RETRY_POLICY_OUT_OF_RANGE', '/tools/1/retryPolicy/maxRetries'],
        ['RETRY_POLICY_CLAMPED', '/tools/1/retryPolicy/backoffMs'],
      ],
    );
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => diagnostic.severity),
      ['warning', 'error', 'error', 'warning'],
    );
    assert.equal(
      result.diagnostics[0]!.message,
      'tools/0/retryPolicy/maxRetries: 11 is above 10; Narratoria clamps maxRetries to 10, so the tool is retried at most 10 times',
    );
    assert.match(result.diagnostics[1]!.message, /-1 is out of range; backoffMs must be between 0 and 60000/);
    assert.equal(
      result.diagnostics[3]!.message,
      'tools/1/retryPolicy/backoffMs: 60001 is above 60000; Narratoria clamps backoffMs to 60000 (milliseconds), so the first retry waits 60000 ms',
    );
    assertAt(result.diagnostics[0]!, text, '11');
    assertAt(result.diagnostics[3]!, text, '60001');
  });

  test('CRLF line endings give the same lines and columns', async () => {
    const text = planText([`{ "toolId": "light1", "toolPath": "${LIGHT}", "dependancies": [] }`]).replace(/\n/g, '\r\n');
    const diagnostic = only(await validatePlanText(text, options), DiagnosticCode.UNKNOWN_PROPERTY);
    assertAt(diagnostic, text, '"dependancies"');
    assert.equal(diagnostic.range?.start.line, 4);
  });

  test('a document that is not an object', async () => {
    const result = await validatePlanText('[1, 2]', options);
    const diagnostic = only(result, DiagnosticCode.SCHEMA_TYPE);
    assert.equal(diagnostic.pointer, '');
    assert.equal(diagnostic.message, 'expected object but found an array');
  });

  test('reported diagnostics match contracts/validate-report.schema.json', async () => {
    const text = planText([`{ "toolId": "a", "toolPath": "../outside.js", "dependencies": ["a", "b"] }`], ',\n  // note\n  "disabledSkills": [1]');
    const result = await validatePlanText(text, options);
    const validate = contractValidator('validate-report.schema.json');
    const report = [{ file: 'plan.json', valid: result.valid, diagnostics: result.diagnostics.map(toReportDiagnostic) }];
    assert.equal(validate(report), true, JSON.stringify(validate.errors));
    assert.ok(report[0]!.diagnostics.length >= 4);
  });
});
