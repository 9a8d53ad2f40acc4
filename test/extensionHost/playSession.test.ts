// Extension-host tests of play sessions: a real turn through the controller, persistence across a reopened session, restart keeping a copy, the panel.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { suite, suiteSetup, test } from 'mocha';
import * as vscode from 'vscode';
import type { NarratoriaApi } from '../../src/extension/main.js';
import { narratoriaApi, waitFor } from './api.js';
import { storyFolder } from './support.js';

suite('Play session', () => {
  let api: NarratoriaApi;
  const sessionFile = (): string => path.join(storyFolder().fsPath, '.narratoria', 'session.json');

  suiteSetup(async () => {
    api = await narratoriaApi();
    assert.equal(vscode.workspace.isTrusted, true, 'these tests run in a trusted workspace');
  });

  test('a turn runs the dice roll and the narration and is saved', async () => {
    const controller = api.context.play!;
    const before = (await controller.snapshot()).turns.length;
    const result = await controller.play('I roll to pick the lock');
    assert.ok(typeof result === 'object', `the turn ran (got ${String(result)})`);
    assert.equal(result.fallback, false);
    // The narration tells the roll: its total, or a critical success or failure (told without the number).
    assert.match(result.narrative, /\d|critical/i);
    assert.ok(result.uiEvents.some((event) => event.event === 'dice_roll'));
    assert.ok((result.state['dice'] as { lastRoll?: unknown } | undefined)?.lastRoll, 'the roll is in the state');
    const saved = JSON.parse(readFileSync(sessionFile(), 'utf8')) as { turns: { input: string }[] };
    assert.equal(saved.turns.length, before + 1);
    assert.equal(saved.turns.at(-1)?.input, 'I roll to pick the lock');
  });

  test('the session survives being reopened (as after a window reload)', async () => {
    const controller = api.context.play!;
    const before = await controller.snapshot();
    controller.invalidateSession();
    const after = await controller.snapshot();
    assert.equal(after.sessionId, before.sessionId);
    assert.deepEqual(after.turns.map((turn) => turn.narrative), before.turns.map((turn) => turn.narrative));
    assert.deepEqual(after.state, before.state);
  });

  test('Open Play Panel shows the panel; busy state is refused while a turn runs', async () => {
    await vscode.commands.executeCommand('narratoria.openPlayPanel');
    await waitFor(() => vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tab.label === 'Narratoria Play')), 'the Narratoria Play tab');
    const controller = api.context.play!;
    // Deterministic: play() marks the controller busy before its first await, so the second call sees it.
    const first = controller.play('I look around the cellar');
    assert.equal(await controller.play('I look again'), 'busy');
    await first;
  });

  test('restart empties the session and keeps a copy of the old one', async () => {
    const controller = api.context.play!;
    const history = path.join(storyFolder().fsPath, '.narratoria', 'history');
    const copies = existsSync(history) ? readdirSync(history).length : 0;
    const old = (await controller.snapshot()).sessionId;
    await controller.restart();
    const fresh = await controller.snapshot();
    assert.notEqual(fresh.sessionId, old);
    assert.equal(fresh.turns.length, 0);
    assert.deepEqual(fresh.state, {});
    assert.equal(readdirSync(history).length, copies + 1);
  });
});
