// Show Beat Graph: which campaign's plot/beats.json to draw (the file given, the active editor's, the view's entry, or a pick), and one beat graph panel per file.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CampaignEntry } from '../../runtime/campaign/view/campaignTree.js';
import { BEATS_FILE } from '../../runtime/campaign/view/beatsText.js';
import { BEAT_GRAPH_VIEW_TYPE, BeatGraphPanel } from './beatGraphPanel.js';
import type { CampaignState, CampaignViewService } from './campaignViewService.js';

export class BeatGraphService implements vscode.Disposable {
  private readonly panels = new Map<string, BeatGraphPanel>();

  constructor(
    private readonly campaigns: CampaignViewService,
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** `narratoria.showBeatGraph [uri | entry]`: opens (or reveals) the beat graph beside the beats file. */
  async show(target?: unknown): Promise<BeatGraphPanel | undefined> {
    const uri = await this.beatsFileOf(target);
    if (!uri) return undefined;
    const existing = this.panels.get(uri.toString());
    if (existing) {
      existing.reveal();
      return existing;
    }
    const document = await vscode.workspace.openTextDocument(uri);
    const title = () => this.titleOf(uri.fsPath);
    const webviewPanel = vscode.window.createWebviewPanel(
      BEAT_GRAPH_VIEW_TYPE,
      `Beats: ${title()}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, retainContextWhenHidden: true },
    );
    const panel = new BeatGraphPanel(document, webviewPanel, { extensionUri: this.extensionUri, log: this.log, campaignTitle: title });
    this.panels.set(uri.toString(), panel);
    panel.onDidDispose(() => this.panels.delete(uri.toString()));
    return panel;
  }

  /** The open beat graph of `uri`, if any (for tests). */
  panelOf(uri: vscode.Uri): BeatGraphPanel | undefined {
    return this.panels.get(uri.toString());
  }

  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
  }

  private titleOf(beatsFile: string): string {
    const state = this.campaigns.campaignOf(beatsFile);
    return state?.validation.campaign.manifest?.title ?? path.basename(path.dirname(path.dirname(beatsFile)));
  }

  /** The beats file a command was given: a URI, a Campaign view entry, the active editor's file, else the campaign's (picked when several). */
  private async beatsFileOf(target: unknown): Promise<vscode.Uri | undefined> {
    if (target instanceof vscode.Uri) return target;
    if (isEntry(target)) return vscode.Uri.file(path.join(target.campaignFolder, ...BEATS_FILE.split('/')));
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active?.scheme === 'file' && path.basename(active.fsPath) === 'beats.json' && this.campaigns.campaignFolderOf(active.fsPath) !== undefined)
      return active;
    await this.campaigns.whenIdle();
    const withBeats = this.campaigns.campaigns.filter((state) => state.validation.campaign.beats);
    if (withBeats.length === 0) {
      const choice = await vscode.window.showWarningMessage(
        this.campaigns.campaigns.length === 0
          ? 'Show Beat Graph draws the plot/beats.json of a campaign, and this workspace has no campaign.'
          : 'No campaign of this workspace has a plot/beats.json yet.',
        ...(this.campaigns.campaigns.length === 0 ? ['New Campaign…'] : []),
      );
      if (choice) await vscode.commands.executeCommand('narratoria.newCampaign');
      return undefined;
    }
    const chosen: CampaignState | undefined =
      withBeats.length === 1
        ? withBeats[0]
        : (
            await vscode.window.showQuickPick(
              withBeats.map((state) => ({ label: state.validation.campaign.manifest?.title ?? path.basename(state.folder), description: state.folder, state })),
              { title: 'Show Beat Graph', placeHolder: 'Which campaign?' },
            )
          )?.state;
    return chosen ? vscode.Uri.file(path.join(chosen.folder, ...BEATS_FILE.split('/'))) : undefined;
  }
}

function isEntry(value: unknown): value is CampaignEntry {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as CampaignEntry).campaignFolder === 'string' &&
    typeof (value as CampaignEntry).kind === 'string'
  );
}
