// Playtest files in the editor: Problems for what only the story can tell (unknown skills, conditions, patterns) and completion of the story's skill names in expect.skills and expect.notSkills.
import * as vscode from 'vscode';
import { PLAYTEST_SUFFIX } from '../../runtime/playtest/playtestDocument.js';
import { playtestEditorProblems, stringAround, takesSkillName } from '../../runtime/playtest/playtestEditing.js';
import { DocumentDiagnostics } from '../documentDiagnostics.js';
import type { SkillsService } from '../skills/skillsService.js';
import { DisposableStore } from '../../runtime/common/disposable.js';

const SELECTOR: vscode.DocumentSelector = [{ scheme: 'file', pattern: `**/*${PLAYTEST_SUFFIX}` }];

export class PlaytestEditorSupport implements vscode.Disposable {
  readonly diagnostics: DocumentDiagnostics;
  private readonly disposables = new DisposableStore();

  constructor(private readonly skills: SkillsService) {
    this.diagnostics = new DocumentDiagnostics(
      'narratoria-playtests',
      (document) => document.uri.scheme === 'file' && document.uri.fsPath.endsWith(PLAYTEST_SUFFIX),
      (document) => this.check(document),
    );
    this.disposables.addAll(
      this.diagnostics,
      skills.onDidChangeSkills(() => this.diagnostics.checkOpenDocuments()),
      vscode.languages.registerCompletionItemProvider(SELECTOR, { provideCompletionItems: (document, position) => this.complete(document, position) }, '"'),
    );
    this.diagnostics.checkOpenDocuments();
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private names(): ReadonlySet<string> | undefined {
    const names = this.skills.skills.map((skill) => skill.name);
    return names.length > 0 ? new Set(names) : undefined;
  }

  private check(document: vscode.TextDocument): void {
    const problems = playtestEditorProblems(document.uri.fsPath, document.getText(), this.names(), this.skills.brokenSkillReasons());
    this.diagnostics.collection.set(
      document.uri,
      problems.map((problem) => {
        const start = new vscode.Position(problem.line - 1, problem.column - 1);
        const range = stringRange(document, start);
        const diagnostic = new vscode.Diagnostic(range, problem.message, vscode.DiagnosticSeverity.Error);
        diagnostic.code = problem.code;
        diagnostic.source = 'narratoria';
        return diagnostic;
      }),
    );
  }

  /** Completion inside a string of expect.skills or expect.notSkills. */
  private complete(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    if (!takesSkillName(document.getText(), document.offsetAt(position))) return undefined;
    const around = stringAround(document.getText(), document.offsetAt(position));
    const quoted = around && new vscode.Range(document.positionAt(around.offset), document.positionAt(around.offset + around.length));
    return this.skills.skills.map((skill) => {
      const item = new vscode.CompletionItem(skill.name, vscode.CompletionItemKind.Module);
      item.detail = skill.displayName;
      item.documentation = skill.description;
      item.insertText = `"${skill.name}"`;
      if (quoted) {
        item.range = quoted;
        item.filterText = `"${skill.name}"`;
      }
      return item;
    });
  }
}

/** The range of the JSON string that starts at `start` (its quotes included); one character when none starts there. */
function stringRange(document: vscode.TextDocument, start: vscode.Position): vscode.Range {
  const text = document.getText();
  const offset = document.offsetAt(start);
  if (text[offset] !== '"') return new vscode.Range(start, start.translate(0, 1));
  let end = offset + 1;
  while (end < text.length && text[end] !== '"' && text[end] !== '\n') end += text[end] === '\\' ? 2 : 1;
  return new vscode.Range(start, document.positionAt(Math.min(end + 1, text.length)));
}
