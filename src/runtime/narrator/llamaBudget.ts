// The local narrator's time: getting ready within an allowance, the decision within the generation budget, and every failure as the fallback's reason ("<code>: <detail>").
import type { Plan } from '../contractTypes/plan.js';
import { CancellationError, errorMessage } from '../common/errors.js';
import { budgetTimeoutReason, preparationTimeoutReason } from './fallbackReasons.js';
import { ModelWorkerError } from './modelWorkerClient.js';

/** What the model gave for a turn: a plan, or why the turn falls back (docs/design-rules.md#falling-back). */
export type Outcome = { readonly ok: true; readonly plan: Plan } | { readonly ok: false; readonly reason: string };

/**
 * How long getting ready may hold a turn: a Phi-3.5-mini load (2-7 s) and its persisted prompt (~1 s) fit; a first
 * evaluation of the prompt (about a minute on a 2-core CPU) does not, and goes on in the background.
 */
export const PREPARATION_ALLOWANCE_MS = 20_000;

/** The two allowances of a turn. */
export interface Allowances {
  /** Getting ready: the model loaded and the fixed prompt in the sequence. */
  readonly preparationMs: number;
  /** The decision (docs/design-rules.md#the-generation-budget). */
  readonly budgetMs: number;
}

/** The work of a turn, in its two steps; neither rejects (a failure is an Outcome). */
export interface TurnWork {
  /** Gets ready; undefined when ready. It goes on after the preparation allowance runs out: the next turn finds it done. */
  readonly ready: () => Promise<Outcome | undefined>;
  /** Decides, within `budget` (aborted when the budget runs out or the turn is cancelled). */
  readonly decide: (budget: AbortSignal) => Promise<Outcome>;
}

/**
 * Two allowances: getting ready within `preparationMs`, then the decision within `budgetMs`, which counts from when
 * the model is ready (loaded, its fixed prompt in the sequence), never from the turn's start: a load never eats the
 * budget. A preparation that runs over goes on in the background: the turn falls back, and the next one finds the
 * model ready. `started`: when the turn began (performance.now()), for the reason of a timeout.
 */
export async function withinAllowances(work: TurnWork, allowances: Allowances, started: number, signal: AbortSignal | undefined): Promise<Outcome> {
  const { preparationMs, budgetMs } = allowances;
  // Never rejects (a verification that throws is a failure like any other), even after the race is decided.
  const ready = work.ready().catch((error: unknown): Outcome => ({ ok: false, reason: failureReason(error) }));
  let preparationTimer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const late = new Promise<'late'>((resolve) => {
    preparationTimer = setTimeout(() => resolve('late'), preparationMs);
  });
  const prepared = await Promise.race([ready, late, stopped]).finally(() => {
    clearTimeout(preparationTimer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  });
  if (prepared === 'aborted') return { ok: false, reason: 'cancelled' };
  const readyMs = performance.now() - started;
  if (prepared === 'late') return { ok: false, reason: preparationTimeoutReason(preparationMs) };
  if (prepared) return prepared;

  const budget = new AbortController();
  const stop = (): void => budget.abort();
  const timer = setTimeout(stop, budgetMs);
  signal?.addEventListener('abort', stop, { once: true });
  const timedOut = new Promise<Outcome>((resolve) =>
    budget.signal.addEventListener('abort', () => resolve({ ok: false, reason: budgetTimeoutReason(budgetMs, readyMs) }), { once: true }),
  );
  try {
    return await Promise.race([work.decide(budget.signal), timedOut]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
    budget.abort();
  }
}

/** A failure as the reason a turn falls back: "<code>: <detail>" (no model, invalid model, worker crashed, model error, timeout, invalid plan). */
export function failureReason(error: unknown): string {
  if (error instanceof CancellationError) return 'timeout: generation cancelled by the budget';
  if (!(error instanceof ModelWorkerError)) return `model error: ${errorMessage(error)}`;
  switch (error.code) {
    case 'exited':
      return `worker crashed: ${error.message}`;
    case 'aborted':
      return `timeout: ${error.message}`;
    case 'bad_output':
      return `invalid plan: the output does not match the grammar (${error.message})`;
    default:
      return `model error: ${error.message}`;
  }
}
