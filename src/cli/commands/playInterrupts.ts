// Ctrl+C in interactive `play`: the first press cancels the running turn and the prompt comes back; a press at an empty prompt, or two within 2 s, quits.
import type { Interface } from 'node:readline';

/** Two presses closer than this quit, even while a turn runs. */
export const DOUBLE_PRESS_MS = 2000;

/** What a Ctrl+C did. */
export type InterruptOutcome = 'cancelled-turn' | 'cleared-line' | 'quit';

/**
 * Tracks the running turn of an interactive session and decides what each Ctrl+C does. A terminal's readline
 * reports Ctrl+C as its own 'SIGINT' event (the terminal is in raw mode), so the process never sees the signal.
 */
export class PlayInterrupts {
  private turn: AbortController | undefined;
  private lastPress = Number.NEGATIVE_INFINITY;
  private quitting = false;

  constructor(
    private readonly reader: Interface,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** True once a Ctrl+C asked to quit. */
  get quit(): boolean {
    return this.quitting;
  }

  /** A signal for the next turn, aborted by a Ctrl+C or by `outer` (the CLI's own cancel). Call `endTurn` after it. */
  startTurn(outer: AbortSignal): AbortSignal {
    const controller = new AbortController();
    this.turn = controller;
    if (outer.aborted) controller.abort();
    else outer.addEventListener('abort', () => controller.abort(), { once: true, signal: controller.signal });
    return controller.signal;
  }

  endTurn(): void {
    // (Aborting after the turn is harmless: it only detaches the listener on `outer`.)
    this.turn?.abort();
    this.turn = undefined;
  }

  /** One Ctrl+C: cancels the running turn; clears a half-typed line; else (or the second press within 2 s) quits. */
  press(): InterruptOutcome {
    const at = this.now();
    const twice = at - this.lastPress < DOUBLE_PRESS_MS;
    this.lastPress = at;
    if (this.turn && !this.turn.signal.aborted && !twice) {
      this.turn.abort();
      return 'cancelled-turn';
    }
    if (!this.turn && this.reader.line !== '' && !twice) return 'cleared-line';
    this.turn?.abort();
    this.quitting = true;
    return 'quit';
  }
}
