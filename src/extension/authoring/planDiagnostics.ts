// Publishes the runtime validator's diagnostics of every open plan to the Problems panel, debounced while typing.
import type * as vscode from 'vscode';
import { DocumentDiagnostics } from '../documentDiagnostics.js';
import { toVsCodeDiagnostic } from './planConvert.js';
import { isPlanDocument, type PlanWorkspace } from './planWorkspace.js';

export class PlanDiagnostics implements vscode.Disposable {
  private readonly documents: DocumentDiagnostics;
  private readonly catalogListener: vscode.Disposable;

  constructor(
    private readonly plans: PlanWorkspace,
    private readonly docs: (code: string) => vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.documents = new DocumentDiagnostics('narratoria', isPlanDocument, (document) => this.validateNow(document));
    this.catalogListener = plans.onDidChangeCatalog(() => this.documents.checkOpenDocuments());
    this.documents.checkOpenDocuments();
  }

  /** The diagnostics currently shown for a document (for tests and quick fixes). */
  diagnosticsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.documents.diagnosticsOf(uri);
  }

  /** Validates a plan now and publishes the result (resolves when published or superseded). */
  async validateNow(document: vscode.TextDocument): Promise<void> {
    if (!isPlanDocument(document) || document.isClosed) return;
    this.documents.cancel(document.uri);
    try {
      const validation = await this.plans.validate(document);
      // A newer version is on its way (or the document closed): its own validation publishes.
      if (document.isClosed || validation.version !== document.version) return;
      this.documents.collection.set(
        document.uri,
        validation.result.diagnostics.map((diagnostic) => toVsCodeDiagnostic(document.uri, diagnostic, this.docs)),
      );
    } catch (error) {
      this.log.error(`validating ${document.uri.fsPath} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }

  dispose(): void {
    this.catalogListener.dispose();
    this.documents.dispose();
  }
}
