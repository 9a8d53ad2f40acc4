// A skill script's recorded run: its raw stdout lines (.ndjson) and a sidecar of input, timings, stderr and exit (contracts/recording.schema.json), for inspect --record and replays.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../common/atomicWrite.js';
import { isPlainObject } from '../state/deepMerge.js';
import type { ProtocolInput } from '../skillProtocol/protocolSession.js';

/** Mirrors contracts/recording.schema.json (the sidecar). */
export interface RecordingMeta {
  readonly formatVersion: 1;
  readonly script: string;
  readonly command?: readonly string[];
  readonly root?: string;
  readonly input: Record<string, unknown>;
  readonly recordedAt?: string;
  readonly timeoutMs?: number;
  readonly maxLineBytes?: number;
  readonly durationMs: number;
  readonly lines: readonly RecordedLine[];
  readonly stderr: readonly { readonly elapsedMs: number; readonly text: string }[];
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly spawnError?: { readonly code: string; readonly message: string };
}

export interface RecordedLine {
  readonly lineNumber: number;
  readonly elapsedMs: number;
  readonly byteLength?: number;
  readonly oversized?: boolean;
  readonly partial?: boolean;
}

/** A recording in memory: the raw lines (empty for an oversized one) and the sidecar. */
export interface Recording {
  readonly texts: readonly string[];
  readonly meta: RecordingMeta;
}

/** The sidecar's path: `<name>.ndjson.meta.json`. */
export function metaFileOf(ndjsonFile: string): string {
  return `${ndjsonFile}.meta.json`;
}

/** Writes both files atomically. The last line gets no newline when the script's had none. */
export async function writeRecording(ndjsonFile: string, recording: Recording): Promise<void> {
  const last = recording.meta.lines.at(-1);
  const body = recording.texts.join('\n') + (recording.texts.length > 0 && !last?.partial ? '\n' : '');
  await writeFileAtomic(ndjsonFile, body);
  await writeFileAtomic(metaFileOf(ndjsonFile), `${JSON.stringify(recording.meta, null, 2)}\n`);
}

/** A recording that cannot be read, with the reason. */
export class RecordingError extends Error {}

/**
 * Reads a recording. Without a sidecar (an .ndjson file from elsewhere), every line counts as written at 0 ms and
 * the process as having exited 0.
 */
export async function readRecording(ndjsonFile: string): Promise<Recording> {
  let body: string;
  try {
    body = await readFile(ndjsonFile, 'utf8');
  } catch (error) {
    throw new RecordingError(`cannot read ${ndjsonFile} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let metaText: string | undefined;
  try {
    metaText = await readFile(metaFileOf(ndjsonFile), 'utf8');
  } catch {
    metaText = undefined;
  }
  const bare = recordingOfText(body);
  if (metaText === undefined) return bare;
  const texts = bare.texts;
  let meta: unknown;
  try {
    meta = JSON.parse(metaText);
  } catch (error) {
    throw new RecordingError(`${metaFileOf(ndjsonFile)} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isPlainObject(meta) || meta['formatVersion'] !== 1 || !Array.isArray(meta['lines']))
    throw new RecordingError(`${metaFileOf(ndjsonFile)} is not a recording sidecar (formatVersion 1)`);
  const recorded = meta as unknown as RecordingMeta;
  if (recorded.lines.length !== texts.length) {
    throw new RecordingError(
      `${ndjsonFile} has ${texts.length} line(s) but its sidecar describes ${recorded.lines.length}: the two files do not belong together`,
    );
  }
  return { texts, meta: recorded };
}

/** An .ndjson text on its own as a recording: every line written at 0 ms by a process that exited 0. */
export function recordingOfText(body: string): Recording {
  const endsWithNewline = body.endsWith('\n');
  const texts = body === '' ? [] : (endsWithNewline ? body.slice(0, -1) : body).split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const lines = texts.map((text, index) => ({
    lineNumber: index + 1,
    elapsedMs: 0,
    byteLength: Buffer.byteLength(text),
    ...(index === texts.length - 1 && !endsWithNewline ? { partial: true } : {}),
  }));
  return { texts, meta: { formatVersion: 1, script: '', input: {}, durationMs: 0, lines, stderr: [], exitCode: 0, signal: null, timedOut: false } };
}

/** The stdout items a recording replays, as the launcher delivered them live. */
export function recordedItems(recording: Recording): (ProtocolInput & { readonly elapsedMs: number })[] {
  return recording.meta.lines.map((line, index) =>
    line.oversized
      ? { kind: 'oversized', lineNumber: line.lineNumber, byteLength: line.byteLength ?? 0, elapsedMs: line.elapsedMs }
      : {
          kind: 'line',
          line: recording.texts[index] ?? '',
          lineNumber: line.lineNumber,
          partial: line.partial === true,
          mayHaveReplacements: true,
          elapsedMs: line.elapsedMs,
        },
  );
}

/** A run's stdout as the text a line-by-line comparison reads: each line as written, an oversized one as a note of its size. */
export function comparisonText(recording: Recording): string {
  return (
    recording.meta.lines
      .map((line, index) => (line.oversized ? `(line ${line.lineNumber}: ${line.byteLength ?? 0} bytes, over the line limit)` : (recording.texts[index] ?? '')))
      .join('\n') + '\n'
  );
}
