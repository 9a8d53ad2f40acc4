// The play panel's webview host: HTML with a strict CSP, the typed message loop, and revival after a window reload.
import * as vscode from 'vscode';
import { isFileInsideFolders } from '../../runtime/common/pathContainment.js';
import { webviewPageHtml } from '../webviewHtml.js';
import { assertNever, type FromPlayWebview, type ToPlayWebview } from '../../protocol/playPanelMessages.js';
import type { PlayController } from './playController.js';
import { DisposableStore } from '../../runtime/common/disposable.js';

export const PLAY_PANEL_VIEW_TYPE = 'narratoria.playPanel';

export interface PlayPanelHost {
  readonly extensionUri: vscode.Uri;
  readonly controller: PlayController;
  /** Folders the webview may load assets from (story root, skills roots). */
  readonly assetRoots: () => readonly vscode.Uri[];
  readonly log: vscode.LogOutputChannel;
  /** Asks the user, then restarts the session. */
  readonly restartSession: () => Promise<void>;
  readonly openSkill: (name: string) => Promise<void>;
  /** Fires when the asset roots may have changed (skills reloaded, settings changed). */
  readonly onDidChangeAssetRoots: vscode.Event<void>;
}

/** The single play panel of the window. Disposing it detaches from the controller; the session goes on. */
export class PlayPanel implements vscode.Disposable {
  private static current: PlayPanel | undefined;
  private readonly disposables = new DisposableStore();
  private attachment: vscode.Disposable | undefined;

  /** Reveals the panel, creating it when there is none. */
  static show(host: PlayPanelHost): PlayPanel {
    if (PlayPanel.current) {
      PlayPanel.current.panel.reveal();
      return PlayPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(PLAY_PANEL_VIEW_TYPE, 'Narratoria Play', vscode.ViewColumn.Active, PlayPanel.webviewOptions(host));
    return new PlayPanel(panel, host);
  }

  /** Re-creates the panel VS Code restored after a reload (registerWebviewPanelSerializer). */
  static revive(panel: vscode.WebviewPanel, host: PlayPanel['host']): PlayPanel {
    PlayPanel.current?.dispose();
    panel.webview.options = PlayPanel.webviewOptions(host);
    return new PlayPanel(panel, host);
  }

  static get isOpen(): boolean {
    return PlayPanel.current !== undefined;
  }

  private static webviewOptions(host: PlayPanelHost): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(host.extensionUri, 'dist', 'webview'), ...host.assetRoots()],
    };
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly host: PlayPanelHost,
  ) {
    PlayPanel.current = this;
    panel.iconPath = vscode.Uri.joinPath(host.extensionUri, 'dist', 'media', 'narratoria.svg');
    const webview = panel.webview;
    host.controller.resolveAssetUri = (file) => {
      // The same gate as the Inspector's: inside the asset roots as written and after symlinks.
      const allowed = isFileInsideFolders(file, host.assetRoots().map((root) => root.fsPath));
      return allowed ? webview.asWebviewUri(vscode.Uri.file(file)).toString() : undefined;
    };
    this.disposables.addAll(
      panel.onDidDispose(() => this.dispose()),
      // Keeps what the webview may load in step with the folders the asset check allows.
      host.onDidChangeAssetRoots(() => {
        panel.webview.options = PlayPanel.webviewOptions(host);
      }),
      webview.onDidReceiveMessage((message: FromPlayWebview) => {
        this.handle(message).catch((error: unknown) => host.log.error(`play panel: ${message.type} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`));
      }),
    );
    webview.html = this.html(webview);
  }

  dispose(): void {
    if (PlayPanel.current === this) PlayPanel.current = undefined;
    this.attachment?.dispose();
    this.disposables.dispose();
    this.panel.dispose();
  }

  private postMessage(message: ToPlayWebview): void {
    void this.panel.webview.postMessage(message);
  }

  private async handle(message: FromPlayWebview): Promise<void> {
    const controller = this.host.controller;
    switch (message.type) {
      case 'ready': {
        // A webview that reloads sends `ready` again: one attachment at a time.
        this.attachment?.dispose();
        this.attachment = controller.attach((outgoing) => this.postMessage(outgoing));
        try {
          this.postMessage({ type: 'snapshot', snapshot: await controller.snapshot() });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          this.postMessage({ type: 'turnFailed', message: `The play session could not be opened: ${message}` });
          void vscode.window.showErrorMessage(`Narratoria: the play session could not be opened (${message}).`, 'Show Logs').then((choice) => {
            if (choice) this.host.log.show();
          });
          throw error;
        }
        return;
      }
      case 'play':
        await this.reportRefusal(await controller.play(message.input));
        return;
      case 'choose': {
        const outcome = await controller.choose(message.turnIndex, message.choiceIndex);
        if (outcome === 'stale') void vscode.window.showInformationMessage('That choice belongs to an earlier turn; pick one of the latest choices.');
        else await this.reportRefusal(outcome);
        return;
      }
      case 'cancel':
        controller.cancel();
        return;
      case 'restart':
        await this.host.restartSession();
        return;
      case 'showDetails': {
        const details = await controller.turnDetails(message.turnIndex);
        if (!details) return;
        const document = await vscode.workspace.openTextDocument({ language: 'json', content: details });
        await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
        return;
      }
      case 'showLogs':
        this.host.log.show(true);
        return;
      case 'saveAsPlaytest':
        await vscode.commands.executeCommand('narratoria.saveSessionAsPlaytest');
        return;
      case 'manageTrust':
        await vscode.commands.executeCommand('workbench.trust.manage');
        return;
      case 'openSkill':
        await this.host.openSkill(message.skill);
        return;
      default:
        assertNever(message);
    }
  }

  private async reportRefusal(outcome: unknown): Promise<void> {
    if (outcome === 'busy') void vscode.window.showInformationMessage('A turn is still running. Wait for it or cancel it first.');
    else if (outcome === 'untrusted') {
      const choice = await vscode.window.showWarningMessage('Narratoria runs no skill scripts in an untrusted workspace.', 'Manage Workspace Trust');
      if (choice) await vscode.commands.executeCommand('workbench.trust.manage');
    }
  }

  private html(webview: vscode.Webview): string {
    return webviewPageHtml({
      cspSource: webview.cspSource,
      title: 'Narratoria Play',
      resource: (file) => webview.asWebviewUri(vscode.Uri.joinPath(this.host.extensionUri, 'dist', 'webview', file)).toString(),
      stylesheet: 'play.css',
      script: 'play.js',
      rootId: 'app',
      media: true,
    });
  }
}
