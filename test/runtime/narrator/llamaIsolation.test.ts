// Enforces where node-llama-cpp may appear: only the model worker imports it, and the CommonJS bundles reach it through import(), never require().
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPOSITORY_ROOT } from './narratorFixtures.js';

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

test('only the model worker imports node-llama-cpp (and only dynamically, apart from types)', () => {
  const files = sourceFiles(path.join(REPOSITORY_ROOT, 'src'));
  const importers = files
    // Imports only (`from '…'`, `import('…')`, `typeof import('…')`): localModelSupport.ts names the package to find its folder.
    .filter((file) => /(?:from\s+|import\s*\(\s*)['"]node-llama-cpp['"]/.test(fs.readFileSync(file, 'utf8')))
    .map((file) => path.relative(REPOSITORY_ROOT, file));
  // The worker's contexts and chat template files are part of the worker: nothing else imports them.
  assert.deepEqual(importers.sort(), [
    'src/runtime/narrator/modelChatTemplate.ts',
    'src/runtime/narrator/modelWorker.ts',
    'src/runtime/narrator/modelWorkerContexts.ts',
  ]);
  for (const part of ['modelWorkerContexts', 'modelChatTemplate']) {
    const partImporters = files.filter((file) => new RegExp(`from\\s+'\\./${part}\\.js'`).test(fs.readFileSync(file, 'utf8')));
    assert.deepEqual(
      partImporters.map((file) => path.relative(REPOSITORY_ROOT, file)),
      ['src/runtime/narrator/modelWorker.ts'],
    );
  }
  for (const importer of importers) {
    const text = fs.readFileSync(path.join(REPOSITORY_ROOT, importer), 'utf8');
    const valueImports = [...text.matchAll(/^import\s+(?!type\b)[^;]*from\s+'node-llama-cpp'/gm)];
    assert.deepEqual(valueImports, [], `${importer}: a static value import would become require() in the CommonJS bundle`);
  }
});

test('the bundles load node-llama-cpp with import(), never require()', (context) => {
  const dist = path.join(REPOSITORY_ROOT, 'dist');
  const bundles = ['cli.cjs', 'extension.cjs', 'modelWorker.cjs'].map((name) => path.join(dist, name)).filter((file) => fs.existsSync(file));
  if (!bundles.some((file) => file.endsWith('modelWorker.cjs'))) return context.skip('dist/modelWorker.cjs not built (npm run build)');
  for (const bundle of bundles) {
    assert.doesNotMatch(fs.readFileSync(bundle, 'utf8'), /require\(["']node-llama-cpp["']\)/, path.basename(bundle));
  }
  assert.match(fs.readFileSync(path.join(dist, 'modelWorker.cjs'), 'utf8'), /await import\(["']node-llama-cpp["']\)/);
});
