// The window's campaigns for the Campaign view: those campaign editing finds, each with the validation the Problems panel shows and its lore counted; context keys. No UI.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CampaignValidation } from '../../runtime/campaign/index.js';
import { loadTokenCounter } from '../../runtime/campaign/lore/index.js';
import { LoreCounter, type LoreCounts } from '../../runtime/campaign/view/loreCounts.js';
import { DisposableStore } from '../../runtime/common/disposable.js';
import type { CampaignEditing } from './campaignEditing.js';

/** One campaign as the view shows it. */
export interface CampaignState {
  readonly folder: string;
  readonly validation: CampaignValidation;
  /** Undefined until its lore is counted. */
  readonly lore: LoreCounts | undefined;
}

/**
 * The campaigns come from campaign editing (found in each workspace folder or up to two levels below, followed through
 * file changes and unsaved edits); each is shown with the validation its Problems come from, so the view and the
 * Problems panel always agree, and no campaign is read or checked twice.
 */
export class CampaignViewService implements vscode.Disposable {
  private readonly states = new Map<string, CampaignState>();
  private readonly counters = new Map<string, LoreCounter>();
  private searched = false;
  private readonly disposables = new DisposableStore();
  private readonly changeEmitter = new vscode.EventEmitter<void>();

  /** Fires when a campaign, its health or its lore counts changed. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly editing: CampaignEditing,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.addAll(
      this.changeEmitter,
      editing.diagnostics.onDidValidate(({ folder, validation }) => void this.validated(folder, validation)),
      editing.campaigns.onDidRemoveCampaign((folder) => this.removed(folder)),
    );
    // The first search, and the first check of what it found, under the view's progress bar; until then the view says it is looking.
    void vscode.window
      .withProgress({ location: { viewId: 'narratoria.campaign' } }, () => this.whenIdle())
      .then(undefined, (error: unknown) => this.log.error(`the campaigns could not be shown: ${String(error)}`))
      .then(async () => {
        this.searched = true;
        await this.setContext();
      });
  }

  /** The campaigns shown, by folder. */
  get campaigns(): readonly CampaignState[] {
    return [...this.states.values()].sort((left, right) => (left.folder < right.folder ? -1 : 1));
  }

  /** Whether the first search for campaigns has finished. */
  get loaded(): boolean {
    return this.searched;
  }

  /** The folder of the campaign holding `file` (absolute), as soon as campaign editing knows it. */
  campaignFolderOf(file: string): string | undefined {
    return this.editing.campaigns.campaignOf(vscode.Uri.file(file));
  }

  /** The campaign holding `file` (absolute), once shown. */
  campaignOf(file: string): CampaignState | undefined {
    const folder = this.campaignFolderOf(file);
    return folder === undefined ? undefined : this.states.get(folder);
  }

  /** Checks every campaign again now (the view's Refresh), with the view's progress bar. */
  async refresh(): Promise<void> {
    await vscode.window.withProgress({ location: { viewId: 'narratoria.campaign' } }, async () => {
      await this.editing.campaigns.whenDiscovered();
      await Promise.all(this.editing.campaigns.folders.map((folder) => this.editing.diagnostics.validateNow(folder)));
    });
  }

  /** Resolves once the campaigns found so far are shown (checked at least once). */
  async whenIdle(): Promise<void> {
    await this.editing.campaigns.whenDiscovered();
    const missing = this.editing.campaigns.folders.filter((folder) => !this.states.has(folder));
    await Promise.all(missing.map((folder) => this.editing.diagnostics.validateNow(folder)));
  }

  /**
   * Resolves true once the campaign at `folder` is shown (just written: campaign editing finds it from the file
   * watcher's news), false if it is not within `patienceMs` (a safety net: the view shows it whenever it comes).
   */
  whenShown(folder: string, patienceMs = 10_000): Promise<boolean> {
    if (this.states.has(folder)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (shown: boolean): void => {
        clearTimeout(timer);
        listener.dispose();
        resolve(shown);
      };
      const listener = this.onDidChange(() => {
        if (this.states.has(folder)) done(true);
      });
      const timer = setTimeout(() => done(false), patienceMs);
    });
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private async validated(folder: string, validation: CampaignValidation): Promise<void> {
    const previous = this.states.get(folder);
    const state: CampaignState = { folder, validation, lore: previous?.lore };
    this.states.set(folder, state);
    await this.setContext();
    this.changeEmitter.fire();
    try {
      const counter = this.counters.get(folder) ?? new LoreCounter();
      this.counters.set(folder, counter);
      const lore = counter.count(validation.campaign, validation.campaign.lore.length > 0 ? await loadTokenCounter() : () => 0);
      // A newer validation may have come meanwhile: it counts its own.
      if (this.states.get(folder) !== state) return;
      this.states.set(folder, { ...state, lore });
      this.changeEmitter.fire();
    } catch (error) {
      this.log.warn(`the lore of ${folder} could not be counted: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private removed(folder: string): void {
    this.counters.delete(folder);
    if (!this.states.delete(folder)) return;
    void this.setContext();
    this.changeEmitter.fire();
  }

  private async setContext(): Promise<void> {
    const campaigns = this.campaigns;
    await vscode.commands.executeCommand('setContext', 'narratoria.hasCampaign', campaigns.length > 0);
    await vscode.commands.executeCommand('setContext', 'narratoria.campaignsLoaded', this.searched);
    await vscode.commands.executeCommand(
      'setContext',
      'narratoria.campaignBeatFiles',
      campaigns.filter((state) => state.validation.campaign.beats).map((state) => path.join(state.folder, 'plot', 'beats.json')),
    );
  }
}
