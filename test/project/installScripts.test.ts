// Checks package.json's allowScripts against the lock file: every installed dependency with an install script is listed, with its reason under "//allowScripts" (docs/packaging.md#install-scripts).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const projectRoot = path.resolve(import.meta.dirname, '../..');

interface Manifest {
  allowScripts?: Record<string, unknown>;
  '//allowScripts'?: Record<string, unknown>;
}

interface LockEntry {
  version?: string;
  hasInstallScript?: boolean;
  optional?: boolean;
}

const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as Manifest;
const lock = JSON.parse(readFileSync(path.join(projectRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

/** Packages `npm ci` installs whose install scripts run: optional ones are left out by .npmrc (omit=optional). */
function installedWithScripts(): string[] {
  const names = new Set<string>();
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (!entry.hasInstallScript || entry.optional) continue;
    names.add(location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length));
  }
  return [...names].sort();
}

test('.npmrc leaves optional packages out, so their install scripts never run', () => {
  assert.match(readFileSync(path.join(projectRoot, '.npmrc'), 'utf8'), /^omit=optional$/m);
});

test('allowScripts allows exactly the installed packages with install scripts, by name, and nothing else', () => {
  const allowed = manifest.allowScripts ?? {};
  assert.deepEqual(Object.keys(allowed).sort(), installedWithScripts());
  for (const [name, value] of Object.entries(allowed)) assert.equal(value, true, `${name}: allowed`);
});

test('each allowScripts entry has a one-line reason under "//allowScripts"', () => {
  const reasons = manifest['//allowScripts'] ?? {};
  assert.deepEqual(Object.keys(reasons).sort(), Object.keys(manifest.allowScripts ?? {}).sort());
  for (const [name, reason] of Object.entries(reasons)) {
    assert.equal(typeof reason, 'string', name);
    assert.ok((reason as string).length > 20 && !(reason as string).includes('\n'), `${name}: one line`);
  }
});
