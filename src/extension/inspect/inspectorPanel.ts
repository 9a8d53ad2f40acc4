// The skill-script Inspector's webview host: runs a script (or replays a recording) into an InspectorSession and streams its rows, stderr and verdict to the view.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { assertNever } from '../../protocol/graphPanelMessages.js';
import type { FromInspectorWebview, InspectorRow, InspectorSubject, ToInspectorWebview } from '../../protocol/inspectorMessages.js';
import { inspectScript } from '../../runtime/inspect/inspectScript.js';
import { InspectorSession } from '../../runtime/inspect/inspectorSession.js';
import { readRecording, recordingOfText, writeRecording, type Recording } from '../../runtime/inspect/recording.js';
import type { ScriptRuns } from '../../runtime/inspect/scriptRuns.js';
import { checkScriptInput, isRunnable } from '../../runtime/inspect/scriptInput.js';
import type { SkillContextProvider } from '../../runtime/skills/skillContext.js';
import { WebviewHost } from '../webviewHost.js';
import { assetRoots, withAssetUris } from './inspectorAssets.js';
import type { LiveTarget } from './inspectorTargets.js';
import type { LastInputs } from './lastInputs.js';
import type { RunComparisons } from './runComparison.js';

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
  readonly lastInputs: LastInputs;
  /** Where each script's last two runs are kept (undefined with no workspace storage). */
  readonly scriptRuns: ScriptRuns | undefined;
  readonly comparisons: RunComparisons;
}

/** What the panel inspects: a script to run or a recording (`file` when it was read from disk). */
export type InspectorTarget =
  | LiveTarget
  | { readonly kind: 'recording'; readonly label: string; readonly recording: Recording; readonly file?: string | undefined };

/** A script's last run and the one before, for Compare with Previous Run. */
interface RunHistory {
  readonly scriptPath: string;
  last?: Recording | undefined;
  previous?: Recording | undefined;
}

