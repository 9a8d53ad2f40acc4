// The play panel of a campaign (headless Chromium): story header, beat timeline (scene, turn, reason), a turn's beat cards, updates, no campaign; nothing cut off; three themes.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { PlayPanelTestId } from '../../src/protocol/playPanelDom.js';
import { campaignSnapshot, storyAfterSkips } from './playPanelStoryFixtures.js';
import { assertClean, byTestId, PlayPanelTestKit } from './playPanelTestKit.js';

const kit = new PlayPanelTestKit();
before(() => kit.start());
after(() => kit.stop());

/** Margin: a safety net so a stuck page fails the test instead of hanging the run, not a time limit. */
const timeout = 120_000;

/** Elements of the story header, the timeline and the beat cards whose text overflows their box (cut off or spilling out). */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.story-header *, .beat-entry *, .turn-beat *')]
      .filter((element) => element.offsetParent !== null && !element.classList.contains('visually-hidden'))
      .filter((element) => element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'visible')
      .map((element) => `${element.className}: ${element.textContent?.slice(0, 60) ?? ''}`),
  );
}

/** Whether each element's box lies inside the viewport's width (nothing pushed out to the right). */
function insideWidth(page: Page, selector: string): Promise<boolean> {
  return page.evaluate(
    (query) => [...document.querySelectorAll(query)].every((element) => element.getBoundingClientRect().right <= window.innerWidth + 1),
    selector,
  );
}

