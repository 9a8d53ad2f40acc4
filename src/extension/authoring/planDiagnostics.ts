// Publishes the runtime validator's diagnostics of every open plan to the Problems panel, debounced while typing.
import * as vscode from 'vscode';
import { toVsCodeDiagnostic } from './planConvert.js';
import { isPlanDocument, type PlanWorkspace } from './planWorkspace.js';

/** Delay after the last keystroke before a plan is validated again. */
const TYPING_DELAY_MS = 250;

export class PlanDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('narratoria');
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly plans: PlanWorkspace,
    private readonly docs: (code: string) => vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((document) => this.schedule(document, 0)),
      vscode.workspace.onDidChangeTextDocument((event) => this.schedule(event.document, TYPING_DELAY_MS)),
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.cancel(document.uri);
        this.collection.delete(document.uri);
      }),
      plans.onDidChangeCatalog(() => this.validateOpenPlans()),
    );
    this.validateOpenPlans();
  }

  /** The diagnostics currently shown for a document (for tests and quick fixes). */
  diagnosticsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  /** Validates a plan now and publishes the result (resolves when published or superseded). */
  async validateNow(document: vscode.TextDocument): Promise<void> {
    if (!isPlanDocument(document) || document.isClosed) return;
    this.cancel(document.uri);
    try {
      const validation = await this.plans.validate(document);
      // A newer version is on its way (or the document closed): its own validation publishes.
      if (document.isClosed || validation.version !== document.version) return;
      this.collection.set(document.uri, validation.result.diagnostics.map((diagnostic) => toVsCodeDiagnostic(document.uri, diagnostic, this.docs)));
    } catch (error) {
      this.log.error(`validating ${document.uri.fsPath} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    }
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }

  private validateOpenPlans(): void {
    for (const document of vscode.workspace.textDocuments) this.schedule(document, 0);
  }

  private schedule(document: vscode.TextDocument, delayMs: number): void {
    if (!isPlanDocument(document)) return;
    this.cancel(document.uri);
    this.timers.set(document.uri.toString(), setTimeout(() => void this.validateNow(document), delayMs));
  }

  private cancel(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }
}
