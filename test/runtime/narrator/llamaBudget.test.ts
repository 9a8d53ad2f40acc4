// The local narrator's time under load (llamaBudget.ts): the budget counts from when the model is ready, and every fallback for time has its reason and the panel's words.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  budgetTimeoutReason,
  fallbackSummary,
  NOT_READY_TEXT,
  preparationTimeoutReason,
  TOO_SLOW_TEXT,
} from '../../../src/runtime/narrator/fallbackReasons.js';
import { withinAllowances, type Outcome } from '../../../src/runtime/narrator/llamaBudget.js';
import type { Plan } from '../../../src/runtime/contractTypes/plan.js';

const plan = { planId: 'p', tools: [] } as unknown as Plan;
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

test('the budget counts from when the model is ready: a load longer than the budget leaves it whole', async () => {
  let budgetAbortedAtStart: boolean | undefined;
  const outcome = await withinAllowances(
    {
      // Getting ready takes four budgets (a model loading).
      ready: async () => {
        await delay(200);
        return undefined;
      },
      decide: async (budget) => {
        budgetAbortedAtStart = budget.aborted;
        return { ok: true, plan };
      },
    },
    { preparationMs: 60_000, budgetMs: 50 },
    performance.now(),
    undefined,
  );
  assert.deepEqual(outcome, { ok: true, plan });
  assert.equal(budgetAbortedAtStart, false, 'the decision starts with its budget untouched');
});

test('a decision that outlasts its budget is aborted and falls back with the budget as its reason', async () => {
  let aborted = false;
  const started = performance.now();
  const outcome = await withinAllowances(
    {
      ready: async () => {
        await delay(30);
        return undefined;
      },
      decide: (budget) =>
        new Promise<Outcome>((resolve) =>
          budget.addEventListener('abort', () => {
            aborted = true;
            resolve({ ok: false, reason: 'timeout: generation cancelled by the budget' });
          }),
        ),
    },
    { preparationMs: 60_000, budgetMs: 20 },
    started,
    undefined,
  );
  assert.equal(outcome.ok, false);
  const reason = outcome.ok ? '' : outcome.reason;
  assert.match(reason, /^timeout: no valid plan within 20 ms \(the model was ready after \d+ ms\)$/);
  const readyMs = Number(/ready after (\d+) ms/.exec(reason)?.[1]);
  assert.ok(readyMs >= 30, `the reason says when the model was ready (${readyMs} ms after the turn began)`);
  assert.equal(aborted, true, 'the generation is told to stop');
  assert.equal(fallbackSummary(reason), TOO_SLOW_TEXT);
});

test('getting ready has its own allowance; the work goes on after it, and the reason says so', async () => {
  let finished = false;
  const outcome = await withinAllowances(
    {
      ready: async () => {
        await delay(80);
        finished = true;
        return undefined;
      },
      decide: async () => assert.fail('no decision before the model is ready'),
    },
    { preparationMs: 10, budgetMs: 5000 },
    performance.now(),
    undefined,
  );
  assert.deepEqual(outcome, { ok: false, reason: preparationTimeoutReason(10) });
  assert.equal(fallbackSummary(preparationTimeoutReason(10)), NOT_READY_TEXT);
  await delay(120);
  assert.equal(finished, true, 'the load went on');
});

test('the panel words: time reasons only; the others are shown as they are', () => {
  assert.equal(fallbackSummary(budgetTimeoutReason(5000, 1234.4)), TOO_SLOW_TEXT);
  assert.equal(budgetTimeoutReason(5000, 1234.4), 'timeout: no valid plan within 5000 ms (the model was ready after 1234 ms)');
  assert.equal(fallbackSummary('timeout: generation cancelled by the budget'), TOO_SLOW_TEXT);
  for (const reason of ['no model: x does not exist', 'invalid model: truncated', 'worker crashed: killed', 'model error: x', 'invalid plan: x', 'cancelled'])
    assert.equal(fallbackSummary(reason), undefined, reason);
  assert.equal(TOO_SLOW_TEXT, 'the local model was too slow on this turn; the pattern narrator answered');
});
