// Extension-host tests of the plan graph view: Show Plan Graph opens one view beside the plan, follows edits, and lays out big plans in the worker thread.
import * as assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { narratoriaApi, waitFor } from './api.js';
import { storyFolder } from './support.js';

const PLAN = `{
  "requestId": "8d2e4f6a-1b3c-4d5e-9f7a-6b5c4d3e2f1a",
  "tools": [
    { "toolId": "roll", "toolPath": "skills/dice-roller/scripts/roll.js", "input": { "formula": "1d20" } },
    { "toolId": "narrate", "toolPath": "skills/storyteller/scripts/narrate.js", "dependencies": ["roll"] }
  ]
}
`;

/** A plan of `count` tools in a chain with side branches: big enough for the layout worker. */
function bigPlan(count: number): string {
  const tools = Array.from({ length: count }, (_, index) => ({
    toolId: `t${index}`,
    toolPath: 'skills/storyteller/scripts/narrate.js',
    dependencies: index === 0 ? [] : [`t${Math.floor((index - 1) / 2)}`],
  }));
  return JSON.stringify({ requestId: '9e3f5a7b-2c4d-4e6f-8a9b-7c6d5e4f3a2b', tools }, null, 2);
}

function graphTabs(name: string): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.label === `Graph: ${name}`);
}

suite('Plan graph', () => {
  let file: vscode.Uri;
  let bigFile: vscode.Uri;

  suiteSetup(async () => {
    file = vscode.Uri.file(path.join(storyFolder().fsPath, 'graph-test.plan.json'));
    bigFile = vscode.Uri.file(path.join(storyFolder().fsPath, 'graph-big.plan.json'));
    await writeFile(file.fsPath, PLAN);
    await writeFile(bigFile.fsPath, bigPlan(400));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(file.fsPath, { force: true });
    await rm(bigFile.fsPath, { force: true });
  });

  test('from the palette with no plan in an editor, Show Plan Graph asks which of the workspace plans, and draws the one picked', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const plans = (await vscode.workspace.findFiles('**/*.plan.json', '**/node_modules/**')).sort((left, right) => left.path.localeCompare(right.path));
    assert.ok(plans.length >= 2, `the story has several plans (${plans.length})`);
    const first = path.basename(plans[0]!.path);
    try {
      let settled = false;
      const shown = Promise.resolve(vscode.commands.executeCommand('narratoria.showPlanGraph')).finally(() => (settled = true));
      // Deterministic: the pick lists the plans in path order with the first one active; accepting before the pick
      // is shown does nothing, so accept until the command has its answer (waitFor's deadline is a safety net).
      await waitFor(async () => {
        if (!settled) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        return settled;
      }, 'the plan pick is answered');
      await shown;
      await waitFor(() => graphTabs(first).length === 1, `the graph of ${first} opens`);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  test('Show Plan Graph opens one graph view beside the plan; running it again reveals the same view', async () => {
    await vscode.window.showTextDocument(file);
    await vscode.commands.executeCommand('narratoria.showPlanGraph', file);
    // Deterministic: wait for the tab to exist (the deadline inside waitFor is a safety net).
    await waitFor(() => graphTabs('graph-test.plan.json').length === 1, 'the graph tab opens');
    const tab = graphTabs('graph-test.plan.json')[0]!;
    const editorColumn = vscode.window.tabGroups.all.find((group) =>
      group.tabs.some((candidate) => candidate.input instanceof vscode.TabInputText && candidate.input.uri.toString() === file.toString()),
    )?.viewColumn;
    assert.notEqual(tab.group.viewColumn, editorColumn, 'the graph opens beside the text');
    await vscode.commands.executeCommand('narratoria.showPlanGraph', file);
    assert.equal(graphTabs('graph-test.plan.json').length, 1, 'no second view of the same plan');
  });

  test('the view follows edits and keeps the last good graph while the text does not parse', async () => {
    const api = await narratoriaApi();
    const panel = await api.context.graphs.show(file);
    assert.ok(panel);
    await waitFor(() => panel.current?.layout.nodes.length === 2, 'the first graph is laid out');
    const document = await vscode.workspace.openTextDocument(file);
    const edit = new vscode.WorkspaceEdit();
    const at = document.getText().indexOf('"narrate"');
    edit.replace(file, new vscode.Range(document.positionAt(at), document.positionAt(at + '"narrate"'.length)), '"tell"');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(() => panel.current?.layout.nodes.some((node) => node.id === 'tell') === true, 'the graph follows the edit');
    const broken = new vscode.WorkspaceEdit();
    broken.insert(file, document.positionAt(document.getText().lastIndexOf('}')), ',');
    assert.ok(await vscode.workspace.applyEdit(broken));
    // Deterministic: wait until the view has seen the broken text, then check it kept the last good graph.
    await waitFor(() => panel.staleReason !== undefined, 'the view notices the text does not parse');
    assert.match(panel.staleReason!, /^line \d+, column \d+: /);
    assert.deepEqual(
      panel.current?.layout.nodes.map((node) => node.id),
      ['roll', 'tell'],
    );
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test('a 400-tool plan is laid out in the worker thread (dist/graphLayoutWorker.cjs) and drawn', async () => {
    const api = await narratoriaApi();
    const panel = await api.context.graphs.show(bigFile);
    assert.ok(panel);
    await waitFor(() => panel.current?.layout.nodes.length === 400, 'the big plan is laid out');
    const layout = panel.current!.layout;
    assert.equal(layout.edges.length, 399);
    assert.deepEqual(layout.cycles, []);
    assert.ok(layout.nodes.every((node) => node.width > 0 && node.height > 0));
  });
});
