// Types of a coverage result: per file line, statement, branch and function coverage (istanbul positions: lines 1-based, columns 0-based), and skill coverage. Pure data.

/**
 * A position in a covered source file: line 1-based, character 0-based (istanbul's `column`; VS Code's
 * Position is `line - 1, character`). Its own field names, so that TypeScript never lets it pass as
 * validation's 1-based SourcePosition (line and column both 1-based), nor the other way round.
 */
export interface CoveragePosition {
  readonly line: number;
  readonly character: number;
}

/** A range of a covered source file, end exclusive. */
export interface CoverageRange {
  readonly start: CoveragePosition;
  readonly end: CoveragePosition;
}

/** Covered out of total. */
export interface CoverageCount {
  readonly covered: number;
  readonly total: number;
}

/** A statement (V8 coverage is per line, so one per line of code) and how often it ran. */
export interface StatementDetail {
  readonly range: CoverageRange;
  readonly count: number;
}

/** One arm of a branch (an `if`, a `?:`, a `||`, a block that may or may not run) and how often it was taken. */
export interface BranchDetail {
  readonly range: CoverageRange;
  readonly count: number;
  /** The branch (istanbul's branchMap key) this arm belongs to: the arms of one branch share it. */
  readonly branch: number;
}

/** A function and how often it was called. */
export interface FunctionDetail {
  readonly name: string;
  readonly range: CoverageRange;
  readonly count: number;
}

/**
 * The coverage of one JavaScript or TypeScript file of a skill, shaped so a VS Code FileCoverage
 * (StatementCoverage, BranchCoverage, DeclarationCoverage) can be built from it.
 */
export interface FileCoverageData {
  /** Absolute real path. */
  readonly file: string;
  /** The path relative to the story root, with forward slashes (what the report and lcov.info show). */
  readonly relativePath: string;
  /** The skill the file belongs to. */
  readonly skill: string;
  readonly lines: CoverageCount;
  readonly statements: CoverageCount;
  readonly branches: CoverageCount;
  readonly functions: CoverageCount;
  readonly details: {
    readonly statements: readonly StatementDetail[];
    readonly branches: readonly BranchDetail[];
    readonly functions: readonly FunctionDetail[];
  };
}

/** Per script: how often it ran, what it emitted, and which of its input schema's properties it was ever given. */
export interface ScriptSkillCoverage {
  readonly script: string;
  readonly toolPath: string;
  readonly declared: boolean;
  readonly runs: number;
  /** Protocol event types emitted (log, state_patch, asset, ui_event, error, done), sorted. */
  readonly eventTypes: readonly string[];
  /** ui_event names emitted, sorted. */
  readonly uiEvents: readonly string[];
  /** The input schema's top-level properties, and those ever given in a plan's input. */
  readonly inputProperties: { readonly declared: readonly string[]; readonly given: readonly string[] };
  /** False for a script that is not JavaScript or TypeScript: it gets skill coverage only. */
  readonly lineCoverage: boolean;
}

/** Per skill: the scripts run out of those declared, and the event types emitted. */
export interface SkillCoverageData {
  readonly skill: string;
  readonly selected: number;
  readonly scripts: CoverageCount;
  readonly eventTypes: readonly string[];
  readonly scriptDetails: readonly ScriptSkillCoverage[];
}

export interface CoverageTotals {
  readonly lines: CoverageCount;
  readonly statements: CoverageCount;
  readonly branches: CoverageCount;
  readonly functions: CoverageCount;
}

/** What a coverage run found: the files (with details), the totals, skill coverage, and where lcov.info was written. */
export interface CoverageResult {
  readonly files: readonly FileCoverageData[];
  readonly totals: CoverageTotals;
  readonly skills: readonly SkillCoverageData[];
  /** Scripts that are not JavaScript or TypeScript (toolPaths): skill coverage only. */
  readonly skillCoverageOnly: readonly string[];
  /** Absolute path of coverage/lcov.info, once written. */
  readonly lcovFile?: string;
  /** Absolute path of coverage/coverage-summary.json, once written. */
  readonly summaryFile?: string;
}
