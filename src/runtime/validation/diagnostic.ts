// Diagnostic types of plan validation: severities, 1-based source ranges, and the stable diagnostic codes.
import type { PointerTarget } from './jsonLocator.js';

/** How bad a diagnostic is. Only `error` makes a plan invalid. */
export type DiagnosticSeverity = 'error' | 'warning' | 'info';

/** A 1-based position in a text. Columns count UTF-16 code units, as VS Code does. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** A range of a text; `end` is the position just after the last character (exclusive). */
export interface SourceRange {
  readonly start: SourcePosition;
  readonly end: SourcePosition;
}

/** A secondary location that helps explain a diagnostic (e.g. the first use of a duplicated toolId). */
export interface RelatedInformation {
  /** RFC 6901 JSON pointer of the related location. */
  readonly pointer: string;
  readonly message: string;
  /** Present when the diagnostic came from text (validatePlanText). */
  readonly range?: SourceRange;
}

/** One problem found in a plan. Mirrors `#/$defs/Diagnostic` of contracts/validate-report.schema.json. */
export interface Diagnostic {
  readonly severity: DiagnosticSeverity;
  /** One of {@link DiagnosticCode}; stable across versions so tools can match on it. */
  readonly code: DiagnosticCode;
  readonly message: string;
  /** RFC 6901 JSON pointer into the document ('' for the root). */
  readonly pointer: string;
  /** Where the problem is in the text; absent when validating an in-memory value. */
  readonly range?: SourceRange;
  readonly related?: readonly RelatedInformation[];
}

/** Every stable diagnostic code of plan validation. */
export const DiagnosticCode = {
  /** error: the text is not parseable JSON (the range is the position of the first problem on its line). */
  JSON_SYNTAX: 'JSON_SYNTAX',
  /** warning: the file has comments or trailing commas; they are tolerated, but a plan is JSON. */
  JSON_COMMENT: 'JSON_COMMENT',
  /** error: a schema rule not covered by a more specific SCHEMA_* code (range, length, pattern, enum…). */
  SCHEMA_VIOLATION: 'SCHEMA_VIOLATION',
  /** error: a required property is missing; the pointer names the missing property, the range its parent object. */
  SCHEMA_REQUIRED: 'SCHEMA_REQUIRED',
  /** error: a property the schema does not define where unknown keys are refused (a rollback, a skill file); the range is its key. */
  SCHEMA_UNKNOWN_PROPERTY: 'SCHEMA_UNKNOWN_PROPERTY',
  /**
   * warning: the plan, a tool or a retry policy has a key this runtime does not know (typo such as "dependancies",
   * or a field of another runtime); it is ignored when the plan runs. The range is its key; the message may hold a "did you mean".
   */
  UNKNOWN_PROPERTY: 'UNKNOWN_PROPERTY',
  /** warning: a toolId has characters other than letters, digits and _ . : - (other runtimes allow them; this one runs it too). */
  TOOL_ID_UNUSUAL_CHARACTERS: 'TOOL_ID_UNUSUAL_CHARACTERS',
  /** error: a value has the wrong JSON type. */
  SCHEMA_TYPE: 'SCHEMA_TYPE',
  /** error: a string does not have the required format (uuid, date-time…). */
  SCHEMA_FORMAT: 'SCHEMA_FORMAT',
  /** error: two tools share a toolId; related information points at the first one. */
  DUPLICATE_TOOL_ID: 'DUPLICATE_TOOL_ID',
  /** error: a dependency names no tool of the plan (with a "did you mean" hint when one is close). */
  UNKNOWN_DEPENDENCY: 'UNKNOWN_DEPENDENCY',
  /** error: a tool lists itself as a dependency. */
  SELF_DEPENDENCY: 'SELF_DEPENDENCY',
  /** error: dependencies form a cycle; the message holds the path, e.g. `x -> y -> z -> x`. */
  DEPENDENCY_CYCLE: 'DEPENDENCY_CYCLE',
  /** warning: a tool lists the same dependency twice. */
  DUPLICATE_DEPENDENCY: 'DUPLICATE_DEPENDENCY',
  /** error: the toolPath (or rollback.toolPath) does not exist. */
  TOOL_PATH_NOT_FOUND: 'TOOL_PATH_NOT_FOUND',
  /** error: the toolPath exists but is not a regular file (a directory, for instance). */
  TOOL_PATH_NOT_A_FILE: 'TOOL_PATH_NOT_A_FILE',
  /** error: the toolPath resolves (following symlinks) outside the allowed skill directories. */
  TOOL_PATH_OUTSIDE_SKILLS: 'TOOL_PATH_OUTSIDE_SKILLS',
  /** error: retryPolicy.maxRetries or retryPolicy.backoffMs is below 0 (above the caps is RETRY_POLICY_CLAMPED). */
  RETRY_POLICY_OUT_OF_RANGE: 'RETRY_POLICY_OUT_OF_RANGE',
  /** warning: retryPolicy.maxRetries is above 10 or retryPolicy.backoffMs above 60000; the runtime clamps it to that cap. */
  RETRY_POLICY_CLAMPED: 'RETRY_POLICY_CLAMPED',
  /** warning: a tool belongs to a skill listed in the plan's disabledSkills. */
  TOOL_IN_DISABLED_SKILL: 'TOOL_IN_DISABLED_SKILL',
  /** info: the plan has no tools. */
  EMPTY_PLAN: 'EMPTY_PLAN',
  /**
   * error: a tool's `condition` is not a valid expression (see src/runtime/state/conditionExpression.ts);
   * the range is the character of the string literal where parsing failed (its closing quote when the expression ends too early).
   */
  CONDITION_SYNTAX: 'CONDITION_SYNTAX',
  /** error: a tool's `subPlan` file does not exist or is not a file. */
  SUB_PLAN_NOT_FOUND: 'SUB_PLAN_NOT_FOUND',
  /** error: the replan loop rejected a plan that uses a skill disabled for this attempt (reported by the turn runner). */
  PLAN_USES_DISABLED_SKILL: 'PLAN_USES_DISABLED_SKILL',
  /** error: a tool's `subPlan` file resolves outside the story root. */
  SUB_PLAN_OUTSIDE_ROOT: 'SUB_PLAN_OUTSIDE_ROOT',
  /** error: a value of a tool's `input` has a JSON type its script's inputSchema does not allow. */
  INPUT_TYPE_MISMATCH: 'INPUT_TYPE_MISMATCH',
  /** error: a value of a tool's `input` is not one of the values its script's inputSchema allows (`enum` or `const`). */
  INPUT_NOT_IN_ENUM: 'INPUT_NOT_IN_ENUM',
  /**
   * error: a tool's `input` lacks a property its script's inputSchema requires; the pointer names the
   * missing property, the range is the object that should hold it (the toolPath when the tool has no input).
   */
  INPUT_REQUIRED_MISSING: 'INPUT_REQUIRED_MISSING',
  /** error: a tool's `input` breaks another rule of its script's inputSchema (minLength, pattern, minimum, format…). */
  INPUT_SCHEMA_VIOLATION: 'INPUT_SCHEMA_VIOLATION',
  /** warning: a tool's `input` has a property its script's inputSchema does not list; the range is its key. */
  INPUT_UNKNOWN_PROPERTY: 'INPUT_UNKNOWN_PROPERTY',
  /** warning: the toolPath names a file of a skill that the skill's skill.json does not declare as a script. */
  SCRIPT_NOT_DECLARED: 'SCRIPT_NOT_DECLARED',
  /**
   * info: the toolPath names no file but a skill's script by an alias or by its name in another form (other runtimes'
   * `skills/dice-roller/roll-dice.dart`); the script runs, and the message gives its canonical toolPath.
   */
  SCRIPT_ALIAS: 'SCRIPT_ALIAS',
  /** warning: the toolPath names a script of a skill the user disabled in this session. */
  SKILL_DISABLED: 'SKILL_DISABLED',
  /** warning: the toolPath names a script of a skill whose health is permanentFailure in this session. */
  SKILL_PERMANENT_FAILURE: 'SKILL_PERMANENT_FAILURE',
  /** error: the toolPath names a file of a skill whose skill.json cannot be read, does not parse or does not validate (the message gives its file, line and column). */
  SKILL_BROKEN: 'SKILL_BROKEN',
} as const;

