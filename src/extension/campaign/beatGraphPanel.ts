// The beat graph beside plot/beats.json: the plan graph's webview drawing the runtime's beat graph; follows the text (unsaved edits too) and the cursor, reveals a clicked beat, exports.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { followDocument } from '../graph/documentFollower.js';
import { layoutBeatGraph, type BeatGraph } from '../../runtime/campaign/view/beatGraph.js';
import { beatPlayOverlay } from '../../runtime/campaign/view/beatPlayStates.js';
import { beatAt, beatIdRange, beatWithId, readBeatsText, type BeatsText } from '../../runtime/campaign/view/beatsText.js';
import { assertNever, type FromGraphWebview, type GraphView, type ToGraphWebview } from '../../protocol/graphPanelMessages.js';
import { saveGraphImage } from '../graph/graphImageSave.js';
import { WebviewHost } from '../webviewHost.js';

export const BEAT_GRAPH_VIEW_TYPE = 'narratoria.beatGraph';

export interface BeatGraphPanelHost {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  /** The campaign's title for the header (its manifest's, else its folder's name). */
  readonly campaignTitle: () => string;
}

/** One beat graph, bound to one beats.json document. */
export class BeatGraphPanel implements vscode.Disposable {
  private readonly host: WebviewHost<ToGraphWebview, FromGraphWebview>;
  private version = 0;
  private fitNext = true;
  private lastText: string | undefined;
  /** The last text that parsed, and its graph. */
  private good: { readonly read: BeatsText; readonly graph: BeatGraph } | undefined;
  private selected: string | undefined;
  /** The play session of this campaign the graph colours its beats by (its name and state), if any. */
  private played: { readonly sessionName: string; readonly state: Readonly<Record<string, unknown>> } | undefined;

  readonly onDidDispose: vscode.Event<void>;

  constructor(
    readonly document: vscode.TextDocument,
    panel: vscode.WebviewPanel,
    private readonly services: BeatGraphPanelHost,
  ) {
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(services.extensionUri, 'dist', 'webview')] };
    this.host = new WebviewHost<ToGraphWebview, FromGraphWebview>(panel, {
      extensionUri: services.extensionUri,
      log: services.log,
      name: 'beat graph',
      page: { title: panel.title, stylesheet: 'graph.css', script: 'graph.js', rootId: 'app', blobImages: true },
      beforeReady: 'drop',
      onReady: () => {
        this.fitNext = true;
        this.lastText = undefined;
        this.follow();
      },
      onMessage: (message) => this.handle(message),
    });
    this.onDidDispose = this.host.onDidDispose;
    this.host.disposables.addAll(
      followDocument(document, {
        onText: () => this.follow(),
        onCursor: (editor) => this.followCursor(editor),
      }),
    );
  }

  /** The graph drawn last (the last text that parsed). */
  get current(): BeatGraph | undefined {
    return this.good?.graph;
  }

  reveal(): void {
    this.host.panel.reveal(vscode.ViewColumn.Beside, true);
  }

  /** Colours the beats by a play session of this campaign (undefined: by none). */
  setPlayed(played: { readonly sessionName: string; readonly state: Readonly<Record<string, unknown>> } | undefined): void {
    this.played = played;
    this.postPlayed();
  }

  private postPlayed(): void {
    const graph = this.good?.graph;
    if (!graph) return;
    const ids = graph.model.tools.map((tool) => tool.id);
    const unreachable = new Set(graph.unreachable.map((beat) => beat.id));
    const played = this.played;
    this.post({ type: 'beatStates', overlay: played ? beatPlayOverlay(played.sessionName, played.state, ids, unreachable) : undefined });
  }

  dispose(): void {
    this.host.dispose();
  }

  private async handle(message: Exclude<FromGraphWebview, { readonly type: 'ready' }>): Promise<void> {
    switch (message.type) {
      case 'reveal':
        await this.revealBeat(message.toolId);
        return;
      case 'exportSvg':
        await saveGraphImage(this.document.uri, this.name, 'beats', 'svg', Buffer.from(message.svg, 'utf8'));
        return;
      case 'exportPng':
        await saveGraphImage(this.document.uri, this.name, 'beats', 'png', Buffer.from(message.base64, 'base64'));
        return;
      case 'viewError':
        this.services.log.error(`beat graph view: ${message.message}`);
        return;
      default:
        assertNever(message);
    }
  }

  private get name(): string {
    return path.basename(this.document.uri.path);
  }

  /** Reads the document's current text; draws it when it parses, else keeps the last graph with a banner saying why. */
  private follow(): void {
    const text = this.document.getText();
    if (text === this.lastText) return;
    this.lastText = text;
    try {
      const read = readBeatsText(text);
      if (!read.beats) {
        this.post({ type: 'stale', reason: this.good ? read.syntaxError : `${read.syntaxError} (there is no earlier graph to show)` });
        return;
      }
      const graph = layoutBeatGraph(read.beats, read.conditions);
      this.good = { read, graph };
      this.post({ type: 'graph', graph: this.view(graph), fit: this.fitNext });
      this.fitNext = false;
      this.post({ type: 'stale', reason: undefined });
      if (this.played) this.postPlayed();
      if (this.selected !== undefined) this.post({ type: 'select', toolId: this.selected });
    } catch (error) {
      this.services.log.error(`beat graph of ${this.document.uri.fsPath}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      this.post({ type: 'error', message: `The beat graph could not be drawn: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  private view(graph: BeatGraph): GraphView {
    return {
      version: ++this.version,
      title: `${this.services.campaignTitle()}: plot/beats.json`,
      source: 'beats',
      layout: graph.layout,
      problems: graph.problems,
    };
  }

  private post(message: ToGraphWebview): void {
    this.host.post(message);
  }

  private followCursor(editor: vscode.TextEditor): void {
    const read = this.good?.read;
    if (!read) return;
    const position = editor.selection.active;
    const id = beatAt(read.beats, read.document, position.line + 1, position.character + 1)?.id;
    if (id === this.selected) return;
    this.selected = id;
    this.post({ type: 'select', toolId: id });
  }

  private async revealBeat(id: string): Promise<void> {
    const read = this.good?.read;
    const beat = beatWithId(read?.beats, id);
    const range = read && beat ? beatIdRange(read.document, beat) : undefined;
    if (!range) {
      void vscode.window.showInformationMessage(`"${id}" is not a beat of ${this.name}.`);
      return;
    }
    const selection = new vscode.Range(range.start.line - 1, range.start.column - 1, range.end.line - 1, range.end.column - 1);
    const visible = vscode.window.visibleTextEditors.find((candidate) => candidate.document === this.document);
    this.selected = id;
    const editor = await vscode.window.showTextDocument(this.document, {
      viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One,
      selection,
      preserveFocus: false,
    });
    editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}
