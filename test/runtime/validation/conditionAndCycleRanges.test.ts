// Tests of precise locations: CONDITION_SYNTAX on the failing character of the literal (escapes included), every cycle edge in related.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { DiagnosticCode, parseJsonDocument, validatePlanText, type PlanValidationOptions } from '../../../src/runtime/validation/index.js';
import { rangeInStringLiteral } from '../../../src/runtime/validation/stringLiteralRange.js';
import { LIGHT, only, planText } from './planHelpers.js';
import { createStoryFixture, positionOf, type StoryFixture } from './storyFixture.js';

/** The range of `length` characters starting `delta` characters after the start of `needle` in `text` (one line). */
function rangeAfter(text: string, needle: string, delta: number, length: number) {
  const start = positionOf(text, needle);
  return { start: { line: start.line, column: start.column + delta }, end: { line: start.line, column: start.column + delta + length } };
}

/** A plan with one tool whose condition is the raw JSON literal `literal` (quotes included). */
function conditionPlan(literal: string): string {
  return planText([`{ "toolId": "a", "toolPath": "${LIGHT}", "condition": ${literal} }`]);
}

describe('CONDITION_SYNTAX: the range is the character where parsing failed', () => {
  let story: StoryFixture;
  let options: PlanValidationOptions;
  before(() => {
    story = createStoryFixture();
    options = { root: story.root };
  });
  after(() => story.remove());

  test('without escape sequences: the offending character', async () => {
    const literal = '"state.x = 1"';
    const text = conditionPlan(literal);
    const diagnostic = only(await validatePlanText(text, options), DiagnosticCode.CONDITION_SYNTAX);
    assert.equal(diagnostic.severity, 'error');
    assert.equal(diagnostic.pointer, '/tools/0/condition');
    assert.match(diagnostic.message, /at character 9: unexpected character "="/);
    // The quote, then "state.x " (8 characters): the "=" is 9 characters after the quote.
    assert.deepEqual(diagnostic.range, rangeAfter(text, literal, 9, 1));
  });

  test('with \\" escapes before the failure: raw offsets, not expression offsets', async () => {
    // Expression: state["a b"] = 1 — the "=" is at expression offset 13, raw offset 15 (two \" escapes).
    const literal = String.raw`"state[\"a b\"] = 1"`;
    const text = conditionPlan(literal);
    const diagnostic = only(await validatePlanText(text, options), DiagnosticCode.CONDITION_SYNTAX);
    assert.match(diagnostic.message, /at character 14:/);
    assert.deepEqual(diagnostic.range, rangeAfter(text, literal, 1 + 15, 1));
    assert.equal(text.slice(text.indexOf(literal) + 16, text.indexOf(literal) + 17), '=');
  });

  test('with a \\u escape (6 characters for 1) before the failure', async () => {
    // Expression: state["é"] @ — the "@" is at expression offset 11, raw offset 18.
    const literal = String.raw`"state[\"\u00e9\"] @"`;
    const text = conditionPlan(literal);
    const diagnostic = only(await validatePlanText(text, options), DiagnosticCode.CONDITION_SYNTAX);
    assert.match(diagnostic.message, /at character 12: unexpected character "@"/);
    assert.deepEqual(diagnostic.range, rangeAfter(text, literal, 1 + 18, 1));
  });

  test('a failure on an escaped character covers the whole escape sequence', async () => {
    // Expression: state.x == "a — the unterminated string starts at offset 11, written \" (2 characters).
    const literal = String.raw`"state.x == \"a"`;
    const text = conditionPlan(literal);
    const diagnostic = only(await validatePlanText(text, options), DiagnosticCode.CONDITION_SYNTAX);
    assert.match(diagnostic.message, /unterminated string/);
    assert.deepEqual(diagnostic.range, rangeAfter(text, literal, 1 + 11, 2));
  });

  test('a failure at the end of the expression is the closing quote of the literal', async () => {
    const literal = '"state.x =="';
    const text = conditionPlan(literal);
    const diagnostic = only(await validatePlanText(text, options), DiagnosticCode.CONDITION_SYNTAX);
    assert.match(diagnostic.message, /ends too early/);
    assert.deepEqual(diagnostic.range, rangeAfter(text, literal, literal.length - 1, 1));
  });

  test('rangeInStringLiteral: spans, escapes and the end of an empty string', () => {
    const text = String.raw`{"a": "x\ty\u0041z", "b": ""}`;
    const document = parseJsonDocument(text);
    const range = (pointer: string, start: number, length: number) => rangeInStringLiteral(document, pointer, { start, length });
    const at = (start: number, end: number) => ({ start: { line: 1, column: start + 1 }, end: { line: 1, column: end + 1 } });
    const open = text.indexOf('"x');
    assert.deepEqual(range('/a', 0, 1), at(open + 1, open + 2), 'x');
    assert.deepEqual(range('/a', 1, 1), at(open + 2, open + 4), '\\t');
    assert.deepEqual(range('/a', 3, 2), at(open + 5, open + 12), '\\u0041z');
    assert.deepEqual(range('/a', 5, 0), at(open + 12, open + 13), 'the closing quote');
    const empty = text.indexOf('""');
    assert.deepEqual(range('/b', 0, 0), at(empty + 1, empty + 2));
    assert.equal(range('/c', 0, 1), undefined);
  });
});

describe('DEPENDENCY_CYCLE: every edge is a related location', () => {
  let story: StoryFixture;
  before(() => {
    story = createStoryFixture();
  });
  after(() => story.remove());

  test("three edges, three related entries with ranges; the first is the diagnostic's own location", async () => {
    const text = planText([
      `{ "toolId": "x", "toolPath": "${LIGHT}", "dependencies": ["y"] }`,
      `{ "toolId": "y", "toolPath": "${LIGHT}", "dependencies": ["z"] }`,
      `{ "toolId": "z", "toolPath": "${LIGHT}", "dependencies": ["x"] }`,
    ]);
    const diagnostic = only(await validatePlanText(text, { root: story.root }), DiagnosticCode.DEPENDENCY_CYCLE);
    assert.equal(diagnostic.message, 'dependency cycle: x -> y -> z -> x (each tool waits for the next, so none of them can start)');
    assert.deepEqual(
      diagnostic.related?.map((information) => [information.pointer, information.message, information.range?.start]),
      [
        ['/tools/0/dependencies/0', '"x" depends on "y"', positionOf(text, '"y"')],
        ['/tools/1/dependencies/0', '"y" depends on "z"', positionOf(text, '"z"')],
        ['/tools/2/dependencies/0', '"z" depends on "x"', positionOf(text, '"x"', 1)],
      ],
    );
    assert.deepEqual(diagnostic.related?.[0]?.range, diagnostic.range);
  });

  test('a two-tool cycle lists both edges', async () => {
    const text = planText([
      `{ "toolId": "p", "toolPath": "${LIGHT}", "dependencies": ["q"] }`,
      `{ "toolId": "q", "toolPath": "${LIGHT}", "dependencies": ["p"] }`,
    ]);
    const diagnostic = only(await validatePlanText(text, { root: story.root }), DiagnosticCode.DEPENDENCY_CYCLE);
    assert.deepEqual(
      diagnostic.related?.map((information) => information.pointer),
      ['/tools/0/dependencies/0', '/tools/1/dependencies/0'],
    );
    assert.ok(diagnostic.related?.every((information) => information.range !== undefined));
  });
});
