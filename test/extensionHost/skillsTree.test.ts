// Extension-host tests of the Skills tree data: skills with health, scripts as children, enablement commands, live updates on disk changes, and a broken skill.json as an unusable item and a Problems-panel error at its line.
import * as assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { suite, suiteSetup, test } from 'mocha';
import * as vscode from 'vscode';
import type { NarratoriaApi } from '../../src/extension/main.js';
import type { SkillTreeNode } from '../../src/extension/skills/skillsTreeProvider.js';
import { scaffoldSkill } from '../../src/runtime/skills/skillTemplate.js';
import { narratoriaApi, waitFor } from './api.js';
import { storyFolder } from './support.js';

const SAMPLE_SKILLS = ['character-portraits', 'dice-roller', 'memory', 'npc-perception', 'player-choices', 'reputation', 'storyteller'];

suite('Skills tree', () => {
  let api: NarratoriaApi;
  const skillNodes = async (): Promise<SkillTreeNode[]> => (await api.context.tree.getChildren()).filter((node) => node.kind === 'skill');
  const item = async (name: string): Promise<vscode.TreeItem> => {
    const node = (await skillNodes()).find((candidate) => candidate.kind === 'skill' && candidate.skill.name === name);
    assert.ok(node, `the tree lists ${name}`);
    return api.context.tree.getTreeItem(node);
  };

  suiteSetup(async () => {
    api = await narratoriaApi();
    await api.context.skills.ready();
  });

  test('lists every sample skill, healthy, with version and a themed icon', async () => {
    const names = (await skillNodes()).map((node) => (node.kind === 'skill' ? node.skill.name : ''));
    for (const name of SAMPLE_SKILLS) assert.ok(names.includes(name), `${name} is listed (got ${names.join(', ')})`);
    const dice = await item('dice-roller');
    assert.equal(dice.label, 'Dice Roller');
    assert.match(String(dice.description), /^v1\.0\.0 · healthy/);
    assert.ok(dice.iconPath instanceof vscode.ThemeIcon);
    assert.equal(dice.iconPath.id, 'pass-filled');
    assert.match(String(dice.contextValue), /^narratoria\.skill .*\benabled\b.*\bconfigurable\b/);
    const tooltip = dice.tooltip as vscode.MarkdownString;
    assert.match(tooltip.value, /Capabilities: `dice`/);
    assert.match(tooltip.value, /Priority: 60/);
  });

  test('children are the scripts (click opens the file)', async () => {
    const node = (await skillNodes()).find((candidate) => candidate.kind === 'skill' && candidate.skill.name === 'dice-roller')!;
    const children = await api.context.tree.getChildren(node);
    const roll = children.find((child) => child.kind === 'script');
    assert.ok(roll && roll.kind === 'script');
    const rollItem = api.context.tree.getTreeItem(roll);
    assert.equal(rollItem.label, 'roll');
    assert.equal(rollItem.command?.command, 'vscode.open');
    assert.equal((rollItem.command?.arguments?.[0] as vscode.Uri).fsPath, roll.script.path);
  });

  test('Disable/Enable Skill change the item and are remembered per workspace', async () => {
    const node = (await skillNodes()).find((candidate) => candidate.kind === 'skill' && candidate.skill.name === 'memory')!;
    await vscode.commands.executeCommand('narratoria.disableSkill', node);
    const disabled = await item('memory');
    assert.match(String(disabled.description), /disabled/);
    assert.match(String(disabled.contextValue), /\bdisabled\b/);
    assert.ok(!api.context.skills.narratorSkills().some((skill) => skill.name === 'memory'), 'a disabled skill is offered to no narrator');
    assert.deepEqual(api.context.extension.workspaceState.get('narratoria.disabledSkills'), ['memory']);
    await vscode.commands.executeCommand('narratoria.enableSkill', node);
    assert.match(String((await item('memory')).description), /healthy/);
    assert.deepEqual(api.context.extension.workspaceState.get('narratoria.disabledSkills'), []);
  });

  test('a skill created on disk appears without a manual refresh, and disappears when deleted', async () => {
    const skillsDirectory = path.join(storyFolder().fsPath, 'skills');
    const created = await scaffoldSkill({ skillsDirectory, name: 'lantern-check', description: 'Checks whether the lantern still burns.' });
    assert.ok(created.ok);
    try {
      await waitFor(async () => (await skillNodes()).some((node) => node.kind === 'skill' && node.skill.name === 'lantern-check'), 'the new skill in the tree');
      assert.match(String((await item('lantern-check')).description), /v0\.1\.0 · healthy/);
    } finally {
      await rm(created.directory, { recursive: true, force: true });
    }
    await waitFor(
      async () => !(await skillNodes()).some((node) => node.kind === 'skill' && node.skill.name === 'lantern-check'),
      'the deleted skill to leave the tree',
    );
  });

  test('a config problem shows as a child of its skill, with an error icon, and clears when fixed', async () => {
    const skillsDirectory = path.join(storyFolder().fsPath, 'skills');
    const created = await scaffoldSkill({ skillsDirectory, name: 'misconfigured', description: 'Has a bad tone in config.json.' });
    assert.ok(created.ok);
    const configFile = path.join(created.directory, 'config.json');
    try {
      await writeFile(configFile, JSON.stringify({ tone: 'shouting' }));
      await waitFor(
        async () => (await skillNodes()).some((node) => node.kind === 'skill' && node.skill.name === 'misconfigured' && node.skill.problems.length > 0),
        'the misconfigured skill with its problem',
      );
      const node = (await skillNodes()).find((candidate) => candidate.kind === 'skill' && candidate.skill.name === 'misconfigured')!;
      assert.match(String(api.context.tree.getTreeItem(node).description), /1 config problem/);
      const problem = (await api.context.tree.getChildren(node)).find((child) => child.kind === 'problem');
      assert.ok(problem && problem.kind === 'problem');
      const problemItem = api.context.tree.getTreeItem(problem);
      assert.equal(problemItem.description, 'CONFIG_ENUM');
      assert.match(String(problemItem.label), /tone/);
      assert.equal((problemItem.iconPath as vscode.ThemeIcon).id, 'error');
      assert.equal((problemItem.command?.arguments?.[0] as vscode.Uri).fsPath, configFile);
      assert.ok(!api.context.skills.narratorSkills().some((skill) => skill.name === 'misconfigured'), 'a skill with config errors is offered to no narrator');
      await writeFile(configFile, JSON.stringify({ tone: 'dramatic' }));
      await waitFor(
        async () =>
          (await skillNodes()).some(
            (candidate) => candidate.kind === 'skill' && candidate.skill.name === 'misconfigured' && candidate.skill.problems.length === 0,
          ),
        'the problem to clear',
      );
    } finally {
      await rm(created.directory, { recursive: true, force: true });
    }
  });

  test('a skill.json that does not parse: an unusable item that opens the manifest at the problem, and an error in the Problems panel', async () => {
    const directory = path.join(storyFolder().fsPath, 'skills', 'ferryman');
    const manifest = path.join(directory, 'skill.json');
    // The comma after "path" is missing: the error is at "description", line 6, column 7 (0-based: 5, 6).
    const text =
      '{\n  "name": "ferryman",\n  "version": "1.0.0",\n  "description": "Takes the player across the river.",\n  "scripts": [ { "name": "cross", "path": "scripts/cross.js"\n      "description": "Crosses." } ]\n}\n';
    const brokenNode = async () => (await api.context.tree.getChildren()).find((node) => node.kind === 'brokenSkill' && node.broken.name === 'ferryman');
    try {
      await mkdir(directory, { recursive: true });
      await writeFile(manifest, text);
      await waitFor(async () => (await brokenNode()) !== undefined, 'the broken skill in the tree');
      const node = (await brokenNode())!;
      const item = api.context.tree.getTreeItem(node);
      assert.equal(item.label, 'ferryman');
      assert.match(String(item.description), /^unusable · skills\/ferryman\/skill\.json:6:7: MANIFEST_JSON_INVALID: its skill\.json is not valid JSON/);
      assert.match((item.tooltip as vscode.MarkdownString).value, /MANIFEST\\_JSON\\_INVALID/);
      assert.equal((item.iconPath as vscode.ThemeIcon).id, 'error');
      assert.equal(item.command?.command, 'vscode.open');
      assert.equal((item.command?.arguments?.[0] as vscode.Uri).fsPath, manifest);
      const selection = (item.command?.arguments?.[1] as { selection: vscode.Range }).selection;
      assert.deepEqual([selection.start.line, selection.start.character], [5, 6], 'the click selects the problem');
      const children = await api.context.tree.getChildren(node);
      assert.equal(children.length, 1);
      assert.equal(api.context.tree.getTreeItem(children[0]!).description, 'MANIFEST_JSON_INVALID · line 6, column 7');
      const uri = vscode.Uri.file(manifest);
      await waitFor(() => api.context.skillProblems.diagnosticsOf(uri).length > 0, 'the Problems panel entry');
      const [diagnostic] = api.context.skillProblems.diagnosticsOf(uri);
      assert.equal(diagnostic!.severity, vscode.DiagnosticSeverity.Error);
      assert.deepEqual([diagnostic!.range.start.line, diagnostic!.range.start.character, diagnostic!.range.end.character], [5, 6, 19]);
      assert.ok(
        vscode.languages.getDiagnostics(uri).some((shown) => shown.source === 'narratoria' && shown.message.includes('is not valid JSON')),
        'VS Code lists it',
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    await waitFor(async () => (await brokenNode()) === undefined, 'the broken skill to leave the tree');
    await waitFor(() => api.context.skillProblems.diagnosticsOf(vscode.Uri.file(manifest)).length === 0, 'its diagnostic to clear');
  });
});
