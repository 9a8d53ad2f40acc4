// Play panel webview in a real (headless) Chromium: what a turn says when the local model fell back (too slow, not ready, another reason).
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { PlayPanelTestId } from '../../src/protocol/playPanelDom.js';
import type { AttemptView } from '../../src/protocol/playPanelMessages.js';
import { budgetTimeoutReason, preparationTimeoutReason } from '../../src/runtime/narrator/fallbackReasons.js';
import { turnThree } from './playPanelFixtures.js';
import { assertClean, byTestId, PlayPanelTestKit } from './playPanelTestKit.js';

const kit = new PlayPanelTestKit();
before(() => kit.start());
after(() => kit.stop());

function fellBack(reason: string): AttemptView {
  return {
    attempt: 1,
    planId: 'turn-3-guardhouse',
    narrator: 'pattern',
    fallbackReason: reason,
    outcome: 'success',
    failedTools: [],
    disabledSkills: [],
    tools: ['roll', 'narrate'],
  };
}

// Margin: 120 s per test is a safety net against a stuck page; every check waits for a condition, not a time.
describe('play panel webview: the local model fell back', { timeout: 120_000 }, () => {
  test('a turn whose budget ran out says the local model was too slow, and keeps the reason', async () => {
    const reason = budgetTimeoutReason(5000, 812);
    const panel = await kit.openWithSession({}, { turns: [turnThree([fellBack(reason)])] });
    const { page } = panel;
    const line = byTestId(page, PlayPanelTestId.turnAttempts, '[data-turn-index="3"]');
    assert.equal(
      (await line.locator('.attempts-fallback-reason').innerText()).trim(),
      '(the local model was too slow on this turn; the pattern narrator answered)',
    );
    assert.match((await line.locator('.attempts-narrator').getAttribute('title')) ?? '', /no valid plan within 5000 ms/, 'the reason stays in the tooltip');
    await line.locator('.attempts-toggle').click();
    const detail = line.locator('.attempt-fallback');
    assert.equal(await detail.isVisible(), true);
    assert.equal(await detail.innerText(), `The local model was too slow on this turn; the pattern narrator answered (${reason})`);
    await assertClean(panel);
  });

  test('a model still loading says so; any other reason is shown as it is', async () => {
    const notReady = await kit.openWithSession({}, { turns: [turnThree([fellBack(preparationTimeoutReason(20000))])] });
    const first = byTestId(notReady.page, PlayPanelTestId.turnAttempts, '[data-turn-index="3"]');
    assert.equal((await first.locator('.attempts-fallback-reason').innerText()).trim(), '(the local model was not ready yet; the pattern narrator answered)');
    const crashed = await kit.openWithSession({}, { turns: [turnThree([fellBack('worker crashed: the model worker was killed by SIGKILL')])] });
    const second = byTestId(crashed.page, PlayPanelTestId.turnAttempts, '[data-turn-index="3"]');
    assert.equal(
      (await second.locator('.attempts-fallback-reason').innerText()).trim(),
      '(LLM fell back: worker crashed: the model worker was killed by SIGKILL)',
    );
    await assertClean(crashed);
  });
});
