// Play panel webview in a real (headless) Chromium: a restored session, choices, the input, the error notice, the state inspector, the header.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { PlayPanelTestId } from '../../src/protocol/playPanelDom.js';
import { snapshot } from './playPanelFixtures.js';
import { assertClean, byTestId, color, PlayPanelTestKit, waitForStoryBottom } from './playPanelTestKit.js';

const kit = new PlayPanelTestKit();
before(() => kit.start());
after(() => kit.stop());

// Margin: 120 s per test is a safety net against a stuck page; every check waits for a condition, not a time.
describe('play panel webview: a restored session', { timeout: 120_000 }, () => {
  test('posts ready before anything else, then draws the snapshot', async () => {
    const panel = await kit.open();
    assert.deepEqual(await panel.posted(), [{ type: 'ready' }]);
    await panel.send({ type: 'snapshot', snapshot: snapshot(kit.origin) });
    const { page } = panel;

    assert.equal(await byTestId(page, PlayPanelTestId.playerEntry).count(), 2);
    assert.deepEqual(
      await byTestId(page, PlayPanelTestId.narrationEntry).evaluateAll((entries) =>
        entries.map((entry) => [(entry as HTMLElement).dataset['turnIndex'], (entry as HTMLElement).dataset['narrator']]),
      ),
      [
        ['1', 'pattern'],
        ['2', 'pattern'],
      ],
    );
    const dice = byTestId(page, PlayPanelTestId.diceRoll);
    assert.equal(await dice.count(), 1);
    assert.match(await dice.innerText(), /1d20\+3/);
    assert.match(await dice.innerText(), /17/);
    assert.equal(await dice.locator('.codicon').count(), 1);

    const assets = byTestId(page, PlayPanelTestId.asset);
    assert.equal(await assets.count(), 3);
    assert.equal(await assets.nth(0).locator('img').getAttribute('src'), `${kit.origin}/media/portrait.svg`);
    assert.equal(
      await assets
        .nth(1)
        .locator('audio')
        .evaluate((audio) => (audio as HTMLAudioElement).controls),
      true,
    );
    const placeholder = assets.nth(2);
    assert.equal(await placeholder.locator('img, audio, video').count(), 0);
    assert.match(await placeholder.innerText(), /keep-map\.png/);
    assert.match(await placeholder.innerText(), /outside the workspace/);
    assert.match(await placeholder.innerText(), /image\/png/);

    const choiceButtons = byTestId(page, PlayPanelTestId.choiceButton);
    assert.equal(await choiceButtons.count(), 3, 'only the last turn offers buttons');
    assert.deepEqual(
      await choiceButtons.evaluateAll((buttons) =>
        buttons.map((button) => [button.tagName, (button as HTMLElement).dataset['turnIndex'], (button as HTMLElement).dataset['choiceIndex']]),
      ),
      [
        ['BUTTON', '2', '0'],
        ['BUTTON', '2', '1'],
        ['BUTTON', '2', '2'],
      ],
    );
    assert.match(await choiceButtons.nth(0).innerText(), /guard may hear you/, 'consequence hints from narrative_choice');
    assert.match(
      await page.locator('.turn[data-turn-index="1"] .past-choices .is-chosen').innerText(),
      /Pick the lock on the gate/,
      'older turns mark the taken choice',
    );

    const attempts = byTestId(page, PlayPanelTestId.turnAttempts);
    assert.equal(await attempts.count(), 2);
    const second = attempts.nth(1);
    assert.match(await second.innerText(), /Pattern narrator/);
    assert.match(await second.innerText(), /2 attempts/);
    assert.match(await second.innerText(), /disabled: npc-perception/);
    await second.locator('.attempts-toggle').click();
    assert.equal(await second.locator('.attempt').count(), 2);
    assert.match(await second.locator('.attempt').nth(0).innerText(), /Attempt 1 — failed[\s\S]*Failed: perceive/);
    // Why the pattern narrator chose each tool, one line per tool (play --explain shows the same lines).
    assert.deepEqual(await second.locator('.attempt').nth(1).locator('.attempt-why:not(.is-near-miss) li').allInnerTexts(), [
      'roll ← dice-roller/roll: matched "pick", "lock", "chance" (score 4.2; cues: chance); input: reason ← "the player\'s words", dc ← "15"',
      'narrate ← storyteller/narrate: narrates the outcome of roll',
      'offer ← player-choices/offer: matched "options" (score 2.1; cues: options); script: its example "What are my options?" is the player\'s words',
      'portrait ← character-portraits/portrait: matched "look", "portrait" (score 3.3; cues: appearance)',
    ]);
    // The skills that matched some words and stayed out, in their own list.
    assert.deepEqual(await second.locator('.attempt').nth(1).locator('.attempt-why.is-near-miss li').allInnerTexts(), [
      'memory stayed out: 0.51 < 1 (matched "lock" in the prompt.md only)',
    ]);
    assert.equal(await second.locator('.attempt').nth(1).locator('[aria-label="Skills that matched some words but stayed out"]').count(), 1);
    assert.equal(await second.locator('.attempt').nth(0).locator('.attempt-why').count(), 0, 'no explanation recorded, none shown');
    await second.scrollIntoViewIfNeeded();
    await panel.screenshot('dark-attempt-why');

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
    await waitForStoryBottom(page);
    assert.ok(await story.evaluate((element) => element.scrollHeight > element.clientHeight), 'the story overflows and shows its newest part');
    await panel.screenshot('dark-wide');
    await assertClean(panel);
  });

  test('a choice button posts choose with its turn and choice index', async () => {
    const panel = await kit.openWithSession();
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
    const panel = await kit.openWithSession();
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

    const reloaded = await kit.openWithSession({ savedState: await panel.savedState() });
    const reloadedInput = byTestId(reloaded.page, PlayPanelTestId.input);
    assert.equal(await reloadedInput.inputValue(), 'half-typed', 'the draft is restored');
    await reloadedInput.fill('');
    await reloadedInput.press('ArrowUp');
    assert.equal(await reloadedInput.inputValue(), 'wait for the guard', 'the history is restored');

    const history = Array.from({ length: 60 }, (_, index) => `action ${index}`);
    const full = await kit.openWithSession({ savedState: { inputHistory: history, draft: 7, expandedStatePaths: 'nope' } });
    const fullInput = byTestId(full.page, PlayPanelTestId.input);
    assert.equal(await fullInput.inputValue(), '', 'a malformed draft is ignored');
    await fullInput.fill('one more');
    await fullInput.press('Enter');
    const capped = (await full.savedState()) as { inputHistory: string[] };
    assert.equal(capped.inputHistory.length, 50);
    assert.equal(capped.inputHistory.at(-1), 'one more');
  });

  test('the error notice shows details, retries, and stays dismissed', async () => {
    const panel = await kit.openWithSession();
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

    const reloaded = await kit.openWithSession({ savedState: saved });
    assert.equal(await byTestId(reloaded.page, PlayPanelTestId.errorNotice).count(), 0, 'still dismissed after a reload');
  });

  test('the state inspector marks and expands changed keys, toggles with the keyboard and remembers', async () => {
    const panel = await kit.openWithSession();
    const { page } = panel;
    const inspector = byTestId(page, PlayPanelTestId.stateInspector);
    const rows = inspector.locator(`[data-testid="${PlayPanelTestId.stateRow}"]`);
    assert.deepEqual(
      await rows.evaluateAll((found) =>
        found.filter((row) => (row as HTMLElement).dataset['changed'] === 'true').map((row) => (row as HTMLElement).dataset['keyPath']),
      ),
      ['dice', 'choices', 'flags'],
    );
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

    const reloaded = await kit.openWithSession({ savedState: saved }, { changedKeys: [] });
    assert.equal(await reloaded.page.locator('[data-key-path="dice.lastRoll.total"]').isVisible(), true, 'expanded paths survive a reload');
  });

  test("header: the play-through's name, Continue…, New Game, Show Logs, skills strip, narrator download progress", async () => {
    const panel = await kit.openWithSession();
    const { page } = panel;
    assert.equal(await byTestId(page, PlayPanelTestId.sessionName).innerText(), '2026-11-28-1642');
    await byTestId(page, PlayPanelTestId.continueButton).click();
    await byTestId(page, PlayPanelTestId.newGameButton).click();
    await page.getByRole('button', { name: 'Show Logs' }).click();
    await page.locator('.skill-dot[data-skill="npc-perception"]').click();
    assert.deepEqual((await panel.posted()).slice(1), [
      { type: 'chooseSession' },
      { type: 'newGame' },
      { type: 'showLogs' },
      { type: 'openSkill', skill: 'npc-perception' },
    ]);
    assert.match(
      (await page.locator('.skill-dot[data-skill="npc-perception"]').getAttribute('title')) ?? '',
      /^NPC Perception \(npc-perception\): degraded \(a temporary failure/,
    );

    await panel.send({
      type: 'narratorChanged',
      narrator: { state: 'downloading', label: 'Downloading Phi-3.5-mini', detail: '1.1 GB of 2.4 GB', percent: 42.4 },
    });
    const narrator = byTestId(page, PlayPanelTestId.narratorStatus);
    assert.match(await narrator.innerText(), /Downloading Phi-3\.5-mini\s*42%/);
    assert.equal(await narrator.getAttribute('data-state'), 'downloading');
    // With the local model ready, a turn says the model is choosing skills.
    await panel.send(
      { type: 'narratorChanged', narrator: { state: 'ready', label: 'Phi-3.5-mini ready', detail: 'local model' } },
      { type: 'turnStarted', input: 'I look around', index: 9 },
    );
    assert.match(await page.locator('.turn.is-pending .narration-pending-text').innerText(), /^The local model is choosing skills…/);
    await panel.screenshot('dark-local-model-choosing');
    await panel.send({ type: 'turnFailed', message: 'cancelled' });
    const reason = 'skills/ferryman/skill.json:10:7: MANIFEST_JSON_INVALID: its skill.json is not valid JSON';
    await panel.send({
      type: 'skillsChanged',
      skills: [
        { name: 'dice-roller', displayName: 'Dice Roller', health: 'unusable' },
        { name: 'ferryman', displayName: 'ferryman', health: 'unusable', reason },
      ],
    });
    assert.equal(await page.locator('.skill-dot').count(), 2);
    assert.match(await page.locator('.skill-dot').first().innerText(), /Dice Roller/);
    assert.equal(await page.locator('.skill-dot[data-skill="ferryman"]').getAttribute('data-health'), 'unusable');
    assert.equal(
      await page.locator('.skill-dot[data-skill="ferryman"]').getAttribute('title'),
      `ferryman (ferryman): unusable (${reason}). Click to open the skill.`,
    );
  });

  test('story text is text: markup in inputs, narration and state never becomes elements', async () => {
    const hostile = '<img src="x" onerror="window.__pwned = 1"><b>bold</b>';
    const base = snapshot(kit.origin);
    const turns = base.turns.map((turn) => ({ ...turn, input: hostile, narrative: hostile, choices: [hostile] }));
    const panel = await kit.open();
    await panel.send({ type: 'snapshot', snapshot: { ...base, turns, state: { [hostile]: hostile } } });
    const { page } = panel;
    assert.equal(await page.locator('img[src="x"], b').count(), 0);
    assert.match(await byTestId(page, PlayPanelTestId.narrationEntry).first().innerText(), /<img src="x"/);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    await assertClean(panel);
  });
});
