// Play panel layouts and themes in headless Chromium: two columns when wide, stacked when narrow; screenshots in light, dark and high contrast.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { PlayPanelTestId } from '../../src/protocol/playPanelDom.js';
import { maxReplanTurn, sessionState } from './playPanelFixtures.js';
import type { PreviewOptions, PreviewPage } from './playPanelPreview.js';
import { PlayPanelTestKit } from './playPanelTestKit.js';

const kit = new PlayPanelTestKit();
before(() => kit.start());
after(() => kit.stop());

/** Margin: a safety net so a stuck page fails the test instead of hanging the run, not a time limit (as in the other play panel files). */
const timeout = 120_000;

async function withSession(options: PreviewOptions, check: (panel: PreviewPage) => Promise<void>): Promise<void> {
  const panel = await kit.openWithSession(options);
  await check(panel);
  assert.deepEqual(await panel.problems(), [], 'no CSP violations or page errors');
}

function sideColumn(panel: PreviewPage) {
  return panel.page.evaluate(() => {
    const story = document.querySelector('[data-testid="story"]')!.getBoundingClientRect();
    const side = document.querySelector('.side-column')!.getBoundingClientRect();
    return { storyRight: story.right, storyBottom: story.bottom, sideLeft: side.left, sideTop: side.top, sideWidth: side.width };
  });
}

test('wide: story on the left, tools and state on the right (light theme)', { timeout }, () =>
  withSession({ theme: 'light', width: 1280, height: 800 }, async (panel) => {
    const layout = await sideColumn(panel);
    assert.ok(layout.sideLeft >= layout.storyRight && layout.sideLeft > 700, `two columns (${JSON.stringify(layout)})`);
    await panel.page.locator('.attempt-group[data-attempt="1"] .attempt-header').click();
    await panel.screenshot('light-wide');
  }),
);

test('narrow: tools and state stacked under the story, in dark and light', { timeout }, async () => {
  for (const theme of ['dark', 'light'] as const) {
    await withSession({ theme, width: 560, height: 900 }, async (panel) => {
      const layout = await sideColumn(panel);
      assert.ok(layout.sideTop >= layout.storyBottom, 'stacked');
      assert.equal(layout.sideWidth, 560);
      assert.equal(
        await panel.page.locator(`[data-testid="${PlayPanelTestId.newGameButton}"] .button-label`).isVisible(),
        false,
        'header buttons become icons',
      );
      // Collapsing a section in the narrow layout is remembered for that layout only.
      await panel.page.locator('.section-tools .section-toggle').click();
      assert.equal(await panel.page.locator(`[data-testid="${PlayPanelTestId.toolRow}"]:visible`).count(), 0);
      const saved = (await panel.savedState()) as { collapsedSections: string[] };
      assert.deepEqual(saved.collapsedSections, ['tools@narrow']);
      await panel.screenshot(`${theme}-narrow`);
    });
  }
});

test('high contrast: borders from --vscode-contrastBorder', { timeout }, () =>
  withSession({ theme: 'highContrast', width: 1280, height: 800 }, async (panel) => {
    const border = await panel.page
      .locator('.choice-button')
      .first()
      .evaluate((button) => getComputedStyle(button).borderTopColor);
    assert.equal(border, 'rgb(111, 195, 223)');
    await panel.screenshot('high-contrast-wide');
  }),
);

test('the max-replan dialog in the light theme', { timeout }, () =>
  withSession({ theme: 'light', width: 1280, height: 800 }, async (panel) => {
    await panel.send(
      { type: 'turnStarted', input: 'Storm the inner ward', index: 3 },
      { type: 'turnFinished', turn: maxReplanTurn(3), state: sessionState, maxAttemptsReached: true },
    );
    assert.equal(await panel.page.locator(`[data-testid="${PlayPanelTestId.maxReplanDialog}"]`).isVisible(), true);
    await panel.screenshot('light-max-replan-dialog');
  }),
);
