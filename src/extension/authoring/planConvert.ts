// Converts the runtime's authoring types (spans, 1-based ranges, diagnostics, edits, completions) to VS Code's. No logic of its own.
import * as vscode from 'vscode';
import type { PlanCompletionItem } from '../../runtime/authoring/completionSupport.js';
import type { TextEdit, TextSpan } from '../../runtime/authoring/textSpan.js';
import type { Diagnostic, SourceRange } from '../../runtime/validation/diagnostic.js';

/** The VS Code range of a span of the document's current text. */
export function rangeOfSpan(document: vscode.TextDocument, span: TextSpan): vscode.Range {
  return new vscode.Range(document.positionAt(span.offset), document.positionAt(span.offset + span.length));
}

/** The VS Code range of a 1-based source range. */
export function rangeOfSource(range: SourceRange): vscode.Range {
  return new vscode.Range(range.start.line - 1, range.start.column - 1, range.end.line - 1, range.end.column - 1);
}

/** A runtime completion proposal (of a plan or a campaign file) as a VS Code one of `kind`. */
export function toCompletionItem(
  document: vscode.TextDocument,
  item: Omit<PlanCompletionItem, 'kind'>,
  kind: vscode.CompletionItemKind,
): vscode.CompletionItem {
  const completion = new vscode.CompletionItem(item.label, kind);
  completion.insertText = item.isSnippet ? new vscode.SnippetString(item.insertText) : item.insertText;
  if (item.detail !== undefined) completion.detail = item.detail;
  if (item.documentation !== undefined) completion.documentation = new vscode.MarkdownString(item.documentation);
  if (item.replaceSpan) completion.range = rangeOfSpan(document, item.replaceSpan);
  if (item.sortText !== undefined) completion.sortText = item.sortText;
  if (item.filterText !== undefined) completion.filterText = item.filterText;
  if (item.preselect) completion.preselect = true;
  return completion;
}

/** A workspace edit applying runtime text edits to one document. */
export function workspaceEditOf(document: vscode.TextDocument, edits: readonly TextEdit[]): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const change of edits) edit.replace(document.uri, rangeOfSpan(document, change), change.newText);
  return edit;
}

const severities: Record<Diagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** A runtime diagnostic as a VS Code one: code linked to its docs section, related locations clickable. */
export function toVsCodeDiagnostic(uri: vscode.Uri, diagnostic: Diagnostic, docs: (code: string) => vscode.Uri): vscode.Diagnostic {
  const range = diagnostic.range ? rangeOfSource(diagnostic.range) : new vscode.Range(0, 0, 0, 0);
  const result = new vscode.Diagnostic(range, diagnostic.message, severities[diagnostic.severity]);
  result.source = 'narratoria';
  result.code = { value: diagnostic.code, target: docs(diagnostic.code) };
  const related = (diagnostic.related ?? []).filter((information) => information.range !== undefined);
  if (related.length > 0) {
    result.relatedInformation = related.map(
      (information) => new vscode.DiagnosticRelatedInformation(new vscode.Location(uri, rangeOfSource(information.range!)), information.message),
    );
  }
  return result;
}
