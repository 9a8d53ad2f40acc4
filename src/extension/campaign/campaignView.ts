// Wires the campaign's views in VS Code: the Campaign view and its service, the beat graph, the lore lens and chunk preview, and their commands. No logic of its own.
import * as vscode from 'vscode';
import { DisposableStore } from '../../runtime/common/disposable.js';
import { BeatGraphService } from './beatGraphService.js';
import { LoreChunkPreview } from './loreChunkPreview.js';
import { HIDE_LORE_PREVIEW_COMMAND, LORE_SELECTOR, LoreChunker, LoreLensProvider, PREVIEW_LORE_COMMAND } from './loreLens.js';
import { newCampaignCommand, openCampaignEntry, openCampaignGuide } from './campaignViewCommands.js';
import { CampaignTreeProvider, OPEN_CAMPAIGN_ENTRY_COMMAND } from './campaignViewProvider.js';
import { CampaignViewService } from './campaignViewService.js';
import type { CampaignEditing } from './campaignEditing.js';
import type { CampaignEntry } from '../../runtime/campaign/view/campaignTree.js';

export const CAMPAIGN_VIEW_ID = 'narratoria.campaign';

export class CampaignView implements vscode.Disposable {
  readonly service: CampaignViewService;
  readonly tree: CampaignTreeProvider;
  readonly treeView: vscode.TreeView<CampaignEntry>;
  readonly beatGraphs: BeatGraphService;
  readonly lorePreview: LoreChunkPreview;
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly extensionUri: vscode.Uri,
    editing: CampaignEditing,
    log: vscode.LogOutputChannel,
  ) {
    this.service = new CampaignViewService(editing, log);
    this.tree = new CampaignTreeProvider(this.service);
    this.treeView = vscode.window.createTreeView(CAMPAIGN_VIEW_ID, { treeDataProvider: this.tree, showCollapseAll: true });
    this.beatGraphs = new BeatGraphService(this.service, extensionUri, log);
    const chunker = new LoreChunker(this.service);
    this.lorePreview = new LoreChunkPreview(chunker);
    const lens = new LoreLensProvider(chunker, this.service);
    this.disposables.addAll(
      this.service,
      this.tree,
      this.treeView,
      this.beatGraphs,
      this.lorePreview,
      lens,
      vscode.languages.registerCodeLensProvider(LORE_SELECTOR, lens),
      this.service.onDidChange(() => this.describe()),
    );
  }

  /** The commands of the campaign's views, by id (package.json `contributes.commands`). */
  commands(): Record<string, (...args: never[]) => unknown> {
    return {
      'narratoria.newCampaign': () => newCampaignCommand(this.service, (folder) => this.revealCampaign(folder)),
      'narratoria.refreshCampaigns': () => this.service.refresh(),
      'narratoria.showBeatGraph': (target?: unknown) => this.beatGraphs.show(target),
      [PREVIEW_LORE_COMMAND]: (target?: unknown) => this.lorePreview.toggle(uriOf(target)),
      [HIDE_LORE_PREVIEW_COMMAND]: (target?: unknown) => this.lorePreview.hide(uriOf(target)),
      [OPEN_CAMPAIGN_ENTRY_COMMAND]: (entry: CampaignEntry) => openCampaignEntry(entry),
      'narratoria.openCampaignGuide': () => openCampaignGuide(this.extensionUri),
    };
  }

  dispose(): void {
    this.disposables.dispose();
  }

  /** Shows the Campaign view with the campaign at `folder` selected. */
  private async revealCampaign(folder: string): Promise<void> {
    await vscode.commands.executeCommand(`${CAMPAIGN_VIEW_ID}.focus`);
    const first = this.tree.topEntries.find((entry) => entry.campaignFolder === folder);
    if (first) await this.treeView.reveal(first, { select: true, focus: false, expand: true }).then(undefined, () => undefined);
  }

  /** The view's description (the campaign's title when there is one) and its badge (problems other than notes). */
  private describe(): void {
    const campaigns = this.service.campaigns;
    this.treeView.description = (campaigns.length === 1 ? campaigns[0]!.validation.campaign.manifest?.title : undefined) ?? '';
    const problems = campaigns.reduce((sum, state) => sum + state.validation.diagnostics.filter((diagnostic) => diagnostic.severity !== 'info').length, 0);
    this.treeView.badge =
      problems > 0 ? { value: problems, tooltip: `${problems} campaign problem(s): see the entries marked, or the Problems panel` } : undefined;
  }
}

/** A command's target as a file: a URI, or a lore entry of the Campaign view. */
function uriOf(target: unknown): vscode.Uri | undefined {
  if (target instanceof vscode.Uri) return target;
  const entry = target as Partial<CampaignEntry> | undefined;
  return entry?.campaignFolder && entry.open ? CampaignTreeProvider.fileOf(entry as CampaignEntry) : undefined;
}
