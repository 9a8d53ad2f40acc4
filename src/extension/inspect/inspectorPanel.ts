// The skill-script Inspector's webview host: runs a script (or replays a recording) into an InspectorSession and streams its rows, stderr and verdict to the view.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { assertNever } from '../../protocol/graphPanelMessages.js';
import type { FromInspectorWebview, InspectorRow, InspectorSubject, ToInspectorWebview } from '../../protocol/inspectorMessages.js';
import { inspectScript } from '../../runtime/inspect/inspectScript.js';
import { InspectorSession } from '../../runtime/inspect/inspectorSession.js';
import { writeRecording, type Recording } from '../../runtime/inspect/recording.js';
import type { SkillContextProvider } from '../../runtime/skills/skillContext.js';
import { webviewPageHtml } from '../webviewHtml.js';

export const INSPECTOR_VIEW_TYPE = 'narratoria.inspector';

/** Margin: rows are sent at most this often while a script streams (one message per line would flood the view). */
const FLUSH_DELAY_MS = 50;
/** Rows per message. */
const BATCH_SIZE = 5000;

export interface InspectorHost {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  /** The effective config, secrets and directories, as in a plan run. */
  readonly skillContext: SkillContextProvider;
  /** The model environment plan runs give scripts. */
  readonly scriptEnvironment: () => Promise<Readonly<Record<string, string>>>;
}

/** What the panel inspects: a script to run (with a way to pick a new input) or a recording. */
export type InspectorTarget =
  | {
      readonly kind: 'live';
      readonly label: string;
      readonly scriptPath: string;
      readonly root: string;
      readonly timeoutMs?: number | undefined;
      readonly input: Record<string, unknown>;
      readonly pickInput: () => Promise<Record<string, unknown> | undefined>;
    }
  | { readonly kind: 'recording'; readonly label: string; readonly recording: Recording };

