// Checks what the Marketplace and Open VSX read from each VSIX (ovsx has no dry run): the manifest fields, a PNG icon of at least 128 px, the gallery banner, categories, a semver CHANGELOG, and README images that ship inside the package.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readArchive } from './vsixArchive.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The categories the Visual Studio Marketplace accepts. */
const MARKETPLACE_CATEGORIES = new Set([
  'Programming Languages',
  'Snippets',
  'Linters',
  'Themes',
  'Debuggers',
  'Formatters',
  'Keymaps',
  'SCM Providers',
  'Other',
  'Extension Packs',
  'Language Packs',
  'Data Science',
  'Machine Learning',
  'Visualization',
  'Notebooks',
  'Education',
  'Testing',
  'AI',
  'Chat',
]);
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

interface Manifest {
  name: string;
  displayName: string;
  description: string;
  version: string;
  publisher: string;
  license: string;
  engines: { vscode: string };
  icon: string;
  galleryBanner: { color: string; theme: string };
  categories: string[];
  keywords: string[];
  main: string;
  scripts?: unknown;
  devDependencies?: unknown;
  allowScripts?: unknown;
  '//allowScripts'?: unknown;
}

/** The path of an asset the VSIX manifest declares (vsce renames README.md to readme.md, and so on). */
function assetPath(vsixManifest: string, type: string): string {
  const found = new RegExp(`<Asset Type="${type.replace(/[.]/g, '\\.')}" Path="([^"]+)"`).exec(vsixManifest)?.[1];
  assert.ok(found, `the VSIX manifest declares ${type}`);
  return found;
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  assert.equal(bytes.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'a PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

for (const target of ['linux-x64', 'universal']) {
  const file = path.join(projectRoot, `narratoria-${target}.vsix`);

  test(`${path.basename(file)}: Marketplace and Open VSX fields, icon, banner, CHANGELOG and README images`, async () => {
    assert.ok(existsSync(file), `${file} is missing: run npm run package -- --all first`);
    const index = await readArchive(file, ['extension/package.json', 'extension.vsixmanifest']);
    const vsixManifest = index.files.get('extension.vsixmanifest')!.toString('utf8');
    const readmeEntry = assetPath(vsixManifest, 'Microsoft.VisualStudio.Services.Content.Details');
    const changelogEntry = assetPath(vsixManifest, 'Microsoft.VisualStudio.Services.Content.Changelog');
    const licenseEntry = assetPath(vsixManifest, 'Microsoft.VisualStudio.Services.Content.License');
    const manifest = JSON.parse(index.files.get('extension/package.json')!.toString('utf8')) as Manifest;
    const iconEntry = `extension/${manifest.icon}`;
    const first = await readArchive(file, [readmeEntry, changelogEntry, iconEntry]);
    const names = new Set(first.entries.map((entry) => entry.name));

    for (const field of ['name', 'displayName', 'description', 'publisher', 'license'] as const)
      assert.ok(manifest[field]?.trim(), `package.json has a ${field}`);
    assert.match(manifest.version, SEMVER, 'a semver version');
    assert.match(manifest.engines.vscode, /^\^\d+\.\d+\.\d+$/, 'engines.vscode');
    assert.equal(manifest.scripts, undefined, 'no build scripts ship');
    assert.equal(manifest.devDependencies, undefined, 'no devDependencies ship');
    assert.equal(manifest.allowScripts, undefined, 'no install-script policy ships');
    assert.equal(manifest['//allowScripts'], undefined, 'nor its reasons');
    assert.ok(names.has(licenseEntry), 'the license file ships');

    // The icon: a PNG of at least 128 × 128 inside the package, named in the VSIX manifest.
    assert.ok(names.has(iconEntry), `${manifest.icon} ships`);
    const { width, height } = pngSize(first.files.get(iconEntry)!);
    assert.ok(width >= 128 && height >= 128, `icon is ${width}×${height}`);
    assert.equal(assetPath(vsixManifest, 'Microsoft.VisualStudio.Services.Icons.Default'), iconEntry, 'the VSIX manifest names the icon');

    assert.match(manifest.galleryBanner.color, /^#[0-9a-fA-F]{6}$/);
    assert.ok(['dark', 'light'].includes(manifest.galleryBanner.theme));
    assert.ok(
      manifest.categories.length > 0 && manifest.categories.every((category) => MARKETPLACE_CATEGORIES.has(category)),
      `categories: ${manifest.categories.join(', ')}`,
    );
    assert.ok(manifest.keywords.length > 0 && manifest.keywords.length <= 30, 'between 1 and 30 keywords');

    // CHANGELOG: version headings in semver, the current version among them.
    const changelog = first.files.get(changelogEntry)!.toString('utf8');
    const versions = [...changelog.matchAll(/^## \[?(\d+\.\d+\.\d+[^\]\s]*)\]?/gm)].map((match) => match[1]!);
    assert.ok(versions.length > 0 && versions.every((version) => SEMVER.test(version)), `CHANGELOG versions: ${versions.join(', ')}`);
    assert.ok(versions.includes(manifest.version), `the CHANGELOG has ${manifest.version}`);

    // README images: relative links to files inside the package (shown by VS Code and Open VSX from the VSIX).
    const readme = first.files.get(readmeEntry)!.toString('utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
    assert.ok(images.length > 0, 'the README shows screenshots');
    for (const image of images) {
      assert.ok(!/^[a-z]+:/i.test(image), `${image} is a relative link`);
      assert.ok(names.has(`extension/${path.posix.normalize(image)}`), `${image} ships in the package`);
    }
  });
}
