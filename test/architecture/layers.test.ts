// Enforces the layer rules of DESIGN.md: src/runtime never imports vscode; src/webview imports neither vscode nor Node built-ins.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';

const source = path.resolve(import.meta.dirname, '../../src');

function filesUnder(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory)) {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) found.push(...filesUnder(full));
    else if (/\.(ts|tsx|mts|cts)$/.test(entry)) found.push(full);
  }
  return found;
}

/** Module specifiers of static imports, re-exports, dynamic imports and require calls. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const pattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
  return [...text.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? match[3] ?? match[4]!);
}

test('src/runtime never imports vscode nor the extension, webview or cli layers', () => {
  const files = filesUnder(path.join(source, 'runtime'));
  assert.ok(files.length > 10);
  for (const file of files) {
    for (const specifier of importsOf(file)) {
      assert.notEqual(specifier, 'vscode', `${path.relative(source, file)} imports vscode`);
      assert.ok(!/\/(extension|webview|cli)\//.test(specifier), `${path.relative(source, file)} imports ${specifier}`);
    }
  }
});

test('src/webview imports neither vscode nor Node built-ins', () => {
  const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
  let directory = path.join(source, 'webview');
  let files: string[] = [];
  try {
    files = filesUnder(directory);
  } catch {
    directory = '';
  }
  for (const file of files) {
    for (const specifier of importsOf(file)) {
      assert.notEqual(specifier, 'vscode', `${path.relative(source, file)} imports vscode`);
      assert.ok(!builtins.has(specifier), `${path.relative(source, file)} imports the Node built-in ${specifier}`);
    }
  }
});

test('every source file starts with a one-line header comment', () => {
  for (const file of filesUnder(source)) {
    const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
    assert.match(first, /^\/\/ \S/, `${path.relative(source, file)} needs a header comment`);
  }
});
