// Runs the extension-host tests inside code-server's real (Node) extension host, through the workbench URL `payload`; no VS Code download needed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startCodeServer, type CodeServer } from '../e2e/harness/codeServer.js';
import { extensionHostBundleDir, repoRoot } from '../e2e/harness/paths.js';
import { makeStoryWorkspace } from '../e2e/harness/storyWorkspace.js';
import { Workbench } from '../e2e/harness/workbench.js';

/** Options of {@link runExtensionHostTests}. */
export interface ExtensionHostRunOptions {
  /** Build the extension (`npm run build`) and the test bundles first (default true). */
  readonly build?: boolean;
  /** Give up after this long (default 600 s, or NARRATORIA_EXTENSION_TESTS_TIMEOUT_MS). */
  readonly timeoutMs?: number;
  /** Only run tests whose full title matches (mocha grep). */
  readonly grep?: string;
  /** Show every console line of the workbench, not only the extension host's and errors. */
  readonly verbose?: boolean;
}

/** A log file VS Code hands to `codeAutomationExit`. */
interface AutomationLog {
  readonly relativePath: string;
  readonly contents: string;
}

/** Runs the suites; resolves with the exit code (0 when every test passed). */
export async function runExtensionHostTests(options: ExtensionHostRunOptions = {}): Promise<number> {
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  if (options.build ?? true) {
    build(['node', 'esbuild.mjs'], 'the extension');
    build(['node', 'test/extensionHost/build.mjs'], 'the extension-host tests');
  }
  const index = path.join(extensionHostBundleDir, 'index.cjs');
  if (!existsSync(index)) throw new Error(`${index} is missing: run node test/extensionHost/build.mjs`);
  for (const stale of ['results.json', 'report.txt']) rmSync(path.join(extensionHostBundleDir, stale), { force: true });

  const story = makeStoryWorkspace({ label: 'extension-host' });
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  try {
    server = await startCodeServer({
      label: 'extension-host',
      ...(options.grep ? { env: { NARRATORIA_EXTENSION_TESTS_GREP: options.grep } } : {}),
    });
    console.log(`[extension-host] code-server ready at ${server.url} after ${seconds()} s`);
    const host = new URL(server.url).host;
    // The extension runs from the repository (its dist/ build); the tests from their bundle.
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', `vscode-remote://${host}${repoRoot}`],
      ['extensionTestsPath', `vscode-remote://${host}${index}`],
    ]);
    const url = `${server.folderUrl(story.dir)}&payload=${encodeURIComponent(payload)}`;
    let finish: (result: { code: number; logs: AutomationLog[] }) => void = () => {};
    const finished = new Promise<{ code: number; logs: AutomationLog[] }>((resolve) => (finish = resolve));
    workbench = await Workbench.open(url, {
      waitUntilReady: false,
      initScript: enableSmokeTestDriver,
      beforeNavigate: (page) => page.exposeFunction('codeAutomationExit', (code: number, logs: AutomationLog[]) => finish({ code, logs: logs ?? [] })),
      onConsole: (type, text) => {
        if (options.verbose || text.includes('[mocha]')) console.log(text.replace(/^.*?\[mocha\] /, '  '));
        else if (type === 'error' && /extension ?host/i.test(text)) console.log(`  [workbench ${type}] ${text.slice(0, 500)}`);
      },
    });
    // Margin: a safety net for a run that never reports (the suites end it as soon as they are done); 180 s
    // was within reach of a slow first start plus every suite on a loaded 2-core machine.
    const timeoutMs = options.timeoutMs ?? Number(process.env['NARRATORIA_EXTENSION_TESTS_TIMEOUT_MS'] ?? 600_000);
    const result = await Promise.race([finished, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), timeoutMs))]);
    printResults();
    if (result === undefined) {
      console.error(`[extension-host] no result after ${timeoutMs / 1000} s; server log:\n${server.log(5_000)}`);
      await workbench.screenshot('extension-host-timeout').catch(() => {});
      return 1;
    }
    console.log(`[extension-host] exit code ${result.code} after ${seconds()} s`);
    if (result.code !== 0) {
      for (const log of result.logs.filter((entry) => /exthost|remoteagent|renderer/i.test(entry.relativePath))) {
        console.error(`--- ${log.relativePath}\n${log.contents.slice(-4_000)}`);
      }
    }
    return result.code === 0 ? 0 : 1;
  } finally {
    await workbench?.close();
    await server?.stop();
    story.dispose();
  }
}

/**
 * code-server (a built product) ignores the payload's extensionDevelopmentPath/extensionTestsPath
 * unless developmentOptions.enableSmokeTestDriver is set, and has no flag for it: patch the
 * configuration the server embeds in the page before the workbench reads it. Runs in the page.
 */
function enableSmokeTestDriver(): void {
  // readyState 'interactive' comes after parsing and before the deferred workbench module runs.
  document.addEventListener('readystatechange', () => {
    const element = document.getElementById('vscode-workbench-web-configuration');
    const settings = element?.getAttribute('data-settings');
    if (!element || !settings || element.dataset['patched']) return;
    const configuration = JSON.parse(settings) as { developmentOptions?: Record<string, unknown> };
    configuration.developmentOptions = { ...configuration.developmentOptions, enableSmokeTestDriver: true };
    element.setAttribute('data-settings', JSON.stringify(configuration));
    element.dataset['patched'] = '1';
  });
}

function printResults(): void {
  const file = path.join(extensionHostBundleDir, 'results.json');
  if (!existsSync(file)) return;
  const results = JSON.parse(readFileSync(file, 'utf8')) as { passes: number; failures: number; pending: number; failed: { title: string; error: string }[] };
  console.log(`[extension-host] ${results.passes} passing, ${results.failures} failing, ${results.pending} pending`);
  for (const failure of results.failed) console.log(`  ✗ ${failure.title}\n${failure.error.replace(/^/gm, '      ')}`);
}

function build(command: readonly string[], what: string): void {
  const result = spawnSync(command[0]!, command.slice(1), { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`building ${what} failed (${command.join(' ')})`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const grepIndex = args.indexOf('--grep');
  runExtensionHostTests({
    build: !args.includes('--no-build'),
    verbose: args.includes('--verbose'),
    ...(grepIndex >= 0 && args[grepIndex + 1] ? { grep: args[grepIndex + 1]! } : {}),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error('[extension-host]', error);
      process.exit(2);
    },
  );
}
