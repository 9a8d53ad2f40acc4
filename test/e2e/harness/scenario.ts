// The frame of one end-to-end scenario: a fresh story workspace and browser on a running code-server, a screenshot, diagnostics on failure, clean-up.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { CodeServer } from './codeServer.js';
import { makeStoryWorkspace, type StoryWorkspace, type StoryWorkspaceOptions } from './storyWorkspace.js';
import { ensureVsix } from './vsix.js';
import { Workbench } from './workbench.js';

/** Margin: a safety net per scenario (code-server, a fresh browser and real turns on a loaded 2-core machine); every step waits for a condition. */
export const SCENARIO_TIMEOUT_MS = 300_000;
/** Margin: the safety net of one wait for something already on its way (a card of a finished turn, a quick pick row). */
export const UI_TIMEOUT_MS = 30_000;

let vsix: string | undefined;
/** The packaged extension, (re)built once per run if the sources are newer. */
export const packagedVsix = (): string => (vsix ??= ensureVsix());

export interface ScenarioContext {
  readonly workbench: Workbench;
  readonly story: StoryWorkspace;
  readonly server: CodeServer;
}

/**
 * Runs one scenario in a fresh story workspace and a fresh browser on `server`: always saves
 * test-output/e2e/<name>.png, prints the browser's errors, the server log and the extension's logs
 * on failure, and cleans up.
 */
export async function scenario(
  server: () => CodeServer,
  name: string,
  workspace: StoryWorkspaceOptions,
  body: (context: ScenarioContext) => Promise<void>,
): Promise<void> {
  const started = Date.now();
  const story = makeStoryWorkspace({ label: name, ...workspace });
  let workbench: Workbench | undefined;
  try {
    workbench = await Workbench.open(server().folderUrl(story.dir));
    console.log(`[e2e] ${name}: workbench ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await body({ workbench, story, server: server() });
  } catch (error) {
    console.error(`--- ${name} failed; diagnostics follow`);
    if (workbench) {
      const errors = workbench.consoleErrors.filter((entry) => !/open-vsx|authentication provider 'github'|ERR_NAME_NOT_RESOLVED/.test(entry.text));
      console.error(`browser errors:\n${errors.map((entry) => `  ${entry.text.slice(0, 400)} (${entry.url})`).join('\n')}`);
    }
    console.error(`extension logs:\n${extensionLogs(server().userDataDir)}`);
    console.error(`server log (tail):\n${server().log(4_000)}`);
    throw error;
  } finally {
    if (workbench) {
      await workbench.screenshot(name).catch((error: unknown) => console.error(`no screenshot for ${name}: ${String(error)}`));
      await workbench.close();
    }
    story.dispose();
    console.log(`[e2e] ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** The tail of the extension's output channel logs (and the extension host log) of every window. */
export function extensionLogs(userDataDir: string): string {
  return filesUnder(path.join(userDataDir, 'logs'))
    .filter((file) => /narratoria|exthost\.log$|remoteexthost\.log$/i.test(path.basename(file)))
    .map((file) => `  ${path.relative(userDataDir, file)}:\n${readFileSync(file, 'utf8').slice(-3_000).replace(/^/gm, '    ')}`)
    .join('\n');
}

/** Every file under `dir` (none when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** Polls `condition` every 250 ms until it holds; the timeout is a safety net, not a time limit. */
export async function waitFor(condition: () => Promise<boolean>, timeout: number, what: string): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
