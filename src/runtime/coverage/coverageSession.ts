// One coverage measurement over played turns: V8 coverage of the skill scripts and skill usage, written as coverage/lcov.info and coverage/coverage-summary.json.
import { realpathSync } from 'node:fs';
import type { Disposable } from '../common/disposable.js';
import type { TurnResult } from '../session/turnTypes.js';
import type { Skill } from '../skills/skillTypes.js';
import { coverageTotals, writeCoverage } from './coverageOutput.js';
import type { CoverageResult } from './coverageTypes.js';
import { knownScripts, SkillUsage } from './skillUsage.js';
import { hasLineCoverage, V8CoverageCollector } from './v8CoverageCollector.js';

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * Used by `narratoria test --coverage` and `explore --coverage` (later VS Code's Run with Coverage): the scripts'
 * NODE_V8_COVERAGE environment, skill usage from each turn, and the result written under coverage/.
 */
export class CoverageSession implements Disposable {
  private readonly collector: V8CoverageCollector;

  /** `usage`: an existing count of the turns (explore's), else one of its own. */
  constructor(
    root: string,
    private readonly skills: readonly Skill[],
    readonly usage: SkillUsage = new SkillUsage(knownScripts(skills)),
  ) {
    this.collector = new V8CoverageCollector(
      root,
      skills.map((skill) => ({
        name: skill.name,
        directory: realpathOr(skill.directory),
        scripts: skill.scripts.filter((script) => script.declared).map((script) => realpathOr(script.path)),
      })),
    );
  }

  /** Variables for the skill scripts' environment (merge into the executor's extraEnv). */
  environment(): Readonly<Record<string, string>> {
    return this.collector.environment();
  }

  /** Takes in the coverage the finished processes wrote (the files are deleted: a long run holds one merged coverage per file). */
  drain(): void {
    this.collector.drain();
  }

  /** Counts a played turn for skill coverage and takes in the coverage its processes wrote. */
  recordTurn(result: TurnResult, countUsage = true): void {
    if (countUsage) this.usage.recordTurn(result);
    this.collector.drain();
  }

  /** The coverage measured, written under `<folder>/coverage/`. */
  async finish(folder: string): Promise<CoverageResult> {
    const files = await this.collector.finish();
    const known = this.usage.known;
    return writeCoverage(
      {
        files,
        totals: coverageTotals(files),
        skills: this.usage.skillCoverage(this.skills.map((skill) => skill.name)),
        skillCoverageOnly: known
          .filter((script) => script.declared && !hasLineCoverage(script.file))
          .map((script) => script.id)
          .sort(),
      },
      folder,
    );
  }

  dispose(): void {
    this.collector.dispose();
  }
}
