// End-to-end scenarios of playtests in real VS Code (code-server + headless chromium) with the packaged VSIX: the Test Explorer lists the story's playtests and their turns and runs them (a failing turn's diff at its line), Save Session as Playtest, and Restricted Mode refusing to run.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startCodeServer, type CodeServer } from './harness/codeServer.js';
import { PlayPanel } from './harness/playPanel.js';
import { packagedVsix, scenario, SCENARIO_TIMEOUT_MS, UI_TIMEOUT_MS, waitFor } from './harness/scenario.js';
import type { Workbench } from './harness/workbench.js';

/** A playtest that fails on purpose on its narration (line 7 holds the failing expectation). */
const FAILING = `{
  "name": "A dragon in the tavern",
  "turns": [
    {
      "input": "I walk into the tavern",
      "expect": {
        "narration": { "contains": ["dragon"] }
      }
    }
  ]
}
`;

/** Shows the Testing view and returns the rows of its Test Explorer once `predicate` holds. */
async function testExplorerRows(workbench: Workbench, predicate: (labels: string[]) => boolean): Promise<string[]> {
  await workbench.runCommand('Testing: Focus on Test Explorer View');
  const rows = workbench.page.locator('.part.sidebar .test-explorer .monaco-list-row, .part.sidebar .pane-body .monaco-list-row');
  let labels: string[] = [];
  await waitFor(
    async () => {
      // Each row as its text and its accessible label (which says the result: "(Passed)", "(Failed)"…).
      labels = (await rows.evaluateAll((found) => found.map((row) => `${(row.textContent ?? '').trim()} | ${row.getAttribute('aria-label') ?? ''}`))).filter(
        (label) => label !== ' | ',
      );
      return predicate(labels);
    },
    60_000,
    'the Test Explorer rows',
  ).catch(() => assert.fail(`the Test Explorer rows never matched: ${JSON.stringify(labels)}`));
  return labels;
}

