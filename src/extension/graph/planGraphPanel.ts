// The Plan Graph webview beside a plan (or run record): follows the text and the cursor, reveals tools, exports, shows live run states and the debugger's paused tool.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { followDocument } from './documentFollower.js';
import type { PlanDocument } from '../../runtime/authoring/planDocument.js';
import { GraphFeed, type FeedUpdate } from '../../runtime/graph/graphFeed.js';
import { levelCounts } from '../../runtime/graph/planGraph.js';
import { OFF_THREAD_FROM } from '../../runtime/graph/layoutOffThread.js';
import type { GraphedDocument } from '../../runtime/graph/planGraphDocument.js';
import type { PlanGraphLayout, PlanGraphModel, ScriptNames } from '../../runtime/graph/graphTypes.js';
import { assertNever, type FromGraphWebview, type GraphView, type ToGraphWebview } from '../../protocol/graphPanelMessages.js';
import { WebviewHost } from '../webviewHost.js';
import { saveGraphImage } from './graphImageSave.js';

export const PLAN_GRAPH_VIEW_TYPE = 'narratoria.planGraph';

export interface PlanGraphPanelHost {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  readonly layout: (model: PlanGraphModel) => Promise<PlanGraphLayout>;
  /** The plan of a recorded run, for an ExecutionResult that does not carry it. */
  readonly planOfRun: (document: vscode.TextDocument, planId: string) => unknown;
  /** The canonical scripts of toolPaths that name one by an alias, in the document's story. */
  readonly scriptNames?: ((document: vscode.TextDocument) => ScriptNames | undefined) | undefined;
  /** The parsed plan of the document's current text (cached by the plan workspace: not parsed per cursor move). */
  readonly planModel: (document: vscode.TextDocument) => PlanDocument;
}

/** One graph view, bound to one text document. */
export class PlanGraphPanel implements vscode.Disposable {
  private readonly host: WebviewHost<ToGraphWebview, FromGraphWebview>;
  private readonly feed: GraphFeed;
  private version = 0;
  private fitNext = true;
  private updating: Promise<void> = Promise.resolve();
  private selected: string | undefined;
  private stale: string | undefined;

  /** Fires once, when the panel is closed or disposed. */
  readonly onDidDispose: vscode.Event<void>;

