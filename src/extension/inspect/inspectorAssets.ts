// Gives the Inspector's asset rows a webview URI or the reason there is none (the runtime's AssetFiles decides which file), and keeps the webview allowed to load those folders.
import * as vscode from 'vscode';
import type { InspectorRow, InspectorRowView } from '../../protocol/inspectorMessages.js';
import { AssetFiles, skillFolderOf, type AssetScope } from '../../runtime/inspect/assetFiles.js';
import { isPathInside } from '../../runtime/common/pathContainment.js';
import type { InspectorTarget } from './inspectorPanel.js';

/**
 * A live script's assets resolve against its story root (its working directory) and are shown from the story root and
 * the script's own skill folder. A recording names its root in a file anyone may write, so its assets are shown only
 * from inside the workspace folders.
 */
function scopeOf(target: InspectorTarget): AssetScope {
  const workspaceFolders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  if (target.kind === 'live') {
    return {
      base: target.root,
      allowed: [target.root, skillFolderOf(target.scriptPath)],
      outsideReason: 'the file is outside the story and the skill folder, so the panel does not load it',
    };
  }
  const file = target.file;
  const containing = file !== undefined ? workspaceFolders.find((folder) => isPathInside(file, folder, { allowSame: true })) : undefined;
  return {
    base: target.recording.meta.root ?? containing ?? workspaceFolders[0],
    allowed: workspaceFolders,
    outsideReason: 'the file is outside the workspace folders, so the panel does not load it for a recording',
  };
}

/** The folders the panel's webview must be able to load besides its own scripts (its localResourceRoots). */
export function assetRoots(target: InspectorTarget): vscode.Uri[] {
  return scopeOf(target).allowed.map((folder) => vscode.Uri.file(folder));
}

/** The rows as posted: each asset row with `assetUri` or `assetUnavailable`; other rows unchanged. */
export function withAssetUris(webview: vscode.Webview, target: InspectorTarget, rows: readonly InspectorRow[]): InspectorRowView[] {
  let scope: AssetScope | undefined;
  let files: AssetFiles | undefined;
  return rows.map((row): InspectorRowView => {
    if (row.event?.type !== 'asset') return row;
    scope ??= scopeOf(target);
    files ??= new AssetFiles(scope);
    const found = files.resolve(row.event);
    if ('reason' in found) return { ...row, assetUnavailable: found.reason };
    allowRoots(webview, scope.allowed);
    return { ...row, assetUri: webview.asWebviewUri(vscode.Uri.file(found.file)).toString() };
  });
}

/**
 * Adds folders the webview may not load yet (a new target in a folder the panel was not opened for). Changing the
 * options reloads the page, which then says `ready` and gets a fresh snapshot.
 */
function allowRoots(webview: vscode.Webview, folders: readonly string[]): void {
  const current = webview.options.localResourceRoots ?? [];
  const missing = folders.filter((folder) => !current.some((root) => isPathInside(folder, root.fsPath, { allowSame: true })));
  if (missing.length > 0) webview.options = { ...webview.options, localResourceRoots: [...current, ...missing.map((folder) => vscode.Uri.file(folder))] };
}