/** A stable diagnostic code (the values of {@link DiagnosticCode}). */
export type DiagnosticCode = (typeof DiagnosticCode)[keyof typeof DiagnosticCode];

/** A diagnostic before it gets a source range (what the checks produce). */
export interface DiagnosticDraft {
  readonly severity: DiagnosticSeverity;
  readonly code: DiagnosticCode;
  readonly message: string;
  readonly pointer: string;
  /** Range on the property key instead of the value (unknown properties). */
  readonly target?: PointerTarget;
  /** Where the range goes when it is not at `pointer` (e.g. the object missing a required property). */
  readonly rangePointer?: string;
  /** A span of the decoded string value at `pointer` (0-based code units): the range covers its characters in the literal. */
  readonly stringSpan?: { readonly start: number; readonly length: number };
  readonly related?: readonly RelatedInformation[];
}

/** A diagnostic in the flat shape of contracts/validate-report.schema.json (`#/$defs/Diagnostic`). */
export interface ReportDiagnostic {
  readonly severity: DiagnosticSeverity;
  readonly code: string;
  readonly message: string;
  readonly pointer: string;
  readonly line: number | null;
  readonly column: number | null;
  readonly endLine: number | null;
  readonly endColumn: number | null;
  readonly related?: readonly { readonly pointer: string; readonly message: string }[];
  /** The file the diagnostic is in, when it is not the entry's own (a broken skill.json of the story); line and column are in it. */
  readonly file?: string;
}

/** Converts a diagnostic to the flat shape the CLI prints (`narratoria validate --format json`). */
export function toReportDiagnostic(diagnostic: Diagnostic): ReportDiagnostic {
  const report = reportFields(diagnostic);
  if (!diagnostic.related || diagnostic.related.length === 0) return report;
  return { ...report, related: diagnostic.related.map(({ pointer, message }) => ({ pointer, message })) };
}

/** The report shape's own fields (what, where, as 1-based line and column or null), without `file` and `related`: plans' and campaigns' diagnostics share them. */
export function reportFields(diagnostic: Pick<Diagnostic, 'severity' | 'message' | 'pointer' | 'range'> & { readonly code: string }): ReportDiagnostic {
  const range = diagnostic.range;
  return {
    severity: diagnostic.severity,
    code: diagnostic.code,
    message: diagnostic.message,
    pointer: diagnostic.pointer,
    line: range?.start.line ?? null,
    column: range?.start.column ?? null,
    endLine: range?.end.line ?? null,
    endColumn: range?.end.column ?? null,
  };
}

/** Orders two positions: negative when `left` comes first. */
export function comparePositions(left: SourcePosition, right: SourcePosition): number {
  return left.line - right.line || left.column - right.column;
}
