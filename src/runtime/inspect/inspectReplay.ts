// A recording inspected again without running anything: the same classification and verdict as the live run (inspect --replay, the inspector's Open in Inspector).
import { DEFAULT_TOOL_TIMEOUT_MS } from '../contractTypes/plan.js';
import { ProtocolSession } from '../skillProtocol/protocolSession.js';
import { inspectLine, inspectVerdict, type InspectedLine, type InspectReport } from './inspectScript.js';
import { recordedItems, type Recording } from './recording.js';

/** Replays a recording through the runtime's decoder; `onLine` sees each line as the live run did. */
export function inspectRecording(recording: Recording, scriptLabel: string, onLine?: (line: InspectedLine) => void): InspectReport {
  const meta = recording.meta;
  const session = new ProtocolSession(meta.maxLineBytes);
  const lines = recordedItems(recording).map((item) => {
    const line = inspectLine(session, item);
    onLine?.(line);
    return line;
  });
  const stderr = meta.stderr.map((chunk) => chunk.text).join('');
  const end = {
    exitCode: meta.exitCode,
    signal: meta.signal,
    timedOut: meta.timedOut,
    cancelled: false,
    ...(meta.spawnError ? { spawnError: meta.spawnError } : {}),
    stderrTail: stderr.slice(-8192),
  };
  const script = meta.script || scriptLabel;
  return {
    script,
    command: meta.command ?? [],
    durationMs: meta.durationMs,
    lines,
    stderr,
    exitCode: meta.exitCode,
    signal: meta.signal,
    timedOut: meta.timedOut,
    verdict: inspectVerdict(session, end, meta.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS, script),
  };
}