/** The one Inspector panel; a new target replaces the current one. */
export class InspectorPanel implements vscode.Disposable {
  private static current: InspectorPanel | undefined;
  private readonly view: WebviewHost<ToInspectorWebview, FromInspectorWebview>;
  private session = new InspectorSession();
  private running: AbortController | undefined;
  private pending: InspectorRow[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private recording: Recording | undefined;
  private history: RunHistory | undefined;
  /** A notice shown with the next snapshot (a revived panel's reason for showing nothing). */
  private notice: { readonly level: 'info' | 'error'; readonly message: string } | undefined;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly host: InspectorHost,
    private target: InspectorTarget,
  ) {
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(host.extensionUri, 'dist', 'webview'), ...assetRoots(target)] };
    this.view = new WebviewHost<ToInspectorWebview, FromInspectorWebview>(panel, {
      extensionUri: host.extensionUri,
      log: host.log,
      name: 'inspector',
      page: { title: 'Inspector', stylesheet: 'inspector.css', script: 'inspector.js', rootId: 'app', media: true },
      // The snapshot sent on `ready` holds everything: what was posted before it is not needed.
      beforeReady: 'drop',
      onReady: () => this.sendSnapshot(),
      onMessage: (message) => this.receive(message),
    });
    this.view.disposables.add({
      dispose: () => {
        if (InspectorPanel.current === this) InspectorPanel.current = undefined;
        this.running?.abort();
        clearTimeout(this.flushTimer);
      },
    });
  }

  /** What the open panel holds (the extension-host tests read it through NarratoriaContext). */
  static get shown(): { readonly label: string; readonly session: InspectorSession; readonly running: boolean } | undefined {
    const inspector = InspectorPanel.current;
    return inspector && { label: inspector.target.label, session: inspector.session, running: inspector.running !== undefined };
  }

  /** Re-creates the panel VS Code restored after a window reload: the script's last kept run, or the recording read again. */
  static async revive(
    panel: vscode.WebviewPanel,
    host: InspectorHost,
    restore: unknown,
    findTarget: (scriptPath: string) => Promise<LiveTarget | undefined>,
  ): Promise<void> {
    InspectorPanel.current?.dispose();
    const restoreOf = (restore as { restore?: { kind?: unknown; scriptPath?: unknown; file?: unknown } } | undefined)?.restore;
    let target: InspectorTarget | undefined;
    let reason = 'The Inspector had nothing to show again after the reload: use Inspect Skill Script… or Open in Inspector.';
    if (restoreOf?.kind === 'live' && typeof restoreOf.scriptPath === 'string') {
      target = await findTarget(restoreOf.scriptPath);
      if (!target) reason = `${restoreOf.scriptPath} is no longer a script of a loaded skill.`;
    } else if (restoreOf?.kind === 'recording' && typeof restoreOf.file === 'string') {
      const file = restoreOf.file;
      const recording = await readRecording(file).catch((error: unknown) => {
        reason = `Cannot read the recording again: ${(error as Error).message}`;
        return undefined;
      });
      if (recording) target = { kind: 'recording', label: path.basename(file), recording, file };
    }
    const inspector = (InspectorPanel.current = new InspectorPanel(
      panel,
      host,
      target ?? { kind: 'recording', label: 'nothing to show', recording: recordingOfText('') },
    ));
    if (!target) {
      inspector.notice = { level: 'info', message: reason };
      inspector.sendSnapshot();
      return;
    }
    if (target.kind === 'recording') {
      inspector.start(target);
      return;
    }
    // The last run is shown as it ended; nothing runs until the author presses Run.
    const history = await inspector.historyOf(target.scriptPath);
    if (history.last) {
      inspector.recording = history.last;
      inspector.session = InspectorSession.fromRecording(history.last, target.label);
    }
    inspector.sendSnapshot();
  }

  /** Shows the panel on `target`: runs the script, or replays the recording with no process. */
  static show(host: InspectorHost, target: InspectorTarget): InspectorPanel {
    let inspector = InspectorPanel.current;
    if (inspector) {
      inspector.panel.reveal(vscode.ViewColumn.Active);
    } else {
      const panel = vscode.window.createWebviewPanel(INSPECTOR_VIEW_TYPE, `Inspector: ${target.label}`, vscode.ViewColumn.Active, {
        retainContextWhenHidden: true,
      });
      inspector = InspectorPanel.current = new InspectorPanel(panel, host, target);
    }
    inspector.start(target);
    return inspector;
  }

  dispose(): void {
    this.view.dispose();
  }

  private subject(): InspectorSubject {
    const target = this.target;
    if (target.kind === 'recording') {
      return {
        title: target.label,
        source: 'recording',
        input: JSON.stringify(target.recording.meta.input),
        canRun: false,
        ...(target.file ? { restore: { kind: 'recording', file: target.file } } : {}),
      };
    }
    const history = this.history?.scriptPath === target.scriptPath ? this.history : undefined;
    return {
      title: target.label,
      source: 'live',
      input: JSON.stringify(target.input),
      canRun: vscode.workspace.isTrusted,
      inputChoices: target.inputChoices,
      canCompare: this.running === undefined && history?.last !== undefined && history.previous !== undefined,
      restore: { kind: 'live', scriptPath: target.scriptPath },
    };
  }

  /** The script's kept runs: those of this window, else those ScriptRuns kept from before. */
  private async historyOf(scriptPath: string): Promise<RunHistory> {
    if (this.history?.scriptPath === scriptPath) return this.history;
    const stored = (await this.host.scriptRuns?.load(scriptPath)) ?? {};
    return (this.history = { scriptPath, last: stored.last, previous: stored.previous });
  }

  private start(target: InspectorTarget): void {
    this.running?.abort();
    this.notice = undefined;
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
    await this.host.lastInputs.set(target.scriptPath, target.input);
    const history = await this.historyOf(target.scriptPath);
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
    if (report.recording) {
      history.previous = history.last;
      history.last = report.recording;
      this.host.scriptRuns
        ?.save(target.scriptPath, report.recording)
        .catch((error: unknown) => this.host.log.warn(`inspector: could not keep the run of ${target.label}: ${String(error)}`));
    }
    this.flush();
    this.post({ type: 'verdict', verdict });
    // Compare with Previous Run is possible now.
    this.post({ type: 'subject', subject: this.subject() });
    this.host.log.info(`inspector: ${target.label}: ${verdict.ok ? '✓' : '✗'} ${verdict.message}`);
  }

  private async receive(message: Exclude<FromInspectorWebview, { readonly type: 'ready' }>): Promise<void> {
    switch (message.type) {
      case 'stop':
        this.running?.abort();
        return;
      case 'rerun':
        if (this.target.kind === 'live' && !this.running) this.start(this.target);
        return;
      case 'run': {
        if (this.target.kind !== 'live' || this.running) return;
        const checked = checkScriptInput(message.input, { label: this.target.label, inputSchema: this.target.inputSchema });
        this.post({ type: 'inputProblems', problems: checked.problems });
        if (isRunnable(checked)) this.start({ ...this.target, input: checked.input });
        return;
      }
      case 'compare': {
        const history = this.target.kind === 'live' && this.history?.scriptPath === this.target.scriptPath ? this.history : undefined;
        if (history?.last && history.previous) await this.host.comparisons.compare(this.target.label, history.previous, history.last);
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
      this.post({
        type: 'rows',
        rows: withAssetUris(this.panel.webview, this.target, rows.slice(start, start + BATCH_SIZE)),
        droppedRows: this.session.droppedRows,
      });
    }
  }

  /** Everything the session holds so far: after `ready`, and when a new target starts. */
  private sendSnapshot(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.pending = [];
    const session = this.session;
    this.post({ type: 'reset', subject: this.subject(), running: this.running !== undefined });
    if (this.notice) this.post({ type: 'notice', ...this.notice });
    for (let start = 0; start < session.rows.length; start += BATCH_SIZE) {
      this.post({
        type: 'rows',
        rows: withAssetUris(this.panel.webview, this.target, session.rows.slice(start, start + BATCH_SIZE)),
        droppedRows: session.droppedRows,
      });
    }
    if (session.stderr.length > 0) this.post({ type: 'stderr', chunks: session.stderr });
    if (session.verdict) this.post({ type: 'verdict', verdict: session.verdict });
  }

  private post(message: ToInspectorWebview): void {
    this.view.post(message);
  }
}
