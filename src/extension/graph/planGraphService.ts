// Owns the Plan Graph views of the window (one per document), the layout worker, and the live overlay of runs started elsewhere (Run Plan, debugger).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findStoryRoot } from '../../runtime/authoring/storyRoot.js';
import type { PlanDocument } from '../../runtime/authoring/planDocument.js';
import { GraphLayoutWorker } from '../../runtime/graph/layoutOffThread.js';
import { recordedPlan } from '../../runtime/graph/graphSource.js';
import { storyScriptNames } from '../../runtime/graph/graphScriptNames.js';
import { buildRunTimeline } from '../../runtime/graph/runTimeline.js';
import { trackRunStates, type LiveToolState, type ObservableRun } from '../../runtime/graph/runStateTracker.js';
import type { NodeStateView } from '../../protocol/graphPanelMessages.js';
import { PLAN_GRAPH_VIEW_TYPE, PlanGraphPanel } from './planGraphPanel.js';
import { DisposableStore } from '../../runtime/common/disposable.js';

/** Margin: live states are sent at most this often (a 1,000-tool run would otherwise post a message per event). */
const STATE_BATCH_MS = 80;

export interface PlanGraphServiceOptions {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  readonly root: string | undefined;
  /** The parsed plan of a document (the plan workspace's cached model of its current text). */
  readonly planModel: (document: vscode.TextDocument) => PlanDocument;
}

export class PlanGraphService implements vscode.Disposable {
  private readonly panels = new Map<string, PlanGraphPanel>();
  private readonly worker: GraphLayoutWorker;
  private readonly disposables = new DisposableStore();

  constructor(private readonly options: PlanGraphServiceOptions) {
    this.worker = new GraphLayoutWorker(vscode.Uri.joinPath(options.extensionUri, 'dist', 'graphLayoutWorker.cjs').fsPath);
    this.disposables.addAll({ dispose: () => this.worker.dispose() });
  }

  /** `narratoria.showPlanGraph [uri]`: opens (or reveals) the graph of a plan, run record or ExecutionResult beside it. */
  async show(resource?: vscode.Uri): Promise<PlanGraphPanel | undefined> {
    const uri = resource ?? vscode.window.activeTextEditor?.document.uri;
    if (!uri) {
      void vscode.window.showWarningMessage('Show Plan Graph works on a *.plan.json file, a run record or an ExecutionResult: open one first.');
      return undefined;
    }
    const existing = this.panels.get(uri.toString());
    if (existing) {
      existing.reveal();
      return existing;
    }
    const document = await vscode.workspace.openTextDocument(uri);
    const name = path.basename(uri.path);
    const webviewPanel = vscode.window.createWebviewPanel(
      PLAN_GRAPH_VIEW_TYPE,
      `Graph: ${name}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, retainContextWhenHidden: true },
    );
    const panel = new PlanGraphPanel(document, webviewPanel, {
      extensionUri: this.options.extensionUri,
      log: this.options.log,
      layout: (model) => this.worker.layout(model),
      planOfRun: (source, planId) => this.planOfRun(source, planId),
      scriptNames: (source) => {
        const root = (source.uri.scheme === 'file' ? findStoryRoot(source.uri.fsPath) : undefined) ?? this.options.root;
        return root ? storyScriptNames({ root }) : undefined;
      },
      planModel: this.options.planModel,
    });
    this.panels.set(uri.toString(), panel);
    panel.onDidDispose(() => this.panels.delete(uri.toString()));
    return panel;
  }

  /** Shows a run's states live in the graph of `uri` when that graph is open. Returns a disposable that stops it. */
  attachRun(uri: vscode.Uri, run: ObservableRun, toolIds: readonly string[], label: string): vscode.Disposable {
    const panel = this.panels.get(uri.toString());
    if (!panel) return { dispose: () => undefined };
    let batch = new Map<string, NodeStateView>();
    let timer: NodeJS.Timeout | undefined;
    let reset = true;
    const flush = () => {
      timer = undefined;
      if (batch.size === 0 && !reset) return;
      panel.post({ type: 'runStates', states: [...batch.values()], reset, runLabel: label });
      reset = false;
      batch = new Map();
    };
    const tracking = trackRunStates(run, toolIds, {
      onStates: (states: readonly LiveToolState[]) => {
        for (const state of states) batch.set(state.id, state);
        timer ??= setTimeout(flush, STATE_BATCH_MS);
      },
      onFinished: (result) => {
        if (timer) clearTimeout(timer);
        flush();
        const dependencies = panel.current?.model.dependencies ?? [];
        panel.post({ type: 'runFinished', timeline: buildRunTimeline(result.toolResults, dependencies, result.startedAt) });
      },
    });
    const closing = panel.onDidDispose(() => stop());
    const stop = () => {
      if (timer) clearTimeout(timer);
      tracking.dispose();
      closing.dispose();
    };
    return { dispose: stop };
  }

  /** Highlights the tool a debugger is paused at in the graph of `uri`, when that graph is open (undefined: running again). */
  highlight(uri: vscode.Uri, toolId: string | undefined): void {
    this.panels.get(uri.toString())?.highlight(toolId);
  }

  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
    this.disposables.dispose();
  }

  /** The plan of a run from `<story root>/.narratoria/runs/<planId>.json`. */
  private planOfRun(document: vscode.TextDocument, planId: string): unknown {
    const roots = [document.uri.scheme === 'file' ? findStoryRoot(document.uri.fsPath) : undefined, this.options.root].filter((root): root is string =>
      Boolean(root),
    );
    for (const root of roots) {
      const plan = recordedPlan(root, planId);
      if (plan !== undefined) return plan;
    }
    return undefined;
  }
}
