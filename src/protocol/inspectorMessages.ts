// Typed messages between the skill-script Inspector panel's extension side and its webview (DESIGN.md convention 4).
import type { InspectorRow, StderrChunk, VerdictCard } from '../runtime/inspect/inspectorSession.js';

export type { InspectorRow, StderrChunk, VerdictCard };

/** What the panel shows: a live run of a script, or a recording replayed with no process. */
export interface InspectorSubject {
  /** Shown in the header, e.g. `weather/report.js` or `run-1.ndjson`. */
  readonly title: string;
  readonly source: 'live' | 'recording';
  /** The input the script got, as JSON text. */
  readonly input: string;
  /** True when Run and Rerun can start the script (a live subject in a trusted workspace). */
  readonly canRun: boolean;
}

/** Extension → webview. */
export type ToInspectorWebview =
  /** A new run or recording starts: clear every row, stderr and the verdict. */
  | { readonly type: 'reset'; readonly subject: InspectorSubject; readonly running: boolean }
  /** Rows appended in order, batched; `droppedRows` is the count the row cap has dropped so far. */
  | { readonly type: 'rows'; readonly rows: readonly InspectorRow[]; readonly droppedRows: number }
  /** stderr chunks with their time since start. */
  | { readonly type: 'stderr'; readonly chunks: readonly StderrChunk[] }
  /** The run ended (or the recording was replayed): the verdict card. */
  | { readonly type: 'verdict'; readonly verdict: VerdictCard }
  /** A recording was saved (or saving failed). */
  | { readonly type: 'notice'; readonly message: string; readonly level: 'info' | 'error' };

/** Webview → extension. */
export type FromInspectorWebview =
  | { readonly type: 'ready' }
  /** Run the script again, picking a new input. */
  | { readonly type: 'run' }
  /** Stop the running script. */
  | { readonly type: 'stop' }
  /** Run the script again with the same input. */
  | { readonly type: 'rerun' }
  /** Save the last run as a recording through a save dialog. */
  | { readonly type: 'saveRecording' }
  /** The selected row changed (its index in the kept rows). */
  | { readonly type: 'selectRow'; readonly index: number }
  /** Something went wrong in the view (reported in the log). */
  | { readonly type: 'viewError'; readonly message: string };
