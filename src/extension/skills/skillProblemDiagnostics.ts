// Shows the skills' problems from the last discovery (a broken skill.json, a missing script, an invalid config) in the Problems panel, each on its file at its line and column. Translation only.
import { statSync } from 'node:fs';
import * as vscode from 'vscode';
import type { SkillProblem } from '../../runtime/skills/skillTypes.js';
import type { SkillsService } from './skillsService.js';
import { problemRange } from './skillsTreeProvider.js';
import { DisposableStore } from '../../runtime/common/disposable.js';

/** Codes with a section in docs/diagnostics.md (the diagnostic's code links there). */
const DOCUMENTED_CODES: ReadonlySet<string> = new Set(['MANIFEST_JSON_INVALID', 'MANIFEST_INVALID']);

export class SkillProblemDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('narratoria-skills');
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly skills: SkillsService,
    private readonly docs: (code: string) => vscode.Uri,
  ) {
    this.disposables.addAll(
      this.collection,
      skills.onDidChangeSkills(() => this.publish()),
    );
    this.publish();
  }

  /** The diagnostics shown for a file (for tests). */
  diagnosticsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  /** Replaces every diagnostic with the problems of the skills' latest discovery. */
  publish(): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const problem of this.skills.problems) {
      // Some problems name a folder (no skill.json, a link outside the skills roots): the Skills view shows those.
      if (problem.file === undefined || !isFile(problem.file)) continue;
      const diagnostics = byFile.get(problem.file) ?? [];
      diagnostics.push(this.diagnosticOf(problem));
      byFile.set(problem.file, diagnostics);
    }
    this.collection.clear();
    for (const [file, diagnostics] of byFile) this.collection.set(vscode.Uri.file(file), diagnostics);
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private diagnosticOf(problem: SkillProblem): vscode.Diagnostic {
    const range = problemRange(problem) ?? new vscode.Range(0, 0, 0, 0);
    const diagnostic = new vscode.Diagnostic(
      range,
      problem.message,
      problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
    );
    diagnostic.source = 'narratoria';
    diagnostic.code = DOCUMENTED_CODES.has(problem.code) ? { value: problem.code, target: this.docs(problem.code) } : problem.code;
    return diagnostic;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
