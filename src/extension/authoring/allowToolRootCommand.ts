// The command behind the "Allow <folder> in narratoria.allowedToolRoots" quick fix: adds one entry to the workspace setting, in a trusted workspace only.
import * as vscode from 'vscode';
import { withAllowedToolRoot } from '../../runtime/authoring/toolRootFixes.js';

/** The command id (package.json `contributes.commands`, hidden from the palette). */
export const ALLOW_TOOL_ROOT_COMMAND = 'narratoria.allowToolRoot';

/** The setting's entries as the workspace (folder) writes them, for `resource` (a workspace folder or a file in it). */
export function allowedToolRootEntries(resource: vscode.Uri): string[] {
  const inspected = vscode.workspace.getConfiguration('narratoria', resource).inspect<unknown[]>('allowedToolRoots');
  const value = inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? [];
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** `(entry, resource)`: adds `entry` to `narratoria.allowedToolRoots` of the workspace folder of `resource` (a URI string). */
export function allowToolRootCommand(log: vscode.LogOutputChannel) {
  return async (entry: unknown, resource: unknown): Promise<void> => {
    if (typeof entry !== 'string' || typeof resource !== 'string') return;
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('narratoria.allowedToolRoots has no effect in Restricted Mode: trust the workspace first.');
      return;
    }
    const uri = vscode.Uri.parse(resource);
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const target =
      folder && (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Workspace;
    const value = withAllowedToolRoot(allowedToolRootEntries(folder?.uri ?? uri), entry);
    await vscode.workspace.getConfiguration('narratoria', folder?.uri ?? uri).update('allowedToolRoots', value, target);
    log.info(`narratoria.allowedToolRoots: scripts in ${entry} may now run (${value.length} folder(s) allowed)`);
  };
}
