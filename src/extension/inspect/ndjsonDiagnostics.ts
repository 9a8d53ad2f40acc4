// Publishes the problems of every open *.ndjson recording (the runtime's diagnoseNdjson) to the Problems panel, debounced while typing.
import * as vscode from 'vscode';
import { diagnoseNdjson } from '../../runtime/inspect/ndjsonDiagnostics.js';

/** Delay after the last keystroke before a recording is checked again. */
const TYPING_DELAY_MS = 250;

/** True for a skill script's recorded output. */
export function isNdjsonDocument(document: vscode.TextDocument): boolean {
  return document.uri.path.endsWith('.ndjson');
}

export class NdjsonDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('narratoria-ndjson');
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    this.disposables.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((document) => this.schedule(document, 0)),
      vscode.workspace.onDidChangeTextDocument((event) => this.schedule(event.document, TYPING_DELAY_MS)),
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.cancel(document.uri);
        this.collection.delete(document.uri);
      }),
    );
    for (const document of vscode.workspace.textDocuments) this.schedule(document, 0);
  }

  /** The diagnostics shown for a document (for tests). */
  diagnosticsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }

  private schedule(document: vscode.TextDocument, delayMs: number): void {
    if (!isNdjsonDocument(document)) return;
    this.cancel(document.uri);
    this.timers.set(document.uri.toString(), setTimeout(() => this.publish(document), delayMs));
  }

  private cancel(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  private publish(document: vscode.TextDocument): void {
    this.timers.delete(document.uri.toString());
    if (document.isClosed) return;
    const diagnostics = diagnoseNdjson(document.getText()).map((problem) => {
      const range = new vscode.Range(problem.line - 1, problem.column - 1, problem.line - 1, problem.endColumn - 1);
      const diagnostic = new vscode.Diagnostic(range, problem.message, problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
      diagnostic.code = problem.code;
      diagnostic.source = 'narratoria';
      return diagnostic;
    });
    this.collection.set(document.uri, diagnostics);
  }
}
