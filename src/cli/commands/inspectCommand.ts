// `narratoria inspect <script>`: runs one skill script and explains each stdout line, stderr, exit code and verdict.
import * as path from 'node:path';
import { inspectScript, type InspectedLine, type InspectReport } from '../../runtime/inspect/inspectScript.js';
import { inspectRecording } from '../../runtime/inspect/inspectReplay.js';
import { metaFileOf, readRecording, RecordingError, writeRecording, type Recording } from '../../runtime/inspect/recording.js';
import {
  ExitCode,
  parseFormat,
  parseJsonObject,
  parseOptions,
  parsePositiveInteger,
  readInputFile,
  styler,
  toJson,
  UsageError,
  type CliIo,
  type Styler,
} from '../cliSupport.js';

export async function inspectCommand(args: readonly string[], io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, {
    input: { type: 'string' },
    'input-file': { type: 'string' },
    root: { type: 'string' },
    timeout: { type: 'string' },
    format: { type: 'string' },
    record: { type: 'string' },
    replay: { type: 'string' },
  });
  const format = parseFormat(values.format);
  const style = styler(io.stdout, io.env);
  if (values.replay !== undefined) {
    if (
      positionals.length > 0 ||
      values.input !== undefined ||
      values['input-file'] !== undefined ||
      values.record !== undefined ||
      values.timeout !== undefined
    ) {
      throw new UsageError('--replay runs nothing: give it only the recording (and --format)');
    }
    return replay(path.resolve(io.cwd, values.replay), format, io, style);
  }
  if (positionals.length !== 1) throw new UsageError('inspect needs exactly one script');
  if (values.input !== undefined && values['input-file'] !== undefined) throw new UsageError('use --input or --input-file, not both');
  const input = await readScriptInput(values.input, values['input-file'], io);
  const root = path.resolve(io.cwd, values.root ?? '.');
  const recordFile = values.record !== undefined ? path.resolve(io.cwd, values.record) : undefined;
  const { recording, ...report } = await inspectScript({
    scriptPath: path.resolve(io.cwd, positionals[0]!),
    input,
    root,
    timeoutMs: parsePositiveInteger('timeout', values.timeout),
    signal,
    onLine: format === 'text' ? (line) => io.stdout.write(formatLine(line, style)) : undefined,
    record: recordFile !== undefined,
  });
  if (recordFile && recording) {
    await writeRecording(recordFile, recording);
    io.stderr.write(`recorded ${recording.texts.length} line(s) to ${recordFile} (+ ${path.basename(metaFileOf(recordFile))})\n`);
  }
  printReport(report, format, io, style);
  if (report.command.length === 0) return ExitCode.Usage;
  return report.verdict.ok ? ExitCode.Success : ExitCode.Failure;
}

/** `inspect --replay`: the recorded stream through the same decoder; nothing runs. */
async function replay(file: string, format: 'text' | 'json', io: CliIo, style: Styler): Promise<ExitCode> {
  let recording: Recording;
  try {
    recording = await readRecording(file);
  } catch (error) {
    if (error instanceof RecordingError) {
      io.stderr.write(`narratoria: ${error.message}\n`);
      return ExitCode.Usage;
    }
    throw error;
  }
  const report = inspectRecording(recording, file, format === 'text' ? (line) => io.stdout.write(formatLine(line, style)) : undefined);
  printReport(report, format, io, style);
  return report.verdict.ok ? ExitCode.Success : ExitCode.Failure;
}

function printReport(report: InspectReport, format: 'text' | 'json', io: CliIo, style: Styler): void {
  if (format === 'json') {
    io.stdout.write(toJson(report));
  } else {
    if (report.command.length > 0) io.stdout.write(style.dim(`command: ${report.command.join(' ')}\n`));
    if (report.stderr)
      io.stdout.write(
        `${style.bold('stderr')} (last ${report.stderr.length} chars):\n${report.stderr.replace(/^/gm, '  ')}${report.stderr.endsWith('\n') ? '' : '\n'}`,
      );
    const exit = report.signal ? `killed by ${report.signal}` : `exit code ${report.exitCode}`;
    io.stdout.write(`${exit}${report.timedOut ? ' (timed out)' : ''}, ${report.lines.length} line(s), ${report.durationMs} ms\n`);
    const verdict = report.verdict.ok
      ? style.green('✔ ' + report.verdict.message)
      : style.red(`✖ ${report.verdict.code ?? ''} (${report.verdict.category ?? ''}): ${report.verdict.message}`);
    io.stdout.write(verdict + '\n');
  }
}

function formatLine(line: InspectedLine, style: Styler): string {
  const prefix = style.dim(`${String(line.lineNumber).padStart(4)} +${String(line.elapsedMs).padStart(5)}ms `);
  if (line.status === 'event' && line.event) {
    const { version: _version, type, ...fields } = line.event as unknown as Record<string, unknown>;
    const body = JSON.stringify(fields);
    const note = line.problem ? style.yellow(`  ⚠ ${line.problem}`) : '';
    return `${prefix}${style.green('✔')} ${style.bold(String(type))} ${body.length > 200 ? body.slice(0, 199) + '…' : body}${note}\n`;
  }
  const mark = line.status === 'blank' ? style.dim('·') : line.status === 'after_done' ? style.yellow('⚠') : style.red('✖');
  const text = line.text !== undefined ? style.dim(` ${JSON.stringify(line.text.length > 120 ? line.text.slice(0, 119) + '…' : line.text)}`) : '';
  return `${prefix}${mark} ${line.status}${line.problem ? ': ' + line.problem : ''}${text}\n`;
}

async function readScriptInput(inline: string | undefined, file: string | undefined, io: CliIo): Promise<Record<string, unknown>> {
  const text = file !== undefined ? await readInputFile(file, io) : inline;
  return text === undefined ? {} : parseJsonObject(text, 'the input');
}
