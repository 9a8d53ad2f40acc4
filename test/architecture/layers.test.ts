// Enforces the layer rules of docs/design-rules.md#layers: every import follows the floor plan (floorPlan.ts), only src/extension imports vscode; src/protocol imports only types; nothing src/webview reaches imports vscode or a Node built-in; the executor has no import cycle.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { FLOOR_PLAN, floorPlanViolations, importsOf as importsInText, LAYERS, sourceFilesUnder } from './floorPlan.js';

const source = path.resolve(import.meta.dirname, '../../src');

const filesUnder = sourceFilesUnder;
const importsOf = (file: string): string[] => importsInText(readFileSync(file, 'utf8'));

/** The source file a relative specifier names (`./x.js` → `x.ts`, a folder → its index.ts), undefined for packages and assets. */
function resolveImport(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(file), specifier);
  for (const candidate of [target.replace(/\.js$/, '.ts'), `${target}.ts`, path.join(target, 'index.ts'), target]) {
    try {
      if (statSync(candidate).isFile() && /\.tsx?$/.test(candidate)) return candidate;
    } catch {
      // not this candidate
    }
  }
  return undefined;
}

test('every import follows the floor plan: which layer of src/ may import which, and only src/extension imports vscode', () => {
  assert.ok(filesUnder(path.join(source, 'runtime')).length > 10);
  const violations = floorPlanViolations(source);
  assert.deepEqual(
    violations.map((violation) => `${violation.file}: ${violation.specifier}: ${violation.why}`),
    [],
  );
});

test('the floor plan check fails on a planted import in each forbidden direction', () => {
  const planted = mkdtempSync(path.join(os.tmpdir(), 'narratoria-floor-plan-'));
  try {
    for (const layer of LAYERS) mkdirSync(path.join(planted, layer));
    const forbidden: string[] = [];
    for (const layer of LAYERS) {
      for (const target of LAYERS) {
        if (FLOOR_PLAN[layer].imports.includes(target)) continue;
        forbidden.push(`${layer}->${target}`);
        writeFileSync(path.join(planted, layer, `plantedFrom${layer}To${target}.ts`), `// planted\nimport { x } from '../${target}/thing.js';\n`);
      }
      if (!FLOOR_PLAN[layer].vscode) {
        forbidden.push(`${layer}->vscode`);
        writeFileSync(path.join(planted, layer, `plantedVscode.ts`), `// planted\nimport * as vscode from 'vscode';\n`);
      }
    }
    writeFileSync(path.join(planted, 'runtime', 'plantedOutside.ts'), `// planted\nimport data from '../../test/fixture.json';\n`);
    forbidden.push('runtime->test');
    const found = floorPlanViolations(planted).map((violation) => {
      const [layer] = violation.file.split(path.sep);
      const target =
        violation.specifier === 'vscode'
          ? 'vscode'
          : violation.specifier.startsWith('../../')
            ? violation.specifier.split('/')[2]
            : violation.specifier.split('/')[1];
      return `${layer}->${target}`;
    });
    assert.deepEqual(found.sort(), forbidden.sort());
    // Every direction between layers that the floor plan does not list is among them.
    assert.ok(
      forbidden.includes('runtime->extension') &&
        forbidden.includes('cli->extension') &&
        forbidden.includes('extension->webview') &&
        forbidden.includes('protocol->extension'),
    );
  } finally {
    rmSync(planted, { recursive: true, force: true });
  }
});

test('src/protocol imports only types', () => {
  const files = filesUnder(path.join(source, 'protocol'));
  assert.ok(files.length > 0);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const statements = [...text.matchAll(/^\s*(import|export)\b[^;]*?\bfrom\s*['"][^'"]+['"]|^\s*import\s*['"][^'"]+['"]/gm)].map((match) => match[0].trim());
    for (const statement of statements) {
      assert.match(statement, /^(import|export) type\b/, `${path.relative(source, file)}: ${statement.split('\n')[0]} is not type-only`);
    }
    assert.doesNotMatch(text, /\brequire\s*\(|\bimport\s*\(/, `${path.relative(source, file)} loads a module at run time`);
  }
});

test('nothing src/webview reaches at run time, transitively, imports vscode or a Node built-in', () => {
  const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
  const reached = new Map<string, string[]>();
  const pending = filesUnder(path.join(source, 'webview')).map((file) => ({ file, trail: [path.relative(source, file)] }));
  assert.ok(pending.length > 10);
  let outsideWebview = 0;
  while (pending.length > 0) {
    const { file, trail } = pending.pop()!;
    if (reached.has(file)) continue;
    reached.set(file, trail);
    if (!file.startsWith(path.join(source, 'webview') + path.sep)) outsideWebview++;
    for (const specifier of runtimeImportsOf(file)) {
      const why = [...trail, specifier].join(' -> ');
      assert.notEqual(specifier, 'vscode', `the webview reaches vscode: ${why}`);
      assert.ok(!builtins.has(specifier) && !specifier.startsWith('node:'), `the webview reaches a Node built-in: ${why}`);
      const target = resolveImport(file, specifier);
      if (target && !reached.has(target)) pending.push({ file: target, trail: [...trail, path.relative(source, target)] });
    }
  }
  assert.ok(outsideWebview > 0, 'the webview reaches shared runtime code, which this test walks too');
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
