// The play panel: its messages to and from the session's PlayController over the shared WebviewHost, the asset gate, and revival after a window reload.
import * as vscode from 'vscode';
import { isFileInsideFolders } from '../../runtime/common/pathContainment.js';
import { WebviewHost } from '../webviewHost.js';
import { assertNever, type FromPlayWebview, type ToPlayWebview } from '../../protocol/playPanelMessages.js';
import type { PlayController } from './playController.js';

export const PLAY_PANEL_VIEW_TYPE = 'narratoria.playPanel';

export interface PlayPanelHost {
  readonly extensionUri: vscode.Uri;
  readonly controller: PlayController;
  /** Folders the webview may load assets from (story root, skills roots). */
  readonly assetRoots: () => readonly vscode.Uri[];
  readonly log: vscode.LogOutputChannel;
  /** New Game: a new play-through (the command of the same name). */
  readonly newGame: () => Thenable<unknown>;
  /** Continue…: the session picker (the command of the same name). */
  readonly chooseSession: () => Thenable<unknown>;
  readonly openSkill: (name: string) => Promise<void>;
  /** Fires when the asset roots may have changed (skills reloaded, settings changed). */
  readonly onDidChangeAssetRoots: vscode.Event<void>;
}

/** The single play panel of the window. Disposing it detaches from the controller; the session goes on. */
export class PlayPanel implements vscode.Disposable {
  private static current: PlayPanel | undefined;
  private readonly host: WebviewHost<ToPlayWebview, FromPlayWebview>;
  private attachment: vscode.Disposable | undefined;

  /** Reveals the panel, creating it when there is none. */
  static show(host: PlayPanelHost): PlayPanel {
    if (PlayPanel.current) {
      PlayPanel.current.host.panel.reveal();
      return PlayPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(PLAY_PANEL_VIEW_TYPE, 'Narratoria Play', vscode.ViewColumn.Active, PlayPanel.webviewOptions(host));
    return new PlayPanel(panel, host);
  }

  /** Re-creates the panel VS Code restored after a reload (registerWebviewPanelSerializer). */
  static revive(panel: vscode.WebviewPanel, host: PlayPanelHost): PlayPanel {
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
    panel: vscode.WebviewPanel,
    private readonly services: PlayPanelHost,
  ) {
    PlayPanel.current = this;
    const host = services;
    this.host = new WebviewHost<ToPlayWebview, FromPlayWebview>(panel, {
      extensionUri: host.extensionUri,
      log: host.log,
      name: 'play panel',
      page: { title: 'Narratoria Play', stylesheet: 'play.css', script: 'play.js', rootId: 'app', media: true },
      onReady: () => this.attach(),
      onMessage: (message) => this.handle(message),
    });
    const webview = panel.webview;
    host.controller.resolveAssetUri = (file) => {
      // The same gate as the Inspector's: inside the asset roots as written and after symlinks.
      const allowed = isFileInsideFolders(
        file,
        host.assetRoots().map((root) => root.fsPath),
      );
      return allowed ? webview.asWebviewUri(vscode.Uri.file(file)).toString() : undefined;
    };
    this.host.disposables.addAll(
      this.host.onDidDispose(() => this.detach()),
      // Keeps what the webview may load in step with the folders the asset check allows.
      host.onDidChangeAssetRoots(() => {
        panel.webview.options = PlayPanel.webviewOptions(host);
      }),
    );
  }

  dispose(): void {
    this.host.dispose();
  }

  private detach(): void {
    if (PlayPanel.current === this) PlayPanel.current = undefined;
    this.attachment?.dispose();
  }

  /** On each `ready` (a reloaded webview says it again): one attachment at a time, then the snapshot. */
  private async attach(): Promise<void> {
    const controller = this.services.controller;
    this.attachment?.dispose();
    this.attachment = controller.attach((outgoing) => this.host.post(outgoing));
    try {
      this.host.post({ type: 'snapshot', snapshot: await controller.snapshot() });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.host.post({ type: 'turnFailed', message: `The play session could not be opened: ${message}` });
      void vscode.window.showErrorMessage(`Narratoria: the play session could not be opened (${message}).`, 'Show Logs').then((choice) => {
        if (choice) this.services.log.show();
      });
      throw error;
    }
  }

  private async handle(message: Exclude<FromPlayWebview, { readonly type: 'ready' }>): Promise<void> {
    const controller = this.services.controller;
    switch (message.type) {
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
      case 'newGame':
        await this.services.newGame();
        return;
      case 'chooseSession':
        await this.services.chooseSession();
        return;
      case 'showDetails': {
        const details = await controller.turnDetails(message.turnIndex);
        if (!details) return;
        const document = await vscode.workspace.openTextDocument({ language: 'json', content: details });
        await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
        return;
      }
      case 'showLogs':
        this.services.log.show(true);
        return;
      case 'saveAsPlaytest':
        await vscode.commands.executeCommand('narratoria.saveSessionAsPlaytest');
        return;
      case 'manageTrust':
        await vscode.commands.executeCommand('workbench.trust.manage');
        return;
      case 'openSkill':
        await this.services.openSkill(message.skill);
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
}
