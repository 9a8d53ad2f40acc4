// The play panel's log line of a turn: how it ended, its duration in whole milliseconds, each attempt, and when it is a warning.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { turnLogLine, type LoggedTurn } from '../../../src/runtime/session/turnLogLine.js';

const turn = (change: Partial<LoggedTurn>): LoggedTurn => ({
  input: 'open the door',
  cancelled: false,
  fallback: false,
  durationMs: 812.4,
  attempts: [],
  ...change,
});

test('a narrated turn lists its attempts and is not a warning', () => {
  const line = turnLogLine(3, {
    ...turn({}),
    attempts: [
      { attempt: 1, narrator: 'llm', outcome: 'failed', result: { failedTools: ['door', 'lock'] } },
      { attempt: 2, narrator: 'pattern', outcome: 'success', result: { failedTools: [] } },
    ],
  });
  assert.deepEqual(line, {
    text: 'turn 3 "open the door": narrated in 812 ms — #1 llm failed (failed: door, lock); #2 pattern success',
    warning: false,
  });
});

test('fallback narration is a warning; a cancelled turn is not, whatever its fallback', () => {
  assert.deepEqual(turnLogLine(1, turn({ fallback: true, durationMs: 5 })), {
    text: 'turn 1 "open the door": fallback narration in 5 ms — no attempt',
    warning: true,
  });
  assert.deepEqual(turnLogLine(2, turn({ fallback: true, cancelled: true, durationMs: 0.6 })), {
    text: 'turn 2 "open the door": cancelled in 1 ms — no attempt',
    warning: false,
  });
});
