// The Narratoria play panel as the end-to-end tests see it: its elements by data-testid (src/protocol/playPanelDom.ts), sending input and waiting for turns.
import type { Locator } from 'playwright-core';
import { PlayPanelTestId } from '../../../src/protocol/playPanelDom.js';
import type { Workbench } from './workbench.js';

/** Margin: a safety net for one turn (real scripts in code-server on a loaded machine), not a time limit. */
export const TURN_TIMEOUT_MS = 90_000;

/** The play panel's webview content inside a workbench. */
export class PlayPanel {
  constructor(private readonly workbench: Workbench) {}

  /** Opens the panel through the command palette and waits for its input box. */
  static async open(workbench: Workbench): Promise<PlayPanel> {
    await workbench.runCommand('Narratoria: Open Play Panel');
    const panel = new PlayPanel(workbench);
    await panel.input.waitFor({ timeout: 60_000 });
    return panel;
  }

  /** An element by its test id name (`diceRoll`, `narrationEntry`, …). */
  get(name: keyof typeof PlayPanelTestId): Locator {
    return this.workbench.byTestId(PlayPanelTestId[name]);
  }

  get input(): Locator {
    return this.get('input');
  }

  /**
   * Types `text` into the input and presses Enter, then waits for that turn's narration. Margin: the timeout
   * (90 s) is a safety net for a turn that runs real skill scripts in code-server on a loaded machine; every
   * step waits for a condition and ends as soon as it holds.
   */
  async play(text: string, timeout = TURN_TIMEOUT_MS): Promise<Locator> {
    await this.input.waitFor({ timeout });
    const before = await this.get('narrationEntry').count();
    await this.waitUntilEnabled(this.input, timeout);
    await this.input.fill(text);
    await this.input.press('Enter');
    return this.waitForNarrations(before + 1, timeout);
  }

  /** Waits until the story shows at least `count` narration entries; returns the last one. */
  async waitForNarrations(count: number, timeout = TURN_TIMEOUT_MS): Promise<Locator> {
    const entries = this.get('narrationEntry');
    await entries.nth(count - 1).waitFor({ timeout });
    return entries.nth(count - 1);
  }

  /** State inspector rows whose key path starts with `prefix` (and that changed in the last turn, if asked). */
  stateRows(prefix: string, changedOnly = false): Locator {
    return this.workbench
      .webview()
      .locator(`[data-testid="${PlayPanelTestId.stateRow}"][data-key-path^="${prefix}"]${changedOnly ? '[data-changed="true"]' : ''}`);
  }

  private async waitUntilEnabled(locator: Locator, timeout: number): Promise<void> {
    const deadline = Date.now() + timeout;
    while (!(await locator.isEnabled())) {
      if (Date.now() > deadline) throw new Error('the player input stayed disabled');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
