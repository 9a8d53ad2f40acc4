// Saves an exported graph image (SVG or PNG) through a save dialog beside its source file, and offers to open it. Shared by the plan and beat graphs.
import * as vscode from 'vscode';

/** Asks where to save `content` (default `<folder of source>/<baseName>.graph.<extension>`), writes it, and offers Open. */
export async function saveGraphImage(source: vscode.Uri, name: string, baseName: string, extension: 'svg' | 'png', content: Uint8Array): Promise<void> {
  const folder = source.scheme === 'file' ? vscode.Uri.joinPath(source, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    title: `Export the graph of ${name}`,
    saveLabel: 'Export',
    filters: extension === 'svg' ? { 'SVG image': ['svg'] } : { 'PNG image': ['png'] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, `${baseName}.graph.${extension}`) } : {}),
  });
  if (!target) return;
  await vscode.workspace.fs.writeFile(target, content);
  const choice = await vscode.window.showInformationMessage(`Exported the graph to ${vscode.workspace.asRelativePath(target)}.`, 'Open');
  if (choice) await vscode.commands.executeCommand('vscode.open', target);
}
