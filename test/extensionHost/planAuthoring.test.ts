// Extension-host tests of Plan JSON authoring: diagnostics with codes and links, completion, hover, navigation, rename, outline, links, quick fixes and Run Plan.
import * as assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { ExecutionResult } from '../../src/runtime/contractTypes/executionResult.js';
import { narratoriaApi, waitFor } from './api.js';
import { storyFolder } from './support.js';

const PLAN = `{
  "requestId": "5b0e2a4c-7d1f-4e8a-9c3b-2a1d0e9f8c7b",
  "narrative": "The lock resists.",
  "tools": [
    {
      "toolId": "roll",
      "toolPath": "skills/dice-roller/scripts/roll.js",
      "input": { "formula": 3, "fromula": "1d20" }
    },
    {
      "toolId": "narrate",
      "toolPath": "skills/storyteller/scripts/narrate.js",
      "dependencies": ["rol", "loop"]
    },
    {
      "toolId": "loop",
      "toolPath": "skills/storyteller/scripts/narrate.js",
      "dependencies": ["narrate"]
    }
  ]
}
`;

const GOOD_PLAN = `{
  "requestId": "6c1f3b5d-8e2a-4f9b-8d4c-3b2e1f0a9d8c",
  "tools": [
    { "toolId": "roll", "toolPath": "skills/dice-roller/scripts/roll.js", "input": { "formula": "1d20", "dc": 10 } },
    { "toolId": "narrate", "toolPath": "skills/storyteller/scripts/narrate.js", "dependencies": ["roll"] }
  ]
}
`;

function codeOf(diagnostic: vscode.Diagnostic): string {
  return typeof diagnostic.code === 'object' ? String(diagnostic.code.value) : String(diagnostic.code);
}

