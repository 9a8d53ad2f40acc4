// Runs the extension-host tests in desktop VS Code downloaded by @vscode/test-electron (for machines that can download VS Code; CI uses runInCodeServer.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runTests } from '@vscode/test-electron';
import { defaultUserSettings } from '../e2e/harness/codeServer.js';
import { extensionHostBundleDir, repoRoot } from '../e2e/harness/paths.js';
import { makeStoryWorkspace } from '../e2e/harness/storyWorkspace.js';

/**
 * Builds the extension and the test bundles, then runs them in VS Code `version` (default: stable,
 * or VSCODE_VERSION) opened on a fresh story workspace. On Linux without a display run it under
 * `xvfb-run -a`. Resolves with the exit code.
 */
export async function runInVsCode(version = process.env['VSCODE_VERSION'] ?? 'stable', grep?: string): Promise<number> {
  for (const command of [
    ['node', 'esbuild.mjs'],
    ['node', 'test/extensionHost/build.mjs'],
  ]) {
    const result = spawnSync(command[0]!, command.slice(1), { cwd: repoRoot, stdio: 'inherit' });
    if (result.status !== 0) return result.status ?? 1;
  }
  const story = makeStoryWorkspace({ label: 'vscode' });
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'narratoria-vscode-user-'));
  try {
    mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
    writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(defaultUserSettings(false), null, 2));
    return await runTests({
      version,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: path.join(extensionHostBundleDir, 'index.cjs'),
      ...(grep ? { extensionTestsEnv: { NARRATORIA_EXTENSION_TESTS_GREP: grep } } : {}),
      launchArgs: [
        story.dir,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        `--user-data-dir=${userDataDir}`,
        `--extensions-dir=${path.join(userDataDir, 'extensions')}`,
      ],
    });
  } catch (error) {
    console.error('[extension-host] VS Code tests failed:', error);
    return 1;
  } finally {
    story.dispose();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const grepIndex = args.indexOf('--grep');
  const versionIndex = args.indexOf('--version');
  void runInVsCode(versionIndex >= 0 ? args[versionIndex + 1] : undefined, grepIndex >= 0 ? args[grepIndex + 1] : undefined).then((code) => process.exit(code));
}
