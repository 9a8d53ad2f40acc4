// End-to-end scenarios in real VS Code (code-server + headless chromium) with the packaged VSIX: skills tree, play panel turns, replanning, choices, Restricted Mode.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startCodeServer, type CodeServer } from './harness/codeServer.js';
import { PlayPanel, TURN_TIMEOUT_MS } from './harness/playPanel.js';
import { filesUnder, packagedVsix, scenario, SCENARIO_TIMEOUT_MS, UI_TIMEOUT_MS, waitFor } from './harness/scenario.js';
import { waitForSavedEditor } from './harness/savedEditors.js';

const WALKTHROUGH_STEPS = [
  /* 'Open a story folder' shows only in an empty window */ 'Add skills to your story',
  'Play-test a turn',
  'Write a campaign',
  'Write a plan',
  'See the plan as a graph',
  'Debug a plan',
  'Inspect a skill script',
  'Choose the narrator',
];
const SAMPLE_SKILLS = ['Character Portraits', 'Dice Roller', 'Memory', 'NPC Perception', 'Player Choices', 'Reputation', 'Storyteller'];
describe('trusted workspace', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    const vsix = packagedVsix();
    const started = Date.now();
    server = await startCodeServer({ vsix, label: 'trusted' });
    console.log(`[e2e] code-server (trusted) with the VSIX ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${server.url}`);
  });
  after(async () => server?.stop());

  test('1. the Skills view lists the sample skills, each healthy', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, '1-skills-tree', {}, async ({ workbench }) => {
      await workbench.openNarratoriaView();
      // Deterministic: wait for the rows as the assertions below want them (a row may be drawn before its
      // description says healthy), then check them; the wait's deadline is only a safety net.
      const rows = await workbench
        .waitForTreeRows((found) =>
          SAMPLE_SKILLS.every((skill) =>
            found.some((row) => row.label === skill && row.level === 1 && /\bhealthy\b/.test(row.description) && /1\.0\.0/.test(row.description)),
          ),
        )
        .catch(async () => workbench.treeRows());
      for (const skill of SAMPLE_SKILLS) {
        const row = rows.find((candidate) => candidate.label === skill && candidate.level === 1);
        assert.ok(row, `${skill} is listed`);
        assert.match(row.description, /\bhealthy\b/, `${skill}: "${row.description}"`);
        assert.match(row.description, /1\.0\.0/, `${skill} shows its version`);
      }
    }),
  );

  test('2. "I roll to pick the lock" shows a dice roll, a narration and the roll in the state inspector', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, '2-dice-roll', {}, async ({ workbench }) => {
      const panel = await PlayPanel.open(workbench);
      const narration = await panel.play('I roll to pick the lock');
      assert.notEqual((await narration.textContent())?.trim(), '', 'the narration has text');
      const dice = panel.get('diceRoll').first();
      await dice.waitFor({ timeout: UI_TIMEOUT_MS });
      assert.match((await dice.textContent()) ?? '', /\d*d\d+/, 'the dice card shows the formula');
      // dice-roller patches { dice: { lastRoll: {...} } }.
      const changed = panel.stateRows('dice', true).first();
      await changed.waitFor({ timeout: UI_TIMEOUT_MS });
      assert.match((await changed.getAttribute('data-key-path')) ?? '', /^dice\b/);
      await panel.get('stateInspector').waitFor();
      assert.deepEqual(workbench.webviewErrors(), [], 'the play panel logs no errors');
    }),
  );

  test(
    '3. a skill whose script always fails: the turn is re-planned, still narrates, and the tree shows the skill unhealthy',
    { timeout: SCENARIO_TIMEOUT_MS },
    () =>
      scenario(current, '3-broken-skill-replan', { brokenDice: true }, async ({ workbench }) => {
        await workbench.openNarratoriaView();
        await workbench.waitForTreeRows((rows) => rows.some((row) => row.label === 'Broken Dice'));
        const panel = await PlayPanel.open(workbench);
        // broken-dice (priority 90) outranks dice-roller for a check: attempt 1 fails, the re-plan without it succeeds.
        await panel.play('I roll to pick the lock');
        const attempts = panel.get('turnAttempts').first();
        await attempts.waitFor();
        const count = Number((await attempts.getAttribute('data-attempts')) ?? '1');
        const fallback = (await attempts.getAttribute('data-fallback')) === 'true';
        assert.ok(count >= 2 || fallback, `turn 1 was re-planned or fell back (attempts ${count}, fallback ${fallback})`);
        assert.match((await attempts.textContent()) ?? '', /attempts|fallback|replan/i);
        const brokenDescription = async () => (await workbench.treeRows()).find((row) => row.label === 'Broken Dice')?.description ?? '';
        // The tree counts the failure at once ("1/3 failures"); three failures in a row degrade the skill.
        // Margin: the tree refreshes on the skills service's events; 60 s is a safety net for that condition.
        await waitFor(async () => /fail/i.test(await brokenDescription()), 60_000, 'the tree shows the failure of Broken Dice');
        for (let turn = 2; turn <= 3; turn++) await panel.play('I roll to pick the lock');
        await waitFor(async () => /degraded|permanent|failed/i.test(await brokenDescription()), 60_000, 'the tree shows Broken Dice degraded').catch(
          async (error: unknown) => assert.fail(`${(error as Error).message}; its description: "${await brokenDescription()}"`),
        );
        assert.ok((await panel.get('narrationEntry').count()) >= 3, 'every turn narrated');
      }),
  );

  test('4. a narrative_choice: clicking a choice plays it as the next turn', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, '4-narrative-choice', {}, async ({ workbench }) => {
      const panel = await PlayPanel.open(workbench);
      // "what should I do" is a talk intent: the pattern narrator adds player-choices' offer script.
      await panel.play('What should I do?');
      const choice = panel.get('choiceButton').first();
      await choice.waitFor({ timeout: UI_TIMEOUT_MS });
      const choiceText = await choiceLabel(choice);
      assert.notEqual(choiceText, '', 'the choice has a label');
      await choice.click();
      await panel.waitForNarrations(2);
      const secondInput = panel.get('playerEntry').nth(1);
      await secondInput.waitFor();
      const played = ((await secondInput.textContent()) ?? '').replace(/^\s*You:\s*/, '').trim();
      assert.ok(played.length > 0 && (choiceText.includes(played) || played.includes(choiceText)), `turn 2 played "${played}", the choice was "${choiceText}"`);
    }),
  );
  test(
    '7. Run Skill Script runs the dice roller with a typed input; its output lines and verdict go to the Narratoria log',
    { timeout: SCENARIO_TIMEOUT_MS },
    () =>
      scenario(current, '7-run-skill-script', {}, async ({ workbench }) => {
        await workbench.openNarratoriaView();
        await workbench.waitForTreeRows((found) => found.some((row) => row.label === 'Dice Roller'));
        const page = workbench.page;
        const input = page.locator('.quick-input-widget input');
        const row = (text: string) => page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
        // Not runCommand: the command answers with a quick pick of its own, so the palette widget stays open.
        await workbench.pickCommand('Narratoria: Run Skill Script…');
        await row('Dice Roller').waitFor({ timeout: UI_TIMEOUT_MS });
        await input.fill('Dice Roller');
        await row('Dice Roller').click();
        await row('Enter the input as JSON').waitFor({ timeout: UI_TIMEOUT_MS });
        await row('Enter the input as JSON').click();
        await page.locator('.quick-input-widget', { hasText: 'as a JSON object' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await input.fill('{"formula": "2d6+1", "reason": "scale the wall"}');
        await page.keyboard.press('Enter');
        const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Dice Roller › roll: ok' });
        // Margin: the script runs in code-server's extension host; 60 s is a safety net for that condition.
        await toast.waitFor({ timeout: 60_000 });
        const output = page.locator('.part.panel .view-lines');
        // The output view renders only the lines in sight: the last events and the verdict. It shows what the
        // log file holds, which may trail the toast, and the verdict is its last line: wait until the view shows
        // all three (deterministic; the deadline is a safety net), then check them one by one.
        const outputText = async () =>
          (
            (await output
              .first()
              .innerText()
              .catch(() => '')) ?? ''
          ).replace(/\u00a0/g, ' ');
        const expected = [/"type":"ui_event","event":"dice_roll"/, /"formula":"2d6\+1"/, /✓ ok: Rolled 2d6\+1: \d+ \(exit 0/];
        await waitFor(
          async () => {
            const shown = await outputText();
            return expected.every((pattern) => pattern.test(shown));
          },
          60_000,
          'the Narratoria log shows the events and the verdict',
        ).catch(() => undefined);
        const text = await outputText();
        for (const pattern of expected) assert.match(text, pattern);
      }),
  );
  test('8. the play session survives a window reload: the panel comes back with the story and its state', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, '8-window-reload', {}, async ({ workbench }) => {
      const panel = await PlayPanel.open(workbench);
      await panel.play('I roll to pick the lock');
      const narration = ((await panel.get('narrationEntry').first().innerText()) ?? '').trim();
      assert.ok(narration.length > 0);
      // VS Code must have saved the open editors (with the panel's serializer state) before the reload, and it
      // does so on a timer (every 5 s when idle, in the browser), not on demand: the old fixed 2 s sleep raced
      // it. Wait until the saved editor state names the panel instead.
      await waitForSavedEditor(workbench, PLAY_PANEL_VIEW_TYPE);
      await workbench.page.reload();
      await workbench.waitUntilReady();
      const revived = new PlayPanel(workbench);
      await revived.get('narrationEntry').first().waitFor({ timeout: TURN_TIMEOUT_MS });
      assert.equal((await revived.get('narrationEntry').first().innerText()).trim(), narration);
      await revived.get('playerEntry').filter({ hasText: 'I roll to pick the lock' }).first().waitFor();
      await revived.stateRows('dice').first().waitFor({ timeout: UI_TIMEOUT_MS });
      await revived.input.waitFor();
      await revived.play('I look around');
    }),
  );
});

