// Typed observation events and hold hooks of a plan run (consumed by the play panel, tree and debugger).
import type { ExecutionResult, RunWarning, ToolError, ToolOutput, ToolResult } from '../contractTypes/executionResult.js';
import type { NormalizedTool } from '../contractTypes/plan.js';
import type { ToolEvent } from '../contractTypes/toolEvent.js';
import type { ToolStdin } from './toolRunner.js';

export interface ToolStartedEvent {
  readonly planId: string;
  readonly toolId: string;
  readonly attempt: number;
  readonly scriptPath: string;
  readonly skill: string | null;
  readonly startedAt: string;
}

export interface ToolEventEmittedEvent {
  readonly planId: string;
  readonly toolId: string;
  readonly attempt: number;
  readonly event: ToolEvent;
  /** 0-based index of the event within this attempt. */
  readonly index: number;
}

export interface RetryScheduledEvent {
  readonly planId: string;
  readonly toolId: string;
  /** The attempt that will run next (2 for the first retry). */
  readonly nextAttempt: number;
  readonly delayMs: number;
  readonly error: ToolError;
}

export interface ToolFinishedEvent {
  readonly planId: string;
  readonly result: ToolResult;
}

export interface StateChangedEvent {
  readonly planId: string;
  /** The tool whose patches were just committed. */
  readonly toolId: string;
  readonly state: Record<string, unknown>;
  readonly changedKeys: readonly string[];
}

export interface WarningRaisedEvent {
  readonly planId: string;
  readonly warning: RunWarning;
}

export interface StderrEvent {
  readonly planId: string;
  readonly toolId: string;
  readonly attempt: number;
  readonly text: string;
}

export interface PlanFinishedEvent {
  readonly result: ExecutionResult;
}

/** Information given to the hold hook before a tool attempt starts. */
export interface BeforeToolStartInfo {
  readonly planId: string;
  readonly tool: NormalizedTool;
  readonly attempt: number;
  readonly stdin: ToolStdin;
}

/** Information given to the hold hook before an event is applied. */
export interface BeforeEventApplyInfo {
  readonly planId: string;
  readonly toolId: string;
  readonly attempt: number;
  readonly event: ToolEvent;
  readonly index: number;
}

/** Information given to the hold hook after a tool attempt ended (before a retry's backoff, or the tool's result). */
export interface AfterToolAttemptInfo {
  readonly planId: string;
  readonly tool: NormalizedTool;
  readonly attempt: number;
  readonly ok: boolean;
  readonly timedOut: boolean;
  readonly error?: ToolError | undefined;
  readonly exitCode: number | null;
  readonly durationMs: number;
  /** What this attempt would hand its dependents. */
  readonly output: ToolOutput;
  /** False when this attempt decides the tool's outcome. */
  readonly willRetry: boolean;
}

/** What a `beforeToolStart` hook may replace in the script's stdin (a debugger's edits); the rest is kept. */
export interface ToolStdinEdit {
  readonly input?: Record<string, unknown> | undefined;
  readonly state?: Record<string, unknown> | undefined;
}

/** Information given to the hold hook before the re-planner is asked for more steps (docs/plan-json-and-protocol.md#re-planning-for-more-context). */
export interface BeforeRePlanInfo {
  readonly planId: string;
  /** The tool whose `done` asked for more context. */
  readonly toolId: string;
  /** 1 for the first re-planning of this run. */
  readonly iteration: number;
  readonly suggestion?: string | undefined;
}

/**
 * Hooks that may hold the executor: while a returned promise is pending, that tool does not start
 * (or that event is not applied and the script's stdout is paused). A step-through debugger drives these.
 */
export interface ExecutionHooks {
  /** May resolve to an edit of what the script receives on stdin. */
  readonly beforeToolStart?: (info: BeforeToolStartInfo) => void | ToolStdinEdit | Promise<void | ToolStdinEdit | undefined>;
  readonly beforeEventApply?: (info: BeforeEventApplyInfo) => void | Promise<void>;
  /** Called when an attempt's process has ended, before any retry; holding it delays the retry or the result. */
  readonly afterToolAttempt?: (info: AfterToolAttemptInfo) => void | Promise<void>;
  /** Called before the re-planner is asked; holding it delays re-planning. */
  readonly beforeRePlan?: (info: BeforeRePlanInfo) => void | Promise<void>;
}
