// Extension-host tests of the campaign's views: the Campaign view's entries and their health follow unsaved edits, the lore lens counts the editor's text, the beat graph opens beside beats.json, one root entry per campaign.
import * as assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { NarratoriaApi } from '../../src/extension/main.js';
import type { CampaignEntry } from '../../src/runtime/campaign/view/campaignTree.js';
import { starterCampaignFiles, type StarterCampaign } from '../../src/runtime/campaign/starterCampaigns.js';
import { narratoriaApi, waitFor } from './api.js';
import { storyFolder } from './support.js';

async function writeCampaign(folder: string, kind: StarterCampaign): Promise<void> {
  for (const file of starterCampaignFiles(kind)) {
    const target = path.join(folder, ...file.path.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.bytes ?? file.text ?? '');
  }
}

/** Every entry of the tree, depth first. */
function allEntries(entries: readonly CampaignEntry[]): CampaignEntry[] {
  return entries.flatMap((entry) => [entry, ...allEntries(entry.children)]);
}

suite('Campaign view', () => {
  let api: NarratoriaApi;
  const campaigns = path.join(storyFolder().fsPath, 'view-campaigns');
  const salt = path.join(campaigns, 'salt-lantern');
  const night = path.join(campaigns, 'night-train');
  const entries = (): CampaignEntry[] => allEntries(api.context.campaignView.tree.topEntries);
  const entry = (folder: string, label: string): CampaignEntry | undefined =>
    entries().find((candidate) => candidate.campaignFolder === folder && candidate.label === label);

  suiteSetup(async () => {
    api = await narratoriaApi();
    await writeCampaign(salt, 'complete');
    await writeCampaign(night, 'minimal');
    await waitFor(() => entry(salt, "Tamsin's Bargain") !== undefined && entry(night, 'Premise') !== undefined, 'both campaigns in the view');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(campaigns, { recursive: true, force: true });
  });

  test('several campaigns: one root entry each, titled by its manifest, open at first', async () => {
    const roots = api.context.campaignView.tree.topEntries.filter((root) => root.campaignFolder === salt || root.campaignFolder === night);
    assert.deepEqual(roots.map((root) => [root.kind, root.label]).sort(), [
      ['campaign', 'The Night Train to Wrenhollow'],
      ['campaign', 'The Salt Lantern'],
    ]);
    const item = api.context.campaignView.tree.getTreeItem(roots.find((root) => root.campaignFolder === salt)!);
    assert.equal(item.contextValue, 'narratoria.campaign.campaign');
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
  });

  test('a requires_beat broken in the editor, unsaved: the beat shows the error at once; undone, it is healthy again', async () => {
    const beats = vscode.Uri.file(path.join(salt, 'plot', 'beats.json'));
    const document = await vscode.workspace.openTextDocument(beats);
    await vscode.window.showTextDocument(document);
    const offset = document.getText().indexOf('"requires_beat": "beat_001"');
    const edit = new vscode.WorkspaceEdit();
    const start = document.positionAt(offset + '"requires_beat": "'.length);
    edit.replace(beats, new vscode.Range(start, start.translate(0, 'beat_001'.length)), 'beat_077');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(() => entry(salt, "Tamsin's Bargain")?.health.level === 'error', "Tamsin's Bargain marked as an error");
    const bargain = entry(salt, "Tamsin's Bargain")!;
    assert.deepEqual(
      bargain.health.diagnostics.map((diagnostic) => diagnostic.code),
      ['CAMPAIGN_UNKNOWN_BEAT'],
    );
    const item = api.context.campaignView.tree.getTreeItem(bargain);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'error');
    assert.match((item.tooltip as vscode.MarkdownString).value, /CAMPAIGN\\_UNKNOWN\\_BEAT/);
    assert.equal(entry(salt, 'Beats')!.health.level, 'error');
    assert.equal(entry(salt, 'The Dark Lantern')!.health.level, 'healthy');
    await vscode.commands.executeCommand('undo');
    await waitFor(() => entry(salt, "Tamsin's Bargain")?.health.level === 'healthy', "Tamsin's Bargain healthy again");
  });

  test('the lore lens counts the text in the editor, unsaved edits included', async () => {
    const file = vscode.Uri.file(path.join(salt, 'lore', 'places', 'the-lantern-tower.md'));
    const document = await vscode.workspace.openTextDocument(file);
    const lenses = async () => (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file, 10)) ?? [];
    const title = async () => (await lenses()).map((lens) => lens.command?.title ?? '').find((text) => /chunks?/.test(text)) ?? '';
    await waitFor(async () => /chunks · largest \d+ tokens$/.test(await title()), 'the lore lens');
    const before = Number(/(\d+) chunks/.exec(await title())![1]);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(file, new vscode.Position(document.lineCount, 0), '\n\nA new paragraph about the lamp room.\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(async () => (await title()).includes(`${before + 1} chunks`), 'the lens to count the new paragraph');
    const [lens] = (await lenses()).filter((candidate) => candidate.command?.command === 'narratoria.previewLoreChunks');
    assert.deepEqual(lens?.command?.arguments?.[0]?.toString(), file.toString());
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('Show Beat Graph on a Beats entry opens the graph beside beats.json', async () => {
    const beatsEntry = entry(salt, 'Beats')!;
    await vscode.commands.executeCommand('narratoria.showBeatGraph', beatsEntry);
    const beats = vscode.Uri.file(path.join(salt, 'plot', 'beats.json'));
    await waitFor(() => api.context.campaignView.beatGraphs.panelOf(beats)?.current !== undefined, 'the beat graph');
    const graph = api.context.campaignView.beatGraphs.panelOf(beats)!.current!;
    assert.deepEqual(graph.layout.nodes.map((node) => node.id).sort(), ['beat_001', 'beat_002', 'beat_003', 'beat_004', 'beat_005', 'beat_006']);
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.label === 'Beats: The Salt Lantern');
    assert.equal(tabs.length, 1);
  });
});
