// End-to-end scenarios of exploration and coverage in code-server with the packaged VSIX: Run with Coverage (E1), Explore Story's report (E2), and its Story section on a campaign (E3).
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ExploreTestId } from '../../src/protocol/exploreMessages.js';
import { starterCampaignFiles } from '../../src/runtime/campaign/starterCampaigns.js';
import { startCodeServer, type CodeServer } from './harness/codeServer.js';
import { packagedVsix, scenario, SCENARIO_TIMEOUT_MS, UI_TIMEOUT_MS, waitFor } from './harness/scenario.js';

/** Margin: a safety net for real skill scripts played in code-server's extension host on a loaded machine. */
const RUN_TIMEOUT_MS = 180_000;

/** The fault-injection skill of the explore tests (its script fails one input in twenty), as files of the story. */
function omenReader(): Record<string, string> {
  const fixture = path.resolve(import.meta.dirname, '..', 'fixtures', 'explore-story');
  const files: Record<string, string> = {};
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(fixture, relative), { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else files[child] = readFileSync(path.join(fixture, child), 'utf8');
    }
  };
  walk('skills');
  return files;
}

describe('exploration and coverage', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    server = await startCodeServer({ vsix: packagedVsix(), label: 'explore' });
  });
  after(async () => server?.stop());

  test('E1. Run with Coverage on the sample playtests shows covered lines in a skill script', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'e1-run-with-coverage', {}, async ({ workbench, story }) => {
      await workbench.runCommand('Test: Run All Tests with Coverage');
      // Once the run has handed its coverage to VS Code, the Explorer shows each folder's share of covered statements.
      await workbench.runCommand('View: Show Explorer');
      const skillsFolder = workbench.page.locator('.part.sidebar .monaco-list-row', { hasText: /skills.*\d+%/ });
      await skillsFolder.first().waitFor({ timeout: RUN_TIMEOUT_MS });
      await workbench.openFile('roll.js');
      const editor = workbench.activeEditor();
      // Inline coverage colours each line as run or not (VS Code keeps it off until asked once).
      await workbench.runCommand('Test: Toggle Inline Coverage');
      const hit = editor.locator('.coverage-deco-inline.coverage-deco-hit, .coverage-deco-gutter.coverage-deco-hit');
      await hit.first().waitFor({ timeout: UI_TIMEOUT_MS });
      // The parser: lines the playtests' formulas ran, and error paths none of them reached.
      await workbench.goToPosition(40, 1);
      await hit.first().waitFor({ timeout: UI_TIMEOUT_MS });
      assert.ok((await hit.count()) > 3, 'several lines of roll.js are marked as run');
      assert.ok(
        (await editor.locator('.coverage-deco-inline.coverage-deco-miss, .coverage-deco-gutter.coverage-deco-miss').count()) > 0,
        'some lines are marked as never run',
      );
      await workbench.screenshot('e1-run-with-coverage');
      // The same run wrote lcov.info for other tools, beside the story's other Narratoria files.
      await waitFor(async () => existsSync(path.join(story.dir, '.narratoria', 'coverage', 'lcov.info')), UI_TIMEOUT_MS, 'lcov.info is written');
      assert.match(readFileSync(path.join(story.dir, '.narratoria', 'coverage', 'lcov.info'), 'utf8'), /SF:.*roll\.js/);
      // The Skills view shows how often each skill's scripts ran.
      await workbench.openNarratoriaView();
      const rows = await workbench.waitForTreeRows((found) => found.some((row) => /Dice Roller/.test(row.label) && /\d+ runs?/.test(row.description ?? '')));
      assert.ok(
        rows.some((row) => /never exercised|\d+ runs?/.test(row.description ?? '')),
        JSON.stringify(rows),
      );
      await workbench.screenshot('e1-skills-view-hit-counts');
    }),
  );

  test('E2. Explore Story shows the report and opens a saved playtest', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'e2-explore-story', { files: omenReader() }, async ({ workbench }) => {
      await workbench.pickCommand('Narratoria: Explore Story…');
      const preset = workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: '20 sessions' }).first();
      await preset.waitFor({ timeout: UI_TIMEOUT_MS });
      await preset.click();
      await workbench.page.locator('iframe.webview.ready').first().waitFor({ timeout: RUN_TIMEOUT_MS });
      const summary = workbench.byTestId(ExploreTestId.summary);
      await summary.waitFor({ timeout: RUN_TIMEOUT_MS });
      assert.match(await summary.innerText(), /20 sessions and \d+ turns played/);
      // The omen reader fails one input in twenty: some session has a problem, saved as a playtest.
      const session = workbench.byTestId(ExploreTestId.failedSession).first();
      await session.waitFor({ timeout: UI_TIMEOUT_MS });
      assert.match(await workbench.byTestId(ExploreTestId.problems).innerText(), /Tool failures/);
      await workbench.screenshot('e2-explore-report');
      await session.locator('summary').first().click();
      const open = session.locator(`[data-testid="${ExploreTestId.openPlaytest}"]`);
      const playtest = path.basename((await open.innerText()).trim());
      await open.click();
      await workbench.page.locator('.part.editor .tab.active', { hasText: playtest }).waitFor({ timeout: UI_TIMEOUT_MS });
      assert.match(playtest, /^explore-seed-1-session-\d+\.playtest\.json$/);
      assert.deepEqual(workbench.webviewErrors(), []);
      await workbench.screenshot('e2-explore-saved-playtest');
    }),
  );

  test('E3. Explore Story on a campaign: the Story section names the beats no session reached and opens the closest playtest', {
    timeout: SCENARIO_TIMEOUT_MS,
  }, () => {
    // The command takes how much to explore as its argument (a keybinding's args): fewer sessions than the presets, for a loaded machine.
    const keybinding = { key: 'ctrl+alt+shift+f9', command: 'narratoria.exploreStory', args: { runs: 4, turns: 8, coverage: false, seed: 7 } };
    writeFileSync(path.join(current().userDataDir, 'User', 'keybindings.json'), `${JSON.stringify([keybinding], null, 2)}\n`);
    const campaign = Object.fromEntries(starterCampaignFiles('complete').map((file) => [file.path, file.bytes ?? file.text ?? '']));
    return scenario(current, 'e3-explore-campaign', { files: campaign }, async ({ workbench }) => {
      // Room for the report: the side bar hidden.
      await workbench.runCommand('View: Toggle Primary Side Bar Visibility');
      await workbench.page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await workbench.page.locator('.part.editor').click({ position: { x: 20, y: 20 } });
      await workbench.page.keyboard.press('Control+Alt+Shift+F9');
      await workbench.page.locator('iframe.webview.ready').first().waitFor({ timeout: RUN_TIMEOUT_MS });
      const story = workbench.byTestId(ExploreTestId.story);
      await story.waitFor({ timeout: RUN_TIMEOUT_MS });
      assert.match(await story.locator('h2').innerText(), /Story: The Salt Lantern/);
      // Four short sessions (as \`narratoria explore --runs 4 --turns 8 --seed 7\` plays them): the campaign's own skill moves the
      // island's clock, so beat_003 triggers in some; beat_005 and beat_006 need longer play, a problem each, the closest session saved.
      assert.match(await workbench.byTestId(ExploreTestId.storyProblem).innerText(), /no session reached: beat_005, beat_006/);
      const never = workbench.byTestId(ExploreTestId.neverTriggered);
      assert.equal(await never.locator('li[data-beat-id]').count(), 2);
      assert.match(await workbench.byTestId(ExploreTestId.beatScenes).locator('tr[data-beat-id="beat_001"]').innerText(), /4 of 4\s+1\s+0/);
      assert.match(await workbench.byTestId(ExploreTestId.endings).innerText(), /no ending\s+4\s+100%/);
      await story.scrollIntoViewIfNeeded();
      await workbench.screenshot('e3-explore-story');
      const open = workbench.webview().locator(`[data-testid="${ExploreTestId.openClosestPlaytest}"][data-beat-id="beat_006"]`);
      await open.click();
      await workbench.page.locator('.part.editor .tab.active', { hasText: 'explore-seed-7-beat_006.playtest.json' }).waitFor({ timeout: UI_TIMEOUT_MS });
      assert.deepEqual(workbench.webviewErrors(), []);
    });
  });
});
