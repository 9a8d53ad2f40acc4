// `narratoria model pull|status|path`: download (resumable, verified) and locate the narrator's local model.
import { CancellationError } from '../../runtime/common/errors.js';
import { downloadModel, modelUrl } from '../../runtime/narrator/modelDownload.js';
import { DEFAULT_MODEL, modelCacheDirectory, modelStatus, verifyModelFile } from '../../runtime/narrator/modelStore.js';
import { ExitCode, parseFormat, parseOptions, styler, toJson, UsageError, type CliIo } from '../cliSupport.js';

export async function modelCommand(args: readonly string[], io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, { dir: { type: 'string' }, 'base-url': { type: 'string' }, format: { type: 'string' } });
  const format = parseFormat(values.format);
  const directory = values.dir ?? modelCacheDirectory(io.env);
  const [action, extra] = positionals;
  if (extra !== undefined) throw new UsageError(`model ${action} takes no further arguments`);
  const style = styler(io.stdout, io.env);
  switch (action) {
    case 'path': {
      const status = await modelStatus({ directory });
      io.stdout.write(format === 'json' ? toJson({ path: status.path }) : `${status.path}\n`);
      return ExitCode.Success;
    }
    case 'status': {
      const status = await modelStatus({ directory });
      const report = {
        model: DEFAULT_MODEL.displayName,
        repository: DEFAULT_MODEL.repository,
        file: DEFAULT_MODEL.file,
        sizeBytes: DEFAULT_MODEL.sizeBytes,
        sha256: DEFAULT_MODEL.sha256,
        ...status,
      };
      if (format === 'json') io.stdout.write(toJson(report));
      else {
        const what =
          status.state === 'present'
            ? status.verified
              ? style.green('present, verified')
              : style.yellow('present, not verified yet')
            : status.state === 'partial'
              ? style.yellow(`partly downloaded (${mb(status.bytes)} of ${status.totalBytes ? mb(status.totalBytes) : '?'})`)
              : style.dim('not downloaded');
        io.stdout.write(`${DEFAULT_MODEL.displayName} (${DEFAULT_MODEL.repository}, ${mb(DEFAULT_MODEL.sizeBytes ?? 0)}): ${what}\n${status.path}\n`);
      }
      return status.state === 'present' && status.verified ? ExitCode.Success : ExitCode.Failure;
    }
    case 'pull': {
      const status = await modelStatus({ directory });
      if (status.state === 'present' && !status.verified) {
        const verification = await verifyModelFile(status.path, DEFAULT_MODEL);
        if (verification.ok) {
          io.stdout.write(
            format === 'json'
              ? toJson({ ok: true, path: status.path, downloaded: false, sha256: verification.sha256 })
              : `${style.green('✔')} ${status.path} verified (SHA-256 ${verification.sha256})\n`,
          );
          return ExitCode.Success;
        }
        io.stderr.write(`${verification.message}; downloading it again\n`);
      }
      if (format === 'text') io.stdout.write(`Downloading ${DEFAULT_MODEL.displayName} from ${modelUrl(DEFAULT_MODEL, values['base-url'])}\n`);
      let lastLine = '';
      try {
        const result = await downloadModel({
          directory,
          signal,
          ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
          onProgress: (progress) => {
            if (format !== 'text') return;
            const total = progress.totalBytes ?? DEFAULT_MODEL.sizeBytes;
            const percent = total ? Math.floor((progress.receivedBytes / total) * 100) : undefined;
            const bar = percent !== undefined ? `${progressBar(percent)} ${percent}%` : '';
            const of = total ? ` of ${mb(total)}` : '';
            const resumed = progress.resumedFrom > 0 ? ` (resumed at ${mb(progress.resumedFrom)})` : '';
            const line = `${bar} ${mb(progress.receivedBytes)}${of}${resumed}`;
            if (line === lastLine) return;
            lastLine = line;
            io.stdout.write(io.stdout.isTTY ? `\r${line}` : `${line}\n`);
          },
        });
        if (io.stdout.isTTY && format === 'text') io.stdout.write('\n');
        if (!result.ok) {
          io.stderr.write(
            `narratoria: the model download failed (${result.code}): ${result.message}\nThe pattern narrator keeps working without the model; run the command again to resume.\n`,
          );
          if (format === 'json') io.stdout.write(toJson(result));
          return ExitCode.Failure;
        }
        io.stdout.write(format === 'json' ? toJson(result) : `${style.green('✔')} ${result.path} (${mb(result.sizeBytes)}, SHA-256 ${result.sha256})\n`);
        return ExitCode.Success;
      } catch (error) {
        if (error instanceof CancellationError) {
          io.stderr.write('\nDownload cancelled; run "narratoria model pull" again to resume.\n');
          return ExitCode.Failure;
        }
        throw error;
      }
    }
    default:
      throw new UsageError(action === undefined ? 'model needs an action: pull, status or path' : `unknown model action "${action}"`);
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes > 100 * 1024 * 1024 ? 0 : 1)} MiB`;
}

function progressBar(percent: number): string {
  const filled = Math.round(percent / 5);
  return `[${'#'.repeat(filled)}${'.'.repeat(20 - filled)}]`;
}
