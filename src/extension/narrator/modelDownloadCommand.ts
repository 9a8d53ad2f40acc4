// "Download Narrator Model": a cancellable, resumable, verified download with a progress notification.
import * as vscode from 'vscode';
import { CancellationError } from '../../runtime/common/errors.js';
import { downloadModel } from '../../runtime/narrator/modelDownload.js';
import { DEFAULT_MODEL, modelCacheDirectory } from '../../runtime/narrator/modelStore.js';
import type { NarratoriaSettings } from '../settings.js';
import type { NarratorService } from './narratorService.js';

export interface ModelDownloadContext {
  readonly narrator: NarratorService;
  readonly settings: () => NarratoriaSettings;
  readonly log: vscode.LogOutputChannel;
}

let running: Promise<string> | undefined;

/** Downloads the default model into the cache; on any failure the pattern narrator stays in use and the message says why. */
/** Resolves with what happened: 'ok', 'cancelled', 'untrusted', 'running' or the failure code. */
export function downloadNarratorModel(context: ModelDownloadContext): Promise<string> {
  if (running) {
    void vscode.window.showInformationMessage('The narrator model is already downloading; see the notification for its progress.');
    return Promise.resolve('running');
  }
  running = runDownload(context).finally(() => {
    running = undefined;
    context.narrator.setDownloadProgress(undefined);
  });
  return running;
}

async function runDownload(context: ModelDownloadContext): Promise<string> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window
      .showWarningMessage('Narratoria downloads and loads no model in an untrusted workspace. Trust the workspace first.', 'Manage Workspace Trust')
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
      });
    return 'untrusted';
  }
  const settings = context.settings();
  const directory = modelCacheDirectory();
  const gigabytes = ((DEFAULT_MODEL.sizeBytes ?? 0) / 1e9).toFixed(1);
  context.log.info(`downloading ${DEFAULT_MODEL.displayName} (${gigabytes} GB) from ${settings.downloadBaseUrl} into ${directory}`);
  const outcome = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Downloading the narrator model (${DEFAULT_MODEL.displayName}, ${gigabytes} GB)`,
      cancellable: true,
    },
    async (progress, token) => {
      const abort = new AbortController();
      const cancellation = token.onCancellationRequested(() => abort.abort());
      let reported = 0;
      try {
        return await downloadModel({
          directory,
          baseUrl: settings.downloadBaseUrl,
          signal: abort.signal,
          progressIntervalMs: 250,
          onProgress: ({ receivedBytes, totalBytes, resumedFrom }) => {
            const total = totalBytes ?? DEFAULT_MODEL.sizeBytes;
            if (!total) return;
            const percent = Math.min(100, Math.floor((receivedBytes / total) * 100));
            if (percent > reported) {
              const resumed = resumedFrom > 0 ? ` (resumed at ${Math.floor((resumedFrom / total) * 100)}%)` : '';
              progress.report({ increment: percent - reported, message: `${percent}%${resumed}` });
              reported = percent;
              context.narrator.setDownloadProgress(percent);
            }
          },
        });
      } catch (error) {
        if (error instanceof CancellationError || abort.signal.aborted) return 'cancelled' as const;
        throw error;
      } finally {
        cancellation.dispose();
      }
    },
  );
  if (outcome === 'cancelled') {
    context.log.info('model download cancelled; the partial file is kept so the next download resumes');
    void vscode.window.showInformationMessage('Download paused. Run "Download Narrator Model" again to resume where it stopped.');
    return 'cancelled';
  }
  if (outcome.ok) {
    context.log.info(`model ${outcome.downloaded ? 'downloaded and ' : ''}verified: ${outcome.path} (sha256 ${outcome.sha256})`);
    await context.narrator.reset();
    void context.narrator.prepare();
    void vscode.window.showInformationMessage(
      `${DEFAULT_MODEL.displayName} is ${outcome.downloaded ? 'downloaded and ' : ''}verified; the narrator uses it from the next turn.`,
    );
    return 'ok';
  }
  context.log.error(`model download failed (${outcome.code}): ${outcome.message}`);
  // Not awaited: the command ends with the download; the user's answer starts a new one or opens the log.
  void vscode.window
    .showErrorMessage(
      `The narrator model could not be downloaded (${outcome.message}). Narratoria keeps using the pattern narrator, which needs no model.`,
      'Retry',
      'Show Logs',
    )
    .then((choice) => {
      if (choice === 'Retry') void downloadNarratorModel(context);
      else if (choice === 'Show Logs') context.log.show();
    });
  return outcome.code;
}
