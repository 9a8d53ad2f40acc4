// Types of an exploration (`narratoria explore`): its options, progress, problems, failed sessions and report (contracts/explore-report.schema.json). Pure data.
import type { CoverageResult, CoverageTotals, FileCoverageData, SkillCoverageData } from '../coverage/coverageTypes.js';
import type { NarratorChoice } from '../playtest/playtestTypes.js';

/** What the issue lists as problems. `broken_skill` is a problem of the story (a skill.json that does not load), found before any session. */
export type ProblemKind =
  | 'exception'
  | 'invalid_first_plan'
  | 'tool_failure'
  | 'replan'
  | 'template_fallback'
  | 'over_time_budget'
  | 'broken_skill'
  | 'unreached_beat';
export const PROBLEM_KINDS: readonly ProblemKind[] = [
  'exception',
  'invalid_first_plan',
  'tool_failure',
  'replan',
  'template_fallback',
  'over_time_budget',
  'broken_skill',
  'unreached_beat',
];

/** Tool failures by category: timeout, a protocol error (invalid JSON, protocol violation), a non-zero exit, `done.ok: false`. */
export type ToolFailureCategory = 'timeout' | 'protocol_error' | 'non_zero_exit' | 'done_not_ok';
export const TOOL_FAILURE_CATEGORIES: readonly ToolFailureCategory[] = ['timeout', 'protocol_error', 'non_zero_exit', 'done_not_ok'];

/** Where a simulated player's input came from. */
export type InputSource = 'choice' | 'manifest' | 'vocabulary' | 'entity';

export interface ExploreProblem {
  readonly kind: ProblemKind;
  /** The turn (1-based). */
  readonly turn: number;
  readonly message: string;
  readonly category?: ToolFailureCategory;
  readonly skill?: string;
  /** The script, as skill/name. */
  readonly script?: string;
  readonly toolId?: string;
  /** For over_time_budget: the turn's duration (a timing). */
  readonly durationMs?: number;
}

/** A skill whose skill.json cannot be read, does not parse or does not validate: unusable in every session. */
export interface BrokenSkillReport {
  /** The skill's folder name. */
  readonly skill: string;
  /** Its skill.json, relative to the root (absolute outside it). */
  readonly file: string;
  /** Why, each with its 1-based position in the file when known. */
  readonly problems: readonly {
    readonly code: string;
    readonly message: string;
    readonly line?: number;
    readonly column?: number;
    readonly endLine?: number;
    readonly endColumn?: number;
  }[];
}

/** One input a simulated player gave. */
export interface PlayedInput {
  readonly turn: number;
  readonly input: string;
  /** The number (1-based) of the previous turn's choice, when the input was one. */
  readonly choice?: number;
  readonly source: InputSource;
}

/** A session that hit a problem: all that is kept of it (sessions without problems keep only counts). */
export interface FailedSession {
  /** 1-based. */
  readonly index: number;
  readonly seed: number;
  readonly turns: number;
  readonly inputs: readonly PlayedInput[];
  readonly problems: readonly ExploreProblem[];
  /** Problems beyond the ones kept (at most 50 per session). */
  readonly droppedProblems: number;
  /** The saved playtest that reproduces it, relative to the story root (absolute when outside it). */
  readonly playtest?: string;
}

export interface ScriptReport {
  /** skill/name */
  readonly script: string;
  readonly skill: string;
  readonly toolPath: string;
  readonly runs: number;
  readonly failures: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly eventTypes: readonly string[];
  readonly uiEvents: readonly string[];
}

export interface ExploreCoverageReport {
  readonly totals: CoverageTotals;
  readonly files: readonly Omit<FileCoverageData, 'details' | 'file'>[];
  readonly skills: readonly SkillCoverageData[];
  readonly skillCoverageOnly: readonly string[];
  readonly lcovFile?: string;
  readonly summaryFile?: string;
}

/** What one explored session did to a campaign's beats. */
export interface SessionStory {
  /** Scenes played (turns after the opening). */
  readonly scenes: number;
  /** Each beat's scene of trigger, first scene its conditions held, or why it was skipped. */
  readonly beats: Readonly<Record<string, { readonly triggered?: number; readonly heldSince?: number; readonly skipped?: string }>>;
  readonly ending?: string;
  /** For each beat that did not trigger: the scene its conditions came closest (most of them held), and the first that did not. */
  readonly closest: Readonly<Record<string, { readonly met: number; readonly of: number; readonly reason: string; readonly scene: number }>>;
}

/** A campaign's beats and endings across the explored sessions (docs/exploring.md#campaigns). */
export interface ExploreStoryReport {
  readonly title: string;
  readonly beats: readonly {
    readonly id: string;
    readonly title: string;
    /** Sessions it triggered in. */
    readonly triggered: number;
    /** The median scene it triggered in, null when it never did. */
    readonly medianScene: number | null;
    /** Sessions it was skipped in, and why (each reason with its count). */
    readonly skipped: number;
    readonly skipReasons: Readonly<Record<string, number>>;
    /** For a beat no session triggered: the session that came closest, and what kept it. */
    readonly closest?: {
      readonly session: number;
      readonly scene: number;
      readonly met: number;
      readonly of: number;
      readonly reason: string;
      readonly playtest?: string;
    };
  }[];
  readonly neverTriggered: readonly string[];
  /** Sessions by the ending they reached (`none`: no ending). */
  readonly endings: Readonly<Record<string, number>>;
  /** SC-004 of spec 008: of the beats whose conditions held with two scenes left to play, the share that triggered within 2 scenes. */
  readonly sc004: { readonly held: number; readonly withinTwoScenes: number; readonly share: number | null; readonly tooLate: number };
}

/** Mirrors contracts/explore-report.schema.json. */
export interface ExploreReport {
  readonly formatVersion: 1;
  readonly root: string;
  readonly options: {
    readonly runs: number;
    readonly turns: number;
    readonly seed: number;
    readonly narrator: NarratorChoice;
    readonly jobs: number;
    readonly coverage: boolean;
    readonly turnBudgetMs: number;
  };
  readonly cancelled: boolean;
  readonly sessions: { readonly played: number; readonly turns: number; readonly withProblems: number };
  readonly problems: {
    readonly total: number;
    readonly byKind: Readonly<Record<ProblemKind, number>>;
    readonly toolFailures: Readonly<Record<ToolFailureCategory, number>>;
    /** The story's broken skills (counted as `broken_skill`). */
    readonly brokenSkills: readonly BrokenSkillReport[];
  };
  readonly failedSessions: readonly FailedSession[];
  readonly neverSelectedSkills: readonly string[];
  readonly neverRunScripts: readonly string[];
  readonly eventTypesNeverEmitted: Readonly<Record<string, readonly string[]>>;
  readonly stateKeysBySkill: Readonly<Record<string, readonly string[]>>;
  readonly scripts: readonly ScriptReport[];
  readonly coverage?: ExploreCoverageReport;
  /** A campaign's beats and endings (when the story is one). */
  readonly story?: ExploreStoryReport;
  readonly outDirectory: string;
  readonly durationMs: number;
}

/** Progress of a running exploration (for a CLI line or a VS Code progress notification). */
export interface ExploreProgress {
  readonly sessionsDone: number;
  readonly sessionsTotal: number;
  readonly turnsPlayed: number;
  readonly problems: number;
  readonly sessionsWithProblems: number;
}

/** What `exploreStory` resolves with: the report, and the coverage with its per-file details (for VS Code's FileCoverage). */
export interface ExploreResult {
  readonly report: ExploreReport;
  readonly coverage?: CoverageResult;
}
