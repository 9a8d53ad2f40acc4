// The Inspector panel's model of one script run (live or replayed): capped rows, stderr, the state after each patch, the verdict card.
import type { ErrorCategory } from '../contractTypes/executionResult.js';
import type { DoneEvent, ToolEvent } from '../contractTypes/toolEvent.js';
import type { LineStatus } from '../skillProtocol/protocolSession.js';
import { changedKeys, deepMerge, type JsonObject } from '../state/deepMerge.js';
import type { InspectedLine, InspectReport } from './inspectScript.js';
import { inspectRecording } from './inspectReplay.js';
import type { Recording } from './recording.js';
import { rowMark, rowSummary, type RowMark } from './inspectorRows.js';

/** Rows kept by default; later rows are counted as dropped. */
export const DEFAULT_MAX_ROWS = 50_000;

/** One stdout line as the inspector shows it. */
export interface InspectorRow {
  /** Position in the kept rows (0-based). */
  readonly index: number;
  readonly lineNumber: number;
  readonly elapsedMs: number;
  readonly status: LineStatus;
  /** The event's type; `ignored` after done, `blank`, or `invalid` for a line the runtime refuses. */
  readonly type: ToolEvent['type'] | 'invalid' | 'ignored' | 'blank';
  readonly mark: RowMark;
  readonly summary: string;
  readonly text?: string;
  readonly byteLength?: number;
  readonly problem?: string;
  readonly event?: ToolEvent;
  /** After a state_patch: the state merged so far and the top-level keys this patch changed. */
  readonly state?: { readonly after: JsonObject; readonly changed: readonly string[] };
}

export interface StderrChunk {
  readonly elapsedMs: number;
  readonly text: string;
}

/** The card shown when the run ends. */
export interface VerdictCard {
  readonly ok: boolean;
  readonly message: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  /** `done.ok` and its summary, when the script sent done. */
  readonly done?: { readonly ok: boolean; readonly summary?: string };
  readonly durationMs: number;
  readonly category?: ErrorCategory;
  readonly code?: string;
  /** Whether a plan with a retry policy would retry it (the executor's own flag); false on success. */
  readonly retryable: boolean;
  readonly lineCount: number;
  readonly droppedRows: number;
}

export class InspectorSession {
  readonly rows: InspectorRow[] = [];
  readonly stderr: StderrChunk[] = [];
  droppedRows = 0;
  lineCount = 0;
  verdict: VerdictCard | undefined;
  private state: JsonObject = {};
  private done: DoneEvent | undefined;

  constructor(private readonly maxRows = DEFAULT_MAX_ROWS) {}

  /** The state merged from every state_patch so far (dropped rows included). */
  get currentState(): JsonObject {
    return this.state;
  }

  /** Adds one classified line; returns its row, or undefined when the cap dropped it. */
  addLine(line: InspectedLine): InspectorRow | undefined {
    this.lineCount++;
    let state: InspectorRow['state'];
    if (line.status === 'event' && line.event) {
      if (line.event.type === 'state_patch') {
        const before = this.state;
        this.state = deepMerge(before, line.event.patch);
        state = { after: this.state, changed: changedKeys(before, this.state) };
      } else if (line.event.type === 'done') {
        this.done ??= line.event;
      }
    }
    if (this.rows.length >= this.maxRows) {
      this.droppedRows++;
      return undefined;
    }
    const row: InspectorRow = {
      index: this.rows.length,
      lineNumber: line.lineNumber,
      elapsedMs: line.elapsedMs,
      status: line.status,
      type: line.event?.type ?? (line.status === 'after_done' ? 'ignored' : line.status === 'blank' ? 'blank' : 'invalid'),
      mark: rowMark(line),
      summary: rowSummary(line),
      ...(line.text !== undefined ? { text: line.text } : {}),
      ...(line.byteLength !== undefined ? { byteLength: line.byteLength } : {}),
      ...(line.problem ? { problem: line.problem } : {}),
      ...(line.event ? { event: line.event } : {}),
      ...(state ? { state } : {}),
    };
    this.rows.push(row);
    return row;
  }

  addStderr(chunk: StderrChunk): void {
    this.stderr.push(chunk);
  }

  /** The verdict card from the finished report (inspectScript's or inspectRecording's). */
  finish(report: InspectReport): VerdictCard {
    const verdict = report.verdict;
    this.verdict = {
      ok: verdict.ok,
      message: verdict.message,
      exitCode: report.exitCode,
      signal: report.signal,
      timedOut: report.timedOut,
      ...(this.done ? { done: { ok: this.done.ok, ...(this.done.summary !== undefined ? { summary: this.done.summary } : {}) } } : {}),
      durationMs: Math.round(report.durationMs),
      ...(verdict.category ? { category: verdict.category } : {}),
      ...(verdict.code ? { code: verdict.code } : {}),
      retryable: !verdict.ok && verdict.retryable === true,
      lineCount: this.lineCount,
      droppedRows: this.droppedRows,
    };
    return this.verdict;
  }

  /** A recording replayed into a new session: the same rows, stderr and verdict as its live run, nothing run. */
  static fromRecording(recording: Recording, scriptLabel: string, maxRows = DEFAULT_MAX_ROWS): InspectorSession {
    const session = new InspectorSession(maxRows);
    const report = inspectRecording(recording, scriptLabel, (line) => session.addLine(line));
    for (const chunk of recording.meta.stderr) session.addStderr(chunk);
    session.finish(report);
    return session;
  }
}
