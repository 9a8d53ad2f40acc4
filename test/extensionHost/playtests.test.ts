// Extension-host tests of the Narratoria Playtests Test Controller: discovery of the story's playtests with a child per turn at its range, a run that passes, a failing turn's diff at its expectation's line, live edits, and Save Session as Playtest.
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, test } from 'mocha';
import * as vscode from 'vscode';
import type { NarratoriaApi } from '../../src/extension/main.js';
import { narratoriaApi, waitFor } from './api.js';
import { storyFolder } from './support.js';

suite('Playtests (Test Explorer)', () => {
  let api: NarratoriaApi;
  const playtests = () => api.context.playtests;
  const fileItem = (relative: string) => playtests().controller.items.get(vscode.Uri.file(path.join(storyFolder().fsPath, relative)).toString());

  suiteSetup(async () => {
    api = await narratoriaApi();
    assert.equal(vscode.workspace.isTrusted, true, 'these tests run in a trusted workspace');
    await api.context.skills.ready();
    await playtests().discover();
  });

  test("the story's playtests are discovered, each turn a child at the range of its object", async () => {
    const lock = fileItem('playtests/lock.playtest.json');
    assert.ok(lock, `found: ${[...iterate(playtests().controller.items)].map((item) => item.id).join(', ')}`);
    assert.equal(lock.label, 'The lock: a seeded dice check');
    assert.equal(lock.children.size, 1);
    const options = fileItem('playtests/options.playtest.json')!;
    assert.equal(options.children.size, 2);
    const second = [...iterate(options.children)][1]!;
    assert.equal(second.label, 'Turn 2: choice 1');
    const text = readFileSync(options.uri!.fsPath, 'utf8').split('\n');
    assert.match(text[second.range!.start.line]!.slice(second.range!.start.character), /^\{\s*$|^\{ "choice"|^\{$/, 'the range starts at the turn object');
  });

  test('Run: every turn of the sample playtests passes', async () => {
    for (const name of ['lock', 'options', 'tavern']) {
      const item = fileItem(`playtests/${name}.playtest.json`)!;
      await playtests().runFile(item.uri!);
      assert.equal(
        playtests().outcomes.get(item.id)?.state,
        'passed',
        `${name}: ${JSON.stringify(
          [...iterate(item.children)].map((child) =>
            playtests()
              .outcomes.get(child.id)
              ?.messages.map((message) => String(message.message)),
          ),
        )}`,
      );
      for (const child of iterate(item.children)) assert.equal(playtests().outcomes.get(child.id)?.state, 'passed');
    }
  });

  test("a failing turn carries expected and actual at its expectation's line, and a recorded run for Replay Turn and Show Turn Graph", async () => {
    const file = path.join(storyFolder().fsPath, 'playtests', 'failing.playtest.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      '{\n  "name": "Failing on purpose",\n  "turns": [\n    {\n      "input": "I walk into the tavern",\n      "expect": {\n        "narration": { "contains": ["dragon"] }\n      }\n    }\n  ]\n}\n',
    );
    try {
      const uri = vscode.Uri.file(file);
      await waitFor(async () => {
        await playtests().discover();
        return playtests().controller.items.get(uri.toString()) !== undefined;
      }, 'the new playtest file');
      await playtests().runFile(uri);
      const item = playtests().controller.items.get(uri.toString())!;
      const turn = [...iterate(item.children)][0]!;
      const outcome = playtests().outcomes.get(turn.id);
      assert.equal(outcome?.state, 'failed');
      const message = outcome.messages[0]!;
      assert.match(String(message.message), /narration\.contains: the narration does not contain "dragon"/);
      assert.equal(message.expectedOutput, '[\n  "dragon"\n]');
      assert.match(message.actualOutput ?? '', /tavern/);
      assert.equal(message.location?.range.start.line, 6, 'at the line of "contains" (0-based 6)');
      assert.equal(message.contextValue, 'narratoria.playtestTurnFailure');
      const record = playtests().runRecordOf(turn);
      assert.ok(record && readFileSync(record.fsPath, 'utf8').includes('"planId"'), "the turn's run is recorded");
      // Debug: the failed turn's plan runs again, live, under the debugger, from the state before the turn.
      const started = new Promise<vscode.DebugSession>((resolve) => {
        const subscription = vscode.debug.onDidStartDebugSession((session) => {
          subscription.dispose();
          resolve(session);
        });
      });
      await playtests().runFile(uri, true);
      const session = await started;
      assert.equal(session.type, 'narratoria');
      const recorded = JSON.parse(readFileSync(playtests().runRecordOf(turn)!.fsPath, 'utf8')) as { plan: { requestId: string } };
      const debugged = JSON.parse(readFileSync(String(session.configuration['plan']), 'utf8')) as { requestId: string };
      assert.equal(debugged.requestId, recorded.plan.requestId, "the plan of the turn's last attempt");
      assert.match(String(session.configuration['state']), /failing-turn-1\.state\.json$/);
      // It runs: stopped on entry, the debugger shows the turn's first tool as the current frame.
      await waitFor(
        () => vscode.debug.activeStackItem instanceof vscode.DebugStackFrame && vscode.debug.activeStackItem.session.id === session.id,
        'the debug session stopped on entry',
      );
      await vscode.debug.stopDebugging(session);
    } finally {
      rmSync(file, { force: true });
    }
  });

  test("an edit in an open editor updates the turns at once; a problem shows on the file's item", async () => {
    const file = path.join(storyFolder().fsPath, 'playtests', 'edited.playtest.json');
    writeFileSync(file, '{ "turns": [ { "input": "I look around" } ] }\n');
    try {
      const document = await vscode.workspace.openTextDocument(file);
      const editor = await vscode.window.showTextDocument(document);
      await editor.edit((edit) =>
        edit.replace(new vscode.Range(0, 0, document.lineCount, 0), '{ "turns": [ { "input": "I look around" }, { "input": "I sit down" } ] }\n'),
      );
      await waitFor(() => playtests().controller.items.get(document.uri.toString())?.children.size === 2, 'two turns after the edit');
      await editor.edit((edit) =>
        edit.replace(new vscode.Range(0, 0, document.lineCount, 0), '{ "turns": [ { "input": "I look", "expect": { "skills": ["no-such-skill"] } } ] }\n'),
      );
      await waitFor(
        () =>
          /1:\d+ error UNKNOWN_SKILL: the story has no skill "no-such-skill"/.test(
            String(playtests().controller.items.get(document.uri.toString())?.error ?? ''),
          ),
        'the unknown skill reported on the item',
      );
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      rmSync(file, { force: true });
    }
  });

  test("in the editor: an unknown skill is a Problem at its name, and the story's skill names complete inside expect.skills", async () => {
    const file = path.join(storyFolder().fsPath, 'playtests', 'typed.playtest.json');
    writeFileSync(file, '{\n  "turns": [\n    { "input": "I roll", "expect": { "skills": ["dice-rollr"], "notSkills": ["m"] } }\n  ]\n}\n');
    try {
      const document = await vscode.workspace.openTextDocument(file);
      await vscode.window.showTextDocument(document);
      await waitFor(
        () => vscode.languages.getDiagnostics(document.uri).some((diagnostic) => diagnostic.code === 'UNKNOWN_SKILL'),
        'the unknown skill diagnostic',
      );
      const diagnostic = vscode.languages.getDiagnostics(document.uri).find((candidate) => candidate.code === 'UNKNOWN_SKILL')!;
      assert.match(diagnostic.message, /no skill "dice-rollr" \(did you mean "dice-roller"\?\)/);
      assert.equal(document.getText(diagnostic.range), '"dice-rollr"');
      const inside = document.positionAt(document.getText().indexOf('"notSkills": ["m"]') + 16);
      const list = (await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', document.uri, inside)) as vscode.CompletionList;
      const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
      for (const skill of ['dice-roller', 'storyteller', 'memory']) assert.ok(labels.includes(skill), `${skill} is offered: ${labels.join(', ')}`);
      const memory = list.items.find((item) => item.label === 'memory')!;
      assert.equal(document.getText(memory.range as vscode.Range), '"m"', 'the completion replaces the whole string');
      assert.equal(memory.insertText, '"memory"');
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      rmSync(file, { force: true });
    }
  });

  test('Save Session as Playtest writes playtests/<name>.playtest.json from the session, never over a file, and it passes at once', async () => {
    const controller = api.context.play!;
    await controller.newGame();
    const first = await controller.play('I roll to pick the lock');
    assert.equal(typeof first, 'object');
    await controller.play('What are my options?');
    const snapshot = await controller.snapshot();
    const last = snapshot.turns.at(-1)!;
    assert.ok(last.choices.length > 0, 'the second turn offered choices');
    await controller.choose(last.index, 0);
    const saved = (await vscode.commands.executeCommand('narratoria.saveSessionAsPlaytest', 'Saved from the panel')) as vscode.Uri;
    assert.equal(path.basename(saved.fsPath), 'saved-from-the-panel.playtest.json');
    const again = (await vscode.commands.executeCommand('narratoria.saveSessionAsPlaytest', 'Saved from the panel')) as vscode.Uri;
    assert.equal(path.basename(again.fsPath), 'saved-from-the-panel-2.playtest.json', 'never over a file');
    try {
      const playtest = JSON.parse(readFileSync(saved.fsPath, 'utf8')) as {
        seed: number;
        turns: { input?: string; choice?: number; expect: { skills: string[]; skillsMatch: string } }[];
      };
      assert.equal(playtest.turns.length, 3);
      assert.equal(playtest.turns[2]!.choice, 1);
      assert.deepEqual(playtest.turns[0]!.expect.skills, ['dice-roller', 'storyteller']);
      assert.equal(playtest.turns[0]!.expect.skillsMatch, 'strict');
      await playtests().runFile(saved);
      const item = playtests().controller.items.get(saved.toString())!;
      assert.equal(
        playtests().outcomes.get(item.id)?.state,
        'passed',
        JSON.stringify(
          [...iterate(item.children)].map((child) =>
            playtests()
              .outcomes.get(child.id)
              ?.messages.map((message) => String(message.message)),
          ),
        ),
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(saved.fsPath, { force: true });
      rmSync(again.fsPath, { force: true });
    }
  });
});

function* iterate(collection: vscode.TestItemCollection): Generator<vscode.TestItem> {
  const items: vscode.TestItem[] = [];
  collection.forEach((item) => items.push(item));
  yield* items;
}
