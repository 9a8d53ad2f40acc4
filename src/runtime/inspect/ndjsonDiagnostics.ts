// Problems of an .ndjson recording opened in the editor, per line, from the runtime's own decoder: invalid JSON, unknown types, schema violations, lines after done, a missing done.
import { inspectRecording } from './inspectReplay.js';
import { recordingOfText } from './recording.js';

export interface NdjsonDiagnostic {
  /** 1-based. */
  readonly line: number;
  /** 1-based; endColumn exclusive. */
  readonly column: number;
  readonly endColumn: number;
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
}

/**
 * The problems of an .ndjson text (a script's stdout), as a plan run would see them: invalid JSON at its column, an
 * unknown type at its name (the decoder's message says "did you mean").
 */
export function diagnoseNdjson(text: string): NdjsonDiagnostic[] {
  const recording = recordingOfText(text);
  const report = inspectRecording(recording, 'recording');
  const diagnostics: NdjsonDiagnostic[] = [];
  for (const line of report.lines) {
    const raw = recording.texts[line.lineNumber - 1] ?? '';
    const whole = { line: line.lineNumber, column: 1, endColumn: Math.max(2, raw.length + 1) };
    switch (line.status) {
      case 'invalid_json': {
        const position = /position (\d+)/.exec(line.problem ?? '');
        const column = position ? Number(position[1]) + 1 : 1;
        diagnostics.push({
          ...whole,
          ...(position ? { column, endColumn: column + 1 } : {}),
          severity: 'error',
          code: 'INVALID_JSON',
          message: line.problem ?? 'not valid JSON',
        });
        break;
      }
      case 'unknown_type': {
        const type = /unknown event type "([^"]*)"/.exec(line.problem ?? '')?.[1];
        const at = type !== undefined ? raw.indexOf(`"${type}"`) : -1;
        diagnostics.push({
          ...whole,
          ...(at >= 0 ? { column: at + 1, endColumn: at + type!.length + 3 } : {}),
          severity: 'error',
          code: 'UNKNOWN_EVENT_TYPE',
          message: line.problem ?? 'unknown event type',
        });
        break;
      }
      case 'invalid_event':
        diagnostics.push({ ...whole, severity: 'error', code: 'INVALID_EVENT', message: line.problem ?? 'the event does not match its schema' });
        break;
      case 'too_long':
        diagnostics.push({ ...whole, severity: 'error', code: 'LINE_TOO_LONG', message: line.problem ?? 'the line is over the byte limit' });
        break;
      case 'after_done':
        diagnostics.push({ ...whole, severity: 'warning', code: 'EVENT_AFTER_DONE', message: 'this line comes after "done": a plan run ignores it' });
        break;
      case 'event':
        if (line.problem) diagnostics.push({ ...whole, severity: 'warning', code: 'INVALID_UTF8', message: line.problem });
        break;
      case 'blank':
        break;
    }
  }
  const sawDone = report.lines.some((line) => line.status === 'event' && line.event?.type === 'done');
  if (!sawDone) {
    const last = recording.texts.length;
    diagnostics.push({
      line: Math.max(1, last),
      column: 1,
      endColumn: Math.max(2, (recording.texts[last - 1] ?? '').length + 1),
      severity: 'error',
      code: 'MISSING_DONE',
      message: 'no "done" event: a plan run counts this as a protocol violation',
    });
  }
  return diagnostics;
}
