// End-to-end: the universal VSIX (no native code) installed in real VS Code activates, lists the skills, says in the status bar why its narrator is the pattern narrator, and plays a turn with it.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startCodeServer, type CodeServer } from './harness/codeServer.js';
import { PlayPanel } from './harness/playPanel.js';
import { repoRoot } from './harness/paths.js';
import { packagedVsix, scenario, SCENARIO_TIMEOUT_MS, UI_TIMEOUT_MS } from './harness/scenario.js';

const universalVsix = path.join(repoRoot, 'narratoria-universal.vsix');

/** The universal VSIX, rebuilt when it is missing or older than the platform one the other scenarios use. */
function ensureUniversalVsix(): string {
  const platform = packagedVsix();
  if (!existsSync(universalVsix) || statSync(universalVsix).mtimeMs < statSync(platform).mtimeMs) {
    const built = spawnSync(process.execPath, [path.join(repoRoot, 'package.mjs'), '--target', 'universal'], { cwd: repoRoot, stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`packaging the universal VSIX failed (exit ${built.status ?? built.signal})`);
  }
  return universalVsix;
}

describe('universal VSIX', () => {
  let server: CodeServer | undefined;
  const current = (): CodeServer => server!;

  before(async () => {
    // The product's default narrator mode (auto), not the pattern mode the other scenarios pin.
    server = await startCodeServer({ vsix: ensureUniversalVsix(), label: 'universal', settings: { 'narratoria.narrator.mode': 'auto' } });
  });
  after(async () => server?.stop());

  test('U1. the universal package activates, says why its narrator is the pattern narrator, and plays a turn', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'u1-universal-vsix', {}, async ({ workbench }) => {
      await workbench.openNarratoriaView();
      const rows = await workbench.waitForTreeRows((found) => found.some((row) => row.label === 'Dice Roller' && /\bhealthy\b/.test(row.description)));
      assert.ok(
        rows.some((row) => row.label === 'Dice Roller'),
        'the Skills view lists the sample skills: the extension activated',
      );

      const status = workbench.page.locator('.part.statusbar .statusbar-item', { hasText: 'Pattern narrator (no model support)' }).first();
      await status.waitFor({ timeout: UI_TIMEOUT_MS });
      const tooltip = (await status.getAttribute('aria-label')) ?? '';
      assert.match(tooltip, /Pattern narrator/);

      const panel = await PlayPanel.open(workbench);
      const narration = await panel.play('I roll to pick the lock');
      assert.notEqual((await narration.textContent())?.trim(), '', 'the pattern narrator planned the turn and it was narrated');
      const dice = panel.get('diceRoll').first();
      await dice.waitFor({ timeout: UI_TIMEOUT_MS });
      assert.deepEqual(workbench.webviewErrors(), [], 'the play panel logs no errors');
    }),
  );
});
