// Plan graph webview looks and heavy paths in headless Chromium: three themes with contrast checks, the timeline, SVG and PNG export, a 1,000-node graph with its minimap.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { FromGraphWebview } from '../../src/protocol/graphPanelMessages.js';
import { STATE_ICONS } from '../../src/webview/common/stateIcons.js';
import { bigPlan, graphMessage, layoutOf, problemPlan, problemSentences, questFinalStates, questPlan, questTimeline } from './graphPanelFixtures.js';
import { GraphPanelPreview, projectRoot, type GraphPreviewPage } from './graphPanelPreview.js';
import { assertClean, contrastRatio, node, nodeColours, textOverflows, viewTransform } from './graphPanelTestKit.js';

let preview: GraphPanelPreview;
before(async () => {
  preview = await GraphPanelPreview.start();
});
after(() => preview?.close());

const questLayout = layoutOf(questPlan);

function postedOf<T extends FromGraphWebview['type']>(messages: FromGraphWebview[], type: T): Extract<FromGraphWebview, { type: T }>[] {
  return messages.filter((message): message is Extract<FromGraphWebview, { type: T }> => message.type === type);
}

async function waitForPosted(panel: GraphPreviewPage, type: FromGraphWebview['type']): Promise<void> {
  // Deterministic: waits for the message itself (PNG export is asynchronous: image decoding, canvas encoding).
  await panel.page.waitForFunction(
    (wanted) => (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === wanted),
    type,
  );
}

