// The Inspector's text helpers: elapsed times, and where an invalid JSON line stops being JSON (the detail pane's mark).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { InspectorRow } from '../../src/protocol/inspectorMessages.js';
import { elapsedText, errorOffset } from '../../src/webview/inspector/format.js';

const invalid = (text: string): InspectorRow => ({
  index: 0,
  lineNumber: 1,
  elapsedMs: 0,
  status: 'invalid_json',
  type: 'invalid',
  mark: 'error',
  summary: '',
  text,
});

test('the offset where JSON parsing stops', () => {
  assert.equal(errorOffset(invalid('oh no')), 0);
  assert.equal(errorOffset(invalid('{"a": oh}')), 6);
  assert.equal(errorOffset(invalid('{"a":1,}')), 7);
  assert.equal(errorOffset(invalid('{"a":1} x')), 8);
  assert.equal(errorOffset(invalid('{"version":"0","type":"log"')), 27, 'a cut-off line: the end');
  assert.equal(errorOffset({ ...invalid('{}'), status: 'event' }), undefined);
});

test('elapsed times', () => {
  assert.equal(elapsedText(12), '+0.012 s');
  assert.equal(elapsedText(61_500), '+1:01.5');
});
