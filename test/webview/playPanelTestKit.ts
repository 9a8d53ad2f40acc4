// Shared helpers of the play panel browser tests: one preview per test file, panels opened one at a time, DOM checks.
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { snapshot } from './playPanelFixtures.js';
import { PlayPanelPreview, type PreviewOptions, type PreviewPage } from './playPanelPreview.js';

/** A preview (browser + server) for one test file; call `start` in `before` and `stop` in `after`. */
export class PlayPanelTestKit {
  private preview: PlayPanelPreview | undefined;
  private readonly openPages: PreviewPage[] = [];

  async start(): Promise<void> {
    this.preview = await PlayPanelPreview.start();
  }

  async stop(): Promise<void> {
    for (const page of this.openPages.splice(0)) await page.close().catch(() => undefined);
    await this.preview?.close();
  }

  get origin(): string {
    return this.current.origin;
  }

  /** Opens a panel; panels opened earlier are released (read their state before opening the next). */
  async open(options: PreviewOptions = {}): Promise<PreviewPage> {
    for (const page of this.openPages.splice(0)) await page.close();
    const page = await this.current.open(options);
    this.openPages.push(page);
    return page;
  }

  /** Opens a panel and sends the two-turn snapshot (with `overrides`). */
  async openWithSession(options: PreviewOptions = {}, overrides: Parameters<typeof snapshot>[1] = {}): Promise<PreviewPage> {
    const panel = await this.open(options);
    await panel.send({ type: 'snapshot', snapshot: snapshot(this.origin, overrides) });
    return panel;
  }

  private get current(): PlayPanelPreview {
    return this.preview ?? assert.fail('PlayPanelTestKit.start() was not called');
  }
}

/** No CSP violation, page error or console error, and no inline `on*` handler attribute anywhere. */
export async function assertClean(panel: PreviewPage): Promise<void> {
  assert.deepEqual(await panel.problems(), [], 'no CSP violations, page errors or console errors');
  const inline = await panel.page.evaluate(() =>
    [...document.querySelectorAll('*')].flatMap((element) =>
      [...element.attributes].filter((attribute) => /^on/i.test(attribute.name)).map((attribute) => `${element.tagName}[${attribute.name}]`),
    ),
  );
  assert.deepEqual(inline, [], 'no inline event handler attributes');
}

/** The `data-testid` values present in the page. */
export function testIdsIn(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-testid]')].map((element) => element.dataset['testid'] ?? ''));
}

export function byTestId(page: Page, id: string, extra = ''): Locator {
  return page.locator(`[data-testid="${id}"]${extra}`);
}

/** The computed text colour of the first match. */
export function color(page: Page, selector: string): Promise<string> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => getComputedStyle(element).color);
}

/** Resolves once the story shows its bottom. */
export async function waitForStoryBottom(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const story = document.querySelector('[data-testid="story"]')!;
    return story.scrollHeight - story.scrollTop - story.clientHeight < 4;
  });
}