describe('a new story', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    server = await startCodeServer({ vsix: packagedVsix(), label: 'new-story' });
  });
  after(async () => server?.stop());

  test(
    '9. the Get Started walkthrough lists its steps with pictures; its Add an Example Plan button adds the plan and checks the step',
    { timeout: SCENARIO_TIMEOUT_MS },
    () =>
      scenario(current, '9-walkthrough', {}, async ({ workbench, story }) => {
        const page = workbench.page;
        // The walkthrough shows its pictures beside the steps only when the editor is wide enough: no side bar.
        await workbench.runCommand('View: Toggle Primary Side Bar Visibility');
        await workbench.pickCommand('Welcome: Open Walkthrough...');
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with Narratoria' }).first().click();
        const steps = page.locator('.gettingStartedContainer .getting-started-step .step-title');
        await steps.first().waitFor({ timeout: UI_TIMEOUT_MS });
        assert.deepEqual(await steps.allTextContents(), WALKTHROUGH_STEPS);

        const step = (id: string) => page.locator(`.getting-started-step[data-step-id$="#${id}"]`);
        await step('writePlan').click();
        // Deterministic: the picture of the selected step is an <img> that has loaded (naturalWidth > 0) from the VSIX.
        const picture = page.locator('.getting-started-media img[alt^="A plan in the editor"]');
        await picture.waitFor({ timeout: UI_TIMEOUT_MS });
        await waitFor(
          async () => await picture.evaluate((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0),
          UI_TIMEOUT_MS,
          'the step picture loads',
        );
        await workbench.screenshot('9-walkthrough-step');

        const done = page.locator('[data-done-step-id$="#writePlan"]');
        assert.equal(await done.getAttribute('aria-checked'), 'false');
        await step('writePlan').locator('.monaco-button', { hasText: 'Add an Example Plan' }).click();
        const plan = path.join(story.dir, 'plans', 'pick-the-lock.plan.json');
        await waitFor(async () => existsSync(plan), UI_TIMEOUT_MS, 'plans/pick-the-lock.plan.json is written');
        await page.locator('.tab.active', { hasText: 'pick-the-lock.plan.json' }).waitFor({ timeout: UI_TIMEOUT_MS });
        assert.equal((JSON.parse(readFileSync(plan, 'utf8')) as { $schema?: string }).$schema, undefined, 'the copy has no product-relative $schema');
        // The step completes on its command (completionEvents: onCommand:narratoria.addExamplePlan): back on the walkthrough's tab.
        await page.locator('.tab', { hasText: 'Welcome' }).click();
        await waitFor(async () => (await done.getAttribute('aria-checked')) === 'true', UI_TIMEOUT_MS, 'the step is checked');
        // The narrator step's media is a page (docs/walkthrough/narrator.md), drawn in a webview beside the steps.
        await step('narrator').click();
        // Deterministic: wait for the page's own heading inside the webview (an outer and an inner frame), then look.
        const heading = page.frameLocator('.gettingStartedContainer iframe').first().frameLocator('iframe').first().locator('h1');
        await heading.waitFor({ timeout: UI_TIMEOUT_MS });
        assert.equal((await heading.textContent())?.trim(), 'The narrator');
        await workbench.screenshot('9-walkthrough-narrator');
      }),
  );

  test('6. an empty folder shows the welcome view; New Skill scaffolds a healthy skill that the tree lists', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, '6-new-skill', { empty: true }, async ({ workbench, story }) => {
      const pane = await workbench.openNarratoriaView();
      const welcome = pane.locator('.welcome-view-content');
      await welcome.getByText('No skills found in this workspace', { exact: false }).waitFor({ timeout: 60_000 });
      await welcome.getByRole('button', { name: 'Create a Skill…' }).waitFor();
      await workbench.screenshot('6-welcome-view');
      await welcome.getByRole('button', { name: 'Create a Skill…' }).click();
      const input = workbench.page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      await input.fill('Lantern Check');
      await workbench.page.locator('.quick-input-message', { hasText: 'lowercase letters' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await input.fill('lantern-check');
      await workbench.page.keyboard.press('Enter');
      await workbench.page.locator('.quick-input-widget .quick-input-title', { hasText: 'New Skill (2/2)' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await input.fill('Checks whether the lantern still burns.');
      await workbench.page.keyboard.press('Enter');
      const rows = await workbench.waitForTreeRows((found) => found.some((row) => row.label === 'Lantern Check'));
      assert.match(rows.find((row) => row.label === 'Lantern Check')!.description, /v0\.1\.0 · healthy/);
      await workbench.page.locator('.tab', { hasText: 'skill.json' }).first().waitFor({ timeout: UI_TIMEOUT_MS });
      // The scaffold is valid against the contributed manifest schema: VS Code reports no problem in it.
      // Margin (a check that something does NOT appear, so it can only wait and then look): the sleeps give the
      // JSON language server time to validate. Load can only make a real problem show up too late and be missed;
      // it cannot make this fail for a valid scaffold.
      await workbench.page.waitForTimeout(3000);
      await workbench.page.keyboard.press('Control+Shift+M');
      await workbench.page.locator('.markers-panel').waitFor({ timeout: UI_TIMEOUT_MS });
      await workbench.page.waitForTimeout(1500);
      const problems = await workbench.page.locator('.markers-panel .monaco-list-row').allTextContents();
      assert.deepEqual(problems, [], `problems in the new skill.json: ${problems.join(' | ')}`);
      const manifest = JSON.parse(readFileSync(path.join(story.dir, 'skills', 'lantern-check', 'skill.json'), 'utf8')) as { description: string };
      assert.equal(manifest.description, 'Checks whether the lantern still burns.');
      for (const file of ['prompt.md', 'config-schema.json', 'scripts/run.js', 'samples/input.json']) {
        assert.ok(existsSync(path.join(story.dir, 'skills', 'lantern-check', file)), `${file} was scaffolded`);
      }
    }),
  );
});

describe('untrusted workspace (Restricted Mode)', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    const vsix = packagedVsix();
    const started = Date.now();
    server = await startCodeServer({ vsix, label: 'untrusted', workspaceTrust: true });
    console.log(`[e2e] code-server (workspace trust on) ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${server.url}`);
  });
  after(async () => server?.stop());

  test('5. the play panel shows the trust banner, its input is disabled and no skill runs', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, '5-untrusted-workspace', {}, async ({ workbench, story }) => {
      await waitFor(() => workbench.isRestrictedMode(), 60_000, 'the workbench is in Restricted Mode');
      const panel = await PlayPanel.open(workbench);
      const banner = panel.get('trustBanner');
      await banner.waitFor({ state: 'visible', timeout: 60_000 });
      assert.match((await banner.textContent()) ?? '', /trust/i);
      assert.equal(await panel.input.isDisabled(), true, 'the player input is disabled');
      // Give a (wrongly) running turn time to leave traces, then look for them. Margin (a check that nothing
      // happens): load can only make a wrong turn leave its traces too late to be seen, never fail a right one.
      await workbench.page.waitForTimeout(2_000);
      assert.equal(await panel.get('narrationEntry').count(), 0, 'no turn was played');
      assert.equal(await panel.stateRows('dice').count(), 0, 'no dice state');
      assert.deepEqual(playedTurns(story.sessionDir), [], 'no session turns were saved');
      assert.deepEqual(skillDataFiles(story.dir), [], 'no skill wrote data');
    }),
  );
});

