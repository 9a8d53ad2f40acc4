// Play panel webview in a real (headless) Chromium: streamed turns, replans, the max-replan dialog, failures, trust, and the DOM contract.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { PlayPanelTestId } from '../../src/protocol/playPanelDom.js';
import type { ToolRunView } from '../../src/protocol/playPanelMessages.js';
import { choices, guardhouseReplanGraph, maxReplanTurn, sessionState, snapshot, toolRun, turnThree, turnThreeInput } from './playPanelFixtures.js';
import { campaignSnapshot } from './playPanelStoryFixtures.js';
import { assertClean, byTestId, color, PlayPanelTestKit, testIdsIn, waitForStoryBottom } from './playPanelTestKit.js';

const kit = new PlayPanelTestKit();
before(() => kit.start());
after(() => kit.stop());

// Margin: 120 s per test is a safety net against a stuck page; every check waits for a condition, not a time.
describe('play panel webview: turns', { timeout: 120_000 }, () => {
  test('a streamed turn: busy indicator, cancel, live tools with logs, replans folded, then the finished turn', async () => {
    const panel = await kit.openWithSession();
    const { page } = panel;
    await byTestId(page, PlayPanelTestId.input).fill('typed while busy');
    await panel.send({ type: 'turnStarted', input: turnThreeInput, index: 3 });

    const busy = byTestId(page, PlayPanelTestId.busyIndicator);
    assert.equal(await busy.isVisible(), true);
    assert.match(await busy.innerText(), /Running turn 3…/);
    assert.equal(await busy.locator('.codicon-loading.codicon-modifier-spin').count(), 1);
    assert.equal(await byTestId(page, PlayPanelTestId.sendButton).isDisabled(), true, 'Send is disabled while busy');
    assert.equal(await byTestId(page, PlayPanelTestId.input).isEditable(), true, 'the input stays editable');
    await byTestId(page, PlayPanelTestId.input).press('Enter');
    assert.equal(await byTestId(page, PlayPanelTestId.input).inputValue(), 'typed while busy', 'Enter does not send while busy');
    assert.equal(await byTestId(page, PlayPanelTestId.choiceButton).first().isDisabled(), true);
    assert.match(await page.locator('.turn.is-pending').innerText(), /Search the ruined guardhouse/);
    // The pending turn says what it waits for: the narrator choosing skills, with the time once it passes a second.
    const pendingText = page.locator('.turn.is-pending .narration-pending-text');
    assert.match(await pendingText.innerText(), /^Choosing skills…/);
    assert.equal(await page.locator('.turn.is-pending .narration-pending').getAttribute('role'), 'status');
    await page.waitForFunction(() =>
      /^Choosing skills… \d+\.\d s$/.test(document.querySelector('.turn.is-pending .narration-pending')?.textContent?.trim() ?? ''),
    );
    assert.equal(await page.locator('.turn.is-pending .narration-pending-time').getAttribute('aria-hidden'), 'true', 'the ticking time is not announced');
    assert.match(await pendingText.innerText(), /^Choosing skills…$/);
    await byTestId(page, PlayPanelTestId.cancelButton).click();
    assert.deepEqual((await panel.posted()).slice(1), [{ type: 'cancel' }]);

    const firstTools: ToolRunView[] = [
      toolRun(1, 'roll', 'dice-roller', 'pending'),
      toolRun(1, 'perceive', 'npc-perception', 'pending'),
      toolRun(1, 'narrate', 'storyteller', 'pending'),
    ];
    await panel.send(
      { type: 'attemptStarted', attempt: 1, planId: 'turn-3-guardhouse', narrator: 'pattern', tools: firstTools },
      { type: 'toolUpdated', tool: toolRun(1, 'roll', 'dice-roller', 'running', { logLines: [{ level: 'info', text: 'Rolled 1d20 for search: [20] = 20' }] }) },
      {
        type: 'toolUpdated',
        tool: toolRun(1, 'roll', 'dice-roller', 'success', { durationMs: 84, logLines: [{ level: 'info', text: 'Rolled 1d20 for search: [20] = 20' }] }),
      },
      { type: 'toolUpdated', tool: toolRun(1, 'perceive', 'npc-perception', 'retrying', { retries: 1 }) },
    );
    assert.match(await pendingText.innerText(), /^Running perceive \(npc-perception\)…/, 'the plan is written: the turn names the tools it waits for');
    const perceive = byTestId(page, PlayPanelTestId.toolRow, '[data-tool-id="perceive"][data-attempt="1"]');
    assert.equal(await perceive.getAttribute('data-status'), 'retrying');
    assert.match(await perceive.innerText(), /retry 1/);
    assert.equal(await page.locator('[data-tool-id="roll"] .status-success').count(), 1);
    assert.equal(await color(page, '[data-tool-id="roll"] .status-success'), 'rgb(115, 201, 145)', 'succeeded uses --vscode-testing-iconPassed');
    assert.equal(await page.locator('[data-tool-id="roll"] .tool-log').isVisible(), false, 'logs start collapsed');

    await panel.send({
      type: 'toolUpdated',
      tool: toolRun(1, 'perceive', 'npc-perception', 'timeout', {
        retries: 1,
        durationMs: 5004,
        error: { category: 'timeout', message: 'perceive took longer than 5 s and was stopped' },
        logLines: [
          { level: 'debug', text: 'loading attitudes for 2 NPCs' },
          { level: 'warn', text: 'no attitude for "gatekeeper", assuming neutral' },
          { level: 'stderr', text: "TypeError: Cannot read properties of undefined (reading 'attitude')" },
        ],
      }),
    });
    assert.equal(await perceive.getAttribute('data-status'), 'timeout');
    assert.match(await pendingText.innerText(), /^Running the plan…/, 'no tool runs now: the turn waits for the plan');
    assert.equal(await color(page, '[data-tool-id="perceive"] .status-timeout'), 'rgb(241, 76, 76)', 'failures use --vscode-testing-iconFailed');
    await perceive.locator('.tool-row-head').click();
    assert.equal(await perceive.locator('.tool-log').isVisible(), true);
    assert.equal(await perceive.locator('.log-line').count(), 3);
    assert.equal(await color(page, '[data-tool-id="perceive"] .level-stderr .log-text'), 'rgb(248, 81, 73)', 'error lines are red');
    await panel.send({ type: 'toolUpdated', tool: toolRun(1, 'narrate', 'storyteller', 'skipped') });
    assert.equal(await perceive.locator('.tool-log').isVisible(), true, 'an open log stays open across updates');

    await panel.send(
      {
        type: 'attemptFinished',
        attempt: {
          attempt: 1,
          planId: 'turn-3-guardhouse',
          narrator: 'pattern',
          outcome: 'failed',
          failedTools: ['perceive'],
          disabledSkills: [],
          tools: ['roll', 'perceive', 'narrate'],
        },
      },
      {
        type: 'attemptStarted',
        attempt: 2,
        planId: 'turn-3-guardhouse-r1',
        narrator: 'pattern',
        tools: [
          toolRun(2, 'roll', 'dice-roller', 'success', { durationMs: 71 }),
          toolRun(2, 'narrate', 'storyteller', 'running', { logLines: [{ level: 'info', text: 'Telling the search with a natural 20' }] }),
        ],
      },
      {
        type: 'stateChanged',
        state: { ...sessionState, player: { name: 'Mara Quill', hp: 9, maxHp: 12, inventory: ['lockpicks', 'storm lantern', 'rope (30 ft)', 'ring of keys'] } },
        changedKeys: ['player'],
      },
    );
    const firstAttempt = page.locator('.attempt-group[data-attempt="1"] .attempt-header');
    assert.match(await firstAttempt.innerText(), /Attempt 1 — failed: npc-perception/, 'failed tools are named by skill');
    assert.equal(await firstAttempt.getAttribute('aria-expanded'), 'false', 'earlier attempts fold');
    assert.equal(await byTestId(page, PlayPanelTestId.toolRow, '[data-attempt="2"]:visible').count(), 2);
    assert.match(await busy.innerText(), /attempt 2/);
    assert.equal(await page.locator('[data-key-path="player"]').getAttribute('data-changed'), 'true');
    await firstAttempt.click();
    await page.locator('[data-tool-id="narrate"][data-attempt="2"] .tool-row-head').click();
    await panel.screenshot('dark-wide-running');
    // The local model's retelling streams under the pending turn's status, piece by piece; the stage says so.
    await panel.send(
      { type: 'narrationStreamed', text: ' The rubble' },
      { type: 'narrationStreamed', text: ' shifts under your hands, and' },
      { type: 'narrationStreamed', text: ' a ring of keys glints' },
    );
    const streaming = page.locator('.turn.is-pending .narration-streaming');
    assert.equal(await streaming.innerText(), 'The rubble shifts under your hands, and a ring of keys glints');
    assert.equal(await streaming.getAttribute('aria-hidden'), 'true', 'the pieces are not announced one by one; the finished narration is');
    assert.match(await pendingText.innerText(), /^The local model is telling what happened…/);
    await panel.screenshot('dark-wide-streaming');

    const finished = turnThree([
      {
        attempt: 1,
        planId: 'turn-3-guardhouse',
        narrator: 'pattern',
        outcome: 'failed',
        failedTools: ['perceive'],
        disabledSkills: [],
        tools: ['roll', 'perceive', 'narrate'],
      },
      {
        attempt: 2,
        planId: 'turn-3-guardhouse-r1',
        narrator: 'pattern',
        outcome: 'success',
        failedTools: [],
        disabledSkills: ['npc-perception'],
        tools: ['roll', 'narrate'],
      },
    ]);
    // The reader scrolled up to reread: the new turn does not pull them down, a button offers to.
    // Deterministic: the story overflows and shows its bottom, so scrolling to the top always fires a scroll
    // event; the panel's own scroll listener was added first, so once ours runs the panel has seen the reader
    // scroll up (no timer that a slow frame could beat).
    await waitForStoryBottom(page);
    await byTestId(page, PlayPanelTestId.story).evaluate(
      (story) =>
        new Promise<void>((resolve, reject) => {
          if (story.scrollTop === 0) {
            reject(new Error(`the story must overflow to scroll up (scrollHeight ${story.scrollHeight}, clientHeight ${story.clientHeight})`));
            return;
          }
          story.addEventListener('scroll', () => resolve(), { once: true });
          story.scrollTop = 0;
        }),
    );
    await panel.send({ type: 'turnFinished', turn: finished, state: sessionState, maxAttemptsReached: false });
    const jump = page.getByRole('button', { name: 'New narration' });
    assert.equal(await jump.isVisible(), true);
    assert.equal(await byTestId(page, PlayPanelTestId.story).evaluate((story) => story.scrollTop), 0);
    await jump.click();
    await waitForStoryBottom(page);
    assert.equal(await jump.isVisible(), false);
    assert.equal(await busy.isVisible(), false);
    assert.equal(await byTestId(page, PlayPanelTestId.narrationEntry).count(), 3);
    assert.equal(await page.locator('.turn.is-pending').count(), 0);
    assert.deepEqual(
      await byTestId(page, PlayPanelTestId.choiceButton).evaluateAll((buttons) => buttons.map((button) => (button as HTMLElement).dataset['turnIndex'])),
      ['3', '3', '3'],
    );
    assert.equal(await byTestId(page, PlayPanelTestId.choiceButton).first().isEnabled(), true);
    assert.equal(await page.locator('.turn[data-turn-index="2"] .past-choices .is-chosen').innerText(), choices[2]);
    assert.match(await page.locator('[aria-live="polite"]').innerText(), /ring of keys/, 'the new narration is announced');
    assert.match(await byTestId(page, PlayPanelTestId.diceRoll).last().innerText(), /natural 20/);
    assert.equal(await byTestId(page, PlayPanelTestId.toolRow, '[data-attempt="2"]').count(), 2, 'the last turn’s tools stay after it ends');
    assert.match(await byTestId(page, PlayPanelTestId.errorNotice).innerText(), /npc-perception failed \(timeout\)/);
    assert.equal(await byTestId(page, PlayPanelTestId.sendButton).isEnabled(), true);
    await assertClean(panel);
  });

  test('a turn that ran out of plans opens the max-replan dialog with a focus trap', async () => {
    const panel = await kit.openWithSession();
    const { page } = panel;
    await page.locator(`[data-testid="${PlayPanelTestId.input}"]`).focus();
    await panel.send(
      { type: 'turnStarted', input: 'Storm the inner ward', index: 3 },
      { type: 'turnFinished', turn: maxReplanTurn(3), state: sessionState, maxAttemptsReached: true },
    );
    const dialog = byTestId(page, PlayPanelTestId.maxReplanDialog);
    assert.equal(await dialog.isVisible(), true);
    assert.match(await dialog.innerText(), /The narrator tried 5 plans and none succeeded/);
    assert.match(await dialog.innerText(), /broken-dice/);
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    assert.equal(await focused(), 'Continue with fallback');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'View details');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Continue with fallback', 'Tab stays inside the dialog');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focused(), 'View details');
    assert.equal(await page.locator('.play-app').evaluate((app) => (app as HTMLElement).inert), true, 'the panel behind is inert');
    assert.match(await byTestId(page, PlayPanelTestId.turnAttempts).last().innerText(), /fallback narration/);
    assert.match(await byTestId(page, PlayPanelTestId.errorNotice).innerText(), /broken-dice failed \(process_error\)[\s\S]*fallback narration/);
    await panel.screenshot('dark-max-replan-dialog');

    await page.keyboard.press('Escape');
    assert.equal(await dialog.isVisible(), false, 'Escape continues with the fallback');
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset['testid']), PlayPanelTestId.input, 'focus goes back');
    assert.deepEqual((await panel.posted()).slice(1), []);

    await panel.send({ type: 'turnFinished', turn: maxReplanTurn(3), state: sessionState, maxAttemptsReached: true });
    await dialog.getByRole('button', { name: 'New Game' }).click();
    await panel.send({ type: 'turnFinished', turn: maxReplanTurn(3), state: sessionState, maxAttemptsReached: true });
    await dialog.getByRole('button', { name: 'View details' }).click();
    await panel.send({ type: 'turnFinished', turn: maxReplanTurn(3), state: sessionState, maxAttemptsReached: true });
    await dialog.getByRole('button', { name: 'Continue with fallback' }).click();
    assert.deepEqual((await panel.posted()).slice(1), [{ type: 'newGame' }, { type: 'showDetails', turnIndex: 3 }]);
    assert.equal(await dialog.isVisible(), false);
  });

  test('an untrusted workspace shows the trust banner and disables playing', async () => {
    const panel = await kit.openWithSession({}, { trusted: false });
    const { page } = panel;
    const banner = byTestId(page, PlayPanelTestId.trustBanner);
    assert.equal(await banner.isVisible(), true);
    assert.match(
      await banner.innerText(),
      /This workspace is not trusted, so Narratoria runs no skill scripts and loads no model\. You can still read the story and its state\./,
    );
    assert.equal(await byTestId(page, PlayPanelTestId.input).isDisabled(), true);
    assert.equal(await byTestId(page, PlayPanelTestId.sendButton).isDisabled(), true);
    assert.equal(await byTestId(page, PlayPanelTestId.choiceButton).first().isDisabled(), true);
    assert.equal(await byTestId(page, PlayPanelTestId.errorNotice).getByRole('button', { name: 'Retry' }).isDisabled(), true);
    assert.equal(await byTestId(page, PlayPanelTestId.stateRow).first().isVisible(), true, 'the state can still be read');
    await panel.screenshot('dark-untrusted');
    await banner.getByRole('button', { name: 'Manage Workspace Trust' }).click();
    assert.deepEqual((await panel.posted()).slice(1), [{ type: 'manageTrust' }]);

    await panel.send({ type: 'trustChanged', trusted: true });
    assert.equal(await banner.isVisible(), false);
    assert.equal(await byTestId(page, PlayPanelTestId.input).isEnabled(), true);
    assert.equal(await byTestId(page, PlayPanelTestId.choiceButton).first().isEnabled(), true);
  });

  test('a turn that cannot run shows a notice with Retry; a restart snapshot clears the story', async () => {
    const panel = await kit.openWithSession();
    const { page } = panel;
    await panel.send(
      { type: 'turnStarted', input: 'listen at the door', index: 3 },
      { type: 'turnFailed', message: 'The turn could not be played: The skills folder could not be read' },
    );
    const notice = byTestId(page, PlayPanelTestId.errorNotice);
    assert.equal(await notice.getAttribute('data-kind'), 'turnFailed');
    assert.match(await notice.innerText(), /The turn could not be played: The skills folder could not be read\./);
    assert.doesNotMatch(await notice.innerText(), /played:[\s\S]*played:/, 'the extension’s own prefix is not repeated');
    assert.equal(await byTestId(page, PlayPanelTestId.busyIndicator).isVisible(), false);
    await notice.getByRole('button', { name: 'Retry' }).click();
    assert.deepEqual((await panel.posted()).slice(1), [{ type: 'play', input: 'listen at the door' }]);

    await panel.send({
      type: 'snapshot',
      snapshot: snapshot(kit.origin, {
        sessionId: 'session-2',
        sessionName: '2026-11-28-1700',
        turns: [],
        state: {},
        changedKeys: [],
        notice: 'A saved play-through could not be opened: "2026-11-27-0900" is damaged: not valid JSON. It was left as it is.',
      }),
    });
    assert.equal(await byTestId(page, PlayPanelTestId.narrationEntry).count(), 0);
    assert.equal(await byTestId(page, PlayPanelTestId.errorNotice).count(), 0);
    assert.match(await page.locator('.story-empty').innerText(), /Your story starts here/);
    assert.match(await page.locator('.banner-info').innerText(), /left as it is/);
    await panel.screenshot('dark-new-session');
    await page.locator('.banner-info').getByRole('button', { name: 'Dismiss' }).click();
    assert.equal(await page.locator('.banner-info').isVisible(), false);
  });

  test('after a reload mid-turn the snapshot shows the running turn', async () => {
    const panel = await kit.openWithSession({}, { busy: true, runningInput: 'climb the wall' });
    const { page } = panel;
    assert.match(await byTestId(page, PlayPanelTestId.busyIndicator).innerText(), /Running turn 3…/);
    assert.match(await page.locator('.turn.is-pending').innerText(), /climb the wall/);
    assert.equal(await byTestId(page, PlayPanelTestId.errorNotice).count(), 0);
  });

  test('a panel opened mid-turn replays the attempts and tools so far', async () => {
    const panel = await kit.openWithSession(
      {},
      {
        busy: true,
        runningInput: 'roll to climb the wall',
        runningAttempts: [
          {
            attempt: 1,
            planId: 'plan-1',
            narrator: 'pattern',
            tools: [toolRun(1, 'check', 'broken-dice', 'failed', { planId: 'plan-1', error: { category: 'process_error', message: 'exit 1' } })],
            finished: { attempt: 1, planId: 'plan-1', narrator: 'pattern', outcome: 'failed', failedTools: ['check'], disabledSkills: [], tools: ['check'] },
          },
          { attempt: 2, planId: 'plan-2', narrator: 'pattern', tools: [toolRun(2, 'roll', 'dice-roller', 'running', { planId: 'plan-2' })] },
        ],
      },
    );
    const { page } = panel;
    await byTestId(page, PlayPanelTestId.toolRow, '[data-tool-id="roll"]').waitFor();
    assert.equal(await byTestId(page, PlayPanelTestId.toolRow, '[data-tool-id="roll"]').getAttribute('data-status'), 'running');
    assert.match(await byTestId(page, PlayPanelTestId.toolPanel).innerText(), /Attempt 1/);
    assert.match(await byTestId(page, PlayPanelTestId.busyIndicator).innerText(), /attempt 2/i);
    await assertClean(panel);
  });

  test('every PlayPanelTestId appears in the panel', async () => {
    const seen = new Set<string>();
    const panel = await kit.openWithSession({}, { trusted: false, busy: true, runningInput: 'climb the wall' });
    for (const id of await testIdsIn(panel.page)) seen.add(id);
    await panel.send(
      { type: 'trustChanged', trusted: true },
      {
        type: 'attemptStarted',
        attempt: 1,
        planId: 'p',
        narrator: 'pattern',
        tools: [toolRun(1, 'roll', 'dice-roller', 'running'), toolRun(1, 'narrate', 'storyteller', 'pending')],
        graph: guardhouseReplanGraph,
      },
    );
    await byTestId(panel.page, PlayPanelTestId.graphToggle).click();
    for (const id of await testIdsIn(panel.page)) seen.add(id);
    await panel.send({ type: 'turnFinished', turn: maxReplanTurn(3), state: sessionState, maxAttemptsReached: true });
    for (const id of await testIdsIn(panel.page)) seen.add(id);
    // A campaign's play-through: the beat timeline's entries and a turn's beat cards.
    await panel.send({ type: 'snapshot', snapshot: campaignSnapshot(3) });
    for (const id of await testIdsIn(panel.page)) seen.add(id);
    assert.deepEqual(
      Object.values(PlayPanelTestId).filter((id) => !seen.has(id)),
      [],
    );
    await assertClean(panel);
  });
});
