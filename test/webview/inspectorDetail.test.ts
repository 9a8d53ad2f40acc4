// The Inspector's detail pane and stderr lane in headless Chromium: keyboard JSON trees with changed keys, wrapped strings, the play panel's dice card and asset preview, ⚠ for a line over the limit, stderr rows by time; screenshots in dark and light.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { contrastRatio } from './graphPanelTestKit.js';
import { detailRun, IMAGE_URI } from './inspectorDetailFixtures.js';
import { InspectorPanelPreview, inspectorScreenshotDir, type InspectorPreviewPage } from './inspectorPanelPreview.js';

let preview: InspectorPanelPreview;
before(async () => (preview = await InspectorPanelPreview.start()));
after(async () => preview?.close());

async function openRun(theme: 'dark' | 'light' = 'dark'): Promise<InspectorPreviewPage> {
  const panel = await preview.open(theme);
  await panel.send(...detailRun());
  return panel;
}

async function assertClean(panel: InspectorPreviewPage): Promise<void> {
  assert.deepEqual(await panel.problems(), [], 'no CSP violations, page errors or console errors');
  assert.deepEqual(
    (await panel.posted()).filter((message) => message.type === 'viewError'),
    [],
  );
}

const pane = (panel: InspectorPreviewPage) => panel.page.locator('.detail-pane');
const focusedPath = (panel: InspectorPreviewPage) => panel.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset['keyPath']);

test('the table: stderr lines between the stdout rows by time, in their own lane; a line over the limit is ⚠', async () => {
  const panel = await openRun();
  const page = panel.page;
  const cells = (name: string) => page.locator(`.row-spacer .row:not([hidden]) .cell.${name}`).allTextContents();
  assert.deepEqual(await cells('type'), ['log', 'state_patch', 'stderr', 'ui_event', 'asset', 'asset', 'log', 'stderr', 'stderr', 'too_long', 'done']);
  assert.deepEqual(await cells('line'), ['1', '2', '', '3', '4', '5', '6', '', '', '7', '8'], 'stderr lines take no stdout line number');
  assert.deepEqual(await cells('mark'), ['✔', '✔', '', '✔', '✔', '✔', '✔', '', '', '⚠', '✔']);
  assert.equal(
    await page.locator('.row.stderr').nth(2).locator('.cell.summary').innerText(),
    'warning: the exit is blocked',
    'a line split across chunks is one line',
  );
  assert.equal(await page.locator('.row[data-index="6"]').getAttribute('class'), 'row mark-warning');
  await page.locator('.row[data-index="6"]').click();
  assert.match(
    await pane(panel).innerText(),
    /Line 7 · \+0\.034 s · too_long · warning[\s\S]*over the 1000-byte limit[\s\S]*5000 bytes, not kept: over the line limit/,
  );
  assert.match(
    await page.locator('.verdict-card').innerText(),
    /✖ stdout line 7 is 5000 bytes[\s\S]*protocol_violation \(LINE_TOO_LONG\)/,
    'the verdict is still the runtime’s',
  );

  await page.locator('.row.stderr').first().click();
  assert.match(await pane(panel).innerText(), /stderr line 1 · \+0\.009 s[\s\S]*debug: rolling with advantage/);
  assert.equal((await panel.posted()).filter((message) => message.type === 'selectRow').at(-1)?.index, 6, 'a stderr line is no stdout row for the host');
  await page.getByRole('button', { name: 'Show only stderr' }).click();
  assert.deepEqual(await cells('type'), ['stderr', 'stderr', 'stderr']);
  assert.equal(await page.getByLabel('Filter by event type').inputValue(), 'stderr');
  assert.match(await page.locator('.counts').innerText(), /^3 of 11 lines/);
  await page.getByLabel('Search the lines').fill('EXIT');
  assert.deepEqual(await cells('summary'), ['warning: the exit is blocked']);
  await page.getByRole('button', { name: 'Show all lines' }).click();
  assert.deepEqual(await cells('summary'), ['warning: the exit is blocked'], 'the search still applies');
  await page.getByLabel('Search the lines').fill('');
  assert.equal((await cells('type')).length, 11);
  await assertClean(panel);
});