test('the story header: title, scene, active beat, beats done (their titles), all in view', { timeout }, async () => {
  const panel = await kit.open({ theme: 'dark', width: 1280, height: 800 });
  await panel.send({ type: 'snapshot', snapshot: campaignSnapshot(3) });
  const { page } = panel;
  const header = byTestId(page, PlayPanelTestId.storyHeader);
  assert.equal(await header.isVisible(), true);
  assert.equal(await header.getAttribute('data-scene'), '2');
  const text = (await header.innerText()).replace(/\s+/g, ' ');
  assert.match(text, /The Salt Lantern/);
  assert.match(text, /Scene: 2/);
  assert.match(text, /Active: Tamsin's Bargain/);
  assert.match(text, /Beats done: 2 of 6 \(The Dark Lantern, Tamsin's Bargain\)/);
  assert.deepEqual(await overflowing(page), []);
  assert.equal(await insideWidth(page, '.story-fact'), true);
  await assertClean(panel);
});

test('the beat timeline: each beat with its scene, turn, who told it and the runtime reason; the active one marked', { timeout }, async () => {
  const panel = await kit.open({ theme: 'dark', width: 1280, height: 800 });
  await panel.send({ type: 'snapshot', snapshot: campaignSnapshot(3) });
  const { page } = panel;
  const section = byTestId(page, PlayPanelTestId.beatTimeline);
  assert.equal(await section.isVisible(), true);
  assert.match(await section.locator('.section-description').innerText(), /^2 of 6 done$/);
  const entries = byTestId(page, PlayPanelTestId.beatTimelineEntry);
  assert.equal(await entries.count(), 2);
  assert.deepEqual(
    await entries.evaluateAll((items) => items.map((item) => [item.dataset['beatId'], item.dataset['event'], item.dataset['scene'], item.dataset['turn']])),
    [
      ['beat_001', 'triggered', '1', '2'],
      ['beat_002', 'triggered', '2', '3'],
    ],
  );
  const second = entries.nth(1);
  assert.match(await second.locator('.beat-entry-when').innerText(), /^Scene 2 · turn 3 · told by the storyteller$/);
  assert.match(await second.locator('.beat-entry-reason').innerText(), /requires_beat \(beat_001 done\); player_choice \(chose asked_tamsin_for_help\)/);
  assert.match(await second.innerText(), /Outcome: The player refuses; Tamsin goes alone/);
  assert.equal(await second.evaluate((item) => item.classList.contains('is-active')), true);
  assert.equal(await entries.first().evaluate((item) => item.classList.contains('is-active')), false);
  // The whole reason shows: nothing is cut off with an ellipsis or hidden overflow.
  assert.deepEqual(await overflowing(page), []);
  await assertClean(panel);
});

test("a turn's entry shows the beats it triggered, with why", { timeout }, async () => {
  const panel = await kit.open({ theme: 'dark', width: 1280, height: 800 });
  await panel.send({ type: 'snapshot', snapshot: campaignSnapshot(3) });
  const { page } = panel;
  const cards = byTestId(page, PlayPanelTestId.turnBeat);
  assert.equal(await cards.count(), 2);
  const first = page.locator('article.turn[data-turn-index="2"]').locator(`[data-testid="${PlayPanelTestId.turnBeat}"]`);
  assert.equal(await first.getAttribute('data-beat-id'), 'beat_001');
  assert.match(
    (await first.innerText()).replace(/\s+/g, ' '),
    /^Beat triggered: The Dark Lantern beat_001 Why: its conditions held since scene 1: scene_count \(scene 1, scenes 1-2\)$/,
  );
  assert.equal(await page.locator('article.turn[data-turn-index="1"] .turn-story').count(), 0, 'the opening triggered nothing');
  await assertClean(panel);
});

test('after a turn: the header, the timeline and the new entry follow; skipped beats with their reasons', { timeout }, async () => {
  const panel = await kit.open({ theme: 'light', width: 1280, height: 800 });
  await panel.send({ type: 'snapshot', snapshot: campaignSnapshot(3) });
  const { state, story, turn } = storyAfterSkips();
  await panel.send({ type: 'turnStarted', input: turn.input, index: turn.index }, { type: 'turnFinished', turn, state, maxAttemptsReached: false, story });
  const { page } = panel;
  assert.equal(await byTestId(page, PlayPanelTestId.storyHeader).getAttribute('data-scene'), '7');
  assert.match((await byTestId(page, PlayPanelTestId.storyHeader).innerText()).replace(/\s+/g, ' '), /Skipped: 2/);
  assert.match(await byTestId(page, PlayPanelTestId.beatTimeline).locator('.section-description').innerText(), /^2 of 6 done · 2 skipped$/);
  const skipped = byTestId(page, PlayPanelTestId.beatTimelineEntry, '[data-event="skipped"]');
  assert.deepEqual(await skipped.evaluateAll((items) => items.map((item) => [item.dataset['beatId'], item.dataset['scene'], item.dataset['turn']])), [
    ['beat_004', '7', '8'],
    ['beat_006', '7', '8'],
  ]);
  assert.match(await skipped.first().locator('.beat-entry-reason').innerText(), /its scenes \(3-6\) passed without its other conditions holding/);
  const cards = page.locator(`article.turn[data-turn-index="8"] [data-testid="${PlayPanelTestId.turnBeat}"]`);
  assert.deepEqual(await cards.evaluateAll((items) => items.map((item) => [item.dataset['beatId'], item.dataset['event']])), [
    ['beat_004', 'skipped'],
    ['beat_006', 'skipped'],
  ]);
  assert.deepEqual(await overflowing(page), []);
  await panel.screenshot('story-light-skipped');
  await assertClean(panel);
});

test('a story that is no campaign shows neither the header nor the timeline', { timeout }, async () => {
  const panel = await kit.openWithSession({ theme: 'dark', width: 1280, height: 800 });
  const { page } = panel;
  assert.equal(await byTestId(page, PlayPanelTestId.storyHeader).isVisible(), false);
  assert.equal(await byTestId(page, PlayPanelTestId.beatTimeline).isVisible(), false);
  assert.equal(await byTestId(page, PlayPanelTestId.turnBeat).count(), 0);
  // A campaign snapshot after it (Continue… onto a campaign's play-through) shows them; a plain one hides them again.
  await panel.send({ type: 'snapshot', snapshot: campaignSnapshot(2) });
  assert.equal(await byTestId(page, PlayPanelTestId.storyHeader).isVisible(), true);
  await assertClean(panel);
});

test('readable in dark, light and high contrast, wide and narrow: nothing cut off, nothing outside the panel', { timeout }, async () => {
  for (const theme of ['dark', 'light', 'highContrast'] as const) {
    for (const width of [1280, 560]) {
      const panel = await kit.open({ theme, width, height: 900 });
      await panel.send({ type: 'snapshot', snapshot: campaignSnapshot(3) });
      const { page } = panel;
      assert.deepEqual(await overflowing(page), [], `${theme} ${width}`);
      assert.equal(await insideWidth(page, '.story-fact, .beat-entry, .turn-beat'), true, `${theme} ${width}: inside the panel`);
      // Text against its background: the header's and the timeline's own colours, not only inherited ones.
      const colours = await page.evaluate(() =>
        ['.story-fact-label', '.beat-entry-reason', '.turn-beat-reason'].map((selector) => getComputedStyle(document.querySelector(selector)!).color),
      );
      for (const colour of colours) assert.notEqual(colour, 'rgba(0, 0, 0, 0)', `${theme}: a visible text colour`);
      await panel.screenshot(`story-${theme}-${width === 1280 ? 'wide' : 'narrow'}`);
      await assertClean(panel);
    }
  }
});
