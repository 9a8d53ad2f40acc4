// How the inspector labels one classified stdout line: its verdict mark and a one-line summary.
import type { ToolEvent } from '../contractTypes/toolEvent.js';
import type { InspectedLine } from './inspectScript.js';

/** ok ✔ (an event), error ✖ (not valid protocol), warning ⚠ (ignored, repaired or over the line limit), blank. */
export type RowMark = 'ok' | 'error' | 'warning' | 'blank';

const SUMMARY_LIMIT = 160;

export function rowMark(line: InspectedLine): RowMark {
  switch (line.status) {
    case 'event':
      return line.problem ? 'warning' : 'ok';
    case 'after_done':
    // Over the line limit: cut and not decoded; the verdict card still says how the runtime ends the run.
    case 'too_long':
      return 'warning';
    case 'blank':
      return 'blank';
    case 'invalid_json':
    case 'invalid_event':
    case 'unknown_type':
      return 'error';
  }
}

export function rowSummary(line: InspectedLine): string {
  // The line number has its own column: "stdout line 3: unknown event type…" reads "unknown event type…".
  const text =
    line.event && line.status === 'event' ? eventSummary(line.event) : (line.problem?.replace(/^stdout line \d+(?::\s*|\s+is\s+)/, '') ?? line.text ?? '');
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SUMMARY_LIMIT ? flat.slice(0, SUMMARY_LIMIT - 1) + '…' : flat;
}

function eventSummary(event: ToolEvent): string {
  switch (event.type) {
    case 'log':
      return `${event.level}: ${event.message}`;
    case 'state_patch':
      return `patch ${Object.keys(event.patch).join(', ') || '(empty)'}`;
    case 'asset':
      return `${event.kind} ${event.mediaType} ${event.path}`;
    case 'ui_event':
      return `${event.event}${event.payload ? ' ' + JSON.stringify(event.payload) : ''}`;
    case 'error':
      return `${event.errorCode}: ${event.errorMessage}`;
    case 'done':
      return `${event.ok ? 'ok' : 'failed'}${event.summary ? ': ' + event.summary : ''}`;
  }
}