test('the parsed event and the state after a patch are JSON trees the keyboard opens and closes; changed keys are highlighted', async () => {
  const panel = await openRun();
  const page = panel.page;
  await page.locator('.row[data-index="1"]').click();
  const event = page.locator('.detail-pane .event-tree');
  assert.equal(await event.getAttribute('role'), 'tree');
  assert.equal(await event.locator('[data-key-path="patch"]').getAttribute('aria-expanded'), 'true', 'the event’s objects open on selection');
  const weather = event.locator('[data-key-path="patch.weather"]');
  assert.equal(await weather.getAttribute('aria-expanded'), 'false');
  assert.equal(await weather.getAttribute('aria-level'), '2');
  assert.match(await weather.innerText(), /\{sky: "fog", wind: \{…\}, visible: false\}\s*3 keys/, 'a collapsed object previews its fields and counts them');

  await weather.focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await weather.getAttribute('aria-expanded'), 'true');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focusedPath(panel), 'patch.weather.sky');
  assert.equal(await event.locator('[data-key-path="patch.weather.sky"] .value-string').innerText(), '"fog"');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focusedPath(panel), 'patch.weather.wind');
  await page.keyboard.press('Enter');
  assert.equal(await event.locator('[data-key-path="patch.weather.wind.gusts"]').getAttribute('aria-expanded'), 'false');
  assert.match(await event.locator('[data-key-path="patch.weather.wind.gusts"]').innerText(), /Array\(2\) \[14, 18\]/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press(' ');
  assert.equal(await event.locator('[data-key-path="patch.weather.wind.gusts.1"] .value-number').innerText(), '18');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await event.locator('[data-key-path="patch.weather.wind.gusts"]').getAttribute('aria-expanded'), 'false', 'ArrowLeft closes an open node');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focusedPath(panel), 'patch.weather.wind', 'ArrowLeft on a closed node goes to its parent');
  await page.keyboard.press('Home');
  assert.equal(await focusedPath(panel), 'version');
  assert.equal(await page.locator('.row.selected').getAttribute('data-index'), '1', 'tree keys leave the table selection alone');
  const colour = (selector: string) =>
    event
      .locator(selector)
      .first()
      .evaluate((element) => getComputedStyle(element).color);
  assert.notEqual(await colour('.value-string'), await colour('.value-number'), 'scalars are coloured by type');
  assert.notEqual(await colour('.value-boolean'), await colour('.value-number'));

  const state = page.locator('.detail-pane .state-tree');
  assert.deepEqual(await state.locator('[data-changed="true"]').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset['keyPath'])), [
    'weather',
    'score',
  ]);
  assert.match(await state.locator('[data-key-path="weather"]').innerText(), /changed/);
  assert.equal(await state.locator('[data-key-path="weather"]').getAttribute('aria-expanded'), 'true', 'a changed object opens one level');
  const background = (key: string) => state.locator(`[data-key-path="${key}"]`).evaluate((row) => getComputedStyle(row).backgroundColor);
  assert.notEqual(await background('score'), await background('player'), 'changed keys are highlighted');
  assert.equal(await state.locator('[data-key-path="turn"] .value-null').innerText(), 'null');

  // The open paths stay open for the next patch-like selection and the trees are rebuilt for each line.
  await page.locator('.row[data-index="0"]').click();
  assert.equal(await page.locator('.detail-pane .state-tree').count(), 0);
  await page.locator('.row[data-index="1"]').click();
  assert.equal(await page.locator('.detail-pane .event-tree [data-key-path="patch.weather"]').getAttribute('aria-expanded'), 'true');
  await assertClean(panel);
});

