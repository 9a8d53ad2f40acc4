// Extension-host tests of the narrator's hints on skill.json: information diagnostics at the key they are about, none for a good manifest, and the quick fix that adds suggested keywords.
import * as assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { narratoriaApi, waitFor } from './api.js';
import { storyFolder } from './support.js';

const THIN = `{
  "name": "hinted-tides",
  "version": "1.0.0",
  "description": "Tide tables.",
  "scripts": [{ "name": "tide", "path": "scripts/tide.js" }]
}
`;

const GOOD = `{
  "name": "hinted-weather",
  "version": "1.0.0",
  "description": "Decides the weather of the region each day: rain, snow, fog or sun, and how cold or warm it is.",
  "capabilities": ["weather", "forecast"],
  "scripts": [{ "name": "forecast", "path": "scripts/forecast.js", "description": "Reports the weather today." }]
}
`;

const codeOf = (diagnostic: vscode.Diagnostic): string => (typeof diagnostic.code === 'object' ? String(diagnostic.code.value) : String(diagnostic.code));
const hints = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === 'narratoria' && codeOf(diagnostic).startsWith('SKILL_'));

suite('Skill manifest hints', () => {
  const folder = () => path.join(storyFolder().fsPath, 'skills-hints-test');
  let thin: vscode.Uri;
  let good: vscode.Uri;

  suiteSetup(async () => {
    await narratoriaApi();
    for (const [name, text] of [
      ['hinted-tides', THIN],
      ['hinted-weather', GOOD],
    ] as const) {
      await mkdir(path.join(folder(), name), { recursive: true });
      await writeFile(path.join(folder(), name, 'skill.json'), text);
    }
    thin = vscode.Uri.file(path.join(folder(), 'hinted-tides', 'skill.json'));
    good = vscode.Uri.file(path.join(folder(), 'hinted-weather', 'skill.json'));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(folder(), { recursive: true, force: true });
  });

  test('a thin manifest shows information hints at its keys, linked to the docs; a good one shows none', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(thin));
    await waitFor(() => hints(thin).length === 3, 'three hints on the thin skill.json');
    const found = hints(thin);
    assert.deepEqual(
      found.map((hint) => [codeOf(hint), hint.range.start.line]).sort(),
      [
        ['SKILL_DESCRIPTION_SHORT', 3],
        ['SKILL_NO_CAPABILITIES', 1],
        ['SKILL_SCRIPT_UNDESCRIBED', 4],
      ].sort(),
    );
    for (const hint of found) {
      assert.equal(hint.severity, vscode.DiagnosticSeverity.Information);
      assert.match(String((hint.code as { target: vscode.Uri }).target), /diagnostics\.md#skill_/);
    }
    const goodDocument = await vscode.workspace.openTextDocument(good);
    await vscode.window.showTextDocument(goodDocument);
    // Checked now (not waited for): an empty list is the verdict, not a check still to come.
    const api = await narratoriaApi();
    api.context.manifestHints.check(goodDocument);
    assert.deepEqual(api.context.manifestHints.diagnosticsOf(good), []);
    assert.deepEqual(hints(good), []);
  });

  test('the quick fix adds suggested keywords, and the hints about them go away', async () => {
    const document = await vscode.workspace.openTextDocument(thin);
    await vscode.window.showTextDocument(document);
    await waitFor(() => hints(thin).length === 3, 'hints before the fix');
    const description = hints(thin).find((hint) => codeOf(hint) === 'SKILL_DESCRIPTION_SHORT')!;
    const actions =
      (await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        thin,
        description.range,
        vscode.CodeActionKind.QuickFix.value,
      )) ?? [];
    const fix = actions.find((action) => action.title.startsWith('Add keywords for the narrator'));
    assert.ok(fix?.edit, `actions: ${actions.map((action) => action.title).join(' | ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    const keywords = (JSON.parse(document.getText()) as { keywords: string[] }).keywords;
    assert.ok(keywords.includes('tidal'), keywords.join(', '));
    // Keywords make up for the short description and the missing capabilities; the undescribed script stays.
    await waitFor(() => hints(thin).length === 1, 'only the script hint after the fix');
    assert.equal(codeOf(hints(thin)[0]!), 'SKILL_SCRIPT_UNDESCRIBED');
    await document.save();
    assert.deepEqual((JSON.parse(await readFile(thin.fsPath, 'utf8')) as { keywords: string[] }).keywords, keywords);
  });
});