/** A choice button's label: its `data-choice-label`, else its first line of text that is not the choice's number. */
async function choiceLabel(choice: import('playwright-core').Locator): Promise<string> {
  const label = choice.locator('[data-choice-label]').first();
  if ((await label.count()) > 0) return ((await label.getAttribute('data-choice-label')) ?? '').trim();
  const lines = (await choice.innerText()).split('\n').map((line) => line.trim());
  return lines.find((line) => line !== '' && !/^\d+[.)]?$/.test(line)) ?? '';
}

/** Session files under `.narratoria/` that recorded at least one turn. */
function playedTurns(sessionDir: string): string[] {
  return filesUnder(sessionDir).filter((file) => {
    if (!file.endsWith('.json')) return false;
    try {
      const content = JSON.parse(readFileSync(file, 'utf8')) as { turns?: unknown[] };
      return Array.isArray(content.turns) && content.turns.length > 0;
    } catch {
      return false;
    }
  });
}

/** Files the skills wrote in their data folders. */
function skillDataFiles(storyDir: string): string[] {
  const skills = path.join(storyDir, 'skills');
  return readdirSync(skills).flatMap((skill) => filesUnder(path.join(skills, skill, 'data')));
}

/** `PLAY_PANEL_VIEW_TYPE` of src/extension/play/playPanel.ts (that module needs `vscode`, so it is not imported here). */
const PLAY_PANEL_VIEW_TYPE = 'narratoria.playPanel';
