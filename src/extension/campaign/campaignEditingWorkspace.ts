// The campaigns of the workspace for editing: found in every folder (up to two levels down), watched, and loaded with the unsaved text of open documents.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { campaignFolderOf, campaignRelative, CONTENT_FOLDERS_GLOB, looksLikeCampaign, MANIFEST_GLOB } from '../../runtime/campaign/authoring/index.js';
import { loadCampaign, MANIFEST_FILE, type Campaign } from '../../runtime/campaign/index.js';
import { DisposableStore, toDisposable } from '../../runtime/common/disposable.js';
import { isPathInside } from '../../runtime/common/pathContainment.js';

/** Delay before looking for campaigns again after manifests or campaign folders come and go. */
const DISCOVERY_DELAY_MS = 200;
/**
 * Margins: when the workspace is searched again after new discovery watchers, and when a campaign is read again after
 * its watcher was made or after its files came or went.
 * - A file watcher starts a moment after it is created, so a file written meanwhile (a campaign copied in, New
 *   Campaign, a checkout) raises no event.
 * - The watcher drops a file created and deleted again before it reports them (the pair coalesces into nothing),
 *   while a read in between, set off by another event, saw the file: the campaign kept problems of a file long gone.
 * These searches and reads pick both up.
 */
const WATCHER_SETTLE_MS = [1_000, 5_000] as const;

/** Runs `action` at each of WATCHER_SETTLE_MS, unless `store` is disposed first. */
function afterWatchersSettle(store: DisposableStore, action: () => void): void {
  for (const delayMs of WATCHER_SETTLE_MS) {
    const timer = setTimeout(action, delayMs);
    store.add(toDisposable(() => clearTimeout(timer)));
  }
}

/** A campaign being edited: its watcher and what was last loaded. */
interface CampaignState {
  readonly folder: string;
  readonly watcher: vscode.Disposable;
  /** Bumped by every change of one of its files: a load at an older generation is stale. */
  generation: number;
  loading?: { readonly generation: number; readonly campaign: Promise<Campaign | undefined> };
  loaded?: { readonly generation: number; readonly campaign: Campaign };
}

/** A document's campaign, loaded with the document's current text. */
export interface DocumentCampaign {
  readonly campaign: Campaign;
  /** The document's path in the campaign (/ separators). */
  readonly file: string;
}

export class CampaignEditingWorkspace implements vscode.Disposable {
  private readonly states = new Map<string, CampaignState>();
  private readonly changed = new vscode.EventEmitter<string>();
  private readonly removed = new vscode.EventEmitter<string>();
  private readonly disposables = new DisposableStore();
  private readonly discoveryWatchers = new DisposableStore();
  private discoveryTimer: NodeJS.Timeout | undefined;
  /** The workspace folders the discovery watchers watch, one path per line. */
  private watchedRoots: string | undefined;
  private discovering: Promise<void> = Promise.resolve();