suite('Plan authoring', () => {
  let file: vscode.Uri;
  let goodFile: vscode.Uri;
  let document: vscode.TextDocument;
  const offset = (needle: string, delta = 0): vscode.Position => document.positionAt(document.getText().indexOf(needle) + delta);
  const diagnostics = (uri: vscode.Uri): vscode.Diagnostic[] => vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === 'narratoria');

  suiteSetup(async () => {
    const api = await narratoriaApi();
    await api.context.skills.ready();
    file = vscode.Uri.file(path.join(storyFolder().fsPath, 'authoring-test.plan.json'));
    goodFile = vscode.Uri.file(path.join(storyFolder().fsPath, 'authoring-good.plan.json'));
    await writeFile(file.fsPath, PLAN);
    await writeFile(goodFile.fsPath, GOOD_PLAN);
    document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(file.fsPath, { force: true });
    await rm(goodFile.fsPath, { force: true });
  });

  test('the validator finds unknown dependencies, the cycle and the input-schema errors, with codes linked to the docs', async () => {
    await waitFor(() => diagnostics(file).some((diagnostic) => codeOf(diagnostic) === 'DEPENDENCY_CYCLE'), 'the cycle diagnostic');
    const found = diagnostics(file);
    const codes = found.map(codeOf);
    for (const code of ['UNKNOWN_DEPENDENCY', 'DEPENDENCY_CYCLE', 'INPUT_TYPE_MISMATCH', 'INPUT_UNKNOWN_PROPERTY'])
      assert.ok(codes.includes(code), `${code} in ${codes.join(', ')}`);
    const unknown = found.find((diagnostic) => codeOf(diagnostic) === 'UNKNOWN_DEPENDENCY')!;
    assert.equal(document.getText(unknown.range), '"rol"');
    assert.equal(unknown.severity, vscode.DiagnosticSeverity.Error);
    const target = typeof unknown.code === 'object' ? unknown.code.target : undefined;
    assert.match(String(target), /docs\/diagnostics\.md#unknown_dependency$/);
    const cycle = found.find((diagnostic) => codeOf(diagnostic) === 'DEPENDENCY_CYCLE')!;
    assert.ok((cycle.relatedInformation ?? []).length >= 2, 'every edge of the cycle is a related location');
    const typeMismatch = found.find((diagnostic) => codeOf(diagnostic) === 'INPUT_TYPE_MISMATCH')!;
    assert.equal(document.getText(typeMismatch.range), '3');
  });

  test('a quick fix replaces the unknown dependency with the closest toolId', async () => {
    const unknown = diagnostics(file).find((diagnostic) => codeOf(diagnostic) === 'UNKNOWN_DEPENDENCY')!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      file,
      unknown.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const replace = actions.find((action) => action.title.includes('"roll"'));
    assert.ok(replace?.edit, `a replace fix among ${actions.map((action) => action.title).join(' | ')}`);
    assert.ok(
      actions.some((action) => /^Remove/.test(action.title)),
      'and a remove fix',
    );
    assert.ok(await vscode.workspace.applyEdit(replace.edit));
    assert.match(document.getText(), /"dependencies": \["roll", "loop"\]/);
    await waitFor(() => !diagnostics(file).some((diagnostic) => codeOf(diagnostic) === 'UNKNOWN_DEPENDENCY'), 'the fixed diagnostic to clear');
  });

  test('a toolPath outside skills/ offers "Use skills/..." and, in a trusted workspace, "Allow tools in narratoria.allowedToolRoots", which clears the problem', async () => {
    const outside = vscode.Uri.file(path.join(storyFolder().fsPath, 'outside-tools.plan.json'));
    await mkdir(path.join(storyFolder().fsPath, 'tools'), { recursive: true });
    await writeFile(
      path.join(storyFolder().fsPath, 'tools', 'lantern.js'),
      'console.log(JSON.stringify({ version: "0.1", type: "done", payload: { ok: true } }));\n',
    );
    await writeFile(
      outside.fsPath,
      `{ "requestId": "7d2f4c6e-9f3b-4a0c-8e5d-4c3f2a1b0e9d", "tools": [\n  { "toolId": "roll", "toolPath": "tools/roll.js" },\n  { "toolId": "lantern", "toolPath": "tools/lantern.js" }\n] }\n`,
    );
    const config = vscode.workspace.getConfiguration('narratoria');
    try {
      const opened = await vscode.workspace.openTextDocument(outside);
      await vscode.window.showTextDocument(opened);
      const outsideProblems = (): vscode.Diagnostic[] => diagnostics(outside).filter((diagnostic) => codeOf(diagnostic) === 'TOOL_PATH_OUTSIDE_SKILLS');
      await waitFor(() => outsideProblems().length === 2, 'both toolPaths refused as outside skills/');
      assert.match(outsideProblems()[0]!.message, /untrusted|model/i, 'the message gives the policy its reason');
      const roll = outsideProblems().find((diagnostic) => opened.getText(diagnostic.range).includes('roll'))!;
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        outside,
        roll.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      const titles = actions.map((action) => action.title);
      const use = actions.find((action) => action.title === 'Use skills/dice-roller/scripts/roll.js');
      assert.ok(use?.edit, `a Use fix among ${titles.join(' | ')}`);
      const allow = actions.find((action) => action.title === 'Allow tools in narratoria.allowedToolRoots');
      assert.ok(allow?.command, `an Allow fix (the workspace is trusted) among ${titles.join(' | ')}`);
      assert.ok(await vscode.workspace.applyEdit(use.edit));
      assert.match(opened.getText(), /"toolPath": "skills\/dice-roller\/scripts\/roll.js"/);
      await waitFor(() => outsideProblems().length === 1, 'the fixed toolPath to clear');
      await vscode.commands.executeCommand(allow.command.command, ...((allow.command.arguments ?? []) as unknown[]));
      assert.deepEqual(config.inspect<string[]>('allowedToolRoots')?.workspaceValue, ['tools']);
      await waitFor(() => outsideProblems().length === 0, 'tools/lantern.js to be accepted once tools/ is allowed');
    } finally {
      await config.update('allowedToolRoots', undefined, vscode.ConfigurationTarget.Workspace);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await rm(outside.fsPath, { force: true });
      await rm(path.join(storyFolder().fsPath, 'tools'), { recursive: true, force: true });
    }
  });

  test('completion in toolPath lists the sample skills\u2019 scripts', async () => {
    const position = offset('skills/storyteller/scripts/narrate.js', 1);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', file, position);
    const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    for (const script of ['skills/dice-roller/scripts/roll.js', 'skills/memory/scripts/recall.js', 'skills/player-choices/scripts/offer.js']) {
      assert.ok(labels.includes(script), `${script} in ${labels.slice(0, 20).join(', ')}`);
    }
  });

  test('hover on a toolPath shows the skill; on a retry policy its delays', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', file, offset('skills/dice-roller', 2));
    const text = hovers.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value))).join('\n');
    assert.match(text, /Dice Roller/);
    assert.match(text, /1\.0\.0/);
  });

  test('definition, references, rename, outline and links', async () => {
    const definitions = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      file,
      offset('["narrate"]', 2),
    );
    const definition = definitions[0] as vscode.Location;
    assert.equal(definition.range.start.line, offset('"toolId": "narrate"').line);
    const scriptDefinitions = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeDefinitionProvider',
      file,
      offset('skills/dice-roller', 2),
    );
    assert.match(scriptDefinitions[0]!.uri.fsPath, /dice-roller[\\/]scripts[\\/]roll\.js$/);

    const references = await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', file, offset('"toolId": "narrate"', 12));
    assert.equal(references.length, 2, 'the toolId and the dependency naming it');

    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', file);
    const tools = symbols.find((symbol) => symbol.name.startsWith('tools'));
    assert.deepEqual(
      tools?.children.map((child) => child.name),
      ['roll', 'narrate', 'loop'],
    );

    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', file);
    assert.ok(
      links.some((link) => link.target?.fsPath.endsWith(path.join('dice-roller', 'scripts', 'roll.js'))),
      'toolPaths are links',
    );

    const rename = await vscode.commands.executeCommand<vscode.WorkspaceEdit>(
      'vscode.executeDocumentRenameProvider',
      file,
      offset('"toolId": "loop"', 12),
      'epilogue',
    );
    assert.ok(await vscode.workspace.applyEdit(rename));
    assert.match(document.getText(), /"toolId": "epilogue"/);
    assert.match(document.getText(), /"dependencies": \["roll", "epilogue"\]/);
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('vscode.executeDocumentRenameProvider', file, offset('"toolId": "epilogue"', 12), 'roll')),
      /already taken/,
    );
  });

  test('Run Plan runs a valid plan and resolves with its result', async () => {
    const result = await vscode.commands.executeCommand<ExecutionResult | undefined>('narratoria.runPlan', goodFile);
    assert.ok(result, 'the plan ran');
    assert.equal(result.success, true, JSON.stringify(result.toolResults.map((tool) => [tool.toolId, tool.state, tool.error?.message])));
    assert.deepEqual(
      result.toolResults.map((tool) => [tool.toolId, tool.state]),
      [
        ['roll', 'success'],
        ['narrate', 'success'],
      ],
    );
    const terminal = vscode.window.terminals.find((candidate) => candidate.name === 'Run Plan: authoring-good.plan.json');
    assert.ok(terminal, 'a terminal named after the plan');
    terminal.dispose();
  });

  test('Run Plan refuses an invalid plan (nothing runs)', async () => {
    const result = await vscode.commands.executeCommand<ExecutionResult | undefined>('narratoria.runPlan', file);
    assert.equal(result, undefined);
  });

  test('Add Example Plan puts pick-the-lock.plan.json in plans/ and opens it; it runs as it is, and a second add leaves the file alone', async () => {
    const plans = path.join(storyFolder().fsPath, 'plans');
    try {
      const added = await vscode.commands.executeCommand<string | undefined>('narratoria.addExamplePlan');
      assert.equal(added, path.join(plans, 'pick-the-lock.plan.json'));
      assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, added);
      const result = await vscode.commands.executeCommand<ExecutionResult | undefined>('narratoria.runPlan', vscode.Uri.file(added));
      assert.equal(result?.success, true, JSON.stringify(result));
      await writeFile(added, '{ "mine": true }\n');
      assert.equal(await vscode.commands.executeCommand<string | undefined>('narratoria.addExamplePlan'), added);
      assert.equal(await readFile(added, 'utf8'), '{ "mine": true }\n');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await rm(plans, { recursive: true, force: true });
    }
  });
});
