// End-to-end scenario S1 of issue 40 in real VS Code (code-server + headless chromium) with the packaged VSIX: two turns, a window reload, Continue, and the state, the turns and the memory are back.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startCodeServer, type CodeServer } from './harness/codeServer.js';
import { PlayPanel, TURN_TIMEOUT_MS } from './harness/playPanel.js';
import { packagedVsix, scenario, SCENARIO_TIMEOUT_MS, UI_TIMEOUT_MS } from './harness/scenario.js';
import { waitForSavedEditor } from './harness/savedEditors.js';

const MEMORY_INPUT = 'Remember that Mira gave me a silver key';
/** `PLAY_PANEL_VIEW_TYPE` of src/extension/play/playPanel.ts (that module needs `vscode`, so it is not imported here). */
const PLAY_PANEL_VIEW_TYPE = 'narratoria.playPanel';

describe('play-throughs', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    server = await startCodeServer({ vsix: packagedVsix(), label: 'sessions' });
  });
  after(async () => server?.stop());

  test('S1. play two turns, reload the window, Continue: the turns, the state and the memory are back', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 's1-continue-after-reload', {}, async ({ workbench, story }) => {
      const panel = await PlayPanel.open(workbench);
      await panel.play('I roll to pick the lock');
      await panel.play(MEMORY_INPUT);
      await panel.stateRows('dice').first().waitFor({ timeout: UI_TIMEOUT_MS });
      const name = (await panel.get('sessionName').innerText()).trim();
      // The play-through is a session of the store, named by its folder, with its skills' data beside it.
      const sessions = path.join(story.dir, '.narratoria', 'sessions');
      assert.deepEqual(readdirSync(sessions), [name]);
      const saved = JSON.parse(readFileSync(path.join(sessions, name, 'session.json'), 'utf8')) as { turns: { input: string }[]; seed: number };
      assert.deepEqual(
        saved.turns.map((turn) => turn.input),
        ['I roll to pick the lock', MEMORY_INPUT],
      );
      assert.match(readFileSync(path.join(sessions, name, 'data', 'memory', 'memories.jsonl'), 'utf8'), /silver key/);

      // VS Code saves its open editors on a timer: wait until the panel is in them, so the reload restores it.
      await waitForSavedEditor(workbench, PLAY_PANEL_VIEW_TYPE);
      await workbench.page.reload();
      await workbench.waitUntilReady();
      // The restored panel opens the play-through played last; once it has drawn (and taken the focus), Continue…
      // picks the play-through explicitly (a quick pick closes when the focus moves).
      await new PlayPanel(workbench).get('narrationEntry').nth(1).waitFor({ timeout: TURN_TIMEOUT_MS });
      // Continue…: the picker lists the play-through with its turns and last input; picking it opens it in the panel.
      await workbench.pickCommand('Narratoria: Continue a Play-through…');
      const row = workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
      await row.waitFor({ timeout: UI_TIMEOUT_MS });
      const rowText = await row.innerText();
      assert.match(rowText, /2 turns/);
      assert.match(rowText, /Last input: Remember that Mira gave me a silver key/);
      await workbench.screenshot('s1-session-picker');
      await row.click();

      const revived = new PlayPanel(workbench);
      await revived.get('narrationEntry').nth(1).waitFor({ timeout: TURN_TIMEOUT_MS });
      assert.equal((await revived.get('sessionName').innerText()).trim(), name);
      await revived.get('playerEntry').filter({ hasText: 'I roll to pick the lock' }).first().waitFor({ timeout: UI_TIMEOUT_MS });
      await revived.get('playerEntry').filter({ hasText: MEMORY_INPUT }).first().waitFor({ timeout: UI_TIMEOUT_MS });
      await revived.stateRows('dice').first().waitFor({ timeout: UI_TIMEOUT_MS });
      // The memory came back with the session: the next turn recalls it.
      const recalled = await revived.play('Have I met Mira before?');
      assert.match(await recalled.innerText(), /silver key/i);
      const after = JSON.parse(readFileSync(path.join(sessions, name, 'session.json'), 'utf8')) as { turns: unknown[]; seed: number };
      assert.equal(after.turns.length, 3, 'the continued play-through gained the turn');
      assert.equal(after.seed, saved.seed, 'the seed came back with it');
      assert.deepEqual(readdirSync(sessions), [name], 'no other play-through was started');
    }),
  );
});
