// Extension-host tests of campaign editing: two campaigns found in the story, problems as the author types (without VS Code's own), completion, hover, definition, references and rename.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { NarratoriaApi } from '../../src/extension/main.js';
import { starterCampaignFiles, type StarterCampaign } from '../../src/runtime/campaign/starterCampaigns.js';
import { narratoriaApi, waitFor } from './api.js';
import { storyFolder } from './support.js';

function codeOf(diagnostic: vscode.Diagnostic): string {
  return typeof diagnostic.code === 'object' ? String(diagnostic.code.value) : String(diagnostic.code);
}

async function writeCampaign(folder: string, kind: StarterCampaign): Promise<void> {
  for (const file of starterCampaignFiles(kind)) {
    const target = path.join(folder, ...file.path.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.bytes ?? file.text ?? '');
  }
}

suite('Campaign editing', () => {
  let api: NarratoriaApi;
  const campaigns = path.join(storyFolder().fsPath, 'campaigns');
  const salt = path.join(campaigns, 'salt-lantern');
  const night = path.join(campaigns, 'night-train');
  const uri = (folder: string, file: string): vscode.Uri => vscode.Uri.file(path.join(folder, ...file.split('/')));
  const beatsUri = uri(salt, 'plot/beats.json');
  /** The diagnostics the campaign collection shows for a file. */
  const problems = (file: vscode.Uri): readonly vscode.Diagnostic[] => api.context.campaignEditing.diagnostics.collection.get(file) ?? [];
  /** Every file of a campaign folder the collection has diagnostics for. */
  const filesWithProblems = (folder: string): string[] => {
    const found: string[] = [];
    api.context.campaignEditing.diagnostics.collection.forEach((file, list) => {
      if (list.length > 0 && (file.fsPath === folder || file.fsPath.startsWith(folder + path.sep))) found.push(path.relative(folder, file.fsPath));
    });
    return found;
  };
  const positionIn = (document: vscode.TextDocument, needle: string, shift = 0, occurrence = 1): vscode.Position => {
    let offset = -1;
    for (let found = 0; found < occurrence; found++) offset = document.getText().indexOf(needle, offset + 1);
    assert.ok(offset >= 0, `${needle} is in ${document.uri.fsPath}`);
    return document.positionAt(offset + shift);
  };
  const replaceIn = async (document: vscode.TextDocument, from: string, to: string, occurrence = 1): Promise<void> => {
    const start = positionIn(document, from, 0, occurrence);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(start, start.translate(0, from.length)), to);
    assert.ok(await vscode.workspace.applyEdit(edit), `replaced ${from}`);
  };

  suiteSetup(async () => {
    api = await narratoriaApi();
    await writeCampaign(salt, 'complete');
    await writeCampaign(night, 'minimal');
    await waitFor(() => {
      const folders = api.context.campaignEditing.campaigns.folders;
      return folders.includes(salt) && folders.includes(night);
    }, 'both campaigns to be found');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(campaigns, { recursive: true, force: true });
  });

  test('two campaigns two levels down are found and validate clean: the collection shows nothing for them', async () => {
    // Each check reads the files as they are now; one set off meanwhile by the watcher's news may publish instead.
    await api.context.campaignEditing.diagnostics.validateNow(salt);
    await api.context.campaignEditing.diagnostics.validateNow(night);
    await waitFor(
      () => filesWithProblems(salt).length === 0 && filesWithProblems(night).length === 0,
      `both campaigns to validate clean (problems in ${[...filesWithProblems(salt), ...filesWithProblems(night)].join(', ')})`,
    );
  });

  test('a requires_beat broken in the editor (unsaved) is a problem at its value, linked to the docs; fixed, it goes', async () => {
    const document = await vscode.workspace.openTextDocument(beatsUri);
    await vscode.window.showTextDocument(document);
    await replaceIn(document, '"requires_beat": "beat_003"', '"requires_beat": "beat_009"');
    const unknown = (): vscode.Diagnostic | undefined => problems(beatsUri).find((diagnostic) => codeOf(diagnostic) === 'CAMPAIGN_UNKNOWN_BEAT');
    await waitFor(() => unknown() !== undefined, 'CAMPAIGN_UNKNOWN_BEAT while typing');
    const diagnostic = unknown()!;
    assert.equal(document.getText(diagnostic.range), '"beat_009"');
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(diagnostic.source, 'narratoria');
    assert.match(diagnostic.message, /requires_beat names "beat_009", which is no beat of plot\/beats\.json; did you mean "beat_00\d"\?/);
    assert.match(String(typeof diagnostic.code === 'object' ? diagnostic.code.target : ''), /docs\/diagnostics\.md#campaign_unknown_beat$/);
    assert.ok(document.isDirty, 'nothing was saved: the check read the unsaved text');
    // The quick fix offers the closest beat id and applying it makes the problem go.
    const suggested = /did you mean "(beat_\d+)"/.exec(diagnostic.message)![1]!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', beatsUri, diagnostic.range);
    const fix = actions.find((action) => action.title === `Change to "${suggested}"`);
    assert.ok(fix?.edit, `a quick fix among ${actions.map((action) => action.title).join(', ')}`);
    assert.equal(fix.kind?.value, vscode.CodeActionKind.QuickFix.value);
    assert.ok(await vscode.workspace.applyEdit(fix.edit), 'the fix applied');
    assert.equal(document.getText(diagnostic.range), `"${suggested}"`, 'the value replaced, quotes kept');
    await waitFor(() => unknown() === undefined, 'the problem to go once fixed by the quick fix');
    const restore = new vscode.WorkspaceEdit();
    restore.replace(beatsUri, diagnostic.range, '"beat_003"');
    assert.ok(await vscode.workspace.applyEdit(restore), 'the original link put back');
    await waitFor(() => unknown() === undefined, 'the original link to validate clean');
    await document.save();
  });

  test("schema problems of an open beats.json are VS Code's (jsonValidation); of a closed profile, Narratoria's", async () => {
    const profile = uri(salt, 'characters/npcs/tamsin/profile.json');
    const original = await readFile(profile.fsPath, 'utf8');
    try {
      // On disk and closed: Narratoria reports it.
      await writeFile(profile.fsPath, original.replace('"role":', '"rolle":'));
      await waitFor(() => problems(profile).some((diagnostic) => codeOf(diagnostic) === 'SCHEMA_REQUIRED'), 'SCHEMA_REQUIRED for the closed profile');
      // Open: VS Code's JSON validation reports it with the editor schema, and Narratoria leaves it out.
      const document = await vscode.workspace.openTextDocument(profile);
      await vscode.window.showTextDocument(document);
      await waitFor(() => !problems(profile).some((diagnostic) => codeOf(diagnostic).startsWith('SCHEMA_')), 'the schema problem handed to VS Code');
      await waitFor(
        () => vscode.languages.getDiagnostics(profile).some((diagnostic) => diagnostic.source !== 'narratoria' && /role|rolle/.test(diagnostic.message)),
        "VS Code's JSON validation of the profile with dist/schemas/campaign/npc-profile.schema.json",
      );
    } finally {
      await writeFile(profile.fsPath, original);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  test('a file deleted or renamed on disk takes its problems with it', async () => {
    const orphan = uri(salt, 'art/stray.png.keywords.txt');
    await writeFile(orphan.fsPath, 'stray\n');
    await waitFor(() => problems(orphan).some((diagnostic) => codeOf(diagnostic) === 'CAMPAIGN_ORPHAN_SIDECAR'), 'the orphan sidecar reported');
    const moved = uri(salt, 'art/stray2.png.keywords.txt');
    const edit = new vscode.WorkspaceEdit();
    edit.renameFile(orphan, moved);
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(() => problems(orphan).length === 0 && problems(moved).length > 0, 'the problem to move with the file');
    await rm(moved.fsPath);
    await waitFor(() => problems(moved).length === 0, 'the problem to go with the file');
  });

  test('completion offers beat ids in a requires_beat and NPC names as a speaker', async () => {
    const document = await vscode.workspace.openTextDocument(beatsUri);
    const labels = async (position: vscode.Position): Promise<string[]> => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', beatsUri, position);
      return list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    };
    const beats = await labels(positionIn(document, '"requires_beat": "beat_003"', '"requires_beat": "beat_'.length));
    for (const id of ['beat_001', 'beat_002', 'beat_003', 'beat_004', 'beat_006']) assert.ok(beats.includes(id), `${id} in ${beats.join(', ')}`);
    assert.ok(!beats.includes('beat_005'), 'not the beat itself');
    const speakers = await labels(positionIn(document, '"speaker": "odile"', '"speaker": "o'.length));
    for (const npc of ['alder', 'odile', 'tamsin']) assert.ok(speakers.includes(npc), `${npc} in ${speakers.join(', ')}`);
  });

  test('hover on a beat id shows the beat; on an NPC name the character', async () => {
    const document = await vscode.workspace.openTextDocument(beatsUri);
    const hoverText = async (position: vscode.Position): Promise<string> => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', beatsUri, position);
      return hovers.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value))).join('\n');
    };
    assert.match(await hoverText(positionIn(document, '"fallback_beat": "beat_005"', '"fallback_beat": "b'.length)), /Voices Under the Jetty[\s\S]*skippable/);
    assert.match(await hoverText(positionIn(document, '"Brother Alder"', 2)), /Antagonist \\- priest of the Tide[\s\S]*Traits: eloquent/);
  });

  test('go to definition lands on the beat id and on the profile name; references find every file naming an NPC', async () => {
    const document = await vscode.workspace.openTextDocument(beatsUri);
    const links = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      beatsUri,
      positionIn(document, '"requires_beat": "beat_001"', '"requires_beat": "beat'.length),
    );
    const link = links.find((candidate): candidate is vscode.LocationLink => 'targetUri' in candidate && candidate.targetUri.fsPath === beatsUri.fsPath);
    assert.ok(link, `a link into beats.json among ${links.length}`);
    assert.deepEqual(link.targetSelectionRange?.start, positionIn(document, '"id": "beat_001"', '"id": "'.length));
    assert.equal(document.getText(link.targetSelectionRange), 'beat_001');
    assert.equal(document.getText(link.originSelectionRange), '"beat_001"');

    const npc = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      beatsUri,
      positionIn(document, '"speaker": "tamsin"', '"speaker": "t'.length),
    );
    const target = npc[0] as vscode.LocationLink;
    assert.equal(target.targetUri.fsPath, uri(salt, 'characters/npcs/tamsin/profile.json').fsPath);
    assert.equal(target.targetSelectionRange?.start.line, 1, 'the name, on the profile\u2019s second line');

    const references = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeReferenceProvider',
      beatsUri,
      positionIn(document, '"speaker": "tamsin"', '"speaker": "t'.length),
    );
    assert.equal(references.length, 6, 'the profile name, two relationships, the player template and two in beats.json');
  });

  test('rename refuses a malformed beat id; renames a beat across links, and an NPC with its folder', async () => {
    const document = await vscode.workspace.openTextDocument(beatsUri);
    const at = positionIn(document, '"id": "beat_003"', '"id": "b'.length);
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('vscode.executeDocumentRenameProvider', beatsUri, at, 'beat_3')),
      /is not a beat id: write beat_ and at least three digits/,
    );
    const beatEdit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', beatsUri, at, 'beat_030');
    assert.equal(beatEdit.get(beatsUri).length, 3);
    assert.ok(await vscode.workspace.applyEdit(beatEdit));
    assert.equal(document.getText().match(/beat_030/g)?.length, 3);
    await document.save();

    const alder = positionIn(document, '"alder": "preaching', 2);
    const prepared = await vscode.commands.executeCommand<{ range: vscode.Range; placeholder: string }>('vscode.prepareRename', beatsUri, alder);
    assert.equal(prepared.placeholder, 'Brother Alder');
    const npcEdit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', beatsUri, alder, 'Brother Ash');
    assert.deepEqual(
      npcEdit.entries().map(([file, edits]) => [path.relative(salt, file.fsPath), edits.length]),
      [
        [path.join('plot', 'beats.json'), 2],
        [path.join('characters', 'npcs', 'ash', 'profile.json'), 2],
        [path.join('characters', 'npcs', 'odile', 'profile.json'), 1],
        [path.join('characters', 'npcs', 'tamsin', 'profile.json'), 1],
      ],
      "the profile's edits go to its new folder",
    );
    assert.ok(await vscode.workspace.applyEdit(npcEdit));
    for (const edited of vscode.workspace.textDocuments.filter((candidate) => candidate.isDirty && candidate.uri.fsPath.startsWith(salt))) {
      assert.ok(await edited.save(), `saved ${edited.uri.fsPath}`);
    }
    assert.ok(existsSync(path.join(salt, 'characters', 'npcs', 'ash', 'profile.json')), 'the folder moved');
    assert.ok(!existsSync(path.join(salt, 'characters', 'npcs', 'alder')));
    assert.match(
      await readFile(path.join(salt, 'characters', 'npcs', 'ash', 'profile.json'), 'utf8'),
      /"name": "Brother Ash"[\s\S]*"portrait": "characters\/npcs\/ash\/portrait\.png"/,
    );
    await api.context.campaignEditing.diagnostics.validateNow(salt);
    await waitFor(() => filesWithProblems(salt).length === 0, `the renamed campaign to validate clean (problems in ${filesWithProblems(salt).join(', ')})`);
  });

  test('each campaign has its own problems; a campaign whose manifest is deleted loses them', async () => {
    const manifest = uri(night, 'manifest.json');
    const original = await readFile(manifest.fsPath, 'utf8');
    await writeFile(manifest.fsPath, original.replace(/"version": "[^"]*"/, '"version": "one"'));
    await waitFor(
      () => problems(manifest).some((diagnostic) => codeOf(diagnostic) === 'SCHEMA_VIOLATION'),
      "the manifest's bad version (no jsonValidation for manifest.json)",
    );
    assert.deepEqual(filesWithProblems(salt), [], 'the other campaign is untouched');
    await rm(manifest.fsPath);
    await waitFor(() => !api.context.campaignEditing.campaigns.folders.includes(night), 'the campaign to be gone');
    await waitFor(() => filesWithProblems(night).length === 0, 'its problems to be cleared');
  });
});
