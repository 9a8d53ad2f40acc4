// What went wrong in a turn, said plainly: each failed tool's error code, message and last lines of stderr, where its run record is, and why each skill was disabled.
import type { ToolResult } from '../contractTypes/executionResult.js';
import { countsAgainstSkill } from '../executor/resultBuilder.js';
import { failureLine } from './disabledReasons.js';
import type { TurnResult } from './turnTypes.js';

/** The most stderr lines shown for one failed tool. */
export const STDERR_LINES_SHOWN = 10;

/** One failed tool of one attempt. */
export interface ToolFailure {
  readonly attempt: number;
  readonly planId: string;
  readonly toolId: string;
  readonly skill: string | undefined;
  /** "cross timed out after 3.0 s", "fare failed: SCRIPT_EXIT_NONZERO: exited with code 1". */
  readonly line: string;
  readonly code: string | undefined;
  readonly message: string | undefined;
  /** The last lines (up to {@link STDERR_LINES_SHOWN}) the script wrote to stderr. */
  readonly stderr: readonly string[];
}

/** Every tool that failed in the turn's attempts, in order (a cancelled turn's tools are not failures). */
export function toolFailures(turn: TurnResult): ToolFailure[] {
  const failures: ToolFailure[] = [];
  for (const attempt of turn.attempts) {
    for (const tool of attempt.result.toolResults) {
      if (!countsAgainstSkill(tool, attempt.result.status)) continue;
      failures.push({
        attempt: attempt.attempt,
        planId: attempt.result.planId,
        toolId: tool.toolId,
        skill: tool.skill ?? undefined,
        line: failureLine(tool),
        code: tool.error?.code,
        message: tool.error?.message,
        stderr: lastLines(tool),
      });
    }
  }
  return failures;
}

/** The last lines of a tool's stderr, blank ones dropped. */
function lastLines(tool: ToolResult): string[] {
  const lines = (tool.stderr ?? '').split(/\r?\n/).filter((line) => line.trim() !== '');
  return lines.slice(-STDERR_LINES_SHOWN);
}

/** "ferryman disabled: cross timed out after 3.0 s", one per skill the turn disabled (a reason when it is known). */
export function disabledSkillLines(turn: TurnResult): string[] {
  return turn.disabledSkills.map((skill) => `${skill} disabled${turn.disabledReasons?.[skill] ? `: ${turn.disabledReasons[skill]}` : ''}`);
}
