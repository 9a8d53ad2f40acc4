// Types of playtests (contracts/playtest.schema.json) and of their report (contracts/playtest-report.schema.json). Pure data.

export type NarratorChoice = 'pattern' | 'llm' | 'auto';
export type SkillsMatch = 'strict' | 'unordered' | 'superset' | 'subset';
export type TurnOutcome = 'success' | 'replanned' | 'fallback';

/** What must hold after a turn (every field optional). */
export interface Expectations {
  readonly skills?: readonly string[];
  readonly skillsMatch?: SkillsMatch;
  readonly notSkills?: readonly string[];
  readonly outcome?: TurnOutcome;
  readonly state?: readonly string[];
  readonly narration?: { readonly contains?: readonly string[]; readonly notContains?: readonly string[]; readonly matches?: string };
  readonly events?: readonly Record<string, unknown>[];
  readonly maxAttempts?: number;
  /** The turn's time budget (a timing: written by `narratoria explore` for a turn that went over it). */
  readonly maxDurationMs?: number;
  /** A campaign's beats after the turn: triggered by then, not triggered by then, in play. */
  readonly beats?: { readonly triggered?: readonly string[]; readonly notTriggered?: readonly string[]; readonly active?: readonly string[] };
  /** The ending reached by this turn. */
  readonly ending?: string;
  /** Lore chunk ids or files retrieved for the turn. */
  readonly lore?: readonly string[];
}

/** Where something is in the playtest file (1-based). */
export interface FilePosition {
  readonly line: number;
  readonly column: number;
}

export interface PlaytestTurn {
  /** What the player types, or undefined for a choice turn. */
  readonly input?: string;
  /** The nth (1-based) choice the previous turn offered. */
  readonly choice?: number;
  readonly expect: Expectations;
  /** The turn object's position, and each expectation's (by name, e.g. "skills", "narration.contains", "state[1]"). */
  readonly position: FilePosition;
  readonly expectationPositions: ReadonlyMap<string, FilePosition>;
}

export interface Playtest {
  readonly file: string;
  readonly name: string;
  readonly narrator: NarratorChoice;
  readonly seed: number;
  readonly state: Record<string, unknown>;
  readonly turns: readonly PlaytestTurn[];
}

/** A problem of a playtest file (it is not run). */
export interface PlaytestProblem {
  readonly file: string;
  readonly code: string;
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

/** A failed expectation of a turn. */
export interface ExpectationFailure {
  readonly expectation: string;
  readonly message: string;
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly line: number;
  readonly column: number;
}

export interface TurnReport {
  readonly index: number;
  readonly input: string;
  readonly choice?: number;
  readonly status: 'passed' | 'failed' | 'skipped';
  readonly attempts: number;
  readonly skills: readonly string[];
  readonly outcome?: TurnOutcome;
  readonly narration?: string;
  readonly failures: readonly ExpectationFailure[];
  readonly runId?: string;
  readonly durationMs?: number;
  /** What `narratoria run` would print for the turn's attempts (for a test run's output). */
  readonly transcript?: string;
}

export interface PlaytestReport {
  readonly file: string;
  readonly name: string;
  readonly status: 'passed' | 'failed' | 'error';
  readonly durationMs: number;
  readonly seed: number;
  readonly narrator: NarratorChoice;
  readonly error?: string;
  readonly turns: readonly TurnReport[];
}

export interface SelectionSummary {
  readonly turns: number;
  readonly right: number;
  readonly bySkill: Readonly<Record<string, { readonly expected: number; readonly chosen: number; readonly right: number }>>;
}

export interface RunReport {
  readonly playtests: readonly PlaytestReport[];
  readonly summary: {
    readonly passed: number;
    readonly failed: number;
    readonly errors: number;
    readonly durationMs: number;
    readonly selection: SelectionSummary;
  };
}
