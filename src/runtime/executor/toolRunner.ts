// The port through which the executor runs one attempt of one tool (a real process by default, a fake in tests).
import type { NormalizedTool } from '../contractTypes/plan.js';
import type { DoneEvent, ToolEvent } from '../contractTypes/toolEvent.js';
import type { RunWarning, ToolError, ToolOutput } from '../contractTypes/executionResult.js';

/** The JSON document a script receives on stdin. */
export interface ToolStdin {
  readonly requestId: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
  /** Output of each dependency, or null when that dependency failed (non-required). */
  readonly dependencies: Record<string, ToolOutput | null>;
  /** Session state snapshot when the tool starts. */
  readonly state: Record<string, unknown>;
}

export interface ToolAttemptRequest {
  readonly tool: NormalizedTool;
  /** Real path of the script (already checked by the tool-path policy). */
  readonly scriptPath: string;
  readonly skill: string | null;
  /** 1 for the first try, 2 for the first retry… */
  readonly attempt: number;
  readonly stdin: ToolStdin;
  readonly timeoutMs: number;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  /** Each valid event, in order; a returned promise holds the stream until it settles. */
  readonly onEvent: (event: ToolEvent) => void | Promise<void>;
  readonly onWarning: (warning: RunWarning) => void;
  readonly onStderr?: ((text: string) => void) | undefined;
}

export interface ToolAttemptOutcome {
  /** True when the script exited 0 after a `done` with ok: true and no protocol error. */
  readonly ok: boolean;
  readonly done?: DoneEvent | undefined;
  readonly error?: ToolError | undefined;
  /** False for failures a retry cannot fix (missing script, not executable, cancelled). */
  readonly retryable: boolean;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stderrTail: string;
  readonly durationMs: number;
}

export interface ToolRunner {
  run(request: ToolAttemptRequest): Promise<ToolAttemptOutcome>;
}

export type { ToolOutput };
