// The floor plan of src/: which layer may import which, and the check that lists every import breaking it (used by layers.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** The top-level folders of src/. */
export const LAYERS = ['runtime', 'protocol', 'extension', 'webview', 'cli'] as const;
export type Layer = (typeof LAYERS)[number];

/**
 * Which layers each layer may import (its own always included), and whether it may import `vscode`.
 * - runtime: the logic of every feature; imports nothing else of src/ and never vscode.
 * - protocol: the typed messages between the extension and its webviews; types from runtime only (checked in layers.test.ts).
 * - extension: thin adapters over VS Code; the only layer that imports vscode.
 * - webview: the panels' browser code; messages from protocol and pure runtime modules (no Node built-ins, checked transitively).
 * - cli: the headless commands over the same runtime.
 */
export const FLOOR_PLAN: Readonly<Record<Layer, { readonly imports: readonly Layer[]; readonly vscode: boolean }>> = {
  runtime: { imports: ['runtime'], vscode: false },
  protocol: { imports: ['protocol', 'runtime'], vscode: false },
  extension: { imports: ['extension', 'runtime', 'protocol'], vscode: true },
  webview: { imports: ['webview', 'protocol', 'runtime'], vscode: false },
  cli: { imports: ['cli', 'runtime', 'protocol'], vscode: false },
};

/** Folders outside src/ that source may import from (JSON Schemas bundled into the runtime). */
const OUTSIDE_ALLOWED = ['contracts'];

export interface LayerViolation {
  /** The importing file, relative to the source folder. */
  readonly file: string;
  readonly specifier: string;
  readonly why: string;
}

/** Every .ts/.tsx file under a folder. */
export function sourceFilesUnder(directory: string): string[] {
  return filesUnder(directory, /\.(ts|tsx|mts|cts)$/);
}

/** Every file of code under a folder: TypeScript, JavaScript build tools and stylesheets (not data such as .txt or .bin). */
export function codeFilesUnder(directory: string): string[] {
  return filesUnder(directory, /\.(ts|tsx|mts|cts|js|mjs|cjs|css)$/);
}

function filesUnder(directory: string, pattern: RegExp): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory)) {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) found.push(...filesUnder(full, pattern));
    else if (pattern.test(entry)) found.push(full);
  }
  return found;
}

/** Module specifiers of static imports, re-exports, dynamic imports and require calls. */
export function importsOf(text: string): string[] {
  const pattern =
    /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
  return [...text.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? match[3] ?? match[4]!);
}

/** The imports of every file under `source` (a src/ folder) that break {@link FLOOR_PLAN}. */
export function floorPlanViolations(source: string): LayerViolation[] {
  const root = path.resolve(source);
  const violations: LayerViolation[] = [];
  for (const file of sourceFilesUnder(root)) {
    const relative = path.relative(root, file);
    const layer = relative.split(path.sep)[0] as Layer;
    const rule = FLOOR_PLAN[layer];
    if (rule === undefined) {
      violations.push({ file: relative, specifier: '', why: `src/${layer} is not a layer of the floor plan (${LAYERS.join(', ')})` });
      continue;
    }
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      if (specifier === 'vscode') {
        if (!rule.vscode) violations.push({ file: relative, specifier, why: `src/${layer} may not import vscode` });
        continue;
      }
      if (!specifier.startsWith('.')) continue;
      const target = path.relative(root, path.resolve(path.dirname(file), specifier));
      const targetLayer = target.split(path.sep)[0]!;
      if (targetLayer === '..') {
        const outside = path.relative(path.dirname(root), path.resolve(path.dirname(file), specifier)).split(path.sep)[0]!;
        if (!OUTSIDE_ALLOWED.includes(outside)) violations.push({ file: relative, specifier, why: `src/${layer} may not import ${outside}/ outside src/` });
      } else if (!rule.imports.includes(targetLayer as Layer)) {
        violations.push({ file: relative, specifier, why: `src/${layer} may not import src/${targetLayer} (it may import ${rule.imports.join(', ')})` });
      }
    }
  }
  return violations;
}
