// Play panel webview in a real (headless) Chromium: messages in, DOM and posted messages out, screenshots in test-output/webview.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { PlayPanelTestId } from '../../src/protocol/playPanelDom.js';
import type { ToolRunView } from '../../src/protocol/playPanelMessages.js';
import { choices, maxReplanTurn, sessionState, snapshot, toolRun, turnThree, turnThreeInput } from './playPanelFixtures.js';
import { PlayPanelPreview, type PreviewOptions, type PreviewPage } from './playPanelPreview.js';

let preview: PlayPanelPreview;
const seenTestIds = new Set<string>();
const openPages: PreviewPage[] = [];

before(async () => {
  preview = await PlayPanelPreview.start();
});

after(async () => {
  for (const page of openPages) await page.close().catch(() => undefined);
  await preview?.close();
});

/** Opens a panel; panels opened earlier by the test are released (read their state before opening the next). */
async function open(options: PreviewOptions = {}): Promise<PreviewPage> {
  for (const page of openPages.splice(0)) await page.close();
  const page = await preview.open(options);
  openPages.push(page);
  return page;
}

/** Opens a panel and sends the two-turn snapshot. */
async function openWithSession(options: PreviewOptions = {}, overrides: Parameters<typeof snapshot>[1] = {}): Promise<PreviewPage> {
  const panel = await open(options);
  await panel.send({ type: 'snapshot', snapshot: snapshot(preview.origin, overrides) });
  return panel;
}

async function noteTestIds(page: Page): Promise<void> {
  for (const id of await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-testid]')].map((element) => element.dataset['testid'] ?? ''))) seenTestIds.add(id);
}

async function assertClean(panel: PreviewPage): Promise<void> {
  assert.deepEqual(await panel.problems(), [], 'no CSP violations, page errors or console errors');
  const inline = await panel.page.evaluate(() =>
    [...document.querySelectorAll('*')].flatMap((element) => [...element.attributes].filter((attribute) => /^on/i.test(attribute.name)).map((attribute) => `${element.tagName}[${attribute.name}]`)),
  );
  assert.deepEqual(inline, [], 'no inline event handler attributes');
}

function byTestId(page: Page, id: string, extra = '') {
  return page.locator(`[data-testid="${id}"]${extra}`);
}

function color(page: Page, selector: string): Promise<string> {
  return page.locator(selector).first().evaluate((element) => getComputedStyle(element).color);
}

