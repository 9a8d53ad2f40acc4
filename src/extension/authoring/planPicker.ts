// Which plan a plan command works on when it is not given one: the active editor's, the story's only plan, or one the author picks (and what Show Plan Graph draws).
import * as path from 'node:path';
import * as vscode from 'vscode';

/** Most plan files listed in the pick. */
const PLAN_LIMIT = 200;

/**
 * The plan in the active editor; else, as when the command comes from the palette or the walkthrough, the workspace's
 * only `*.plan.json`, or the one picked from them. With none, says so and offers to add the example plan.
 */
export async function planToWorkOn(action: string): Promise<vscode.Uri | undefined> {
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && active.path.endsWith('.plan.json')) return active;
  const plans = (await vscode.workspace.findFiles('**/*.plan.json', '**/node_modules/**', PLAN_LIMIT)).sort((left, right) =>
    left.path.localeCompare(right.path),
  );
  if (plans.length === 1) return plans[0];
  if (plans.length === 0) {
    const add = 'Add Example Plan';
    const choice = await vscode.window.showWarningMessage(`${action} works on a *.plan.json file, and this workspace has none.`, add);
    if (choice === add) await vscode.commands.executeCommand('narratoria.addExamplePlan');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    plans.map((uri) => ({ label: `$(json) ${path.basename(uri.path)}`, description: vscode.workspace.asRelativePath(path.dirname(uri.fsPath)), uri })),
    { title: action, placeHolder: 'Which plan?', matchOnDescription: true },
  );
  return picked?.uri;
}

/** What Show Plan Graph draws when not given a file: any JSON in the active editor (a plan, a run record, an ExecutionResult), else a plan as above. */
export async function graphSourceToWorkOn(): Promise<vscode.Uri | undefined> {
  const active = vscode.window.activeTextEditor?.document.uri;
  return active?.path.endsWith('.json') ? active : planToWorkOn('Show Plan Graph');
}
