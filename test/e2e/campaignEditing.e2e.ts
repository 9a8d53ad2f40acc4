// End-to-end scenario C2 in real VS Code (code-server + headless chromium) with the packaged VSIX: a requires_beat broken as the author types shows in Problems; go to definition on a good one lands on the beat's id.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startCodeServer, type CodeServer } from './harness/codeServer.js';
import { repoRoot } from './harness/paths.js';
import { packagedVsix, scenario, SCENARIO_TIMEOUT_MS, UI_TIMEOUT_MS, waitFor } from './harness/scenario.js';
import type { Workbench } from './harness/workbench.js';

/** A story folder made as an author would: `narratoria init DIR --campaign complete`. */
function initCampaign(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'narratoria-e2e-c2-'));
  const result = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.cjs'), 'init', dir, '--force', '--campaign', 'complete'], { encoding: 'utf8' });
  if (result.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    assert.fail(`narratoria init failed (${result.status}): ${result.stderr}`);
  }
  return dir;
}

/** The 1-based line and column of `within` characters into the first `needle` of `text`. */
function positionOf(text: string, needle: string, within = 0): { line: number; column: number } {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, `"${needle}" is in the file`);
  const lines = text.slice(0, offset + within).split('\n');
  return { line: lines.length, column: lines.at(-1)!.length + 1 };
}

/** Waits until the rows of the Problems panel satisfy `predicate` (a poll; the 60 s deadline is a safety net) and returns them. */
async function waitForProblems(workbench: Workbench, predicate: (rows: string[]) => boolean): Promise<string[]> {
  let rows: string[] = [];
  await waitFor(async () => predicate((rows = await workbench.problemRows().catch(() => []))), 60_000, 'the Problems panel shows the expected rows').catch(() =>
    assert.fail(`the Problems panel never showed the expected rows; it shows:\n  ${rows.join('\n  ')}`),
  );
  return rows;
}

describe('campaign editing', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    const started = Date.now();
    server = await startCodeServer({ vsix: packagedVsix(), label: 'campaign-editing' });
    console.log(`[e2e] code-server (campaign editing) with the VSIX ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${server.url}`);
  });
  after(async () => server?.stop());

  test(
    'C2. a requires_beat broken as the author types shows in Problems; go to definition on a good one lands on the beat id',
    { timeout: SCENARIO_TIMEOUT_MS },
    () =>
      scenario(current, 'c2-campaign', { dir: initCampaign() }, async ({ workbench, story }) => {
        const page = workbench.page;
        const beats = readFileSync(path.join(story.dir, 'plot', 'beats.json'), 'utf8');
        await workbench.openFile('beats.json');
        // beat_005 requires beat_003: the author turns it into beat_009, a beat that does not exist, and saves nothing.
        const typo = positionOf(beats, '"requires_beat": "beat_003"', '"requires_beat": "beat_00'.length);
        await workbench.goToPosition(typo.line, typo.column);
        await page.keyboard.press('Delete');
        await page.keyboard.type('9');
        await workbench.showProblems();
        const broken = { line: typo.line, column: typo.column - '"beat_00'.length };
        const rows = await waitForProblems(workbench, (found) => found.some((row) => row.includes('CAMPAIGN_UNKNOWN_BEAT')));
        console.log(`[e2e] c2: Problems rows:\n  ${rows.join('\n  ')}`);
        const row = rows.find((candidate) => candidate.includes('CAMPAIGN_UNKNOWN_BEAT'))!;
        assert.match(row, /requires_beat names "beat_009", which is no beat of plot\/beats\.json; did you mean "beat_00\d"\?/);
        assert.match(row, /narratoria\s*\(?\s*CAMPAIGN_UNKNOWN_BEAT\b/, `the code comes from narratoria: "${row}"`);
        assert.match(row, new RegExp(`\\[Ln ${broken.line}, Col ${broken.column}\\]`), `at the broken value: "${row}"`);
        assert.equal(rows.filter((candidate) => /CAMPAIGN_|SCHEMA_|JSON_/.test(candidate)).length, 1, 'the only problem of the campaign');
        // The squiggle under "beat_009" and its hover beside the Problems panel, the side bar closed to leave the message room.
        await page.keyboard.press('Control+B');
        await workbench.goToPosition(broken.line, broken.column + 3);
        await page.keyboard.press('Control+K');
        await page.keyboard.press('Control+I');
        await page.locator('.monaco-hover:visible', { hasText: 'CAMPAIGN_UNKNOWN_BEAT' }).first().waitFor({ timeout: UI_TIMEOUT_MS });
        await workbench.screenshot('c2-campaign-problems');
        await page.keyboard.press('Escape');

        // beat_002 requires beat_001: go to definition there lands on beat_001's id.
        const link = positionOf(beats, '"requires_beat": "beat_001"', '"requires_beat": "beat_0'.length);
        const id = positionOf(beats, '"id": "beat_001"', '"id": "'.length);
        await workbench.goToPosition(link.line, link.column);
        await page.keyboard.press('F12');
        await page
          .locator('.part.statusbar .statusbar-item', { hasText: new RegExp(`^\\s*Ln ${id.line}, Col ${id.column}\\b`) })
          .first()
          .waitFor({ timeout: UI_TIMEOUT_MS });
        const line = workbench.activeEditor().locator('.view-line', { hasText: '"id": "beat_001"' }).first();
        await line.waitFor({ timeout: UI_TIMEOUT_MS });
        await workbench.screenshot('c2-go-to-definition');
        // Peek Definition shows the whole beat under the link.
        await workbench.goToPosition(link.line, link.column);
        await workbench.runCommand('Peek Definition');
        const peek = page.locator('.peekview-widget .monaco-editor .view-line', { hasText: '"title": "The Dark Lantern"' }).first();
        await peek.waitFor({ timeout: UI_TIMEOUT_MS });
        await workbench.screenshot('c2-peek-definition');
      }),
  );
});