describe('playtests in a trusted workspace', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    server = await startCodeServer({ vsix: packagedVsix(), label: 'playtests' });
  });
  after(async () => server?.stop());

  test(
    "T1. the Test Explorer lists the story's playtests and their turns; Run All; the failing turn shows its diff at its line",
    { timeout: SCENARIO_TIMEOUT_MS },
    () =>
      scenario(current, 't1-test-explorer', { files: { 'playtests/dragon.playtest.json': FAILING } }, async ({ workbench }) => {
        const listed = await testExplorerRows(workbench, (labels) =>
          ['The lock: a seeded dice check', 'A dragon in the tavern', 'Stuck: the player asks for options'].every((name) =>
            labels.some((label) => label.includes(name)),
          ),
        );
        assert.ok(
          listed.some((label) => label.includes('Narratoria Playtests') || label.includes('The Rusty Anchor')),
          JSON.stringify(listed),
        );
        // The failing file in the editor: when its turn fails, VS Code opens the peek with the diff at the expectation's line.
        await workbench.openFile('dragon.playtest.json');
        await workbench.runCommand('Test: Run All Tests');
        // The failure sits at the expectation's line; Go to Next Test Failure opens its peek with the diff.
        await testExplorerRows(
          workbench,
          (labels) =>
            labels.some((label) => label.includes('A dragon in the tavern') && /failed/i.test(label)) &&
            labels.some((label) => label.includes('The lock: a seeded dice check') && /passed/i.test(label)),
        );
        // Clicking the failure shown at the expectation's line opens its peek, with the expected and actual values as a diff.
        await workbench.activeEditor().getByText('!= [ "dragon" ]').first().click({ timeout: UI_TIMEOUT_MS });
        const peek = workbench.page.locator('.monaco-editor .peekview-widget').first();
        await peek.waitFor({ timeout: UI_TIMEOUT_MS });
        await peek.locator('.monaco-diff-editor').first().waitFor({ timeout: UI_TIMEOUT_MS });
        const text = (await peek.innerText()).replace(/\s+/g, ' ');
        assert.match(text, /does not contain "dragon"/, text.slice(0, 400));
        // The failing playtest's turns: a child per turn, the failed one marked.
        const dragon = workbench.page.locator('.part.sidebar .monaco-list-row', { hasText: 'A dragon in the tavern' }).first();
        if ((await dragon.getAttribute('aria-expanded')) !== 'true') await dragon.locator('.monaco-tl-twistie').click();
        const turns = await testExplorerRows(workbench, (labels) => labels.some((label) => /Turn 1: I walk into the tavern/.test(label)));
        assert.ok(
          turns.some((label) => /Turn 1: I walk into the tavern.*failed/i.test(label)),
          JSON.stringify(turns),
        );
        await workbench.activeEditor().getByText('!= [ "dragon" ]').first().click({ timeout: UI_TIMEOUT_MS });
        await peek.waitFor({ timeout: UI_TIMEOUT_MS });
      }),
  );

  test('T2. play two turns, Save Session as Playtest, run it: it passes', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 't2-save-session-as-playtest', {}, async ({ workbench, story }) => {
      const panel = await PlayPanel.open(workbench);
      await panel.play('I roll to pick the lock');
      await panel.play('I walk into the Rusty Anchor tavern');
      await workbench.pickCommand('Narratoria: Save Session as Playtest');
      const input = workbench.page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await input.fill('Two turns from the panel');
      await workbench.page.keyboard.press('Enter');
      await workbench.page.locator('.part.editor .tab.active', { hasText: 'two-turns-from-the-panel.playtest.json' }).waitFor({ timeout: 60_000 });
      const saved = path.join(story.dir, 'playtests', 'two-turns-from-the-panel.playtest.json');
      const playtest = JSON.parse(readFileSync(saved, 'utf8')) as { turns: { input: string; expect: { skills: string[] } }[] };
      assert.deepEqual(
        playtest.turns.map((turn) => turn.input),
        ['I roll to pick the lock', 'I walk into the Rusty Anchor tavern'],
      );
      assert.deepEqual(playtest.turns[0]!.expect.skills, ['dice-roller', 'storyteller']);
      // "Run Playtest" on the notification runs it; the Test Explorer then shows it passed.
      const run = workbench.page.locator('.notifications-toasts .monaco-button', { hasText: 'Run Playtest' }).first();
      await run.click({ timeout: 60_000 });
      await testExplorerRows(workbench, (labels) => labels.some((label) => label.includes('Two turns from the panel') && /passed/i.test(label)));
      await workbench.runCommand('Testing: Focus on Test Explorer View');
      assert.deepEqual(
        readdirSync(path.join(story.dir, 'playtests')).filter((file) => file.startsWith('two-turns')),
        ['two-turns-from-the-panel.playtest.json'],
      );
    }),
  );
});

describe('playtests in Restricted Mode', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    server = await startCodeServer({ vsix: packagedVsix(), label: 'playtests-untrusted', workspaceTrust: true });
  });
  after(async () => server?.stop());

  test('T3. Restricted Mode: the playtests are listed, and running them is refused with the reason', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 't3-restricted-mode', {}, async ({ workbench, story }) => {
      await waitFor(() => workbench.isRestrictedMode(), 60_000, 'the workbench is in Restricted Mode');
      await testExplorerRows(workbench, (labels) => labels.some((label) => label.includes('The lock: a seeded dice check')));
      await workbench.openFile('lock.playtest.json');
      await workbench.runCommand('Test: Run All Tests');
      // VS Code asks for trust before any test runs (and the controller would refuse too, with the reason, if asked).
      const dialog = workbench.page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: 60_000 });
      assert.match((await dialog.innerText()).replace(/\s+/g, ' '), /trust/i);
      await workbench.screenshot('t3-restricted-mode-trust-request');
      await workbench.page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      const rows = await testExplorerRows(workbench, (labels) => labels.length >= 3);
      assert.ok(
        rows.every((label) => !/passed|failed/i.test(label)),
        JSON.stringify(rows),
      );
      assert.deepEqual(
        readdirSync(story.dir).filter((entry) => entry === '.narratoria'),
        [],
        'nothing ran: no session, no runs',
      );
    }),
  );
});
