// End-to-end scenario C4 in code-server with the packaged VSIX: a campaign played in the play panel; its story header and beat timeline show each beat it triggers; the beat graph colours them.
import * as assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PlayPanelTestId } from '../../src/protocol/playPanelDom.js';
import { starterCampaignFiles } from '../../src/runtime/campaign/starterCampaigns.js';
import { startCodeServer, type CodeServer } from './harness/codeServer.js';
import { PlayPanel, TURN_TIMEOUT_MS } from './harness/playPanel.js';
import { packagedVsix, scenario, SCENARIO_TIMEOUT_MS, UI_TIMEOUT_MS, waitFor } from './harness/scenario.js';
import type { Workbench } from './harness/workbench.js';

/** The complete starter campaign (The Salt Lantern) at the story's root, beside the sample skills, in the Dark Modern theme. */
const FILES: Record<string, string | Uint8Array> = {
  ...Object.fromEntries(starterCampaignFiles('complete').map((file) => [file.path, file.bytes ?? file.text ?? ''])),
  '.vscode/settings.json': `${JSON.stringify({ 'workbench.colorTheme': 'Default Dark Modern' })}\n`,
};

describe('campaigns: playing one', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    const started = Date.now();
    server = await startCodeServer({ vsix: packagedVsix(), label: 'campaign-play' });
    console.log(`[e2e] code-server (campaign play) with the VSIX ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${server.url}`);
  });
  after(async () => server?.stop());

  test(
    'C4. play a campaign: the story header and the beat timeline show each beat as it triggers; the beat graph colours them',
    { timeout: SCENARIO_TIMEOUT_MS },
    () =>
      scenario(current, 'c4-campaign-play', { files: FILES }, async ({ workbench }) => {
        // Room for the panel: the side bar hidden.
        await workbench.runCommand('View: Toggle Primary Side Bar Visibility');
        await workbench.page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
        const panel = await PlayPanel.open(workbench);
        const header = panel.get('storyHeader');
        await header.waitFor({ timeout: UI_TIMEOUT_MS });
        // The opening: the premise, scene 0, no beat yet.
        assert.match(await text(header), /The Salt Lantern/);
        assert.equal(await header.getAttribute('data-scene'), '0');
        assert.match(await text(header), /Active: none yet/);
        assert.match(await text(header), /Beats done: 0 of 6/);
        assert.match(await text(panel.get('beatTimeline')), /No beat has triggered yet/);

        // Scene 1: going to the Lantern triggers beat_001 by its scene window.
        await choose(workbench, panel, /^Go to the Lantern tower/);
        await waitFor(async () => (await header.getAttribute('data-scene')) === '1', TURN_TIMEOUT_MS, 'the header shows scene 1');
        assert.match(await text(header), /Active: The Dark Lantern/);
        assert.match(await text(header), /Beats done: 1 of 6 \(The Dark Lantern\)/);
        const first = timelineEntry(workbench, 'beat_001');
        await first.waitFor({ timeout: UI_TIMEOUT_MS });
        assert.deepEqual(await first.evaluate((entry) => [entry.dataset['event'], entry.dataset['scene'], entry.dataset['turn']]), ['triggered', '1', '2']);
        assert.match(await text(first.locator('.beat-entry-reason')), /^Why: its conditions held since scene 1: scene_count \(scene 1, scenes 1-2\)$/);
        const card = workbench.webview().locator(`article.turn[data-turn-index="2"] [data-testid="${PlayPanelTestId.turnBeat}"]`);
        assert.equal(await card.getAttribute('data-beat-id'), 'beat_001');
        assert.match(await text(card), /Beat triggered: The Dark Lantern beat_001/);

        // Scene 2: asking Tamsin for help triggers beat_002 (its choice taken, Tamsin judged worried about Odile by meaning).
        await choose(workbench, panel, /^Ask Tamsin for help$/);
        await waitFor(async () => (await header.getAttribute('data-scene')) === '2', TURN_TIMEOUT_MS, 'the header shows scene 2');
        assert.match(await text(header), /Active: Tamsin's Bargain/);
        assert.match(await text(header), /Beats done: 2 of 6 \(The Dark Lantern, Tamsin's Bargain\)/);
        const second = timelineEntry(workbench, 'beat_002');
        await second.waitFor({ timeout: UI_TIMEOUT_MS });
        assert.deepEqual(await second.evaluate((entry) => [entry.dataset['event'], entry.dataset['scene'], entry.dataset['turn']]), ['triggered', '2', '3']);
        assert.match(
          await text(second.locator('.beat-entry-reason')),
          /requires_beat \(beat_001 done\); player_choice \(chose asked_tamsin_for_help\); npc_state\.tamsin/,
        );
        assert.equal(await second.evaluate((entry) => entry.classList.contains('is-active')), true);
        assert.deepEqual(workbench.webviewErrors(), [], 'the play panel logs no errors');
        // For the screenshot, the timeline gets the side column's room: the Tools section folded.
        await workbench.webview().locator('.section-tools .section-toggle').click();
        await workbench.screenshot('c4-play-story-header');

        // The beat graph of the campaign follows the session (the panel closed: the session lives on in the window).
        await workbench.runCommand('View: Close Editor');
        await workbench.openFile('beats.json');
        const button = workbench.page
          .locator('.part.editor .editor-group-container.active .action-label.codicon-type-hierarchy-sub[aria-label="Show Beat Graph"]')
          .first();
        await button.waitFor({ timeout: UI_TIMEOUT_MS });
        await button.click();
        await workbench.page.locator('iframe.webview.ready').first().waitFor({ timeout: UI_TIMEOUT_MS });
        const graph = workbench.webview();
        const beat = (id: string) => graph.locator(`g.node[data-tool-id="${id}"]`);
        await beat('beat_002').and(graph.locator('g.node.play-active')).waitFor({ timeout: UI_TIMEOUT_MS });
        assert.equal(await beat('beat_001').evaluate((node) => node.classList.contains('play-done')), true);
        for (const id of ['beat_003', 'beat_004', 'beat_005', 'beat_006'])
          assert.equal(await beat(id).evaluate((node) => node.classList.contains('play-reachable')), true, `${id} is reachable`);
        assert.equal(await graph.locator('.legend-play').isVisible(), true);
        assert.match(await text(graph.locator('.run-summary')), /scene 2:\s*1 active\s*1 done\s*4 reachable\s*0 skipped/);
        await graph.locator('button.fit-button').click();
        assert.deepEqual(workbench.webviewErrors(), []);
        // The scenario's own screenshot (c4-campaign-play.png) shows this last state: the beat graph in play.
      }),
  );
});

/** Clicks the last turn's choice whose label matches, and waits for the turn's narration. */
async function choose(workbench: Workbench, panel: PlayPanel, label: RegExp): Promise<void> {
  const before = await panel.get('narrationEntry').count();
  const frame = workbench.webview();
  // The button's text starts with its number: match its label.
  const button = frame.locator(`[data-testid="${PlayPanelTestId.choiceButton}"]`, { has: frame.locator('.choice-label', { hasText: label }) }).first();
  await button.waitFor({ timeout: TURN_TIMEOUT_MS });
  await waitFor(() => button.isEnabled(), TURN_TIMEOUT_MS, 'the choice can be taken');
  await button.click();
  await panel.waitForNarrations(before + 1);
}

function timelineEntry(workbench: Workbench, id: string) {
  return workbench.webview().locator(`[data-testid="${PlayPanelTestId.beatTimelineEntry}"][data-beat-id="${id}"]`);
}

async function text(locator: import('playwright-core').Locator): Promise<string> {
  return (await locator.innerText()).replace(/\s+/g, ' ').trim();
}
