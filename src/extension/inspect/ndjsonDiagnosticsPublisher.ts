// Publishes the problems of every open *.ndjson recording (the runtime's diagnoseNdjson) to the Problems panel, debounced while typing.
import * as vscode from 'vscode';
import { diagnoseNdjson } from '../../runtime/inspect/ndjsonDiagnostics.js';
import { DocumentDiagnostics } from '../documentDiagnostics.js';

/** True for a skill script's recorded output. */
export function isNdjsonDocument(document: vscode.TextDocument): boolean {
  return document.uri.path.endsWith('.ndjson');
}

export class NdjsonDiagnosticsPublisher implements vscode.Disposable {
  private readonly documents = new DocumentDiagnostics('narratoria-ndjson', isNdjsonDocument, (document) => this.publish(document));

  constructor() {
    this.documents.checkOpenDocuments();
  }

  /** The diagnostics shown for a document (for tests). */
  diagnosticsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.documents.diagnosticsOf(uri);
  }

  dispose(): void {
    this.documents.dispose();
  }

  private publish(document: vscode.TextDocument): void {
    const diagnostics = diagnoseNdjson(document.getText()).map((problem) => {
      const range = new vscode.Range(problem.line - 1, problem.column - 1, problem.line - 1, problem.endColumn - 1);
      const diagnostic = new vscode.Diagnostic(
        range,
        problem.message,
        problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      diagnostic.code = problem.code;
      diagnostic.source = 'narratoria';
      return diagnostic;
    });
    this.documents.collection.set(document.uri, diagnostics);
  }
}
