// Quick fixes of plan diagnostics (and their "fix all in file" forms), from the runtime's planQuickFixes over the latest validation.
import * as vscode from 'vscode';
import { FIX_ALL_TITLES, planFixAll, planQuickFixes, type FixAllGroup } from '../../runtime/authoring/planQuickFixes.js';
import { allowToolRootFixes } from '../../runtime/authoring/toolRootFixes.js';
import type { Diagnostic } from '../../runtime/validation/diagnostic.js';
import { rangeOfSource, workspaceEditOf } from './planConvert.js';
import type { PlanWorkspace } from './planWorkspace.js';
import type { PlanDocument } from '../../runtime/authoring/planDocument.js';
import { ALLOW_TOOL_ROOT_COMMAND, allowedToolRootEntries } from './allowToolRootCommand.js';

export class PlanCodeActionProvider implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly plans: PlanWorkspace) {}

  async provideCodeActions(
    document: vscode.TextDocument,
    range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): Promise<vscode.CodeAction[]> {
    const ours = context.diagnostics.filter((diagnostic) => diagnostic.source === 'narratoria');
    if (ours.length === 0) return [];
    const validation = this.plans.currentValidation(document) ?? (await this.plans.validate(document));
    if (validation.version !== document.version) return [];
    const { current } = this.plans.model(document);
    const catalog = await this.plans.catalogFor(this.plans.rootOf(document));
    const all = validation.result.diagnostics;
    const here = all.filter((diagnostic) => ours.some((shown) => matches(shown, diagnostic)));
    const actions: vscode.CodeAction[] = [];
    const groups = new Set<FixAllGroup>();
    for (const fix of planQuickFixes(current, here, catalog)) {
      const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
      action.edit = workspaceEditOf(document, fix.edits);
      action.diagnostics = ours.filter((shown) => matches(shown, fix.diagnostic));
      if (fix.isPreferred) action.isPreferred = true;
      actions.push(action);
      if (fix.fixAllGroup) groups.add(fix.fixAllGroup);
    }
    actions.push(...this.allowFolderActions(document, current, here, ours));
    // "Fix all in file" when the group has more than one diagnostic in the file.
    const everyFix = groups.size > 0 ? planQuickFixes(current, all, catalog) : [];
    for (const group of groups) {
      const fixable = everyFix.filter((fix) => fix.fixAllGroup === group);
      if (new Set(fixable.map((fix) => `${fix.diagnostic.code} ${fix.diagnostic.pointer}`)).size < 2) continue;
      const action = new vscode.CodeAction(FIX_ALL_TITLES[group], vscode.CodeActionKind.QuickFix);
      action.edit = workspaceEditOf(document, planFixAll(current, all, catalog, group));
      action.diagnostics = ours;
      actions.push(action);
    }
    return actions;
  }

  /** "Allow <folder> in narratoria.allowedToolRoots": a command that changes the workspace setting (trusted workspaces only). */
  private allowFolderActions(
    document: vscode.TextDocument,
    current: PlanDocument,
    diagnostics: readonly Diagnostic[],
    ours: readonly vscode.Diagnostic[],
  ): vscode.CodeAction[] {
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    const fixes = allowToolRootFixes(current, diagnostics, {
      root: this.plans.rootOf(document),
      workspaceFolder: folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined,
      trusted: vscode.workspace.isTrusted,
      allowed: allowedToolRootEntries(folder?.uri ?? document.uri),
    });
    return fixes.map((fix) => {
      const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
      action.command = { title: fix.title, command: ALLOW_TOOL_ROOT_COMMAND, arguments: [fix.entry, (folder?.uri ?? document.uri).toString()] };
      action.diagnostics = ours.filter((shown) => matches(shown, fix.diagnostic));
      return action;
    });
  }
}

/** A shown diagnostic is the runtime's when code, message and range agree. */
function matches(shown: vscode.Diagnostic, diagnostic: Diagnostic): boolean {
  const code = typeof shown.code === 'object' ? shown.code.value : shown.code;
  return (
    code === diagnostic.code && shown.message === diagnostic.message && diagnostic.range !== undefined && shown.range.isEqual(rangeOfSource(diagnostic.range))
  );
}
