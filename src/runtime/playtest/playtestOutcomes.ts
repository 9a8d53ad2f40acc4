// What a test view shows of playtests, as plain data: a file's turns as items at their ranges, each playtest's and turn's verdict and messages, a turn's output, and a file's problems.
import type { ExpectationFailure, Playtest, PlaytestProblem, PlaytestReport, TurnReport } from './playtestTypes.js';

/** The state of a test item after a run. */
export type ItemState = 'passed' | 'failed' | 'errored' | 'skipped';

/** A turn as a child item of its file's: its id (under the file's), its label, and where its object starts (1-based). */
export interface TurnItem {
  readonly id: string;
  /** The turn's number (1-based). */
  readonly turn: number;
  readonly label: string;
  readonly line: number;
  readonly column: number;
}

/** The id of a file item's turn `turn` (1-based). */
export function turnItemId(fileId: string, turn: number): string {
  return `${fileId}#turn-${turn}`;
}

/** The turns of a playtest as items of the file item `fileId`. */
export function turnItems(fileId: string, playtest: Playtest): TurnItem[] {
  return playtest.turns.map((turn, position) => ({
    id: turnItemId(fileId, position + 1),
    turn: position + 1,
    label: `Turn ${position + 1}: ${turn.input ?? `choice ${turn.choice}`}`,
    line: turn.position.line,
    column: turn.position.column,
  }));
}

/** A playtest's verdict as its file item shows it: passed, or failed or errored with a message. */
export type PlaytestVerdict = { readonly state: 'passed' } | { readonly state: 'failed' | 'errored'; readonly message: string };

export function playtestVerdict(report: PlaytestReport): PlaytestVerdict {
  if (report.status === 'error') return { state: 'errored', message: `The playtest could not be played: ${report.error}` };
  if (report.status === 'failed')
    return { state: 'failed', message: `${report.turns.filter((turn) => turn.status === 'failed').length} of ${report.turns.length} turns failed` };
  return { state: 'passed' };
}

/** The turns (1-based) of `turns` the report did not play: after an error, or after the run was cancelled. */
export function unplayedTurns(report: PlaytestReport, turns: readonly number[]): number[] {
  return turns.filter((turn) => !report.turns.some((played) => played.index === turn));
}

/** A failed expectation as a test message: its text, expected and actual for a diff, and where the expectation is (1-based). */
export interface FailureMessage {
  readonly text: string;
  /** Present when the failure has an expected or an actual value. */
  readonly diff?: { readonly expected: string; readonly actual: string };
  readonly line: number;
  readonly column: number;
}

export function failureMessage(failure: ExpectationFailure): FailureMessage {
  const text = `${failure.expectation}: ${failure.message}`;
  const diff =
    failure.expected !== undefined || failure.actual !== undefined ? { expected: shownValue(failure.expected), actual: shownValue(failure.actual) } : undefined;
  return { text, ...(diff ? { diff } : {}), line: failure.line, column: failure.column };
}

/** What a turn printed, for the test run's output (terminal line ends); undefined without a transcript. */
export function turnOutput(turn: TurnReport): string | undefined {
  return turn.transcript ? `Turn ${turn.index}: ${turn.input}\r\n${turn.transcript.replace(/\r?\n/g, '\r\n')}\r\n` : undefined;
}

/** A value as a diff shows it: text as itself, anything else as indented JSON. */
export function shownValue(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? '');
}

/** A file's problems as its item's error (plain text, one per line, as narratoria test prints them). */
export function problemsText(problems: readonly PlaytestProblem[]): string {
  return problems.map((problem) => `${problem.line}:${problem.column} error ${problem.code}: ${problem.message}`).join('\n');
}
