// The NDJSON protocol rules for one invocation: classifies each stdout line and decides the final verdict.
import type { RunWarning, ToolError } from '../contractTypes/executionResult.js';
import type { DoneEvent, ToolEvent } from '../contractTypes/toolEvent.js';
import { decodeEventLine } from './eventDecoder.js';
import { DEFAULT_MAX_LINE_BYTES } from './lineSplitter.js';

export type LineStatus = 'event' | 'invalid_json' | 'invalid_event' | 'unknown_type' | 'too_long' | 'after_done' | 'blank';

/** What one stdout line turned out to be. */
export interface LineReport {
  readonly status: LineStatus;
  readonly event?: ToolEvent | undefined;
  readonly problem?: string | undefined;
  /** Set when this line ends the invocation (the first protocol error). */
  readonly fatal?: ToolError | undefined;
  readonly warning?: Omit<RunWarning, 'toolId'> | undefined;
}

/** A stdout item as the launcher delivers it. */
export type ProtocolInput =
  | { readonly kind: 'line'; readonly line: string; readonly lineNumber: number; readonly partial: boolean; readonly mayHaveReplacements?: boolean }
  | { readonly kind: 'oversized'; readonly lineNumber: number; readonly byteLength: number };

/** How the process ended, as the launcher reports it. */
export interface ProcessEnd {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly spawnError?: { readonly code: string; readonly message: string } | undefined;
  readonly stderrTail: string;
}

export interface ProtocolVerdict {
  readonly ok: boolean;
  readonly error?: ToolError | undefined;
  /** False when a retry cannot help (cannot start the script, cancelled). */
  readonly retryable: boolean;
}

/** Tracks `done` and the first protocol error of one invocation (docs/plan-json-and-protocol.md#the-ndjson-protocol). */
export class ProtocolSession {
  done: DoneEvent | undefined;
  fatal: ToolError | undefined;

  constructor(private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {}

  /** Classifies one stdout item. Events after `done` are ignored with a warning. */
  accept(item: ProtocolInput): LineReport {
    if (item.kind === 'oversized') {
      return this.fail(
        'too_long',
        'LINE_TOO_LONG',
        `stdout line ${item.lineNumber} is ${item.byteLength} bytes, over the ${this.maxLineBytes}-byte limit`,
        'protocol_violation',
        { lineNumber: item.lineNumber, byteLength: item.byteLength },
      );
    }
    const decoded = decodeEventLine(item.line, item.mayHaveReplacements ?? true);
    if (decoded.kind === 'blank') return { status: 'blank' };
    if (this.done) {
      return {
        status: 'after_done',
        problem: 'came after "done" and was ignored',
        warning: {
          code: 'EVENT_AFTER_DONE',
          message: `line ${item.lineNumber} came after "done" and was ignored`,
          details: { lineNumber: item.lineNumber, line: item.line.slice(0, 200) },
        },
      };
    }
    switch (decoded.kind) {
      case 'invalid_json':
        return item.partial
          ? this.fail(
              'invalid_json',
              'TRUNCATED_OUTPUT',
              `the last stdout line has no newline and is not valid JSON (output cut short?): ${decoded.problem}`,
              'invalid_json',
              { lineNumber: item.lineNumber },
            )
          : this.fail('invalid_json', 'INVALID_JSON', `stdout line ${item.lineNumber} is ${decoded.problem}`, 'invalid_json', {
              lineNumber: item.lineNumber,
              line: item.line.slice(0, 200),
            });
      case 'unknown_type':
        return this.fail('unknown_type', 'UNKNOWN_EVENT_TYPE', `stdout line ${item.lineNumber}: ${decoded.problem}`, 'protocol_violation', {
          lineNumber: item.lineNumber,
        });
      case 'invalid_event':
        return this.fail('invalid_event', 'INVALID_EVENT', `stdout line ${item.lineNumber}: ${decoded.problem}`, 'protocol_violation', {
          lineNumber: item.lineNumber,
        });
      case 'event':
        if (decoded.event.type === 'done') this.done = decoded.event;
        return {
          status: 'event',
          event: decoded.event,
          warning: decoded.replacedInvalidUtf8
            ? {
                code: 'INVALID_UTF8',
                message: `line ${item.lineNumber} contained bytes that are not UTF-8; they were replaced with U+FFFD`,
                details: { lineNumber: item.lineNumber },
              }
            : undefined,
        };
    }
  }

  /** The outcome of the invocation once the process has ended. */
  verdict(end: ProcessEnd, timeoutMs: number, scriptPath: string): ProtocolVerdict {
    const fail = (error: ToolError, retryable = true): ProtocolVerdict => ({ ok: false, error, retryable });
    if (end.spawnError) {
      const permanent = end.spawnError.code === 'ENOENT' || end.spawnError.code === 'EACCES';
      return fail(
        toolError('SPAWN_FAILED', `could not start ${scriptPath}: ${end.spawnError.message}`, 'process_error', { code: end.spawnError.code }),
        !permanent,
      );
    }
    if (end.cancelled) return fail(toolError('CANCELLED', 'the run was cancelled', 'cancelled'), false);
    if (end.timedOut) return fail(toolError('TOOL_TIMEOUT', `Tool exceeded ${timeoutMs}ms timeout`, 'timeout', { timeoutMs }));
    if (this.fatal) return fail(this.fatal);
    if (end.exitCode !== 0) {
      const how = end.signal ? `was killed by ${end.signal}` : `exited with code ${end.exitCode}`;
      const message = this.done ? `the script ${how} after its done event` : `the script ${how} without a done event`;
      return fail(
        toolError(end.signal ? 'PROCESS_KILLED' : 'NONZERO_EXIT', message, 'process_error', {
          exitCode: end.exitCode,
          signal: end.signal,
          sawDone: Boolean(this.done),
          stderrTail: end.stderrTail.slice(-2000),
        }),
      );
    }
    if (!this.done) return fail(toolError('MISSING_DONE', 'the script exited 0 without emitting a done event', 'protocol_violation'));
    if (!this.done.ok) {
      return fail(
        toolError(
          'TOOL_REPORTED_FAILURE',
          this.done.summary ? `the tool reported failure: ${this.done.summary}` : 'the tool reported failure (done.ok = false)',
          'tool_failure',
        ),
      );
    }
    return { ok: true, retryable: false };
  }

  private fail(status: LineStatus, code: string, message: string, category: ToolError['category'], details: Record<string, unknown>): LineReport {
    const error = toolError(code, message, category, details);
    const first = !this.fatal;
    if (first) this.fatal = error;
    return { status, problem: message, fatal: first ? error : undefined };
  }
}

/** Builds a ToolError, omitting empty details. */
export function toolError(code: string, message: string, category: ToolError['category'], details?: Record<string, unknown>): ToolError {
  return details ? { code, message, category, details } : { code, message, category };
}
