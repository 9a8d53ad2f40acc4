// The lore code lens: on the first line of each lore file of a campaign, its chunk count and largest chunk ("7 chunks · largest 412 tokens"), from the editor's text; a click previews the chunks.
import * as vscode from 'vscode';
import { chunkLoreText, loadTokenCounter, type ChunkedLoreFile } from '../../runtime/campaign/lore/index.js';
import { loreFileOf, loreLensTitle } from '../../runtime/campaign/view/loreView.js';
import { DisposableStore } from '../../runtime/common/disposable.js';
import type { CampaignViewService } from './campaignViewService.js';

export const PREVIEW_LORE_COMMAND = 'narratoria.previewLoreChunks';
export const HIDE_LORE_PREVIEW_COMMAND = 'narratoria.hideLoreChunks';

/** The files a lens may be on; the provider keeps those of a campaign's lore/ folder. */
export const LORE_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/lore/**/*.md' },
  { scheme: 'file', pattern: '**/lore/**/*.markdown' },
  { scheme: 'file', pattern: '**/lore/**/*.txt' },
];

/** Chunks a document's current text when it is a campaign's lore (the last result kept per document version). */
export class LoreChunker {
  private readonly cache = new Map<string, { version: number; chunked: ChunkedLoreFile }>();

  constructor(private readonly campaigns: CampaignViewService) {}

  /** The lore path of a document (`lore/places/harbour.md`), or undefined when it is no campaign's lore file. */
  loreFileOf(document: vscode.TextDocument): string | undefined {
    if (document.uri.scheme !== 'file') return undefined;
    const folder = this.campaigns.campaignFolderOf(document.uri.fsPath);
    return folder === undefined ? undefined : loreFileOf(folder, document.uri.fsPath);
  }

  async chunk(document: vscode.TextDocument): Promise<{ readonly file: string; readonly chunked: ChunkedLoreFile } | undefined> {
    const file = this.loreFileOf(document);
    if (file === undefined) return undefined;
    const key = document.uri.toString();
    const cached = this.cache.get(key);
    if (cached?.version === document.version) return { file, chunked: cached.chunked };
    const chunked = chunkLoreText(document.getText(), file, await loadTokenCounter());
    this.cache.set(key, { version: document.version, chunked });
    return { file, chunked };
  }

  forget(document: vscode.TextDocument): void {
    this.cache.delete(document.uri.toString());
  }
}

export class LoreLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly disposables = new DisposableStore();
  readonly onDidChangeCodeLenses = this.changeEmitter.event;

  constructor(
    private readonly chunker: LoreChunker,
    campaigns: CampaignViewService,
  ) {
    // A campaign found (or gone) changes which files are lore.
    this.disposables.addAll(
      this.changeEmitter,
      campaigns.onDidChange(() => this.changeEmitter.fire()),
      vscode.workspace.onDidCloseTextDocument((document) => chunker.forget(document)),
    );
  }

  async provideCodeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    const result = await this.chunker.chunk(document);
    if (!result || token.isCancellationRequested) return [];
    const summary = result.chunked.summary;
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: `$(list-ordered) ${loreLensTitle(summary)}`,
        tooltip: `How ${result.file} is cut into chunks of at most 512 cl100k_base tokens for retrieval. Click to see where.`,
        command: PREVIEW_LORE_COMMAND,
        arguments: [document.uri],
      }),
    ];
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
