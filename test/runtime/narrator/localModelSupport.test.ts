// localModelSupport: a universal install (no node-llama-cpp), a missing platform binary, an unknown platform, and a complete install found up the folder tree.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BINARY_PACKAGES, localModelSupport } from '../../../src/runtime/narrator/localModelSupport.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'narratoria-local-model-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** An extension folder with `dist/` (where the worker runs) and the given packages in node_modules. */
function install(name: string, packages: readonly string[]): string {
  const extension = path.join(scratch, name);
  mkdirSync(path.join(extension, 'dist'), { recursive: true });
  for (const packageName of packages) {
    const folder = path.join(extension, 'node_modules', ...packageName.split('/'));
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: packageName, version: '3.21.1' }));
  }
  return path.join(extension, 'dist');
}

test('a universal install has no node-llama-cpp: unsupported, and the reason names the package to install', () => {
  const support = localModelSupport(install('universal', []), 'darwin', 'arm64');
  assert.equal(support.supported, false);
  assert.match(!support.supported ? support.reason : '', /universal package .* no native code.*install the darwin-arm64 package/);
});

test('node-llama-cpp without this platform binary package: unsupported, naming the missing package', () => {
  const support = localModelSupport(install('no-binary', ['node-llama-cpp', BINARY_PACKAGES['linux-x64']!]), 'win32', 'arm64');
  assert.equal(support.supported, false);
  assert.match(!support.supported ? support.reason : '', /win32-arm64 \(@node-llama-cpp\/win-arm64\) is not installed/);
});

test('a platform without any prebuilt binary says so', () => {
  const support = localModelSupport(install('freebsd', ['node-llama-cpp']), 'freebsd', 'x64');
  assert.deepEqual(support, { supported: false, reason: 'node-llama-cpp has no prebuilt binary for freebsd-x64' });
});

test('a complete install is found from a folder below the extension (node_modules lookup upwards)', () => {
  const dist = install('complete', ['node-llama-cpp', BINARY_PACKAGES['darwin-arm64']!]);
  const nested = path.join(dist, 'deeper', 'still');
  mkdirSync(nested, { recursive: true });
  assert.deepEqual(localModelSupport(nested, 'darwin', 'arm64'), { supported: true });
});

test('every VS Code target of the per-platform packages has its binary package', () => {
  assert.deepEqual(Object.keys(BINARY_PACKAGES).sort(), ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'win32-arm64', 'win32-x64']);
});
