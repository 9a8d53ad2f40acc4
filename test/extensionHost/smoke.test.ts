// Smoke suite in a real extension host: the extension activates in a story workspace, registers every contributed command and its Skills view.
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, test } from 'mocha';
import * as vscode from 'vscode';
import { activatedExtension, storyFolder } from './support.js';

interface Contributes {
  readonly commands: readonly { readonly command: string }[];
  readonly views: Readonly<Record<string, readonly { readonly id: string }[]>>;
}

suite('Extension smoke', () => {
  let extension: vscode.Extension<unknown>;
  let contributes: Contributes;

  suiteSetup(async () => {
    extension = await activatedExtension();
    contributes = (extension.packageJSON as { contributes: Contributes }).contributes;
  });

  test('activates in a workspace with skills', async () => {
    assert.equal(extension.isActive, true);
    const manifests = await vscode.workspace.findFiles(new vscode.RelativePattern(storyFolder(), 'skills/*/skill.json'));
    assert.ok(manifests.length >= 7, `the story workspace has the sample skills (found ${manifests.length})`);
  });

  test('registers every contributed command', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributes.commands.map((command) => command.command).filter((command) => !registered.has(command));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  test('contributes the narratoria.skills tree and shows it', async () => {
    assert.ok(contributes.views['narratoria']?.some((view) => view.id === 'narratoria.skills'));
    // `<view id>.focus` exists for every contributed view; it opens the Narratoria container.
    await vscode.commands.executeCommand('narratoria.skills.focus');
    await vscode.commands.executeCommand('narratoria.refreshSkills');
  });
});
