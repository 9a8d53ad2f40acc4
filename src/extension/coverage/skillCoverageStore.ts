// The last coverage run's exercise of each skill, for the Skills view's hit counts and never-exercised marks; replaced by each coverage run.
import * as vscode from 'vscode';
import type { CoverageResult } from '../../runtime/coverage/coverageTypes.js';
import { skillExercise, type SkillExercise } from '../../runtime/coverage/skillExercise.js';

export class SkillCoverageStore implements vscode.Disposable {
  private exercise: ReadonlyMap<string, SkillExercise> | undefined;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** Fires when a coverage run ends. */
  readonly onDidChange = this.changeEmitter.event;

  /** Takes in a coverage run's result. */
  record(result: CoverageResult): void {
    this.exercise = skillExercise(result);
    this.changeEmitter.fire();
  }

  /** The skill's exercise in the last coverage run; undefined before any run or for a skill it did not know. */
  of(skill: string): SkillExercise | undefined {
    return this.exercise?.get(skill);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}
