// Extension-host tests of play sessions: a real turn through the controller, persistence across a reopened session, New Game keeping the old play-through, the panel.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { suite, suiteSetup, test } from 'mocha';
import * as vscode from 'vscode';
import type { NarratoriaApi } from '../../src/extension/main.js';
import { narratoriaApi, waitFor } from './api.js';
import { storyFolder } from './support.js';
import { listSessions, sessionFile as storedSessionFile } from '../../src/runtime/session/sessionStore.js';

suite('Play session', () => {
  let api: NarratoriaApi;
  /** The current play-through's file in the session store. */
  const sessionFile = (): string => storedSessionFile(storyFolder().fsPath, api.context.play!.sessionName!);

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
    assert.ok(result.uiEvents.some((event) => event.event === 'dice_roll'));
    const roll = (result.state['dice'] as { lastRoll?: { total: number; critical: string | null } } | undefined)?.lastRoll;
    assert.ok(roll, 'the roll is in the state');
    // The narration tells the roll: its total, or for a natural 1 or 20 the critical outcome, which the storyteller
    // may tell in words alone ("The die shows a single pip"). The roll is random, so both cases are checked.
    if (roll.critical === null) assert.match(result.narrative, new RegExp(`\\b${roll.total}\\b`));
    else assert.match(result.narrative, /pick the lock/i);
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
    assert.deepEqual(
      after.turns.map((turn) => turn.narrative),
      before.turns.map((turn) => turn.narrative),
    );
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

  test('New Game starts an empty play-through; the old one stays saved and listed', async () => {
    const controller = api.context.play!;
    const old = await controller.snapshot();
    assert.ok(old.turns.length > 0, 'the earlier tests played turns');
    const id = await controller.newGame();
    const fresh = await controller.snapshot();
    assert.equal(fresh.sessionName, id);
    assert.notEqual(fresh.sessionId, old.sessionId);
    assert.equal(fresh.turns.length, 0);
    assert.deepEqual(fresh.state, {});
    const listed = await listSessions(storyFolder().fsPath);
    assert.equal(listed.find((summary) => summary.id === old.sessionName)?.turns, old.turns.length);
  });
});