/** The one Inspector panel; a new target replaces the current one. */
export class InspectorPanel implements vscode.Disposable {
  private static current: InspectorPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private session = new InspectorSession();
  private ready = false;
  private running: AbortController | undefined;
  private pending: InspectorRow[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private recording: Recording | undefined;

  private constructor(private readonly panel: vscode.WebviewPanel, private readonly host: InspectorHost, private target: InspectorTarget) {
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(host.extensionUri, 'dist', 'webview')] };
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((message: FromInspectorWebview) => void this.receive(message).catch((error: unknown) => host.log.error(`inspector: ${String(error)}`))),
    );
    panel.webview.html = webviewPageHtml({
      cspSource: panel.webview.cspSource,
      title: 'Inspector',
      resource: (file) => panel.webview.asWebviewUri(vscode.Uri.joinPath(host.extensionUri, 'dist', 'webview', file)).toString(),
      stylesheet: 'inspector.css',
      script: 'inspector.js',
      rootId: 'app',
    });
  }

  /** What the open panel holds (the extension-host tests read it through NarratoriaContext). */
  static get shown(): { readonly label: string; readonly session: InspectorSession; readonly running: boolean } | undefined {
    const inspector = InspectorPanel.current;
    return inspector && { label: inspector.target.label, session: inspector.session, running: inspector.running !== undefined };
  }

  /** Shows the panel on `target`: runs the script, or replays the recording with no process. */
  static show(host: InspectorHost, target: InspectorTarget): InspectorPanel {
    let inspector = InspectorPanel.current;
    if (inspector) {
      inspector.panel.reveal(vscode.ViewColumn.Active);
    } else {
      const panel = vscode.window.createWebviewPanel(INSPECTOR_VIEW_TYPE, 'Inspector', vscode.ViewColumn.Active, { retainContextWhenHidden: true });
      inspector = InspectorPanel.current = new InspectorPanel(panel, host, target);
    }
    inspector.start(target);
    return inspector;
  }

  dispose(): void {
    if (InspectorPanel.current === this) InspectorPanel.current = undefined;
    this.running?.abort();
    clearTimeout(this.flushTimer);
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.panel.dispose();
  }

  private subject(): InspectorSubject {
    const target = this.target;
    return {
      title: target.label,
      source: target.kind,
      input: JSON.stringify(target.kind === 'live' ? target.input : target.recording.meta.input),
      canRun: target.kind === 'live' && vscode.workspace.isTrusted,
    };
  }

  private start(target: InspectorTarget): void {
    this.running?.abort();
    this.target = target;
    this.panel.title = `Inspector: ${target.label}`;
    if (target.kind === 'recording') {
      this.running = undefined;
      this.recording = target.recording;
      this.session = InspectorSession.fromRecording(target.recording, target.label);
      this.sendSnapshot();
      return;
    }
    void this.run(target).catch((error: unknown) => {
      // inspectScript reports expected failures in its verdict; this is a bug or a vanished file.
      this.host.log.error(`inspector: ${target.label}: ${String(error)}`);
      this.running = undefined;
      this.post({ type: 'reset', subject: this.subject(), running: false });
      this.post({ type: 'notice', level: 'error', message: `Could not run ${target.label}: ${(error as Error).message ?? String(error)}` });
    });
  }

  private async run(target: Extract<InspectorTarget, { kind: 'live' }>): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Narratoria runs no skill scripts in an untrusted workspace.');
      return;
    }
    const abort = new AbortController();
    this.running = abort;
    this.recording = undefined;
    const session = (this.session = new InspectorSession());
    this.pending = [];
    this.sendSnapshot();
    const extraEnv = await this.host.scriptEnvironment();
    const report = await inspectScript({
      scriptPath: target.scriptPath,
      input: target.input,
      root: target.root,
      timeoutMs: target.timeoutMs,
      skillContext: this.host.skillContext,
      extraEnv,
      signal: abort.signal,
      record: true,
      onLine: (line) => {
        const row = session.addLine(line);
        if (row && this.session === session) this.queue(row);
      },
      onStderr: (chunk) => {
        session.addStderr(chunk);
        if (this.session === session) this.post({ type: 'stderr', chunks: [chunk] });
      },
    });
    const verdict = session.finish(report);
    if (this.session !== session) return;
    this.running = undefined;
    this.recording = report.recording;
    this.flush();
    this.post({ type: 'verdict', verdict });
    this.host.log.info(`inspector: ${target.label}: ${verdict.ok ? '✓' : '✗'} ${verdict.message}`);
  }

  private async receive(message: FromInspectorWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.sendSnapshot();
        return;
      case 'stop':
        this.running?.abort();
        return;
      case 'rerun':
        if (this.target.kind === 'live' && !this.running) this.start(this.target);
        return;
      case 'run': {
        if (this.target.kind !== 'live' || this.running) return;
        const input = await this.target.pickInput();
        if (input !== undefined) this.start({ ...this.target, input });
        return;
      }
      case 'saveRecording':
        await this.saveRecording();
        return;
      case 'selectRow':
        return;
      case 'viewError':
        this.host.log.error(`inspector view: ${message.message}`);
        return;
      default:
        assertNever(message);
    }
  }

  private async saveRecording(): Promise<void> {
    const recording = this.recording;
    if (!recording || this.target.kind !== 'live') return;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `${path.basename(this.target.scriptPath).replace(/\.[^.]+$/, '')}.ndjson`;
    const target = await vscode.window.showSaveDialog({
      title: 'Save as Recording',
      filters: { 'NDJSON recording': ['ndjson'] },
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
    });
    if (!target) return;
    try {
      await writeRecording(target.fsPath, recording);
      this.post({ type: 'notice', level: 'info', message: `Saved ${path.basename(target.fsPath)} and its .meta.json sidecar.` });
    } catch (error) {
      this.post({ type: 'notice', level: 'error', message: `Could not save the recording: ${(error as Error).message}` });
    }
  }

  private queue(row: InspectorRow): void {
    this.pending.push(row);
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_DELAY_MS);
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const rows = this.pending;
    this.pending = [];
    for (let start = 0; start < rows.length; start += BATCH_SIZE) {
      this.post({ type: 'rows', rows: rows.slice(start, start + BATCH_SIZE), droppedRows: this.session.droppedRows });
    }
  }

  /** Everything the session holds so far: after `ready`, and when a new target starts. */
  private sendSnapshot(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.pending = [];
    const session = this.session;
    this.post({ type: 'reset', subject: this.subject(), running: this.running !== undefined });
    for (let start = 0; start < session.rows.length; start += BATCH_SIZE) {
      this.post({ type: 'rows', rows: session.rows.slice(start, start + BATCH_SIZE), droppedRows: session.droppedRows });
    }
    if (session.stderr.length > 0) this.post({ type: 'stderr', chunks: session.stderr });
    if (session.verdict) this.post({ type: 'verdict', verdict: session.verdict });
  }

  private post(message: ToInspectorWebview): void {
    if (this.ready) void this.panel.webview.postMessage(message);
  }
}
