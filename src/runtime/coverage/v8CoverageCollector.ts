// Collects Node's V8 coverage of skill scripts: a NODE_V8_COVERAGE folder for their environment, merged per file as processes write to it, converted to istanbul data at the end.
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mergeProcessCovs, type FunctionCov, type ScriptCov } from '@bcoe/v8-coverage';
import type { Disposable } from '../common/disposable.js';
import { toFileCoverage } from './istanbulConversion.js';
import type { FileCoverageData } from './coverageTypes.js';
import { isPathInside } from '../common/pathContainment.js';

/** The extensions of files that get line coverage (anything else gets skill coverage only). */
export const LINE_COVERAGE_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'] as const;

export function hasLineCoverage(file: string): boolean {
  return (LINE_COVERAGE_EXTENSIONS as readonly string[]).includes(path.extname(file).toLowerCase());
}

/** A skill's folder and the scripts it declares (absolute real paths). */
export interface CoveredSkill {
  readonly name: string;
  readonly directory: string;
  readonly scripts: readonly string[];
}

/** A source map Node kept for a file (the `source-map-cache` of a coverage file: TypeScript run through a loader). */
interface CachedSourceMap {
  readonly lineLengths?: readonly number[];
  readonly data?: unknown;
}

/**
 * Made only when coverage is asked for. Each drain merges the new coverage per file with @bcoe/v8-coverage and
 * deletes the files read, so a long run holds one merged coverage per script; finish converts it with v8-to-istanbul.
 */
export class V8CoverageCollector implements Disposable {
  /** The folder every covered process writes its coverage to. */
  readonly directory: string;
  private readonly merged = new Map<string, ScriptCov>();
  private readonly sourceMaps = new Map<string, CachedSourceMap>();
  private disposed = false;

  constructor(
    private readonly root: string,
    private readonly skills: readonly CoveredSkill[],
  ) {
    this.directory = mkdtempSync(path.join(os.tmpdir(), 'narratoria-coverage-'));
  }

  /** The variables to add to a skill script's environment. */
  environment(): Readonly<Record<string, string>> {
    return { NODE_V8_COVERAGE: this.directory };
  }

  /** The skill a file belongs to (its folder holds it, outside node_modules), or undefined. */
  private skillOf(file: string): CoveredSkill | undefined {
    if (!hasLineCoverage(file) || file.split(path.sep).includes('node_modules')) return undefined;
    return this.skills.find((skill) => isPathInside(file, skill.directory));
  }

  /**
   * Reads the coverage files written so far, keeps the skill files' part merged, and deletes them. A file still being
   * written (not yet valid JSON) is left for the next drain.
   */
  drain(): void {
    if (this.disposed || !existsSync(this.directory)) return;
    for (const name of readdirSync(this.directory).sort()) {
      if (!name.endsWith('.json')) continue;
      const file = path.join(this.directory, name);
      let value: { result?: ScriptCov[]; 'source-map-cache'?: Record<string, CachedSourceMap> };
      try {
        value = JSON.parse(readFileSync(file, 'utf8')) as typeof value;
      } catch {
        continue;
      }
      const scripts = (value.result ?? []).filter((script) => script.url.startsWith('file://') && this.skillOf(fileURLToPath(script.url)) !== undefined);
      for (const script of scripts) {
        const cached = value['source-map-cache']?.[script.url];
        if (cached && !this.sourceMaps.has(script.url)) this.sourceMaps.set(script.url, cached);
        const before = this.merged.get(script.url);
        const together = before
          ? mergeProcessCovs([{ result: [before] }, { result: [script] }]).result[0]!
          : mergeProcessCovs([{ result: [script] }]).result[0]!;
        this.merged.set(script.url, together);
      }
      rmSync(file, { force: true });
    }
  }

  /** Every skill file that ran, and every declared JavaScript or TypeScript script that never ran (all zero), as istanbul-shaped coverage, sorted by path. */
  async finish(): Promise<FileCoverageData[]> {
    this.drain();
    const files: FileCoverageData[] = [];
    const seen = new Set<string>();
    for (const [url, script] of [...this.merged].sort(([left], [right]) => left.localeCompare(right))) {
      const file = fileURLToPath(url);
      seen.add(file);
      const converted = await toFileCoverage(file, this.root, this.skillOf(file)!.name, script.functions, this.sourceMaps.get(url));
      if (converted) files.push(converted);
    }
    for (const skill of this.skills) {
      for (const file of skill.scripts) {
        if (seen.has(file) || !hasLineCoverage(file) || !existsSync(file)) continue;
        seen.add(file);
        const length = readFileSync(file, 'utf8').length;
        const none: FunctionCov[] = [{ functionName: '', isBlockCoverage: true, ranges: [{ startOffset: 0, endOffset: length, count: 0 }] }];
        const converted = await toFileCoverage(file, this.root, skill.name, none, undefined);
        if (converted) files.push(converted);
      }
    }
    return files.sort((left, right) => left.relativePath.localeCompare(right.relativePath));
  }

  /** The URL V8 gives a file (for tests). */
  static urlOf(file: string): string {
    return pathToFileURL(file).href;
  }

  dispose(): void {
    this.disposed = true;
    rmSync(this.directory, { recursive: true, force: true });
  }
}
