// Typed messages between the skill-script Inspector panel's extension side and its webview (docs/design-rules.md#typed-webview-messages).
import type { InspectorRow, StderrChunk, VerdictCard } from '../runtime/inspect/inspectorSession.js';

export type { InspectorRow, StderrChunk, VerdictCard };

/**
 * A row as posted to the view: an `asset` row also says how the view may show its file (the extension resolves it:
 * a webview URI for a file inside the allowed folders, else the reason there is none).
 */
export type InspectorRowView = InspectorRow & { readonly assetUri?: string; readonly assetUnavailable?: string };

/** What the panel shows: a live run of a script, or a recording replayed with no process. */
export interface InspectorSubject {
  /** Shown in the header, e.g. `weather/report.js` or `run-1.ndjson`. */
  readonly title: string;
  readonly source: 'live' | 'recording';
  /** The input the script got, as JSON text. */
  readonly input: string;
  /** True when Run and Rerun can start the script (a live subject in a trusted workspace). */
  readonly canRun: boolean;
  /** Inputs the author can start from: the skill's samples/*.json and the last input used (live subjects only). */
  readonly inputChoices?: readonly InputChoice[];
  /** True when a previous run of the same script is kept, so Compare with Previous Run can diff the two. */
  readonly canCompare?: boolean;
  /** What the extension needs to show this subject again after a window reload (the view keeps it with setState). */
  readonly restore?: InspectorRestore;
}

/** A ready-made input: a sample file, the last input used, or an empty object. */
export interface InputChoice {
  readonly label: string;
  readonly detail?: string;
  /** The JSON text put in the input editor. */
  readonly text: string;
}

/** A live script (by its real path) or a recording file to show again after a reload. */
export type InspectorRestore = { readonly kind: 'live'; readonly scriptPath: string } | { readonly kind: 'recording'; readonly file: string };

/** A problem of the input, found before the run (contracts: JSON pointer relative to the input). */
export interface InputProblemView {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly pointer: string;
}

/** Extension → webview. */
export type ToInspectorWebview =
  /** A new run or recording starts: clear every row, stderr and the verdict. */
  | { readonly type: 'reset'; readonly subject: InspectorSubject; readonly running: boolean }
  /** Rows appended in order, batched; `droppedRows` is the count the row cap has dropped so far. */
  | { readonly type: 'rows'; readonly rows: readonly InspectorRowView[]; readonly droppedRows: number }
  /** stderr chunks with their time since start. */
  | { readonly type: 'stderr'; readonly chunks: readonly StderrChunk[] }
  /** The run ended (or the recording was replayed): the verdict card. */
  | { readonly type: 'verdict'; readonly verdict: VerdictCard }
  /** The subject changed without new rows (e.g. a previous run is now kept to compare with). */
  | { readonly type: 'subject'; readonly subject: InspectorSubject }
  /** The input the author asked to run was refused (or runs with warnings): shown under the input editor. */
  | { readonly type: 'inputProblems'; readonly problems: readonly InputProblemView[] }
  /** A recording was saved (or saving failed). */
  | { readonly type: 'notice'; readonly message: string; readonly level: 'info' | 'error' };

/** Webview → extension. */
export type FromInspectorWebview =
  | { readonly type: 'ready' }
  /** Run the script with the input editor's JSON text (checked against the script's inputSchema first). */
  | { readonly type: 'run'; readonly input: string }
  /** Stop the running script. */
  | { readonly type: 'stop' }
  /** Run the script again with the same input. */
  | { readonly type: 'rerun' }
  /** Open VS Code's diff editor on the previous run's stdout lines and this run's. */
  | { readonly type: 'compare' }
  /** Save the last run as a recording through a save dialog. */
  | { readonly type: 'saveRecording' }
  /** The selected row changed (its index in the kept rows). */
  | { readonly type: 'selectRow'; readonly index: number }
  /** Something went wrong in the view (reported in the log). */
  | { readonly type: 'viewError'; readonly message: string };
