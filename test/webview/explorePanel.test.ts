// The Explore Story report webview in headless Chromium, fed a real exploration of the fault-injection story: the summary, problems, each problem session with its playtest link, what was never reached; strict CSP, dark, light and high-contrast screenshots.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { ExploreTestId, type ExploreReport, type FromExploreView, type ToExploreView } from '../../src/protocol/exploreMessages.js';
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
const root = mkdtempSync(path.join(os.tmpdir(), 'narratoria-explore-view-'));

before(async () => {
  requireBundles('explore.js', 'explore.css', 'codicon.css');
  cpSync(path.join(projectRoot, 'test', 'fixtures', 'explore-story', 'skills'), path.join(root, 'skills'), { recursive: true });
  // A real exploration: the fixture's omen-reader fails one input in twenty, so some sessions have problems.
  report = (await exploreStory({ root, extraSkillRoots: [path.join(projectRoot, 'skills')], runs: 6, turns: 6, seed: 3, jobs: 2, environment: process.env }))
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

async function open(theme: PreviewTheme, height = 900): Promise<PreviewPage<ToExploreView, FromExploreView>> {
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.setViewportSize({ width: 1100, height });
  await page.goto(`${origin}/panel.html?theme=${theme}`, { waitUntil: 'load' });
  await waitForReady(page);
  const panel = previewPage<ToExploreView, FromExploreView>(page, errors);
  await panel.send({ type: 'report', report, running: false });
  return panel;
}

test('the report of a real exploration: its summary, problems, problem sessions with their playtests, and what was never reached', async () => {
  assert.ok(report.problems.total > 0, 'the fixture story fails one input in twenty, so the exploration finds problems');
  const panel = await open('dark');
  const page = panel.page;
  try {
    assert.match(
      await page.getByTestId(ExploreTestId.summary).innerText(),
      new RegExp(`${report.problems.total} problems? in ${report.sessions.withProblems} sessions?`),
    );
    assert.match(
      await page.getByTestId(ExploreTestId.summary).innerText(),
      new RegExp(`${report.sessions.played} sessions and ${report.sessions.turns} turns played`),
    );
    assert.match(await page.getByTestId(ExploreTestId.problems).innerText(), /Tool failures/);
    assert.equal(await page.getByTestId(ExploreTestId.failedSession).count(), report.failedSessions.length);
    const first = report.failedSessions[0]!;
    assert.ok(first.playtest, 'each problem session is saved as a playtest');
    await page.getByTestId(ExploreTestId.failedSession).first().locator('summary').first().click();
    await page.getByTestId(ExploreTestId.openPlaytest).first().click();
    assert.deepEqual(
      (await panel.posted()).filter((message) => message.type === 'openPlaytest'),
      [{ type: 'openPlaytest', playtest: first.playtest }],
    );
    assert.equal(await page.getByTestId(ExploreTestId.neverSelected).locator('li').count(), report.neverSelectedSkills.length);
    assert.equal(await page.getByTestId(ExploreTestId.neverRun).locator('li').count(), report.neverRunScripts.length);
    assert.equal(await page.getByTestId(ExploreTestId.scripts).locator('tbody tr').count(), report.scripts.length);
    assert.deepEqual(await panel.problems(), [], 'no CSP violations, page errors or console errors');
    await panel.screenshot('explore-report-dark');
  } finally {
    await page.close();
  }
});

test('light and high-contrast themes; Explore Again asks the extension', async () => {
  for (const theme of ['light', 'highContrast'] as const) {
    const panel = await open(theme);
    try {
      await panel.screenshot(`explore-report-${theme}`);
      assert.deepEqual(await panel.problems(), []);
    } finally {
      await panel.page.close();
    }
  }
  const panel = await open('dark', 600);
  try {
    await panel.page.getByRole('button', { name: 'Explore Again' }).click();
    assert.ok((await panel.posted()).some((message) => message.type === 'exploreAgain'));
  } finally {
    await panel.page.close();
  }
});