  /** A campaign was found, or one of its files changed (on disk, or in an open editor): its folder. */
  readonly onDidChangeCampaign = this.changed.event;
  /** A campaign is gone (its manifest deleted, its folder closed): its folder. */
  readonly onDidRemoveCampaign = this.removed.event;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.disposables.addAll(
      this.changed,
      this.removed,
      this.discoveryWatchers,
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.scheduleDiscovery(0)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.touch(event.document.uri);
      }),
      // Opening a file hands its syntax and schema problems to VS Code; closing it drops its unsaved text.
      vscode.workspace.onDidOpenTextDocument((document) => this.touch(document.uri)),
      vscode.workspace.onDidCloseTextDocument((document) => this.touch(document.uri)),
      // A folder deleted or renamed in VS Code may take campaigns with it (watchers report the folder, not its manifest).
      vscode.workspace.onDidDeleteFiles((event) => this.rediscoverAfter(event.files)),
      vscode.workspace.onDidRenameFiles((event) => this.rediscoverAfter(event.files.flatMap((file) => [file.oldUri, file.newUri]))),
      vscode.workspace.onDidCreateFiles((event) => this.rediscoverAfter(event.files)),
    );
    this.scheduleDiscovery(0);
  }

  /** The folders (absolute) of the campaigns found. */
  get folders(): string[] {
    return [...this.states.keys()];
  }

  /** Resolves once the campaigns have been looked for (the first search, or the one scheduled or under way). */
  async whenDiscovered(): Promise<void> {
    while (this.discoveryTimer !== undefined) await new Promise((resolve) => setTimeout(resolve, DISCOVERY_DELAY_MS));
    await this.discovering;
  }

  /** The campaign folder a file belongs to, if any. */
  campaignOf(uri: vscode.Uri): string | undefined {
    return uri.scheme === 'file' ? campaignFolderOf(this.states.keys(), uri.fsPath) : undefined;
  }

  /** How many times the campaign changed so far (a validation started at an older count is stale). */
  generationOf(folder: string): number | undefined {
    return this.states.get(folder)?.generation;
  }

  /**
   * Makes the next read of the campaign load its files again, whatever the file watcher said: a check asked for now
   * (the view's Refresh) then also sees a change the watcher missed.
   */
  markStale(folder: string): void {
    const state = this.states.get(folder);
    if (state) state.generation++;
  }

  /** The campaign of `folder` as its files are now (open documents' unsaved text included); undefined when it is gone. */
  async campaign(folder: string): Promise<Campaign | undefined> {
    const state = this.states.get(folder);
    if (!state) return undefined;
    // A change during a load makes it stale: load again (a few times at most while the author types on).
    for (let attempt = 0; attempt < 4; attempt++) {
      const generation = state.generation;
      if (state.loaded?.generation === generation) return state.loaded.campaign;
      if (state.loading?.generation !== generation) state.loading = { generation, campaign: this.load(folder) };
      const campaign = await state.loading.campaign;
      if (campaign && (state.loaded === undefined || state.loaded.generation < generation)) state.loaded = { generation, campaign };
      if (state.generation === generation || this.states.get(folder) !== state) return campaign;
    }
    return state.loaded?.campaign;
  }

  /** The campaign of an open document, loaded with the document's text as it is now; undefined outside campaigns. */
  async documentCampaign(document: vscode.TextDocument): Promise<DocumentCampaign | undefined> {
    const folder = this.campaignOf(document.uri);
    if (folder === undefined) return undefined;
    const campaign = await this.campaign(folder);
    if (!campaign || document.isClosed) return undefined;
    const file = campaignRelative(folder, document.uri.fsPath);
    // Positions only mean something in the text they were computed on.
    return campaign.documents.get(file)?.text === document.getText() ? { campaign, file } : undefined;
  }

  dispose(): void {
    clearTimeout(this.discoveryTimer);
    this.discoveryTimer = undefined;
    for (const state of this.states.values()) state.watcher.dispose();
    this.states.clear();
    this.disposables.dispose();
  }

  private touch(uri: vscode.Uri): void {
    const folder = this.campaignOf(uri);
    const state = folder === undefined ? undefined : this.states.get(folder);
    if (!state) return;
    state.generation++;
    this.changed.fire(state.folder);
  }

  /** Reads the campaign: open documents' text, else the disk. */
  private async load(folder: string): Promise<Campaign | undefined> {
    const open = new Map(
      vscode.workspace.textDocuments
        .filter((document) => document.uri.scheme === 'file' && !document.isClosed)
        .map((document) => [document.uri.fsPath, document]),
    );
    const readText = async (file: string): Promise<string> => {
      const document = open.get(file);
      return document && !document.isClosed ? document.getText() : await readFile(file, 'utf8');
    };
    try {
      return await loadCampaign(folder, undefined, { readText });
    } catch (error) {
      this.log.error(`reading the campaign ${folder} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return undefined;
    }
  }

  /** Looks for campaigns again when files were moved or removed near one (a folder above a campaign, a manifest). */
  private rediscoverAfter(uris: readonly vscode.Uri[]): void {
    const near = uris.some((uri) => {
      if (uri.scheme !== 'file') return false;
      if (path.basename(uri.fsPath) === MANIFEST_FILE) return true;
      return [...this.states.keys()].some((folder) => folder === uri.fsPath || isPathInside(folder, uri.fsPath));
    });
    if (near) this.scheduleDiscovery(DISCOVERY_DELAY_MS);
  }

  private scheduleDiscovery(delayMs: number): void {
    clearTimeout(this.discoveryTimer);
    this.discoveryTimer = setTimeout(() => {
      this.discoveryTimer = undefined;
      this.discovering = this.discovering
        .then(() => this.discover())
        .catch((error: unknown) => this.log.error(`looking for campaigns failed: ${String(error)}`));
    }, delayMs);
  }

  private async discover(): Promise<void> {
    const roots = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
    this.watchForCampaigns(roots);
    const manifests = (
      await Promise.all(roots.map((root) => vscode.workspace.findFiles(new vscode.RelativePattern(root, MANIFEST_GLOB), '**/node_modules/**')))
    ).flat();
    const found = new Set<string>();
    await Promise.all(
      manifests.map(async (manifest) => {
        const folder = path.dirname(manifest.fsPath);
        if (await looksLikeCampaign(folder)) found.add(folder);
      }),
    );
    for (const [folder, state] of [...this.states]) {
      if (found.has(folder)) continue;
      state.watcher.dispose();
      this.states.delete(folder);
      this.removed.fire(folder);
    }
    for (const folder of [...found].sort()) {
      if (this.states.has(folder)) continue;
      this.states.set(folder, { folder, watcher: this.watch(folder), generation: 0 });
      this.log.info(`campaign found: ${folder}`);
      this.changed.fire(folder);
    }
  }

  /**
   * Watches the workspace folders for manifests and content folders that can make a campaign. The watchers are made
   * again only when the folders change: made at each search, they left a gap in which a campaign written at once (a
   * minimal one is three files) raised no event and was never found. New watchers also search again once started.
   */
  private watchForCampaigns(roots: readonly vscode.WorkspaceFolder[]): void {
    const key = roots.map((root) => root.uri.fsPath).join('\n');
    if (key === this.watchedRoots) return;
    this.watchedRoots = key;
    this.discoveryWatchers.clear();
    for (const root of roots) {
      for (const glob of [MANIFEST_GLOB, CONTENT_FOLDERS_GLOB]) {
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, glob));
        const again = (): void => this.scheduleDiscovery(DISCOVERY_DELAY_MS);
        this.discoveryWatchers.addAll(watcher, watcher.onDidCreate(again), watcher.onDidDelete(again), watcher.onDidChange(again));
      }
    }
    afterWatchersSettle(this.discoveryWatchers, () => this.scheduleDiscovery(0));
  }

  /** Changes on disk inside a campaign: created, deleted, renamed (a delete and a create) and saved files. */
  private watch(folder: string): vscode.Disposable {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), '**'));
    const store = new DisposableStore();
    const manifest = vscode.Uri.file(path.join(folder, MANIFEST_FILE));
    // Files came or went: read again at each of WATCHER_SETTLE_MS after the last of them.
    const settling = new DisposableStore();
    store.add(settling);
    const settle = (): void => {
      settling.clear();
      afterWatchersSettle(settling, () => this.touch(manifest));
    };
    const created = (uri: vscode.Uri): void => {
      this.touch(uri);
      settle();
    };
    const deleted = (uri: vscode.Uri): void => {
      if (uri.fsPath === folder || uri.fsPath === manifest.fsPath) this.scheduleDiscovery(DISCOVERY_DELAY_MS);
      this.touch(uri);
      settle();
    };
    store.addAll(
      watcher,
      watcher.onDidCreate(created),
      watcher.onDidDelete(deleted),
      watcher.onDidChange((uri) => this.touch(uri)),
    );
    afterWatchersSettle(store, () => this.touch(manifest));
    return store;
  }
}
