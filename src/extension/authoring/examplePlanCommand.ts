// `narratoria.addExamplePlan`: puts the starter example plan in the story's plans/ folder (never over a file) and opens it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { addExamplePlan } from '../../runtime/authoring/examplePlan.js';

export interface ExamplePlanContext {
  readonly extensionUri: vscode.Uri;
  /** The story root (the workspace folder), if a folder is open. */
  readonly root: () => string | undefined;
  readonly log: vscode.LogOutputChannel;
}

/** Resolves with the plan's path (undefined when no folder is open). */
export function addExamplePlanCommand(context: ExamplePlanContext) {
  return async (): Promise<string | undefined> => {
    const root = context.root();
    if (!root) {
      void vscode.window.showWarningMessage('Open a folder with a story to add a plan to it.');
      return undefined;
    }
    const added = await addExamplePlan(vscode.Uri.joinPath(context.extensionUri, 'contracts', 'examples').fsPath, root);
    const relative = path.relative(root, added.file);
    if (added.created) context.log.info(`added the example plan ${relative}`);
    else void vscode.window.showInformationMessage(`${relative} is already in this story: it is opened as it is.`);
    await vscode.window.showTextDocument(vscode.Uri.file(added.file));
    return added.file;
  };
}
