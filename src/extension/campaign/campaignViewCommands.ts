// The Campaign view's commands: New Campaign… (a starter written into a folder, never over anything), opening an entry at its range, and the campaign guide.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StarterCampaign } from '../../runtime/campaign/starterCampaigns.js';
import type { CampaignEntry } from '../../runtime/campaign/view/campaignTree.js';
import { planNewCampaign, STARTER_CHOICES, writeNewCampaign } from '../../runtime/campaign/view/newCampaign.js';
import { plural } from '../../runtime/common/humanText.js';
import type { CampaignViewService } from './campaignViewService.js';
import { CampaignTreeProvider } from './campaignViewProvider.js';

/** The folder names New Campaign suggests, by starter. */
const SUGGESTED_FOLDERS: Readonly<Record<StarterCampaign, string>> = { complete: 'salt-lantern', minimal: 'night-train' };

/** Where a new campaign goes. */
interface FolderChoice extends vscode.QuickPickItem {
  readonly folder?: vscode.Uri;
  readonly action: 'here' | 'newFolder' | 'choose';
}

/** `narratoria.newCampaign`: picks a starter and a folder, writes it with progress, then opens its manifest (or offers to open the folder). */
export async function newCampaignCommand(campaigns: CampaignViewService, reveal: (folder: string) => Promise<void>): Promise<void> {
  const starter = await vscode.window.showQuickPick(
    STARTER_CHOICES.map((choice) => ({ label: choice.label, detail: choice.detail, starter: choice.kind })),
    { title: 'New Campaign (1/2)', placeHolder: 'Which starter campaign? Both are yours to change.' },
  );
  if (!starter) return;
  const kind = starter.starter;
  const folder = await chooseFolder(kind);
  if (!folder) return;
  const plan = await planNewCampaign(folder.fsPath, kind);
  if (plan.kind === 'isCampaign') {
    void vscode.window.showWarningMessage(`${folder.fsPath} is a campaign already (it has a manifest.json). Choose another folder.`);
    return;
  }
  if (plan.kind === 'conflicts') {
    const named = plan.paths.slice(0, 5).join(', ') + (plan.paths.length > 5 ? `, and ${plan.paths.length - 5} more` : '');
    void vscode.window.showWarningMessage(`Nothing was written: ${folder.fsPath} already has ${named}. Choose an empty or new folder.`);
    return;
  }
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Writing the ${kind} campaign (${plural(plan.files.length, 'file')})...` },
    () => writeNewCampaign(folder.fsPath, kind),
  );
  if (result.failure) {
    void vscode.window.showErrorMessage(
      `Could not write ${result.failure.path}: ${result.failure.message}. ${plural(result.written.length, 'file')} were written.`,
    );
    return;
  }
  const inWorkspace = vscode.workspace.getWorkspaceFolder(folder) !== undefined;
  if (!inWorkspace) {
    const choice = await vscode.window.showInformationMessage(`Created the campaign in ${folder.fsPath}.`, 'Open Folder', 'Add to Workspace');
    if (choice === 'Open Folder') await vscode.commands.executeCommand('vscode.openFolder', folder);
    else if (choice === 'Add to Workspace') vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders?.length ?? 0, 0, { uri: folder });
    return;
  }
  await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, 'manifest.json'), { preview: false });
  if (await campaigns.whenShown(folder.fsPath)) await reveal(folder.fsPath);
  const actions = kind === 'complete' ? ['Show Beat Graph'] : [];
  const choice = await vscode.window.showInformationMessage(
    `Created the ${kind} campaign in ${vscode.workspace.asRelativePath(folder)}: the Campaign view lists its parts.`,
    ...actions,
  );
  if (choice === 'Show Beat Graph') await vscode.commands.executeCommand('narratoria.showBeatGraph', vscode.Uri.joinPath(folder, 'plot', 'beats.json'));
}

async function chooseFolder(kind: StarterCampaign): Promise<vscode.Uri | undefined> {
  const roots = (vscode.workspace.workspaceFolders ?? []).filter((root) => root.uri.scheme === 'file');
  const choices: FolderChoice[] = [];
  for (const root of roots) {
    choices.push({
      label: `$(new-folder) In a new folder of ${root.name}...`,
      detail: `${root.uri.fsPath}${path.sep}${SUGGESTED_FOLDERS[kind]}`,
      folder: root.uri,
      action: 'newFolder',
    });
    choices.push({
      label: `$(root-folder) In ${root.name} itself`,
      detail: 'The campaign folders go beside what is there; nothing is replaced.',
      folder: root.uri,
      action: 'here',
    });
  }
  choices.push({ label: '$(folder-opened) Choose a folder...', detail: 'Anywhere on this machine.', action: 'choose' });
  const picked = roots.length === 0 ? choices[0] : await vscode.window.showQuickPick(choices, { title: 'New Campaign (2/2)', placeHolder: 'Where?' });
  if (!picked) return undefined;
  if (picked.action === 'here') return picked.folder;
  if (picked.action === 'choose') {
    const chosen = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      canSelectMany: false,
      openLabel: 'Create Campaign Here',
    });
    return chosen?.[0];
  }
  const name = await vscode.window.showInputBox({
    title: 'New Campaign (2/2)',
    prompt: `A new folder in ${picked.folder!.fsPath}`,
    value: SUGGESTED_FOLDERS[kind],
    validateInput: (value) =>
      value.trim() === '' ? 'Give the folder a name.' : /[\\/:*?"<>|]/.test(value) || value.trim().startsWith('.') ? 'A plain folder name, please.' : undefined,
  });
  return name ? vscode.Uri.joinPath(picked.folder!, name.trim()) : undefined;
}

/** `narratoria.campaign.openEntry`: opens an entry's file; a beat (or any entry with a range) is revealed at the top with the cursor on it. */
export async function openCampaignEntry(entry: CampaignEntry): Promise<void> {
  const uri = CampaignTreeProvider.fileOf(entry);
  if (!uri || !entry.open) return;
  const range = entry.open.range;
  if (!range) {
    await vscode.commands.executeCommand('vscode.open', uri);
    return;
  }
  const start = new vscode.Position(range.start.line - 1, range.start.column - 1);
  const end = new vscode.Position(range.end.line - 1, range.end.column - 1);
  const editor = await vscode.window.showTextDocument(uri, { selection: new vscode.Range(start, start), preview: true });
  editor.revealRange(new vscode.Range(start, end), vscode.TextEditorRevealType.AtTop);
}

/** `narratoria.openCampaignGuide`: docs/campaigns.md in the Markdown preview. */
export async function openCampaignGuide(extensionUri: vscode.Uri): Promise<void> {
  await vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.joinPath(extensionUri, 'docs', 'campaigns.md'));
}
