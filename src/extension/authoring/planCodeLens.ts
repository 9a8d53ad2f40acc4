// The code lens row above a plan's "tools": Run Plan, Debug Plan and Show Graph.
import * as vscode from 'vscode';
import { rangeOfSpan } from './planConvert.js';
import type { PlanWorkspace } from './planWorkspace.js';

export class PlanCodeLensProvider implements vscode.CodeLensProvider {
  constructor(private readonly plans: PlanWorkspace) {}

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const { current } = this.plans.model(document);
    if (!current.toolsArray) return [];
    const range = rangeOfSpan(document, current.toolsArray.keySpan);
    const count = current.tools.length;
    return [
      new vscode.CodeLens(range, {
        title: `$(run) Run Plan`,
        tooltip: `Run the ${count} tool(s) of this plan in a terminal`,
        command: 'narratoria.runPlan',
        arguments: [document.uri],
      }),
      new vscode.CodeLens(range, {
        title: `$(debug-alt) Debug Plan`,
        tooltip: 'Debug this plan: it stops at the breakpoints set in this file, before the tool starts',
        command: 'narratoria.debugPlan',
        arguments: [document.uri],
      }),
      new vscode.CodeLens(range, {
        title: `$(type-hierarchy-sub) Show Graph`,
        tooltip: 'Show the plan as a graph beside the text',
        command: 'narratoria.showPlanGraph',
        arguments: [document.uri],
      }),
    ];
  }
}