  constructor(
    readonly document: vscode.TextDocument,
    panel: vscode.WebviewPanel,
    private readonly services: PlanGraphPanelHost,
  ) {
    const host = services;
    this.feed = new GraphFeed(
      host.layout,
      (planId) => host.planOfRun(document, planId),
      () => host.scriptNames?.(document),
    );
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(host.extensionUri, 'dist', 'webview')] };
    this.host = new WebviewHost<ToGraphWebview, FromGraphWebview>(panel, {
      extensionUri: host.extensionUri,
      log: host.log,
      name: 'plan graph',
      page: { title: panel.title, stylesheet: 'graph.css', script: 'graph.js', rootId: 'app', blobImages: true },
      onReady: async () => {
        this.fitNext = true;
        this.version++;
        await this.follow(true);
      },
      onMessage: (message) => this.handle(message),
    });
    this.onDidDispose = this.host.onDidDispose;
    this.host.disposables.addAll(
      followDocument(document, {
        onText: () => void this.follow(false),
        onCursor: (editor) => this.followCursor(editor),
      }),
    );
  }

  /** The file name the panel is titled with. */
  get name(): string {
    return path.basename(this.document.uri.path);
  }

  reveal(): void {
    this.host.panel.reveal(vscode.ViewColumn.Beside, true);
  }

  /** Why the graph shown is the last good one (the text does not parse), or undefined when it is current. */
  get staleReason(): string | undefined {
    return this.stale;
  }

  /** The graph drawn last (for live runs: its node ids and dependencies). */
  get current(): GraphedDocument | undefined {
    return this.feed.current;
  }

  /** Sends a message now, or once the webview is ready (a live run's messages sent before it). */
  post(message: ToGraphWebview): void {
    this.host.post(message);
  }

  /**
   * Selects the tool a debugger is paused at, through the same `select` message as the editor's cursor;
   * undefined (running again) goes back to the tool under the cursor.
   */
  highlight(toolId: string | undefined): void {
    this.post({ type: 'select', toolId: toolId ?? this.selected });
  }

  dispose(): void {
    this.host.dispose();
  }

  private async handle(message: Exclude<FromGraphWebview, { readonly type: 'ready' }>): Promise<void> {
    switch (message.type) {
      case 'reveal':
        await this.revealTool(message.toolId);
        return;
      case 'exportSvg':
        await this.save('svg', Buffer.from(message.svg, 'utf8'));
        return;
      case 'exportPng':
        await this.save('png', Buffer.from(message.base64, 'base64'));
        return;
      case 'viewError':
        this.services.log.error(`plan graph view: ${message.message}`);
        return;
      default:
        assertNever(message);
    }
  }

  /** Lays out the current text (one layout at a time; the latest text wins) and posts the result. */
  private follow(force: boolean): Promise<void> {
    this.updating = this.updating.then(async () => {
      try {
        const update = await this.feed.update(this.document.getText(), (model) => this.announceLayout(model));
        this.publish(update, force);
      } catch (error) {
        this.services.log.error(`plan graph of ${this.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        this.post({ type: 'error', message: `The graph could not be laid out: ${error instanceof Error ? error.message : String(error)}` });
      }
    });
    return this.updating;
  }

  private announceLayout(model: PlanGraphModel): void {
    if (model.tools.length >= OFF_THREAD_FROM)
      this.post({ type: 'layoutStarted', title: this.name, nodeCount: model.tools.length, levels: levelCounts(model) });
  }

  private publish(update: FeedUpdate, force: boolean): void {
    if (update.kind === 'unchanged' && force && this.feed.current) {
      this.post({ type: 'graph', graph: this.view(this.feed.current), fit: this.takeFit() });
      return;
    }
    if (update.kind === 'graph') {
      this.stale = undefined;
      this.post({ type: 'graph', graph: this.view(update.graphed), fit: this.takeFit() });
      this.post({ type: 'stale', reason: undefined });
    } else if (update.kind === 'stale') {
      this.stale = update.reason;
      if (force && update.last) this.post({ type: 'graph', graph: this.view(update.last), fit: this.takeFit() });
      this.post({ type: 'stale', reason: update.last ? update.reason : `${update.reason} (there is no earlier valid graph to show)` });
    }
  }

  private takeFit(): boolean {
    const fit = this.fitNext;
    this.fitNext = false;
    return fit;
  }

  private view(graphed: GraphedDocument): GraphView {
    return {
      version: ++this.version,
      title: this.name,
      source: graphed.source.kind,
      layout: graphed.layout,
      problems: graphed.problems,
      ...(graphed.timeline ? { timeline: graphed.timeline } : {}),
    };
  }

  private followCursor(editor: vscode.TextEditor): void {
    const model = this.services.planModel(this.document);
    const tool = model.toolAt(this.document.offsetAt(editor.selection.active));
    const toolId = tool?.toolId?.value;
    if (toolId === this.selected) return;
    this.selected = toolId;
    this.post({ type: 'select', toolId });
  }

  private async revealTool(toolId: string): Promise<void> {
    const model = this.services.planModel(this.document);
    const tool = model.toolById(toolId);
    const span = tool?.toolId?.span ?? tool?.span;
    const editor =
      vscode.window.visibleTextEditors.find((candidate) => candidate.document === this.document) ??
      (await vscode.window.showTextDocument(this.document, { viewColumn: vscode.ViewColumn.One, preserveFocus: false }));
    if (!span) {
      void vscode.window.showInformationMessage(`"${toolId}" is not a tool of ${this.name} (a run record keeps its plan under "plan").`);
      return;
    }
    const range = new vscode.Range(this.document.positionAt(span.offset), this.document.positionAt(span.offset + span.length));
    this.selected = toolId;
    await vscode.window.showTextDocument(this.document, { viewColumn: editor.viewColumn ?? vscode.ViewColumn.One, selection: range, preserveFocus: false });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private async save(extension: 'svg' | 'png', content: Uint8Array): Promise<void> {
    await saveGraphImage(this.document.uri, this.name, this.name.replace(/(\.plan)?\.json$/, ''), extension, content);
  }
}
