// The status-bar item that shows the narrator state (pattern / model loading / ready / downloading NN%).
import * as vscode from 'vscode';
import type { NarratorStatusView } from '../../protocol/playPanelMessages.js';
import type { NarratorService } from './narratorService.js';

const ICONS: Record<NarratorStatusView['state'], string> = {
  pattern: '$(symbol-ruler)',
  idle: '$(circle-large-outline)',
  loading: '$(loading~spin)',
  ready: '$(sparkle)',
  downloading: '$(cloud-download)',
  failed: '$(warning)',
};

/** Shows the narrator state; clicking it offers the actions that fit (download, logs, settings). */
export class NarratorStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('narratoria.narrator', vscode.StatusBarAlignment.Right, 100);
  private readonly subscription: vscode.Disposable;

  constructor(narrator: NarratorService) {
    this.item.name = 'Narratoria Narrator';
    this.item.command = 'narratoria.showNarratorActions';
    this.render(narrator.status);
    this.subscription = narrator.onDidChangeStatus((status) => this.render(status));
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }

  private render(status: NarratorStatusView): void {
    this.item.text = `${ICONS[status.state]} ${status.state === 'downloading' ? `Narrator ${status.percent ?? 0}%` : status.label}`;
    const tooltip = new vscode.MarkdownString(`**Narratoria narrator**: ${status.label}\n\n`);
    tooltip.appendText(status.detail);
    tooltip.appendMarkdown('\n\nClick for narrator actions.');
    this.item.tooltip = tooltip;
    this.item.backgroundColor = status.state === 'failed' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = { label: `Narratoria narrator: ${status.label}` };
  }
}
