// Keeps a diagnostic collection for the open documents of one kind: checks each when it opens, and again a moment after the last edit.
import * as vscode from 'vscode';
import { DisposableStore } from '../runtime/common/disposable.js';

/** Delay after the last keystroke before a document is checked again. */
const TYPING_DELAY_MS = 250;

/**
 * The timers and listeners both diagnostic providers share (plans, NDJSON recordings). `check` publishes through
 * `collection`; a document's pending check is dropped when it closes, and its diagnostics with it.
 */
export class DocumentDiagnostics implements vscode.Disposable {
  readonly collection: vscode.DiagnosticCollection;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly disposables = new DisposableStore();

  constructor(
    name: string,
    private readonly accepts: (document: vscode.TextDocument) => boolean,
    private readonly check: (document: vscode.TextDocument) => void | Promise<void>,
  ) {
    this.collection = vscode.languages.createDiagnosticCollection(name);
    this.disposables.addAll(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((document) => this.schedule(document, 0)),
      vscode.workspace.onDidChangeTextDocument((event) => this.schedule(event.document, TYPING_DELAY_MS)),
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.cancel(document.uri);
        this.collection.delete(document.uri);
      }),
    );
  }

  /** Checks every open document of this kind (at start-up, or when what they are checked against changed). */
  checkOpenDocuments(): void {
    for (const document of vscode.workspace.textDocuments) this.schedule(document, 0);
  }

  /** The diagnostics currently shown for a document. */
  diagnosticsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  /** Drops the document's pending check (a check made now supersedes it). */
  cancel(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.disposables.dispose();
  }

  private schedule(document: vscode.TextDocument, delayMs: number): void {
    if (!this.accepts(document)) return;
    this.cancel(document.uri);
    this.timers.set(
      document.uri.toString(),
      setTimeout(() => {
        this.timers.delete(document.uri.toString());
        if (!document.isClosed) void this.check(document);
      }, delayMs),
    );
  }
}
