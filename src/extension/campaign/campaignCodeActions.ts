// Quick fixes of campaign problems: a diagnostic the runtime gave a replacement (an unknown beat id: the closest beat's) offers it.
import * as vscode from 'vscode';
import type { CampaignReplacement } from '../../runtime/campaign/index.js';

/** The replacement the campaign checks gave a published diagnostic, if any. */
export type ReplacementLookup = (uri: vscode.Uri, diagnostic: vscode.Diagnostic) => CampaignReplacement | undefined;

export class CampaignCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly replacementOf: ReplacementLookup) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      const replacement = this.replacementOf(document.uri, diagnostic);
      if (!replacement) continue;
      const action = new vscode.CodeAction(replacement.title, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.isPreferred = true;
      action.edit = new vscode.WorkspaceEdit();
      action.edit.replace(document.uri, diagnostic.range, replacement.text);
      actions.push(action);
    }
    return actions;
  }
}

/** The key of a diagnostic as published: its range and message (VS Code may hand a provider copies, not the objects). */
export function diagnosticKey(diagnostic: vscode.Diagnostic): string {
  const { start, end } = diagnostic.range;
  return `${start.line}:${start.character}-${end.line}:${end.character} ${diagnostic.message}`;
}
