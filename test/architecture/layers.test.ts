// Enforces the layer rules of docs/design-rules.md#layers: src/runtime never imports vscode; src/webview imports neither vscode nor Node built-ins; the executor has no import cycle.
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

/** Specifiers a module loads when it runs: static imports and re-exports other than `import type`/`export type`, and dynamic imports. */
function runtimeImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const pattern = /^\s*(?:import|export)\s+(?!type\s)[^'";]*?from\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;
  return [...text.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? match[3]!);
}

test('src/runtime/executor has no import cycle at run time: sub-plans reach the scheduler through a port (issue 14)', () => {
  const directory = path.join(source, 'runtime', 'executor');
  const files = filesUnder(directory);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = runtimeImportsOf(file)
      .filter((specifier) => specifier.startsWith('./'))
      .map((specifier) => path.join(directory, specifier.replace(/\.js$/, '.ts')))
      .filter((target) => files.includes(target));
    edges.set(file, targets);
  }
  assert.ok(edges.get(path.join(directory, 'scheduler.ts'))!.length > 0, 'the scheduler imports its neighbours');
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    const name = path.relative(directory, file);
    assert.notEqual(state.get(file), 'visiting', `import cycle: ${[...trail, name].join(' -> ')}`);
    state.set(file, 'visiting');
    for (const target of edges.get(file) ?? []) visit(target, [...trail, name]);
    state.set(file, 'done');
  };
  for (const file of files) visit(file, []);
});
