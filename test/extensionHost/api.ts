// The extension's activate() result for the extension-host suites (type-only link to src/extension/main.ts).
import * as assert from 'node:assert/strict';
import type { NarratoriaApi } from '../../src/extension/main.js';
import { activatedExtension } from './support.js';

/** Activates the extension and returns its API (the NarratoriaContext). */
export async function narratoriaApi(): Promise<NarratoriaApi> {
  const extension = await activatedExtension();
  const api = extension.exports as NarratoriaApi | undefined;
  assert.ok(api?.context, 'activate() returns { context }');
  return api;
}

/**
 * Polls `condition` every 100 ms until it holds or `timeoutMs` passes. Margin: the default 60 s is a safety net
 * for events (file watchers, settings changes, webview tabs) on a loaded 2-core machine, not a time limit; the
 * wait ends as soon as the condition holds. Keep it below the mocha timeout in index.ts.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
