// Compare with Previous Run: VS Code's diff editor on two runs' stdout lines, served as read-only documents of the narratoria-run scheme.
import * as vscode from 'vscode';
import { comparisonText, type Recording } from '../../runtime/inspect/recording.js';

export const RUN_SCHEME = 'narratoria-run';

/** Serves the texts of compared runs; each comparison gets fresh URIs, so VS Code never shows a cached text. */
export class RunComparisons implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(RUN_SCHEME, this);
  private count = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '(this run is no longer kept: compare again from the Inspector)\n';
  }

  /** Opens the diff editor: the previous run on the left, the last on the right. */
  async compare(label: string, previous: Recording, last: Recording): Promise<void> {
    const id = ++this.count;
    const name = label.replace(/[\\/]/g, '-');
    const left = vscode.Uri.from({ scheme: RUN_SCHEME, path: `/${id}/previous/${name}.stdout` });
    const right = vscode.Uri.from({ scheme: RUN_SCHEME, path: `/${id}/last/${name}.stdout` });
    // Keeps the last few comparisons only: an open diff of an older one shows the note above after a reload.
    if (this.texts.size >= 8) for (const key of [...this.texts.keys()].slice(0, 2)) this.texts.delete(key);
    this.texts.set(left.toString(), comparisonText(previous));
    this.texts.set(right.toString(), comparisonText(last));
    await vscode.commands.executeCommand('vscode.diff', left, right, `${label}: previous run ↔ last run (stdout)`, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
