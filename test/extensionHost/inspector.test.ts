// Extension-host tests of the Inspector: Open in Inspector replays an .ndjson recording (nothing runs); Inspect Skill Script runs a script into the panel.
import * as assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { suite, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { narratoriaApi, waitFor } from './api.js';
import { storyFolder } from './support.js';

suite('Inspector', () => {
  const file = vscode.Uri.joinPath(storyFolder(), 'inspected.ndjson');
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(file.fsPath, { force: true });
  });

  test('Open in Inspector shows a recording in the Inspector panel', async () => {
    await narratoriaApi();
    await writeFile(file.fsPath, '{"version":"0","type":"log","level":"info","message":"hello"}\nnot json\n{"version":"0","type":"done","ok":true}\n');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    await vscode.commands.executeCommand('narratoria.openInInspector', file);
    const inspectorTab = () =>
      vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .find((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('narratoria.inspector'));
    await waitFor(() => inspectorTab() !== undefined, 'the Inspector tab');
    assert.equal(inspectorTab()!.label, 'Inspector: inspected.ndjson');
    const shown = (await narratoriaApi()).context.inspector;
    assert.deepEqual(
      shown?.session.rows.map((row) => row.mark),
      ['ok', 'error', 'ok'],
    );
    assert.deepEqual([shown?.running, shown?.session.verdict?.category, shown?.session.verdict?.retryable], [false, 'invalid_json', true]);
  });

  test('Inspect Skill Script runs the dice roller into the panel and ends with a successful verdict', async () => {
    const api = await narratoriaApi();
    await api.context.skills.ready();
    const skill = api.context.skills.skills.find((candidate) => candidate.name === 'dice-roller');
    assert.ok(skill, 'the dice-roller sample skill');
    const script = skill.scripts[0]!;
    await vscode.commands.executeCommand('narratoria.inspectSkillScript', { kind: 'script', skill, script }, { formula: '2d6', reason: 'the inspector test' });
    await waitFor(() => api.context.inspector?.session.verdict !== undefined, 'the verdict of the run');
    const shown = api.context.inspector!;
    assert.equal(shown.label, `dice-roller/${script.name}`);
    assert.equal(shown.session.verdict?.ok, true, shown.session.verdict?.message);
    assert.ok(shown.session.rows.some((row) => row.type === 'done' && row.mark === 'ok'));
  });

  test('Inspect Skill Script on a declared script file (its editor-title button) runs it, remembers the input and keeps the run', async () => {
    const api = await narratoriaApi();
    const skill = api.context.skills.skills.find((candidate) => candidate.name === 'dice-roller')!;
    const script = skill.scripts[0]!;
    const before = api.context.inspector?.session;
    await vscode.commands.executeCommand('narratoria.inspectSkillScript', vscode.Uri.file(script.path), { formula: '1d4', reason: 'the title button' });
    await waitFor(() => api.context.inspector?.session !== before && api.context.inspector?.session.verdict !== undefined, 'the verdict of the second run');
    assert.equal(api.context.inspector!.session.verdict?.ok, true, api.context.inspector!.session.verdict?.message);
    assert.deepEqual(api.context.lastInputs.get(script.path), { formula: '1d4', reason: 'the title button' });
    // The dice roller ran twice in this suite: its last run and the one before are kept for Compare and a reload.
    const storage = vscode.Uri.joinPath(api.context.extension.storageUri ?? api.context.extension.globalStorageUri, 'inspector');
    await waitFor(
      async () =>
        (
          await vscode.workspace.fs.readDirectory(storage).then(
            (entries) => entries.map(([name]) => name),
            () => [] as string[],
          )
        ).some((name) => name.endsWith('.previous.ndjson')),
      'the previous run is kept',
    );
  });

  test('a file that no skill declares is refused with a message, and nothing runs', async () => {
    const api = await narratoriaApi();
    const before = api.context.inspector?.session;
    await vscode.commands.executeCommand('narratoria.inspectSkillScript', vscode.Uri.joinPath(storyFolder(), 'not-a-script.js'), {});
    assert.equal(api.context.inspector?.session, before);
  });
});
