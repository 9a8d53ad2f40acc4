// Extension-host tests of recordings in the editor: an opened .ndjson file gets a problem per bad line from the runtime's decoder, updated as it is edited.
import * as assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { suite, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { narratoriaApi, waitFor } from './api.js';
import { storyFolder } from './support.js';

const LINES = [
  '{"version":"0","type":"log","level":"info","message":"rolling"}',
  'this is not json',
  '{"version":"0","type":"lgo","level":"info","message":"typo"}',
  '{"version":"0","type":"done","ok":true}',
  '{"version":"0","type":"log","level":"info","message":"late"}',
];

suite('Recordings in the editor', () => {
  const file = vscode.Uri.joinPath(storyFolder(), 'recorded.ndjson');
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(file.fsPath, { force: true });
  });

  test('an .ndjson file shows invalid JSON, an unknown type with a suggestion and a line after done; fixing a line updates them', async () => {
    const api = await narratoriaApi();
    await writeFile(file.fsPath, `${LINES.join('\n')}\n`);
    const document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);
    const problems = () => api.context.recordings.diagnosticsOf(file);
    await waitFor(() => problems().length === 3, 'three problems');
    assert.deepEqual(
      problems().map((problem) => [problem.range.start.line + 1, problem.code, problem.severity]),
      [
        [2, 'INVALID_JSON', vscode.DiagnosticSeverity.Error],
        [3, 'UNKNOWN_EVENT_TYPE', vscode.DiagnosticSeverity.Error],
        [5, 'EVENT_AFTER_DONE', vscode.DiagnosticSeverity.Warning],
      ],
    );
    assert.match(problems()[1]!.message, /did you mean "log"/);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(file, new vscode.Range(2, 0, 2, LINES[2]!.length), LINES[2]!.replace('lgo', 'log'));
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(() => problems().length === 2, 'the fixed line no longer reported');
  });
});
