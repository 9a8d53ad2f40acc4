// The Inspector's row filter without a browser: type, verdict and text filters, incremental appends, positions of filtered-out rows.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { InspectorRow } from '../../src/protocol/inspectorMessages.js';
import { FilteredRows, NO_FILTER, rowPasses } from '../../src/webview/inspector/rowFilter.js';

function row(index: number, type: InspectorRow['type'], mark: InspectorRow['mark'], summary: string): InspectorRow {
  return { index, lineNumber: index + 1, elapsedMs: index, status: mark === 'error' ? 'invalid_json' : 'event', type, mark, summary, text: summary };
}

const rows = [
  row(0, 'log', 'ok', 'info: hello'),
  row(1, 'invalid', 'error', 'not JSON'),
  row(2, 'ignored', 'warning', 'late log'),
  row(3, 'state_patch', 'ok', 'patch weather'),
];

test('each filter alone and together', () => {
  assert.ok(rows.every((each) => rowPasses(each, NO_FILTER)));
  const shown = (filter: { type?: string; mark?: string; text?: string }) =>
    rows.filter((each) => rowPasses(each, { ...NO_FILTER, ...filter })).map((each) => each.index);
  assert.deepEqual(shown({ mark: 'problems' }), [1, 2]);
  assert.deepEqual(shown({ mark: 'ok' }), [0, 3]);
  assert.deepEqual(shown({ type: 'state_patch' }), [3]);
  assert.deepEqual(shown({ text: '  LOG ' }), [2]);
  assert.deepEqual(shown({ mark: 'ok', text: 'e' }), [0, 3]);
});

test('FilteredRows grows with appends past its initial capacity and finds positions', () => {
  const many = Array.from({ length: 5000 }, (_, index) => row(index, index % 3 === 0 ? 'invalid' : 'log', index % 3 === 0 ? 'error' : 'ok', `line ${index}`));
  const filtered = new FilteredRows();
  filtered.refilter([], { ...NO_FILTER, mark: 'error' });
  filtered.append(many.slice(0, 2000), 0);
  filtered.append(many, 2000);
  assert.equal(filtered.length, 1667);
  assert.equal(filtered.at(1666), 4998);
  assert.equal(filtered.positionOf(4998), 1666);
  assert.equal(filtered.positionOf(4997), -1);
  filtered.refilter(many, NO_FILTER);
  assert.equal(filtered.length, 5000);
});
