// `narratoria test --update`: writes what happened into the failed turns' expect.skills and expect.outcome, editing the text in place.
import { applyEdits, modify, type Edit } from 'jsonc-parser';
import type { PlaytestReport } from './playtestTypes.js';

/** Expectations `--update` rewrites. */
const SNAPSHOT_EXPECTATIONS: ReadonlySet<string> = new Set(['skills', 'outcome']);

/**
 * The file's new text, or undefined when nothing is to change. Only turns whose `skills` or `outcome` expectation failed
 * are touched, and only those two (with skillsMatch set to strict for skills); every other expectation stays as written.
 */
export function updatedPlaytestText(text: string, report: PlaytestReport): string | undefined {
  let updated = text;
  let changed = false;
  const formattingOptions = { insertSpaces: true, tabSize: indentOf(text), eol: text.includes('\r\n') ? '\r\n' : '\n' };
  const apply = (path: (string | number)[], value: unknown) => {
    const edits: Edit[] = modify(updated, path, value, { formattingOptions });
    updated = applyEdits(updated, edits);
    changed = changed || edits.length > 0;
  };
  for (const turn of report.turns) {
    const failed = new Set(turn.failures.map((failure) => failure.expectation).filter((expectation) => SNAPSHOT_EXPECTATIONS.has(expectation)));
    if (failed.size === 0 || turn.attempts === 0) continue;
    const at = ['turns', turn.index - 1, 'expect'];
    if (failed.has('skills')) {
      apply([...at, 'skills'], [...turn.skills]);
      apply([...at, 'skillsMatch'], 'strict');
    }
    if (failed.has('outcome') && turn.outcome) apply([...at, 'outcome'], turn.outcome);
  }
  return changed ? updated : undefined;
}

/** The file's indentation (spaces per level), 2 when it cannot tell. */
function indentOf(text: string): number {
  const found = /\n( +)"/.exec(text);
  return found ? Math.min(8, found[1]!.length) : 2;
}