describe('play panel webview', { timeout: 120_000 }, () => {
  test('posts ready before anything else, then draws the snapshot', async () => {
    const panel = await open();
    assert.deepEqual(await panel.posted(), [{ type: 'ready' }]);
    await panel.send({ type: 'snapshot', snapshot: snapshot(preview.origin) });
    const { page } = panel;

    assert.equal(await byTestId(page, PlayPanelTestId.playerEntry).count(), 2);
    assert.deepEqual(await byTestId(page, PlayPanelTestId.narrationEntry).evaluateAll((entries) => entries.map((entry) => [(entry as HTMLElement).dataset['turnIndex'], (entry as HTMLElement).dataset['narrator']])), [
      ['1', 'pattern'],
      ['2', 'pattern'],
    ]);
    const dice = byTestId(page, PlayPanelTestId.diceRoll);
    assert.equal(await dice.count(), 1);
    assert.match(await dice.innerText(), /1d20\+3/);
    assert.match(await dice.innerText(), /17/);
    assert.equal(await dice.locator('.codicon').count(), 1);

    const assets = byTestId(page, PlayPanelTestId.asset);
    assert.equal(await assets.count(), 3);
    assert.equal(await assets.nth(0).locator('img').getAttribute('src'), `${preview.origin}/media/portrait.svg`);
    assert.equal(await assets.nth(1).locator('audio').evaluate((audio) => (audio as HTMLAudioElement).controls), true);
    const placeholder = assets.nth(2);
    assert.equal(await placeholder.locator('img, audio, video').count(), 0);
    assert.match(await placeholder.innerText(), /keep-map\.png/);
    assert.match(await placeholder.innerText(), /outside the workspace/);
    assert.match(await placeholder.innerText(), /image\/png/);

    const choiceButtons = byTestId(page, PlayPanelTestId.choiceButton);
    assert.equal(await choiceButtons.count(), 3, 'only the last turn offers buttons');
    assert.deepEqual(await choiceButtons.evaluateAll((buttons) => buttons.map((button) => [button.tagName, (button as HTMLElement).dataset['turnIndex'], (button as HTMLElement).dataset['choiceIndex']])), [
      ['BUTTON', '2', '0'],
      ['BUTTON', '2', '1'],
      ['BUTTON', '2', '2'],
    ]);
    assert.match(await choiceButtons.nth(0).innerText(), /guard may hear you/, 'consequence hints from narrative_choice');
    assert.match(await page.locator('.turn[data-turn-index="1"] .past-choices .is-chosen').innerText(), /Pick the lock on the gate/, 'older turns mark the taken choice');

    const attempts = byTestId(page, PlayPanelTestId.turnAttempts);
    assert.equal(await attempts.count(), 2);
    const second = attempts.nth(1);
    assert.match(await second.innerText(), /Pattern narrator/);
    assert.match(await second.innerText(), /2 attempts/);
    assert.match(await second.innerText(), /disabled: npc-perception/);
    await second.locator('.attempts-toggle').click();
    assert.equal(await second.locator('.attempt').count(), 2);
    assert.match(await second.locator('.attempt').nth(0).innerText(), /Attempt 1 — failed[\s\S]*Failed: perceive/);

    const notice = byTestId(page, PlayPanelTestId.errorNotice);
    assert.match(await notice.innerText(), /npc-perception failed \(process_error\): perceive\.js exited with code 3/);
    assert.match(await notice.innerText(), /The story continued \(replanned, 2 attempts\)/);

    const narrator = byTestId(page, PlayPanelTestId.narratorStatus);
    assert.match(await narrator.innerText(), /Pattern narrator/);
    assert.match((await narrator.getAttribute('title')) ?? '', /Download Narrator Model/);
    assert.equal(await page.locator('.skills-strip .skill-dot').count(), 7);

    assert.equal(await byTestId(page, PlayPanelTestId.toolRow, ':visible').count(), 4, 'the last attempt of the last turn, as recorded');
    assert.equal(await byTestId(page, PlayPanelTestId.sendButton).isDisabled(), true, 'nothing typed yet');
    assert.equal(await byTestId(page, PlayPanelTestId.busyIndicator).isVisible(), false);

    const story = byTestId(page, PlayPanelTestId.story);
    await page.waitForFunction(() => {
      const element = document.querySelector('[data-testid="story"]')!;
      return element.scrollHeight - element.scrollTop - element.clientHeight < 4;
    });
    assert.ok(await story.evaluate((element) => element.scrollHeight > element.clientHeight), 'the story overflows and shows its newest part');
    await panel.screenshot('dark-wide');
    await noteTestIds(page);
    await assertClean(panel);
  });

  test('a choice button posts choose with its turn and choice index', async () => {
    const panel = await openWithSession();
    await byTestId(panel.page, PlayPanelTestId.choiceButton).nth(1).click();
    const firstTurn = byTestId(panel.page, PlayPanelTestId.turnAttempts).first();
    await firstTurn.locator('.attempts-toggle').click();
    await firstTurn.getByRole('button', { name: 'Open turn details' }).click();
    assert.deepEqual((await panel.posted()).slice(1), [
      { type: 'choose', turnIndex: 2, choiceIndex: 1 },
      { type: 'showDetails', turnIndex: 1 },
    ]);
  });

  test('Enter sends, Shift+Enter breaks the line, arrows walk the history, history and draft survive a reload', async () => {
    const panel = await openWithSession();
    const { page } = panel;
    const input = byTestId(page, PlayPanelTestId.input);
    assert.equal(await input.evaluate((element) => element.tagName), 'TEXTAREA');
    await input.click();
    await page.keyboard.type('open the gate');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('quietly');
    assert.equal(await input.inputValue(), 'open the gate\nquietly');
    assert.equal(((await panel.savedState()) as { draft: string }).draft, 'open the gate\nquietly', 'the draft is saved as it is typed');
    assert.equal(await byTestId(page, PlayPanelTestId.sendButton).isEnabled(), true);
    await page.keyboard.press('Enter');
    await page.keyboard.type('wait for the guard');
    await byTestId(page, PlayPanelTestId.sendButton).click();
    await page.keyboard.type('wait for the guard');
    await page.keyboard.press('Enter');
    assert.deepEqual((await panel.posted()).slice(1), [
      { type: 'play', input: 'open the gate\nquietly' },
      { type: 'play', input: 'wait for the guard' },
      { type: 'play', input: 'wait for the guard' },
    ]);
    assert.equal(await input.inputValue(), '');
    const saved = (await panel.savedState()) as { inputHistory: string[]; draft: string };
    assert.deepEqual(saved.inputHistory, ['open the gate\nquietly', 'wait for the guard'], 'no consecutive duplicates');
    assert.equal(saved.draft, '');

    await page.keyboard.type('half-typed');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowUp');
    assert.equal(await input.inputValue(), 'wait for the guard');
    await page.keyboard.press('ArrowUp');
    assert.equal(await input.inputValue(), 'open the gate\nquietly');
    await page.keyboard.press('ArrowUp');
    assert.equal(await input.inputValue(), 'open the gate\nquietly', 'stays at the oldest entry');
    await page.keyboard.press('ArrowDown');
    assert.equal(await input.inputValue(), 'wait for the guard');
    await page.keyboard.press('ArrowDown');
    assert.equal(await input.inputValue(), 'half-typed', 'back to the unsent text');

    const reloaded = await openWithSession({ savedState: await panel.savedState() });
    const reloadedInput = byTestId(reloaded.page, PlayPanelTestId.input);
    assert.equal(await reloadedInput.inputValue(), 'half-typed', 'the draft is restored');
    await reloadedInput.fill('');
    await reloadedInput.press('ArrowUp');
    assert.equal(await reloadedInput.inputValue(), 'wait for the guard', 'the history is restored');

    const history = Array.from({ length: 60 }, (_, index) => `action ${index}`);
    const full = await openWithSession({ savedState: { inputHistory: history, draft: 7, expandedStatePaths: 'nope' } });
    const fullInput = byTestId(full.page, PlayPanelTestId.input);
    assert.equal(await fullInput.inputValue(), '', 'a malformed draft is ignored');
    await fullInput.fill('one more');
    await fullInput.press('Enter');
    const capped = (await full.savedState()) as { inputHistory: string[] };
    assert.equal(capped.inputHistory.length, 50);
    assert.equal(capped.inputHistory.at(-1), 'one more');
  });

  test('the error notice shows details, retries, and stays dismissed', async () => {
    const panel = await openWithSession();
    const { page } = panel;
    const notice = byTestId(page, PlayPanelTestId.errorNotice);
    await notice.getByRole('button', { name: 'Show details' }).click();
    await notice.getByRole('button', { name: 'Retry' }).click();
    assert.deepEqual((await panel.posted()).slice(1), [
      { type: 'showDetails', turnIndex: 2 },
      { type: 'play', input: 'Pick the lock on the gate' },
    ]);
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    assert.equal(await notice.count(), 0);
    const saved = (await panel.savedState()) as { dismissedNotices: string[] };
    assert.deepEqual(saved.dismissedNotices, ['turn-errors:session-lantern-keep:2']);

    const reloaded = await openWithSession({ savedState: saved });
    assert.equal(await byTestId(reloaded.page, PlayPanelTestId.errorNotice).count(), 0, 'still dismissed after a reload');
  });

  test('the state inspector marks and expands changed keys, toggles with the keyboard and remembers', async () => {
    const panel = await openWithSession();
    const { page } = panel;
    const inspector = byTestId(page, PlayPanelTestId.stateInspector);
    const rows = inspector.locator(`[data-testid="${PlayPanelTestId.stateRow}"]`);
    assert.deepEqual(await rows.evaluateAll((found) => found.filter((row) => (row as HTMLElement).dataset['changed'] === 'true').map((row) => (row as HTMLElement).dataset['keyPath'])), ['dice', 'choices', 'flags']);
    assert.match(await inspector.locator('[data-key-path="dice"]').innerText(), /changed/);
    const changedBackground = await inspector.locator('[data-key-path="dice"]').evaluate((row) => getComputedStyle(row).backgroundColor);
    const plainBackground = await inspector.locator('[data-key-path="player"]').evaluate((row) => getComputedStyle(row).backgroundColor);
    assert.notEqual(changedBackground, plainBackground, 'changed keys are highlighted');

    const lastRoll = inspector.locator('[data-key-path="dice.lastRoll"]');
    assert.equal(await lastRoll.isVisible(), true, 'changed keys open one level');
    assert.equal(await lastRoll.getAttribute('aria-expanded'), 'false');
    assert.equal(await inspector.locator('[data-key-path="dice.lastRoll.total"]').count(), 0);
    assert.equal(await inspector.locator('[data-key-path="flags.gateOpen"] .value-boolean').innerText(), 'true');

    await lastRoll.focus();
    await page.keyboard.press('Enter');
    assert.equal(await inspector.locator('[data-key-path="dice.lastRoll"]').getAttribute('aria-expanded'), 'true');
    assert.equal(await inspector.locator('[data-key-path="dice.lastRoll.total"] .value-number').innerText(), '17');
    assert.equal(await inspector.locator('[data-key-path="dice.lastRoll.reason"] .value-string').innerText(), '"pick the lock"');
    assert.equal(await inspector.locator('[data-key-path="dice.lastRoll.label"] .value-null').innerText(), 'null');
    assert.notEqual(await color(page, '.value-string'), await color(page, '.value-number'), 'JSON-ish colouring');

    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement).dataset['keyPath']), 'dice.lastRoll.formula');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement).dataset['keyPath']), 'dice.lastRoll', 'ArrowLeft goes to the parent');
    await page.keyboard.press('Home');
    await page.keyboard.press(' ');
    assert.equal(await inspector.locator('[data-key-path="player"]').getAttribute('aria-expanded'), 'true');
    assert.equal(await inspector.locator('[data-key-path="player.inventory"]').isVisible(), true);
    assert.equal(await inspector.locator('[data-key-path="player"]').getAttribute('role'), 'treeitem');

    const saved = (await panel.savedState()) as { expandedStatePaths: string[] };
    assert.deepEqual([...saved.expandedStatePaths].sort(), ['choices', 'dice', 'dice.lastRoll', 'flags', 'player']);

    const reloaded = await openWithSession({ savedState: saved }, { changedKeys: [] });
    assert.equal(await reloaded.page.locator('[data-key-path="dice.lastRoll.total"]').isVisible(), true, 'expanded paths survive a reload');
  });

  test('a streamed turn: busy indicator, cancel, live tools with logs, replans folded, then the finished turn', async () => {
    const panel = await openWithSession();
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
    await byTestId(page, PlayPanelTestId.cancelButton).click();
    assert.deepEqual((await panel.posted()).slice(1), [{ type: 'cancel' }]);

    const firstTools: ToolRunView[] = [toolRun(1, 'roll', 'dice-roller', 'pending'), toolRun(1, 'perceive', 'npc-perception', 'pending'), toolRun(1, 'narrate', 'storyteller', 'pending')];
    await panel.send(
      { type: 'attemptStarted', attempt: 1, planId: 'turn-3-guardhouse', narrator: 'pattern', tools: firstTools },
      { type: 'toolUpdated', tool: toolRun(1, 'roll', 'dice-roller', 'running', { logLines: [{ level: 'info', text: 'Rolled 1d20 for search: [20] = 20' }] }) },
      { type: 'toolUpdated', tool: toolRun(1, 'roll', 'dice-roller', 'succeeded', { durationMs: 84, logLines: [{ level: 'info', text: 'Rolled 1d20 for search: [20] = 20' }] }) },
      { type: 'toolUpdated', tool: toolRun(1, 'perceive', 'npc-perception', 'retrying', { retries: 1 }) },
    );
    const perceive = byTestId(page, PlayPanelTestId.toolRow, '[data-tool-id="perceive"][data-attempt="1"]');
    assert.equal(await perceive.getAttribute('data-status'), 'retrying');
    assert.match(await perceive.innerText(), /retry 1/);
    assert.equal(await page.locator('[data-tool-id="roll"] .status-succeeded').count(), 1);
    assert.equal(await color(page, '[data-tool-id="roll"] .status-succeeded'), 'rgb(115, 201, 145)', 'succeeded uses --vscode-testing-iconPassed');
    assert.equal(await page.locator('[data-tool-id="roll"] .tool-log').isVisible(), false, 'logs start collapsed');

    await panel.send({
      type: 'toolUpdated',
      tool: toolRun(1, 'perceive', 'npc-perception', 'timedOut', {
        retries: 1,
        durationMs: 5004,
        error: { category: 'timeout', message: 'perceive took longer than 5 s and was stopped' },
        logLines: [
          { level: 'debug', text: 'loading attitudes for 2 NPCs' },
          { level: 'warn', text: 'no attitude for "gatekeeper", assuming neutral' },
          { level: 'stderr', text: 'TypeError: Cannot read properties of undefined (reading \'attitude\')' },
        ],
      }),
    });
    assert.equal(await perceive.getAttribute('data-status'), 'timedOut');
    assert.equal(await color(page, '[data-tool-id="perceive"] .status-timedOut'), 'rgb(241, 76, 76)', 'failures use --vscode-testing-iconFailed');
    await perceive.locator('.tool-row-head').click();
    assert.equal(await perceive.locator('.tool-log').isVisible(), true);
    assert.equal(await perceive.locator('.log-line').count(), 3);
    assert.equal(await color(page, '[data-tool-id="perceive"] .level-stderr .log-text'), 'rgb(248, 81, 73)', 'error lines are red');
    await panel.send({ type: 'toolUpdated', tool: toolRun(1, 'narrate', 'storyteller', 'skipped') });
    assert.equal(await perceive.locator('.tool-log').isVisible(), true, 'an open log stays open across updates');

    await panel.send(
      { type: 'attemptFinished', attempt: { attempt: 1, planId: 'turn-3-guardhouse', narrator: 'pattern', outcome: 'failed', failedTools: ['perceive'], disabledSkills: [], tools: ['roll', 'perceive', 'narrate'] } },
      {
        type: 'attemptStarted',
        attempt: 2,
        planId: 'turn-3-guardhouse-r1',
        narrator: 'pattern',
        tools: [toolRun(2, 'roll', 'dice-roller', 'succeeded', { durationMs: 71 }), toolRun(2, 'narrate', 'storyteller', 'running', { logLines: [{ level: 'info', text: 'Telling the search with a natural 20' }] })],
      },
      { type: 'stateChanged', state: { ...sessionState, player: { name: 'Mara Quill', hp: 9, maxHp: 12, inventory: ['lockpicks', 'storm lantern', 'rope (30 ft)', 'ring of keys'] } }, changedKeys: ['player'] },
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
    await noteTestIds(page);

    const finished = turnThree([
      { attempt: 1, planId: 'turn-3-guardhouse', narrator: 'pattern', outcome: 'failed', failedTools: ['perceive'], disabledSkills: [], tools: ['roll', 'perceive', 'narrate'] },
      { attempt: 2, planId: 'turn-3-guardhouse-r1', narrator: 'pattern', outcome: 'success', failedTools: [], disabledSkills: ['npc-perception'], tools: ['roll', 'narrate'] },
    ]);
    // The reader scrolled up to reread: the new turn does not pull them down, a button offers to.
    await byTestId(page, PlayPanelTestId.story).evaluate((story) => new Promise((resolve) => {
      story.addEventListener('scroll', resolve, { once: true });
      setTimeout(resolve, 1_000);
      story.scrollTop = 0;
    }));
    await panel.send({ type: 'turnFinished', turn: finished, state: sessionState, maxAttemptsReached: false });
    const jump = page.getByRole('button', { name: 'New narration' });
    assert.equal(await jump.isVisible(), true);
    assert.equal(await byTestId(page, PlayPanelTestId.story).evaluate((story) => story.scrollTop), 0);
    await jump.click();
    await page.waitForFunction(() => {
      const story = document.querySelector('[data-testid="story"]')!;
      return story.scrollHeight - story.scrollTop - story.clientHeight < 4;
    });
    assert.equal(await jump.isVisible(), false);
    assert.equal(await busy.isVisible(), false);
    assert.equal(await byTestId(page, PlayPanelTestId.narrationEntry).count(), 3);
    assert.equal(await page.locator('.turn.is-pending').count(), 0);
    assert.deepEqual(await byTestId(page, PlayPanelTestId.choiceButton).evaluateAll((buttons) => buttons.map((button) => (button as HTMLElement).dataset['turnIndex'])), ['3', '3', '3']);
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
    const panel = await openWithSession();
    const { page } = panel;
    await page.locator(`[data-testid="${PlayPanelTestId.input}"]`).focus();
    await panel.send({ type: 'turnStarted', input: 'Storm the inner ward', index: 3 }, { type: 'turnFinished', turn: maxReplanTurn(3), state: sessionState, maxAttemptsReached: true });
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
    await noteTestIds(page);

    await page.keyboard.press('Escape');
    assert.equal(await dialog.isVisible(), false, 'Escape continues with the fallback');
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset['testid']), PlayPanelTestId.input, 'focus goes back');
    assert.deepEqual((await panel.posted()).slice(1), []);

    await panel.send({ type: 'turnFinished', turn: maxReplanTurn(3), state: sessionState, maxAttemptsReached: true });
    await dialog.getByRole('button', { name: 'Restart session' }).click();
    await panel.send({ type: 'turnFinished', turn: maxReplanTurn(3), state: sessionState, maxAttemptsReached: true });
    await dialog.getByRole('button', { name: 'View details' }).click();
    await panel.send({ type: 'turnFinished', turn: maxReplanTurn(3), state: sessionState, maxAttemptsReached: true });
    await dialog.getByRole('button', { name: 'Continue with fallback' }).click();
    assert.deepEqual((await panel.posted()).slice(1), [{ type: 'restart' }, { type: 'showDetails', turnIndex: 3 }]);
    assert.equal(await dialog.isVisible(), false);
  });

  test('an untrusted workspace shows the trust banner and disables playing', async () => {
    const panel = await openWithSession({}, { trusted: false });
    const { page } = panel;
    const banner = byTestId(page, PlayPanelTestId.trustBanner);
    assert.equal(await banner.isVisible(), true);
    assert.match(await banner.innerText(), /This workspace is not trusted, so Narratoria runs no skill scripts and loads no model\. You can still read the story and its state\./);
    assert.equal(await byTestId(page, PlayPanelTestId.input).isDisabled(), true);
    assert.equal(await byTestId(page, PlayPanelTestId.sendButton).isDisabled(), true);
    assert.equal(await byTestId(page, PlayPanelTestId.choiceButton).first().isDisabled(), true);
    assert.equal(await byTestId(page, PlayPanelTestId.errorNotice).getByRole('button', { name: 'Retry' }).isDisabled(), true);
    assert.equal(await byTestId(page, PlayPanelTestId.stateRow).first().isVisible(), true, 'the state can still be read');
    await panel.screenshot('dark-untrusted');
    await noteTestIds(page);
    await banner.getByRole('button', { name: 'Manage Workspace Trust' }).click();
    assert.deepEqual((await panel.posted()).slice(1), [{ type: 'manageTrust' }]);

    await panel.send({ type: 'trustChanged', trusted: true });
    assert.equal(await banner.isVisible(), false);
    assert.equal(await byTestId(page, PlayPanelTestId.input).isEnabled(), true);
    assert.equal(await byTestId(page, PlayPanelTestId.choiceButton).first().isEnabled(), true);
  });

  test('header: Restart, Show Logs, skills strip, narrator download progress', async () => {
    const panel = await openWithSession();
    const { page } = panel;
    await byTestId(page, PlayPanelTestId.restartButton).click();
    await page.getByRole('button', { name: 'Show Logs' }).click();
    await page.locator('.skill-dot[data-skill="npc-perception"]').click();
    assert.deepEqual((await panel.posted()).slice(1), [{ type: 'restart' }, { type: 'showLogs' }, { type: 'openSkill', skill: 'npc-perception' }]);
    assert.match((await page.locator('.skill-dot[data-skill="npc-perception"]').getAttribute('title')) ?? '', /temporarily failing/);

    await panel.send({ type: 'narratorChanged', narrator: { state: 'downloading', label: 'Downloading Phi-3.5-mini', detail: '1.1 GB of 2.4 GB', percent: 42.4 } });
    const narrator = byTestId(page, PlayPanelTestId.narratorStatus);
    assert.match(await narrator.innerText(), /Downloading Phi-3\.5-mini\s*42%/);
    assert.equal(await narrator.getAttribute('data-state'), 'downloading');
    await panel.send({ type: 'skillsChanged', skills: [{ name: 'dice-roller', displayName: 'Dice Roller', health: 'permanentFailure' }] });
    assert.equal(await page.locator('.skill-dot').count(), 1);
    assert.match(await page.locator('.skill-dot').innerText(), /Dice Roller/);
  });

  test('a turn that cannot run shows a notice with Retry; a restart snapshot clears the story', async () => {
    const panel = await openWithSession();
    const { page } = panel;
    await panel.send({ type: 'turnStarted', input: 'listen at the door', index: 3 }, { type: 'turnFailed', message: 'The skills folder could not be read' });
    const notice = byTestId(page, PlayPanelTestId.errorNotice);
    assert.equal(await notice.getAttribute('data-kind'), 'turnFailed');
    assert.match(await notice.innerText(), /The turn could not be played: The skills folder could not be read\./);
    assert.equal(await byTestId(page, PlayPanelTestId.busyIndicator).isVisible(), false);
    await notice.getByRole('button', { name: 'Retry' }).click();
    assert.deepEqual((await panel.posted()).slice(1), [{ type: 'play', input: 'listen at the door' }]);

    await panel.send({ type: 'snapshot', snapshot: snapshot(preview.origin, { sessionId: 'session-2', turns: [], state: {}, changedKeys: [], notice: 'The saved session could not be read and was set aside as session.json.bad.' }) });
    assert.equal(await byTestId(page, PlayPanelTestId.narrationEntry).count(), 0);
    assert.equal(await byTestId(page, PlayPanelTestId.errorNotice).count(), 0);
    assert.match(await page.locator('.story-empty').innerText(), /Your story starts here/);
    assert.match(await page.locator('.banner-info').innerText(), /set aside/);
    await panel.screenshot('dark-new-session');
    await page.locator('.banner-info').getByRole('button', { name: 'Dismiss' }).click();
    assert.equal(await page.locator('.banner-info').isVisible(), false);
  });

  test('after a reload mid-turn the snapshot shows the running turn', async () => {
    const panel = await openWithSession({}, { busy: true, runningInput: 'climb the wall' });
    const { page } = panel;
    assert.match(await byTestId(page, PlayPanelTestId.busyIndicator).innerText(), /Running turn 3…/);
    assert.match(await page.locator('.turn.is-pending').innerText(), /climb the wall/);
    assert.equal(await byTestId(page, PlayPanelTestId.errorNotice).count(), 0);
  });

  test('story text is text: markup in inputs, narration and state never becomes elements', async () => {
    const hostile = '<img src="x" onerror="window.__pwned = 1"><b>bold</b>';
    const base = snapshot(preview.origin);
    const turns = base.turns.map((turn) => ({ ...turn, input: hostile, narrative: hostile, choices: [hostile] }));
    const panel = await open();
    await panel.send({ type: 'snapshot', snapshot: { ...base, turns, state: { [hostile]: hostile } } });
    const { page } = panel;
    assert.equal(await page.locator('img[src="x"], b').count(), 0);
    assert.match(await byTestId(page, PlayPanelTestId.narrationEntry).first().innerText(), /<img src="x"/);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    await assertClean(panel);
  });

  test('every PlayPanelTestId appears in the panel', () => {
    const missing = Object.values(PlayPanelTestId).filter((id) => !seenTestIds.has(id));
    assert.deepEqual(missing, []);
  });
});
