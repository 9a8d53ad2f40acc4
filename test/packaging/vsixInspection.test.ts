// Inspects the seven VSIXes `npm run package -- --all` builds: each targets its platform, carries only that platform's node-llama-cpp binaries (checked by their ELF/PE/Mach-O headers), nothing native elsewhere, and fits the size budget.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readArchive, type ArchiveEntry } from './vsixArchive.js';
import { expectedBinary, nativeBinaryOf } from './nativeBinary.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MAX_BYTES = 60 * 1024 * 1024;

/** The contract of issue 15: the VS Code targets and the one binary package each must hold (none for universal). */
const EXPECTED: Record<string, string | null> = {
  'darwin-arm64': '@node-llama-cpp/mac-arm64-metal',
  'darwin-x64': '@node-llama-cpp/mac-x64',
  'win32-x64': '@node-llama-cpp/win-x64',
  'win32-arm64': '@node-llama-cpp/win-arm64',
  'linux-arm64': '@node-llama-cpp/linux-arm64',
  'linux-x64': '@node-llama-cpp/linux-x64',
  universal: null,
};

const BINARY_PACKAGES_FOLDER = 'extension/node_modules/@node-llama-cpp/';

/** The VSIX manifest's TargetPlatform attribute (absent in a universal package). */
function targetPlatformOf(manifest: string): string | undefined {
  const identity = /<Identity\b[^>]*>/.exec(manifest)?.[0] ?? '';
  return /\bTargetPlatform="([^"]+)"/.exec(identity)?.[1];
}

function binaryPackagesIn(entries: readonly ArchiveEntry[]): string[] {
  const names = new Set<string>();
  for (const entry of entries) {
    if (!entry.name.startsWith(BINARY_PACKAGES_FOLDER)) continue;
    names.add(`@node-llama-cpp/${entry.name.slice(BINARY_PACKAGES_FOLDER.length).split('/')[0]}`);
  }
  return [...names].sort();
}

for (const [target, binaryPackage] of Object.entries(EXPECTED)) {
  const file = path.join(projectRoot, `narratoria-${target}.vsix`);

  test(`${path.basename(file)}: targets ${target}, holds ${binaryPackage ?? 'no native binary'}, nothing else native, ≤ 60 MB`, async (context) => {
    assert.ok(existsSync(file), `${file} is missing: run npm run package -- --all first`);
    const { entries, files } = await readArchive(file, ['extension.vsixmanifest', 'extension/package.json']);
    const manifest = files.get('extension.vsixmanifest')?.toString('utf8');
    assert.ok(manifest, 'extension.vsixmanifest');
    assert.equal(targetPlatformOf(manifest), target === 'universal' ? undefined : target, 'the manifest names the target');

    const packageJson = JSON.parse(files.get('extension/package.json')!.toString('utf8')) as { dependencies?: Record<string, string>; main: string };
    assert.ok(
      entries.some((entry) => entry.name === `extension/${packageJson.main.replace(/^\.\//, '')}`),
      'the extension entry point ships',
    );
    // The pattern narrator's lexicon, word vectors and topics (read beside the bundles) and the notices the licenses ask for.
    for (const data of [
      'extension/dist/data/lexicon.txt',
      'extension/dist/data/WORDNET-LICENSE',
      'extension/dist/data/vectors.bin',
      'extension/dist/data/VECTORS-LICENSE',
      'extension/dist/data/topics.txt',
    ])
      assert.ok(
        entries.some((entry) => entry.name === data),
        `${data} ships`,
      );

    // Exactly one binary package, the target's own (none in the universal package, which has no node-llama-cpp).
    assert.deepEqual(binaryPackagesIn(entries), binaryPackage ? [binaryPackage] : []);
    if (!binaryPackage) {
      assert.ok(!entries.some((entry) => entry.name.startsWith('extension/node_modules/')), 'the universal package ships no node_modules');
      assert.deepEqual(packageJson.dependencies ?? {}, {});
    } else {
      assert.ok(
        entries.some((entry) => entry.name === 'extension/node_modules/node-llama-cpp/package.json'),
        'node-llama-cpp ships',
      );
      assert.deepEqual(Object.keys(packageJson.dependencies ?? {}).sort(), [binaryPackage, 'node-llama-cpp'].sort());
    }

    // Every native file is the target's own and lives in its binary package: no stray binaries anywhere else.
    const expected = expectedBinary(target);
    const natives = entries.flatMap((entry) => {
      const binary = nativeBinaryOf(entry.head);
      return binary ? [{ entry, binary }] : [];
    });
    if (!binaryPackage) {
      assert.deepEqual(
        natives.map(({ entry }) => entry.name),
        [],
        'no native file in the universal package',
      );
    } else {
      const addons = natives.filter(({ entry }) => entry.name.endsWith('.node'));
      assert.ok(addons.length > 0, 'the binary package has its .node addon');
      // The headers tell the CPUs apart: the other architecture of the same system must not match these files.
      const otherArchitecture = expected.architecture === 'x64' ? 'arm64' : 'x64';
      for (const { entry, binary } of natives) {
        assert.ok(entry.name.startsWith(`${BINARY_PACKAGES_FOLDER}${binaryPackage.split('/')[1]}/`), `native file outside the binary package: ${entry.name}`);
        assert.equal(binary.format, expected.format, `${entry.name} is ${binary.format}, not ${expected.format}`);
        assert.ok(
          binary.architectures.includes(expected.architecture),
          `${entry.name} is built for ${binary.architectures.join('+')}, not ${expected.architecture}`,
        );
        assert.ok(!binary.architectures.includes(otherArchitecture), `${entry.name} is also built for ${otherArchitecture}`);
      }
    }

    const bytes = statSync(file).size;
    assert.ok(bytes <= MAX_BYTES, `${(bytes / 1048576).toFixed(1)} MB is over the 60 MB budget`);
    // Issue 24's budget for the package without native code.
    if (!binaryPackage) assert.ok(bytes <= 10 * 1048576, `${(bytes / 1048576).toFixed(1)} MB is over the universal package's 10 MB budget`);
    context.diagnostic(
      `${path.basename(file)}: ${(bytes / 1048576).toFixed(1)} MB, ${entries.length} files, ${natives.length} native (${natives.filter(({ entry }) => entry.name.endsWith('.node')).length} .node)`,
    );
  });
}
