// The Inspector's stderr without a browser: chunks split into lines (continued across chunks, capped), and stdout rows and stderr lines merged by time, filtered, incrementally and all at once alike.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { InspectorRow } from '../../src/protocol/inspectorMessages.js';
import { FilteredRows, NO_FILTER, stderrEntry, stderrLineOf, stderrPasses, type RowFilterSettings } from '../../src/webview/inspector/rowFilter.js';
import { StderrLines } from '../../src/webview/inspector/stderrLines.js';

function row(index: number, elapsedMs: number): InspectorRow {
  return { index, lineNumber: index + 1, elapsedMs, status: 'event', type: 'log', mark: 'ok', summary: `info: row ${index}`, text: `row ${index}` };
}

/** The entries in table order, as `r<index>` and `e<stderr line>`. */
function order(filtered: FilteredRows): string[] {
  return Array.from({ length: filtered.length }, (_, position) => filtered.at(position)).map((entry) => (entry >= 0 ? `r${entry}` : `e${stderrLineOf(entry)}`));
}

test('chunks split at newlines; a line keeps the time of the chunk it starts in and continues into the next chunk', () => {
  const lines = new StderrLines();
  assert.deepEqual(lines.add([{ elapsedMs: 5, text: 'first\nsecond\r\nthird, cut' }]), { first: 0, continued: false });
  assert.deepEqual(lines.add([{ elapsedMs: 9, text: ' off here\n\nlast\n' }]), { first: 3, continued: true });
  assert.deepEqual(
    lines.lines.map((line) => [line.elapsedMs, line.text]),
    [
      [5, 'first'],
      [5, 'second'],
      [5, 'third, cut off here'],
      [9, ''],
      [9, 'last'],
    ],
  );
  // A CRLF split between two chunks still loses its carriage return.
  lines.add([{ elapsedMs: 10, text: 'windows\r' }]);
  lines.add([{ elapsedMs: 11, text: '\n' }]);
  assert.equal(lines.lines.at(-1)?.text, 'windows');
  assert.equal(lines.lines.at(-1)?.elapsedMs, 10);
});

test('the cap keeps the first lines and counts the rest; long lines keep their first characters', () => {
  const lines = new StderrLines(3, 8);
  lines.add([
    { elapsedMs: 1, text: 'a\nb\nc\nd\ne, still e' },
    { elapsedMs: 2, text: ' and more e\nf\n' },
  ]);
  assert.deepEqual(
    lines.lines.map((line) => line.text),
    ['a', 'b', 'c'],
  );
  assert.equal(lines.dropped, 3, 'd, e (with its continuation) and f');
  const long = new StderrLines(10, 8);
  long.add([
    { elapsedMs: 1, text: '0123456789' },
    { elapsedMs: 2, text: 'abc\n' },
  ]);
  assert.deepEqual(long.lines, [{ elapsedMs: 1, text: '01234567', cutCharacters: 5 }]);
  long.clear();
  assert.deepEqual([long.length, long.dropped], [0, 0]);
});

test('stdout rows and stderr lines merge by time, stdout first at equal times, each stream in its own order', () => {
  const rows = [row(0, 0), row(1, 10), row(2, 10), row(3, 30)];
  const lines = new StderrLines();
  lines.add([
    { elapsedMs: 10, text: 'at ten\n' },
    { elapsedMs: 20, text: 'at twenty\nalso twenty\n' },
    { elapsedMs: 40, text: 'after all\n' },
  ]);
  const filtered = new FilteredRows(NO_FILTER, lines);
  filtered.refilter(rows, NO_FILTER);
  assert.deepEqual(order(filtered), ['r0', 'r1', 'r2', 'e0', 'e1', 'e2', 'r3', 'e3']);
  assert.equal(filtered.positionOf(stderrEntry(1)), 4);
  assert.equal(filtered.positionOf(3), 6);
});

test('arriving in any interleaving of batches gives the same order as filtering everything at once', () => {
  // Live runs post stderr at once and stdout every 50 ms, so stdout rows often arrive after later stderr lines.
  const rows = Array.from({ length: 300 }, (_, index) => row(index, Math.floor(index / 3) * 7));
  const chunks = Array.from({ length: 80 }, (_, index) => ({ elapsedMs: index * 9 + (index % 4), text: `chunk ${index}\nsecond of ${index}\n` }));
  for (const filter of [
    NO_FILTER,
    { ...NO_FILTER, text: 'row 1' },
    { ...NO_FILTER, text: 'of 1' },
    { ...NO_FILTER, type: 'stderr' },
    { ...NO_FILTER, type: 'log' },
  ] as RowFilterSettings[]) {
    const whole = new StderrLines();
    whole.add(chunks);
    const expected = new FilteredRows(NO_FILTER, whole);
    expected.refilter(rows, filter);

    const arriving = new StderrLines();
    const incremental = new FilteredRows(NO_FILTER, arriving);
    incremental.refilter([], filter);
    const received: InspectorRow[] = [];
    let chunk = 0;
    let seed = 7;
    while (received.length < rows.length || chunk < chunks.length) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      if (chunk < chunks.length && (seed % 3 === 0 || received.length === rows.length)) {
        const added = arriving.add([chunks[chunk++]!]);
        incremental.appendStderr(added.first, added.continued);
      } else {
        const start = received.length;
        received.push(...rows.slice(start, start + 1 + (seed % 17)));
        incremental.append(received, start);
      }
    }
    assert.deepEqual(order(incremental), order(expected), `filter ${JSON.stringify(filter)}`);
    assert.ok(expected.length > 0);
  }
});

test('stderr lines pass the type and text filters, never a verdict filter', () => {
  const line = { elapsedMs: 1, text: 'Warning: low fluid', cutCharacters: 0 };
  assert.ok(stderrPasses(line, NO_FILTER));
  assert.ok(stderrPasses(line, { ...NO_FILTER, type: 'stderr', text: ' FLUID ' }));
  assert.ok(!stderrPasses(line, { ...NO_FILTER, type: 'log' }));
  assert.ok(!stderrPasses(line, { ...NO_FILTER, mark: 'problems' }));
  assert.ok(!stderrPasses(line, { ...NO_FILTER, text: 'smoke' }));
});

test('a continued line that now matches the search joins the filtered lines', () => {
  const lines = new StderrLines();
  const filtered = new FilteredRows(NO_FILTER, lines);
  filtered.refilter([], { ...NO_FILTER, text: 'fluid' });
  const first = lines.add([{ elapsedMs: 3, text: 'low on ' }]);
  filtered.appendStderr(first.first, first.continued);
  assert.equal(filtered.length, 0);
  const second = lines.add([{ elapsedMs: 4, text: 'fluid\n' }]);
  assert.equal(second.continued, true);
  filtered.appendStderr(second.first, second.continued);
  assert.deepEqual(order(filtered), ['e0']);
});
