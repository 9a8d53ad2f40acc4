// The Explore report of a campaign (headless Chromium), from a real exploration of the complete starter: the Story section, its playtest links; three themes, nothing cut off.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { ExploreTestId, type ExploreReport, type FromExploreView, type ToExploreView } from '../../src/protocol/exploreMessages.js';
import { starterCampaignFiles } from '../../src/runtime/campaign/starterCampaigns.js';
import { exploreStory } from '../../src/runtime/explore/explorer.js';
import {
  closeServer,
  launchPreviewBrowser,
  previewPage,
  previewPageHtml,
  projectRoot,
  requireBundles,
  startPreviewServer,
  waitForReady,
  watchPageErrors,
  type PreviewPage,
} from './previewShell.js';
import type { PreviewTheme } from './vscodeThemes.js';

let server: Server;
let origin: string;
let browser: Browser;
let context: BrowserContext;
let report: ExploreReport;
const root = mkdtempSync(path.join(os.tmpdir(), 'narratoria-explore-story-view-'));

before(async () => {
  requireBundles('explore.js', 'explore.css', 'codicon.css');
  for (const file of starterCampaignFiles('complete')) {
    const target = path.join(root, ...file.path.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.bytes ?? file.text ?? '');
  }
  // A real exploration of the complete starter: beat_003, beat_005 and beat_006 wait on state no sample skill sets.
  report = (await exploreStory({ root, extraSkillRoots: [path.join(projectRoot, 'skills')], runs: 4, turns: 8, seed: 7, jobs: 2, environment: process.env }))
    .report;
  ({ server, origin } = await startPreviewServer((url, pageOrigin) => {
    if (url.pathname !== '/panel.html') return undefined;
    const theme = (url.searchParams.get('theme') ?? 'dark') as PreviewTheme;
    return {
      type: 'text/html; charset=utf-8',
      body: previewPageHtml(pageOrigin, theme, { title: 'Explore Story', stylesheet: 'explore.css', script: 'explore.js', rootId: 'app' }),
    };
  }));
  ({ browser, context } = await launchPreviewBrowser());
});

after(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  if (server) await closeServer(server);
  rmSync(root, { recursive: true, force: true });
});

async function open(theme: PreviewTheme, width = 1100): Promise<PreviewPage<ToExploreView, FromExploreView>> {
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.setViewportSize({ width, height: 1400 });
  await page.goto(`${origin}/panel.html?theme=${theme}`, { waitUntil: 'load' });
  await waitForReady(page);
  const panel = previewPage<ToExploreView, FromExploreView>(page, errors);
  await panel.send({ type: 'report', report, running: false });
  return panel;
}

test('the Story section: the unreached-beat problem, each beat never triggered with its closest session and playtest, skips, endings, median scenes', async () => {
  const story = report.story;
  assert.ok(story, 'the exploration of a campaign reports its story');
  assert.ok(story.neverTriggered.length > 0, 'some beats of the starter wait on state no sample skill sets');
  const panel = await open('dark');
  const page = panel.page;
  try {
    const section = page.getByTestId(ExploreTestId.story);
    assert.match(await section.locator('h2').innerText(), /Story: The Salt Lantern/);
    assert.match(await page.getByTestId(ExploreTestId.storyProblem).innerText(), new RegExp(`no session reached: ${story.neverTriggered.join(', ')}`));
    const never = page.getByTestId(ExploreTestId.neverTriggered).locator('li[data-beat-id]');
    assert.deepEqual(await never.evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset['beatId'])), story.neverTriggered);
    const withPlaytest = story.beats.find((beat) => beat.closest?.playtest);
    assert.ok(withPlaytest, 'the closest session to an unreached beat is saved as a playtest');
    const link = page.locator(`[data-testid="${ExploreTestId.openClosestPlaytest}"][data-beat-id="${withPlaytest.id}"]`);
    assert.match(await link.innerText(), new RegExp(path.basename(withPlaytest.closest!.playtest!).replace(/\./g, '\\.')));
    await link.click();
    assert.deepEqual(
      (await panel.posted()).filter((message) => message.type === 'openPlaytest'),
      [{ type: 'openPlaytest', playtest: withPlaytest.closest!.playtest }],
    );
    // The endings' histogram: a row per ending and one for no ending, their counts summing to the sessions played.
    const rows = page.getByTestId(ExploreTestId.endings).locator('tr');
    assert.equal(await rows.count(), Object.keys(story.endings).length);
    const counts = await rows.locator('td.number:not(.note)').allTextContents();
    assert.equal(
      counts.reduce((sum, count) => sum + Number(count), 0),
      report.sessions.played,
    );
    assert.match(await rows.last().innerText(), /^no ending/);
    // The median scene of each beat that triggered.
    const table = page.getByTestId(ExploreTestId.beatScenes);
    for (const beat of story.beats) {
      const cells = await table.locator(`tr[data-beat-id="${beat.id}"] td`).allTextContents();
      assert.equal(cells[2], beat.medianScene === null ? '\u2013' : String(beat.medianScene), beat.id);
    }
    const skipped = story.beats.filter((beat) => beat.skipped > 0);
    assert.equal(await page.getByTestId(ExploreTestId.skippedBeats).locator('li[data-beat-id]').count(), skipped.length);
    assert.deepEqual(await panel.problems(), [], 'no CSP violations, page errors or console errors');
    await section.scrollIntoViewIfNeeded();
    await panel.screenshot('explore-story-dark');
  } finally {
    await page.close();
  }
});

test('readable in light and high contrast, wide and narrow: no text wider than its box', async () => {
  for (const [theme, width] of [
    ['light', 1100],
    ['highContrast', 1100],
    ['dark', 520],
  ] as const) {
    const panel = await open(theme, width);
    try {
      const overflowing = await panel.page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('[data-testid="explore-story"] *')]
          .filter((element) => element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'visible')
          .map((element) => element.className),
      );
      assert.deepEqual(overflowing, [], `${theme} ${width}`);
      const outside = await panel.page.evaluate(
        () =>
          [...document.querySelectorAll('[data-testid="explore-story"] li, [data-testid="explore-story"] p')].filter(
            (element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1,
          ).length,
      );
      assert.equal(outside, 0, `${theme} ${width}: nothing outside the panel`);
      await panel.page.getByTestId(ExploreTestId.story).scrollIntoViewIfNeeded();
      await panel.screenshot(`explore-story-${theme}-${width}`);
      assert.deepEqual(await panel.problems(), []);
    } finally {
      await panel.page.close();
    }
  }
});
