// Shows the pattern narrator's hints on skill.json files (a short description, no capabilities, undescribed scripts) in Problems, with a quick fix that adds suggested keywords.
import * as vscode from 'vscode';
import { addKeywordsEdit, manifestHintsOfText, suggestedKeywords, type ManifestHintCode } from '../../runtime/skills/manifestHints.js';
import { rangeOfSource, workspaceEditOf } from '../authoring/planConvert.js';
import { DocumentDiagnostics } from '../documentDiagnostics.js';

const HINT_CODES: ReadonlySet<string> = new Set<ManifestHintCode>(['SKILL_DESCRIPTION_SHORT', 'SKILL_NO_CAPABILITIES', 'SKILL_SCRIPT_UNDESCRIBED']);

/** A skill manifest: a file named skill.json. */
export function isSkillManifest(document: vscode.TextDocument): boolean {
  return document.uri.scheme === 'file' && /(^|[\\/])skill\.json$/.test(document.uri.fsPath);
}

export class ManifestHintDiagnostics implements vscode.Disposable, vscode.CodeActionProvider {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix];
  private readonly documents: DocumentDiagnostics;
  private readonly actions: vscode.Disposable;

  constructor(private readonly docs: (code: string) => vscode.Uri) {
    this.documents = new DocumentDiagnostics('narratoria-skill-hints', isSkillManifest, (document) => this.check(document));
    this.actions = vscode.languages.registerCodeActionsProvider({ scheme: 'file', pattern: '**/skill.json' }, this, {
      providedCodeActionKinds: ManifestHintDiagnostics.providedCodeActionKinds,
    });
    this.documents.checkOpenDocuments();
  }

  /** The hints currently shown for a document (for tests). */
  diagnosticsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.documents.diagnosticsOf(uri);
  }

  /** Checks a manifest now. */
  check(document: vscode.TextDocument): void {
    if (document.isClosed) return;
    this.documents.collection.set(
      document.uri,
      manifestHintsOfText(document.getText()).map((hint) => {
        const range = hint.range ? rangeOfSource(hint.range) : new vscode.Range(0, 0, 0, 0);
        const diagnostic = new vscode.Diagnostic(range, hint.message, vscode.DiagnosticSeverity.Information);
        diagnostic.source = 'narratoria';
        diagnostic.code = { value: hint.code, target: this.docs(hint.code) };
        return diagnostic;
      }),
    );
  }

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const hints = context.diagnostics.filter((diagnostic) =>
      HINT_CODES.has(typeof diagnostic.code === 'object' ? String(diagnostic.code.value) : String(diagnostic.code)),
    );
    if (hints.length === 0) return [];
    const text = document.getText();
    let keywords: string[];
    try {
      keywords = suggestedKeywords(JSON.parse(text));
    } catch {
      return [];
    }
    // Empty keywords would leave the hints in place: no suggestion, no action.
    const edit = keywords.length > 0 ? addKeywordsEdit(text, keywords) : undefined;
    if (!edit) return [];
    const action = new vscode.CodeAction(`Add keywords for the narrator: ${keywords.join(', ')}`, vscode.CodeActionKind.QuickFix);
    action.edit = workspaceEditOf(document, [edit]);
    action.diagnostics = hints;
    action.isPreferred = true;
    return [action];
  }

  dispose(): void {
    this.actions.dispose();
    this.documents.dispose();
  }
}
