// The window's campaigns for the Campaign view: found to depth 2, loaded, validated, lore counted, followed through file changes; the context keys. No UI.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { validateCampaign, type CampaignValidation } from '../../runtime/campaign/index.js';
import { chunkCampaignLore } from '../../runtime/campaign/lore/index.js';
import { campaignHolding, findCampaignFolders } from '../../runtime/campaign/view/campaignDiscovery.js';
import { loreCountsOf, type LoreCounts } from '../../runtime/campaign/view/campaignTree.js';
import { DisposableStore } from '../../runtime/common/disposable.js';

/** How long files must rest before the view follows them (a save touches several, a git checkout hundreds). */
const REFRESH_DELAY_MS = 300;

/** Files under these folders never change a campaign. */
const IGNORED_PATH = /[\\/](?:\.git|\.narratoria|node_modules)[\\/]/;

/** One campaign as the view shows it. */
export interface CampaignState {
  readonly folder: string;
  readonly validation: CampaignValidation;
  /** Undefined until its lore is chunked. */
  readonly lore: LoreCounts | undefined;
}

export class CampaignViewService implements vscode.Disposable {
  private states = new Map<string, CampaignState>();
  private searched = false;
  private readonly disposables = new DisposableStore();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private timer: NodeJS.Timeout | undefined;
  /** What the next refresh must do: find campaigns again, or reload those campaigns (and their lore when it changed). */
  private pending: { rediscover: boolean; campaigns: Set<string>; lore: Set<string> } = { rediscover: true, campaigns: new Set(), lore: new Set() };
  private running: Promise<void> = Promise.resolve();

  /** Fires when a campaign, its health or its lore counts changed. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly log: vscode.LogOutputChannel) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    const changed = (uri: vscode.Uri) => this.fileChanged(uri);
    this.disposables.addAll(
      this.changeEmitter,
      { dispose: () => this.timer && clearTimeout(this.timer) },
      watcher,
      watcher.onDidCreate(changed),
      watcher.onDidChange(changed),
      watcher.onDidDelete(changed),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.schedule({ rediscover: true }, 0)),
    );
  }

  /** The campaigns, by folder. */
  get campaigns(): readonly CampaignState[] {
    return [...this.states.values()];
  }

  /** Whether the first search for campaigns has finished. */
  get loaded(): boolean {
    return this.searched;
  }

  /** The campaign holding `file` (absolute), if any. */
  campaignOf(file: string): CampaignState | undefined {
    const folder = campaignHolding([...this.states.keys()], file);
    return folder === undefined ? undefined : this.states.get(folder);
  }

  /** Finds and loads every campaign again (the view's Refresh). */
  refresh(): Promise<void> {
    this.schedule({ rediscover: true }, 0);
    return this.whenIdle();
  }

  /** Resolves once the refreshes asked for so far are done. */
  async whenIdle(): Promise<void> {
    while (this.timer !== undefined) await new Promise((resolve) => setTimeout(resolve, REFRESH_DELAY_MS));
    await this.running;
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private fileChanged(uri: vscode.Uri): void {
    if (uri.scheme !== 'file' || IGNORED_PATH.test(uri.fsPath)) return;
    const campaign = campaignHolding([...this.states.keys()], uri.fsPath);
    const manifest = path.basename(uri.fsPath) === 'manifest.json';
    if (campaign === undefined) {
      // A new manifest.json may make a campaign; a folder deleted or moved may take campaigns with it.
      const holdsCampaign = [...this.states.keys()].some((folder) => campaignHolding([uri.fsPath], folder) !== undefined);
      if (manifest || holdsCampaign) this.schedule({ rediscover: true });
      return;
    }
    const inLore = path.relative(campaign, uri.fsPath).split(path.sep)[0] === 'lore';
    this.schedule({ rediscover: manifest && path.dirname(uri.fsPath) === campaign, campaign, ...(inLore ? { lore: campaign } : {}) });
  }

  private schedule(what: { rediscover?: boolean; campaign?: string; lore?: string }, delay = REFRESH_DELAY_MS): void {
    if (what.rediscover) this.pending.rediscover = true;
    if (what.campaign) this.pending.campaigns.add(what.campaign);
    if (what.lore) this.pending.lore.add(what.lore);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const work = this.pending;
      this.pending = { rediscover: false, campaigns: new Set(), lore: new Set() };
      this.running = this.running.then(() => this.update(work)).catch((error: unknown) => this.log.error(`campaigns: ${String(error)}`));
    }, delay);
  }

  private async update(work: { rediscover: boolean; campaigns: Set<string>; lore: Set<string> }): Promise<void> {
    await vscode.window.withProgress({ location: { viewId: 'narratoria.campaign' } }, async () => {
      let folders = [...this.states.keys()];
      if (work.rediscover) {
        const roots = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
        folders = await findCampaignFolders(roots);
      }
      const next = new Map<string, CampaignState>();
      const reload = folders.filter((folder) => work.rediscover || work.campaigns.has(folder) || !this.states.has(folder));
      const loaded = await Promise.all(reload.map(async (folder) => [folder, await validateCampaign(folder)] as const));
      for (const folder of folders) {
        const fresh = loaded.find(([candidate]) => candidate === folder)?.[1];
        const previous = this.states.get(folder);
        if (fresh) next.set(folder, { folder, validation: fresh, lore: work.lore.has(folder) ? undefined : previous?.lore });
        else if (previous) next.set(folder, previous);
      }
      this.states = next;
      this.searched = true;
      await this.setContext();
      this.changeEmitter.fire();
      await this.countLore([...next.values()].filter((state) => state.lore === undefined).map((state) => state.folder));
    });
  }

  private async countLore(folders: readonly string[]): Promise<void> {
    for (const folder of folders) {
      try {
        const lore = loreCountsOf(await chunkCampaignLore(folder));
        const state = this.states.get(folder);
        if (state) this.states.set(folder, { ...state, lore });
      } catch (error) {
        this.log.warn(`the lore of ${folder} could not be chunked: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (folders.length > 0) this.changeEmitter.fire();
  }

  private async setContext(): Promise<void> {
    const campaigns = [...this.states.values()];
    await vscode.commands.executeCommand('setContext', 'narratoria.hasCampaign', campaigns.length > 0);
    await vscode.commands.executeCommand('setContext', 'narratoria.campaignsLoaded', true);
    await vscode.commands.executeCommand(
      'setContext',
      'narratoria.campaignBeatFiles',
      campaigns.filter((state) => state.validation.campaign.beats).map((state) => path.join(state.folder, 'plot', 'beats.json')),
    );
  }
}
