// Tests of retry timing: the backoff formula (docs/plan-json-and-protocol.md#retry-backoff) as the executor applies it, timeout precedence, worst case, invalid values and duration formatting.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { describeRetryTiming, formatDelays, retryTiming } from '../../../src/runtime/authoring/retryTiming.js';
import { DEFAULT_TOOL_TIMEOUT_MS, retryDelayMs } from '../../../src/runtime/contractTypes/plan.js';
import { formatDuration } from '../../../src/runtime/common/humanText.js';

test('defaults: 3 retries after 100, 200, 400 ms and the 30 s default timeout', () => {
  const timing = retryTiming({});
  assert.equal(timing.maxRetries, 3);
  assert.equal(timing.backoffMs, 100);
  assert.equal(timing.attempts, 4);
  assert.deepEqual(timing.delaysMs, [100, 200, 400]);
  assert.equal(timing.totalDelayMs, 700);
  assert.equal(timing.timeoutMs, DEFAULT_TOOL_TIMEOUT_MS);
  assert.equal(timing.timeoutSource, 'default');
  assert.equal(timing.worstCaseMs, 4 * 30_000 + 700);
  assert.equal(describeRetryTiming(timing), 'retries after 100, 200, 400 ms; at most 2 min with timeouts');
});

test("the delays are the executor's (backoffMs × 2^(n−1), no cap)", () => {
  const timing = retryTiming({ maxRetries: 10, backoffMs: 60_000 });
  assert.deepEqual(
    timing.delaysMs,
    Array.from({ length: 10 }, (_, index) => retryDelayMs(60_000, index + 1)),
  );
  assert.equal(timing.delaysMs.at(-1), 60_000 * 512);
});

test('timeout precedence: the tool, then the script, then the default', () => {
  assert.deepEqual(
    [retryTiming({ toolTimeoutMs: 1000, scriptTimeoutMs: 5000 }).timeoutMs, retryTiming({ toolTimeoutMs: 1000, scriptTimeoutMs: 5000 }).timeoutSource],
    [1000, 'tool'],
  );
  const script = retryTiming({ scriptTimeoutMs: 5000 });
  assert.deepEqual([script.timeoutMs, script.timeoutSource], [5000, 'script']);
  assert.equal(script.worstCaseMs, 20_700);
  assert.equal(describeRetryTiming(script), 'retries after 100, 200, 400 ms; at most 20.7 s with timeouts');
  assert.equal(describeRetryTiming(retryTiming({ toolTimeoutMs: 1000 })), 'retries after 100, 200, 400 ms; at most 4.7 s with timeouts');
});

test('no retries, zero backoff and long delays are described plainly', () => {
  assert.equal(describeRetryTiming(retryTiming({ maxRetries: 0, scriptTimeoutMs: 5000 })), 'no retries: one attempt of at most 5 s');
  assert.equal(describeRetryTiming(retryTiming({ maxRetries: 2, backoffMs: 0, toolTimeoutMs: 1000 })), 'retries after 0, 0 ms; at most 3 s with timeouts');
  assert.equal(formatDelays(retryTiming({ maxRetries: 4, backoffMs: 1000 }).delaysMs), '1 s, 2 s, 4 s, 8 s');
  assert.equal(formatDelays(retryTiming({ maxRetries: 3, backoffMs: 300 }).delaysMs), '300 ms, 600 ms, 1.2 s');
});

test('values outside the schema bounds fall back to the defaults and are reported', () => {
  const timing = retryTiming({ maxRetries: 11, backoffMs: -5 });
  assert.deepEqual(timing.invalid, ['maxRetries', 'backoffMs']);
  assert.deepEqual(timing.delaysMs, [100, 200, 400]);
  assert.deepEqual(retryTiming({ maxRetries: 1.5 }).invalid, ['maxRetries']);
});

test('durations: ms below a second, then s, min and h with at most one decimal', () => {
  assert.equal(formatDuration(0), '0 ms');
  assert.equal(formatDuration(999), '999 ms');
  assert.equal(formatDuration(999.6), '1 s');
  assert.equal(formatDuration(1000), '1 s');
  assert.equal(formatDuration(3700), '3.7 s');
  assert.equal(formatDuration(20_700), '20.7 s');
  assert.equal(formatDuration(59_960), '1 min');
  assert.equal(formatDuration(90_000), '1.5 min');
  assert.equal(formatDuration(3_600_000), '1 h');
  assert.equal(formatDuration(61_380_000), '17.1 h');
});