// Margin: 180 s per test is a safety net against a stuck page (the 1,000-node layout is computed in Node first); checks wait for conditions.
describe('plan graph webview: looks, timeline, export, big graphs', { timeout: 180_000 }, () => {
  test('readable in dark, light and high contrast: text contrast on nodes, bands and edges, screenshots', async () => {
    for (const theme of ['dark', 'light', 'highContrast'] as const) {
      const panel = await preview.open({ theme });
      await panel.send(graphMessage(layoutOf(problemPlan), { problems: problemSentences }));
      await panel.page.evaluate(() => document.fonts.ready);
      const colours = await nodeColours(panel.page, 'perception');
      const ratio = (a: number[], b: number[]) => Math.round(contrastRatio(a, b) * 100) / 100;
      assert.ok(ratio(colours.title, colours.box) >= 7, `${theme}: toolId on its node (${ratio(colours.title, colours.box)})`);
      assert.ok(ratio(colours.detail, colours.box) >= 4.5, `${theme}: skill · script on its node (${ratio(colours.detail, colours.box)})`);
      assert.ok(ratio(colours.badgeLabel, colours.badge) >= 4.5, `${theme}: badge text on its chip (${ratio(colours.badgeLabel, colours.badge)})`);
      assert.ok(ratio(colours.bandLabel, colours.band) >= 4.5, `${theme}: level label on its band (${ratio(colours.bandLabel, colours.band)})`);
      assert.ok(ratio(colours.edge, colours.background) >= 3, `${theme}: edges against the background (${ratio(colours.edge, colours.background)})`);
      assert.notDeepEqual(colours.title, colours.background);
      if (theme === 'highContrast') {
        const border = await node(panel.page, 'perception')
          .locator('.box')
          .evaluate((box) => getComputedStyle(box).stroke);
        assert.equal(border, 'rgb(111, 195, 223)', 'node borders use --vscode-contrastBorder');
      }
      assert.deepEqual(await textOverflows(panel.page), []);
      await panel.screenshot(`graph-${theme}`);
      await assertClean(panel);
    }
  });

  test('the timeline: a waterfall in start order with attempts and backoff, an axis, concurrency, the critical path in both views', async () => {
    const panel = await preview.open({ width: 1200, height: 900 });
    const { page } = panel;
    await panel.send(graphMessage(questLayout, { source: 'runRecord', timeline: questTimeline }), {
      type: 'runStates',
      states: [...questFinalStates],
      reset: false,
    });
    await page.evaluate(() => document.fonts.ready);
    const section = page.locator('.timeline-section');
    assert.equal(await section.isVisible(), true);
    assert.deepEqual(await page.locator('.timeline-row.tool-row').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset['toolId'])), [
      'recall-ferryman',
      'perception',
      'weather',
      'portrait',
      'persuade-roll',
      'reputation',
      'narrate',
      'ambience',
    ]);
    const perception = page.locator('.tool-row[data-tool-id="perception"]');
    assert.deepEqual(await perception.locator('.bar').evaluateAll((bars) => bars.map((bar) => (bar as Element).className)), [
      'bar bar-failed',
      'bar bar-backoff',
      'bar bar-ok',
    ]);
    const [failed, backoff] = await perception.locator('.bar').evaluateAll((bars) => bars.map((bar) => bar.getBoundingClientRect().toJSON() as DOMRect));
    assert.ok(Math.abs(failed!.right - backoff!.left) < 1, 'the backoff starts where the failed attempt ends');
    assert.match(
      await page.locator('.timeline-summary').innerText(),
      /2\.5 s · 8 tools · at most 3 at once · critical path: recall-ferryman → portrait → narrate → ambience/,
    );
    assert.deepEqual(await page.locator('.timeline-ticks .tick').allTextContents(), ['0', '500 ms', '1 s', '1.5 s', '2 s']);
    assert.equal(await page.locator('.concurrency-max-label').textContent(), 'max 3');
    assert.equal(await page.locator('.concurrency-max-span').count(), 2, 'two spans ran three tools at once');
    assert.deepEqual(
      await page.locator('.tool-row.critical').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset['toolId'])),
      questTimeline.criticalPath,
    );
    assert.deepEqual(
      (await page.locator('.graph-canvas .node.critical').evaluateAll((groups) => groups.map((group) => (group as SVGGElement).dataset['toolId']))).sort(),
      [...questTimeline.criticalPath].sort(),
    );
    assert.deepEqual(
      await page
        .locator('.graph-canvas .edge.critical')
        .evaluateAll((paths) => paths.map((path) => `${path.getAttribute('data-from')}→${path.getAttribute('data-to')}`))
        .then((edges) => edges.sort()),
      ['narrate→ambience', 'portrait→narrate', 'recall-ferryman→portrait'],
    );

    await perception.locator('.bar-backoff').hover();
    await page.waitForFunction(() => document.querySelector('.graph-tooltip .tooltip-title')?.textContent === 'perception: waiting before attempt 2');
    assert.match(await page.locator('.graph-tooltip').innerText(), /start\s+300 ms[\s\S]*end\s+500 ms[\s\S]*duration\s+200 ms/);
    await page.locator('.tool-row[data-tool-id="reputation"] .timeline-label').click();
    assert.equal(await page.locator('.graph-canvas .node.selected').getAttribute('data-tool-id'), 'reputation', 'a row click selects the node');
    assert.match((await page.locator('.tool-row[data-tool-id="reputation"]').getAttribute('class')) ?? '', /\bselected\b/);
    await node(page, 'weather').click();
    assert.match((await page.locator('.tool-row[data-tool-id="weather"]').getAttribute('class')) ?? '', /\bselected\b/, 'and the other way round');
    await page.mouse.move(5, 5);
    await panel.screenshot('graph-timeline');

    await page.locator('.timeline-button').click();
    assert.equal(await page.locator('.timeline-body').isVisible(), false, 'the toolbar toggle collapses it');
    await page.locator('.timeline-collapse').click();
    assert.equal(await page.locator('.timeline-body').isVisible(), true);
    await panel.send({ type: 'runStates', states: [], reset: true });
    assert.equal(await section.isVisible(), false, 'a new run drops the old timeline');
    assert.equal(await page.locator('.graph-canvas .node.critical').count(), 0);
    await panel.send({ type: 'runFinished', timeline: questTimeline });
    assert.equal(await section.isVisible(), true, 'runFinished brings the new one');
    assert.equal(await page.locator('.graph-canvas .node.critical').count(), 4);
    await assertClean(panel);
  });

  test('Export SVG posts a well-formed standalone SVG in the theme colours, with the live states', async () => {
    const panel = await preview.open({ theme: 'light' });
    await panel.send(graphMessage(questLayout), { type: 'runStates', states: [...questFinalStates], reset: false });
    await panel.page.locator('.export-svg').click();
    const [message] = postedOf(await panel.posted(), 'exportSvg');
    assert.ok(message, 'exportSvg was posted');
    const parsed = await preview.parseXml(message.svg);
    assert.equal(parsed.error, null);
    assert.equal(parsed.root, 'svg');
    assert.deepEqual(
      parsed.titles,
      questLayout.nodes.map((item) => item.id),
    );
    assert.equal(parsed.failed, 1, 'the live run is in the export');
    assert.match(message.svg, /--graph-background: #ffffff;/, 'the light theme background, resolved');
    assert.match(message.svg, /--graph-skill-0: #1a85ff;/, 'charts-blue of the light theme');
    assert.doesNotMatch(message.svg, /var\(--vscode/, 'no VS Code variable is left unresolved');
    await assertClean(panel);
  });

  test('Export PNG posts a 2× PNG drawn from that SVG', async () => {
    const panel = await preview.open();
    await panel.send(graphMessage(questLayout));
    await panel.page.locator('.export-png').click();
    await waitForPosted(panel, 'exportPng');
    const [message] = postedOf(await panel.posted(), 'exportPng');
    const png = Buffer.from(message!.base64, 'base64');
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    assert.equal(png.readUInt32BE(16), Math.round(Math.ceil(questLayout.width) * 2), 'width at 2×');
    assert.equal(png.readUInt32BE(20), Math.round(Math.ceil(questLayout.height) * 2), 'height at 2×');
    await assertClean(panel);
  });

  test("under today's CSP (img-src without blob:) Export PNG fails with a viewError naming the directive", async () => {
    const panel = await preview.open({ blobImages: false });
    await panel.send(graphMessage(questLayout));
    await panel.page.locator('.export-png').click();
    await waitForPosted(panel, 'viewError');
    const [error] = postedOf(await panel.posted(), 'viewError');
    assert.match(error!.message, /img-src blob:/);
    assert.deepEqual(postedOf(await panel.posted(), 'exportPng'), []);
    assert.match((await panel.problems()).join('\n'), /CSP: img-src blob\b/, 'the browser blocked exactly that image');
  });

  test('1,000 nodes and 1,500 edges: drawn fast in one pass, live states in place, minimap pans', async () => {
    const started = performance.now();
    const layout = layoutOf(bigPlan(1000, 1500));
    const layoutMs = performance.now() - started;
    assert.equal(layout.nodes.length, 1000);
    assert.equal(layout.edges.length, 1500);
    const panel = await preview.open({ width: 1400, height: 900 });
    const { page } = panel;
    const message = graphMessage(layout, { title: 'big.plan.json' });
    const timing = await page.evaluate(
      (data) =>
        new Promise<{ firstPaint: number; render: number }>((resolve) => {
          const sent = performance.now();
          // Listeners run in the order they were added: the view's handler draws first, then this one waits for the next frame.
          window.addEventListener(
            'message',
            () =>
              requestAnimationFrame(() =>
                setTimeout(
                  () =>
                    resolve({ firstPaint: performance.now() - sent, render: performance.getEntriesByName('narratoria-graph:render').at(-1)?.duration ?? -1 }),
                  0,
                ),
              ),
            { once: true },
          );
          window.postMessage(data, '*');
        }),
      message as unknown,
    );
    console.log(
      `# 1,000 nodes / 1,500 edges: layout ${layoutMs.toFixed(0)} ms in Node; view render ${timing.render.toFixed(0)} ms; message to first paint ${timing.firstPaint.toFixed(0)} ms`,
    );
    assert.equal(await page.locator('.graph-canvas .node').count(), 1000);
    assert.equal(await page.locator('.graph-canvas .edge').count(), 1500);
    assert.equal(await page.locator('.minimap').isVisible(), true);
    await page.evaluate(() => document.fonts.ready);
    const fitted = await viewTransform(page);
    assert.ok(fitted.zoom < 0.2, `a big graph is fitted small (${fitted.zoom})`);
    // Text is measured at 100%: at a tenth of its size Chrome measures glyphs only roughly.
    await page.locator('.zoom-label').click();
    assert.deepEqual(await textOverflows(page), []);
    await page.locator('.fit-button').click();

    // Live states for every node: one message, nodes changed in place.
    await node(page, 'tool-500').evaluate((group) => ((group as unknown as { previewMark: number }).previewMark = 1));
    const states = layout.nodes.map((item, index) => ({
      id: item.id,
      state: index % 10 === 0 ? ('failed' as const) : ('success' as const),
      durationMs: index * 3,
    }));
    const updateMs = await page.evaluate(
      (data) =>
        new Promise<number>((resolve) => {
          const sent = performance.now();
          window.addEventListener('message', () => resolve(performance.now() - sent), { once: true });
          window.postMessage(data, '*');
        }),
      { type: 'runStates', states, reset: true } as unknown,
    );
    console.log(`# runStates for 1,000 nodes applied in ${updateMs.toFixed(0)} ms`);
    assert.equal(await page.locator('.graph-canvas .node[data-state="failed"]').count(), 100);
    assert.equal(await node(page, 'tool-500').evaluate((group) => (group as unknown as { previewMark?: number }).previewMark), 1);
    assert.match((await page.locator('.graph-root > [aria-live="polite"]').textContent()) ?? '', /And 997 more tools changed/);

    const before = await viewTransform(page);
    const minimap = (await page.locator('.minimap canvas').boundingBox())!;
    await page.mouse.click(minimap.x + minimap.width * 0.8, minimap.y + minimap.height * 0.8);
    const after = await viewTransform(page);
    assert.equal(after.zoom, before.zoom);
    assert.notDeepEqual(after, before, 'a click on the minimap moves the view there');
    const visible = await page.locator('.minimap-window').boundingBox();
    assert.ok(visible && visible.width > 0 && visible.height > 0);
    await page.locator('.graph-canvas').focus();
    for (let step = 0; step < 6; step++) await page.keyboard.press('+');
    await panel.screenshot('graph-big');
    await assertClean(panel);
  });

  test('every state codicon is the glyph codicon.css gives its name', () => {
    const css = readFileSync(path.join(projectRoot, 'dist', 'webview', 'codicon.css'), 'utf8');
    for (const [state, icon] of Object.entries(STATE_ICONS)) {
      const match = new RegExp(`\\.codicon-${icon.name}:before \\{ content: "\\\\([0-9a-f]+)" \\}`).exec(css);
      assert.ok(match, `${state}: codicon-${icon.name} exists`);
      assert.equal(icon.glyph.codePointAt(0)!.toString(16), match[1], `${state}: codicon-${icon.name}`);
    }
  });
});
