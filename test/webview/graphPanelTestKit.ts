// Shared checks of the graph view's browser tests: no CSP or page errors, text inside node boxes, the viewport transform, colour contrast.
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { GraphPreviewPage } from './graphPanelPreview.js';

/** No CSP violation, page error or console error, no inline handler or style attribute from markup, no `<style>`. */
export async function assertClean(panel: GraphPreviewPage): Promise<void> {
  assert.deepEqual(await panel.problems(), [], 'no CSP violations, page errors or console errors');
  const inline = await panel.page.evaluate(() => [
    ...[...document.querySelectorAll('*')].flatMap((element) =>
      [...element.attributes].filter((attribute) => /^on/i.test(attribute.name)).map((attribute) => `${element.tagName}[${attribute.name}]`),
    ),
    ...[...document.querySelectorAll('style')].map(() => '<style>'),
  ]);
  assert.deepEqual(inline, [], 'no inline event handlers and no <style> elements');
  const viewErrors = (await panel.posted()).filter((message) => message.type === 'viewError');
  assert.deepEqual(viewErrors, [], 'the view reported no error of its own');
}

export function node(page: Page, toolId: string): Locator {
  return page.locator(`.graph-canvas .node[data-tool-id="${toolId}"]`);
}

/** Every node text that would be cut off: wider than its room in the box (the layout's promise) or outside it. */
export function textOverflows(page: Page): Promise<string[]> {
  // A string, not a function: tsx would wrap the helpers of a function in a `__name` call the page does not have.
  return page.evaluate(`(() => {
    const paddingX = 12, stateIconWidth = 18, badgePaddingX = 5, slack = 0.5;
    const failures = [];
    for (const group of document.querySelectorAll('.graph-canvas .node')) {
      const id = group.dataset.toolId;
      const box = group.querySelector('.box').getBBox();
      const right = box.x + box.width - paddingX;
      const check = (what, text, limit) => {
        const left = Number(text.getAttribute('x'));
        const length = text.getComputedTextLength();
        const bounds = text.getBBox();
        if (left + length > limit + slack) failures.push(id + ': ' + what + ' "' + text.textContent + '" ends at ' + (left + length).toFixed(1) + ' > ' + limit.toFixed(1));
        if (bounds.y < box.y || bounds.y + bounds.height > box.y + box.height) failures.push(id + ': ' + what + ' is outside the box vertically');
      };
      check('title', group.querySelector('.title'), right - stateIconWidth);
      check('detail', group.querySelector('.detail'), right);
      const badges = [...group.querySelectorAll('.badge')];
      [...group.querySelectorAll('.badge-label')].forEach((label, index) => {
        const chip = badges[index].getBBox();
        check('badge', label, chip.x + chip.width - badgePaddingX);
      });
      const runChip = group.querySelector('.run-chip');
      if (runChip.textContent) {
        const chipLeft = Number(runChip.getAttribute('x')) - runChip.getComputedTextLength();
        const lastBadge = badges.length > 0 ? badges[badges.length - 1].getBBox() : undefined;
        const floor = lastBadge ? lastBadge.x + lastBadge.width + 2 : box.x;
        if (chipLeft < floor - slack) failures.push(id + ': run chip "' + runChip.textContent + '" overlaps the badges (' + chipLeft.toFixed(1) + ' < ' + floor.toFixed(1) + ')');
        if (Number(runChip.getAttribute('x')) > right + slack) failures.push(id + ': run chip ends outside the box');
      }
    }
    return failures;
  })()`);
}

/** The scene's current pan and zoom, read from the transform attribute. */
export async function viewTransform(page: Page): Promise<{ x: number; y: number; zoom: number }> {
  const transform = (await page.locator('.graph-canvas .world').getAttribute('transform')) ?? '';
  const match = /translate\(([-\d.e]+) ([-\d.e]+)\) scale\(([-\d.e]+)\)/.exec(transform);
  assert.ok(match, `a transform was set (${transform})`);
  return { x: Number(match[1]), y: Number(match[2]), zoom: Number(match[3]) };
}

/** WCAG contrast ratio of two colours given as [r, g, b] (0–255). */
export function contrastRatio(a: readonly number[], b: readonly number[]): number {
  const luminance = (rgb: readonly number[]) => {
    const [r, g, b] = rgb.map((value) => {
      const channel = value / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/**
 * The painted colours of a node's parts and of the canvas, as [r, g, b] after alpha blending over the canvas
 * background (computed colours may be color-mix() results, so they are painted on a canvas and read back).
 */
export function nodeColours(
  page: Page,
  toolId: string,
): Promise<Record<'background' | 'box' | 'title' | 'detail' | 'badge' | 'badgeLabel' | 'band' | 'bandLabel' | 'edge', number[]>> {
  // A string, not a function: see textOverflows.
  return page.evaluate(`(() => {
    const pixel = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    const paint = (colours) => {
      pixel.clearRect(0, 0, 1, 1);
      for (const colour of colours) {
        pixel.fillStyle = colour;
        pixel.fillRect(0, 0, 1, 1);
      }
      return [...pixel.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const group = document.querySelector('.graph-canvas .node[data-tool-id=' + JSON.stringify(${JSON.stringify(toolId)}) + ']');
    const fill = (selector, scope) => getComputedStyle((scope || group).querySelector(selector)).fill;
    const background = getComputedStyle(document.querySelector('.graph-canvas')).backgroundColor;
    const box = fill('.box');
    return {
      background: paint([background]),
      box: paint([background, box]),
      title: paint([background, fill('.title')]),
      detail: paint([background, fill('.detail')]),
      badge: paint([background, box, fill('.badge')]),
      badgeLabel: paint([background, fill('.badge-label')]),
      band: paint([background, fill('.band', document)]),
      bandLabel: paint([background, fill('.band-label', document)]),
      edge: paint([background, getComputedStyle(document.querySelector('.graph-canvas .edge')).stroke]),
    };
  })()`);
}
