// The Explore Story report panel: one per window, showing the last exploration's report; opens saved playtests and scripts the report names. Translation only, over the shared WebviewHost.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExploreReport } from '../../runtime/explore/exploreTypes.js';
import type { FromExploreView, ToExploreView } from '../../protocol/exploreMessages.js';
import { WebviewHost } from '../webviewHost.js';

export const EXPLORE_VIEW_TYPE = 'narratoria.exploreReport';

export interface ExplorePanelHost {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  /** Runs the same exploration again (the command's last options). */
  readonly exploreAgain: () => Promise<void>;
}

export class ExplorePanel implements vscode.Disposable {
  private static current: ExplorePanel | undefined;
  private readonly view: WebviewHost<ToExploreView, FromExploreView>;
  private report: ExploreReport | undefined;
  private running = false;

  /** Shows the panel (creating it when there is none) with `report`, or as running when undefined. */
  static show(host: ExplorePanelHost, report: ExploreReport | undefined, running: boolean): ExplorePanel {
    const panel = ExplorePanel.current ?? new ExplorePanel(host);
    if (report) panel.report = report;
    panel.running = running;
    panel.view.panel.reveal(undefined, running);
    panel.send();
    return panel;
  }

  /** The report shown, for the extension-host tests. */
  static get shown(): ExploreReport | undefined {
    return ExplorePanel.current?.report;
  }

  private constructor(private readonly host: ExplorePanelHost) {
    ExplorePanel.current = this;
    const panel = vscode.window.createWebviewPanel(EXPLORE_VIEW_TYPE, 'Explore Story', vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(host.extensionUri, 'dist', 'webview')],
    });
    this.view = new WebviewHost<ToExploreView, FromExploreView>(panel, {
      extensionUri: host.extensionUri,
      log: host.log,
      name: 'explore report',
      page: { title: 'Explore Story', stylesheet: 'explore.css', script: 'explore.js', rootId: 'app' },
      beforeReady: 'drop',
      onReady: () => this.send(),
      onMessage: (message) => this.handle(message),
    });
    this.view.disposables.add({
      dispose: () => {
        if (ExplorePanel.current === this) ExplorePanel.current = undefined;
      },
    });
  }

  dispose(): void {
    this.view.dispose();
  }

  private send(): void {
    this.view.post({ type: 'report', report: this.report, running: this.running });
  }

  private async handle(message: Exclude<FromExploreView, { readonly type: 'ready' }>): Promise<void> {
    switch (message.type) {
      case 'openPlaytest':
        await this.open(message.playtest);
        return;
      case 'openScript':
        await this.open(message.toolPath);
        return;
      case 'exploreAgain':
        await this.host.exploreAgain();
        return;
      case 'viewError':
        this.host.log.error(`explore report view: ${message.message}`);
        return;
    }
  }

  /** Opens a file the report names, relative to the story root; nothing outside the workspace's folders. */
  private async open(file: string): Promise<void> {
    const root = this.report?.root;
    if (!root) return;
    const uri = vscode.Uri.file(path.resolve(root, file));
    if (!vscode.workspace.getWorkspaceFolder(uri)) {
      void vscode.window.showWarningMessage(`${file} is outside the workspace, so the report does not open it.`);
      return;
    }
    await vscode.window.showTextDocument(uri, { preview: false });
  }
}