test('long strings wrap inside the detail pane; nothing overflows it', async () => {
  const panel = await openRun();
  const page = panel.page;
  await page.locator('.row[data-index="5"]').click();
  const message = page.locator('.detail-pane .event-tree [data-key-path="message"] .value-string');
  const box = (await message.boundingBox())!;
  const paneBox = (await pane(panel).boundingBox())!;
  assert.ok(box.height > 60, `the message wraps onto several lines (${box.height}px high)`);
  assert.ok(box.x + box.width <= paneBox.x + paneBox.width, 'and stays inside the pane');
  assert.ok(await pane(panel).evaluate((element) => element.scrollWidth <= element.clientWidth), 'no horizontal scrolling');
  assert.match(await message.innerText(), /then shrugs\."$/, 'the whole string is shown');
  await assertClean(panel);
});

test('ui_event and asset lines are drawn as the play panel draws them', async () => {
  const panel = await openRun();
  const page = panel.page;
  await page.locator('.row[data-index="2"]').click();
  const dice = page.locator('.detail-pane [data-testid="dice-roll"]');
  assert.equal(await dice.locator('.dice-total').innerText(), '17');
  assert.match(await dice.innerText(), /1d20\+3 · shove the bouncer[\s\S]*14[\s\S]*DC 15 · success/);

  await page.locator('.row[data-index="3"]').click();
  const image = page.locator('.detail-pane [data-testid="asset"] img');
  assert.equal(await image.getAttribute('src'), IMAGE_URI);
  await page.waitForFunction(() => (document.querySelector('.detail-pane [data-testid="asset"] img') as HTMLImageElement | null)?.naturalWidth === 96);
  assert.match(await page.locator('.detail-pane .asset-caption').innerText(), /data\/bouncer\.svg/);

  await page.locator('.row[data-index="4"]').click();
  const placeholder = page.locator('.detail-pane [data-testid="asset"].is-placeholder');
  assert.match(await placeholder.innerText(), /audio\s+audio\/ogg[\s\S]*\/home\/author\/brawl\.ogg[\s\S]*outside the story and the skill folder/i);
  await assertClean(panel);
});

test('light and dark: the stderr lane, trees and cards are readable; screenshots', async () => {
  for (const theme of ['dark', 'light'] as const) {
    const panel = await openRun(theme);
    const page = panel.page;
    await page.locator('.row[data-index="1"]').click();
    const colours = (await page.evaluate(`(() => {
      const pixel = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      const paint = (colour) => { pixel.clearRect(0, 0, 1, 1); pixel.fillStyle = colour; pixel.fillRect(0, 0, 1, 1); return [...pixel.getImageData(0, 0, 1, 1).data.slice(0, 3)]; };
      const colour = (selector) => paint(getComputedStyle(document.querySelector(selector)).color);
      return {
        background: paint(getComputedStyle(document.body).backgroundColor),
        stderrType: colour('.row.stderr .cell.type'),
        stderrText: colour('.row.stderr .cell.summary'),
        key: colour('.event-tree .json-key'),
        string: colour('.event-tree .value-string'),
        number: colour('.event-tree .value-number'),
        count: colour('.event-tree .json-count'),
      };
    })()`)) as Record<string, number[]>;
    for (const part of ['stderrType', 'stderrText', 'key', 'string', 'number', 'count']) {
      const ratio = contrastRatio(colours[part]!, colours.background!);
      assert.ok(ratio >= (part === 'stderrText' ? 4.5 : 3), `${theme}: ${part} contrast ${ratio.toFixed(2)}`);
    }
    await panel.screenshot(path.join(inspectorScreenshotDir, `inspector-detail-tree-${theme}.png`));
    await page.locator('.row[data-index="2"]').click();
    await panel.screenshot(path.join(inspectorScreenshotDir, `inspector-detail-dice-${theme}.png`));
    await page.locator('.row[data-index="3"]').click();
    await page.waitForFunction(() => (document.querySelector('.detail-pane [data-testid="asset"] img') as HTMLImageElement | null)?.complete === true);
    await panel.screenshot(path.join(inspectorScreenshotDir, `inspector-detail-asset-${theme}.png`));
    await page.locator('.row.stderr').nth(1).click();
    await panel.screenshot(path.join(inspectorScreenshotDir, `inspector-stderr-${theme}.png`));
    await assertClean(panel);
  }
});
