// The "told" corpora of issue 38 (author stories written blind: Node, Python and shell skills with seed manifest fields), played through the real runtime with the pattern narrator: each turn's narration carries what the chosen skill returned, the required fields are filled from the words, no pronoun or perspective error, no refusal told as a success.
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { playToldCorpus, summarise, summaryLine, type ToldGrade, type ToldSummary } from './toldKit.js';

/**
 * Floors as measured (docs/narrators-and-selection.md#the-narration-of-author-skills-measured), 2026-11-28.
 * - told-dev was written blind and tuned on.
 * - told-heldout was committed unread before any change of issue 38 and measured once, totals only (told 82.9%,
 *   facts 62.9%, filled 68.4%, false success 2); then a second held-out corpus was frozen, and told-heldout's misses
 *   were read and fixed: it is tuning data now.
 * - told-heldout2 was committed unread before the last change measured on it; its totals were run twice, never its
 *   misses: after the tuning on told-heldout (facts 93.8%, filled 82.9%), and after a code review's fixes, which came
 *   from the code, not the corpora (facts 90.8%, filled 81.6%). Nothing was changed after the second.
 */
const FLOORS = {
  'told-dev': { told: 0.95, facts: 0.9, filled: 0.85, script: 0.88 },
  'told-heldout': { told: 0.95, facts: 0.78, filled: 0.73, script: 0.8 },
  'told-heldout2': { told: 0.95, facts: 0.9, filled: 0.81, script: 0.9 },
} as const;
/** Frozen corpora print their totals only: their misses must not steer tuning. */
const FROZEN: ReadonlySet<string> = new Set(['told-heldout2']);

const graded = new Map<keyof typeof FLOORS, { grades: readonly ToldGrade[]; summary: ToldSummary }>();
before(async () => {
  for (const name of Object.keys(FLOORS) as (keyof typeof FLOORS)[]) {
    const grades = await playToldCorpus(name);
    graded.set(name, { grades, summary: summarise(grades) });
  }
});

for (const name of Object.keys(FLOORS) as (keyof typeof FLOORS)[]) {
  test(`${name}: the narration tells what the skills returned, fields filled, no voice error, no false success`, () => {
    const { grades, summary } = graded.get(name)!;
    console.log(`# ${summaryLine(name, summary)}`);
    if (!FROZEN.has(name)) {
      for (const grade of grades.filter((each) => !each.factsTold || each.wrongFields.length > 0 || each.voiceErrors.length > 0 || each.falseSuccess)) {
        console.log(`#   ✗ "${grade.turn.input}" → ${grade.narration}${grade.wrongFields.length > 0 ? ` (fields: ${grade.wrongFields.join('; ')})` : ''}`);
      }
    }
    assert.ok(summary.turns >= 60, `${summary.turns} turns`);
    const floor = FLOORS[name];
    assert.ok(summary.told / summary.turns >= floor.told, `told ${summary.told}/${summary.turns}`);
    assert.ok(summary.facts / summary.turns >= floor.facts, `facts ${summary.facts}/${summary.turns}`);
    assert.ok(summary.fieldsRight / summary.fieldsExpected >= floor.filled, `filled ${summary.fieldsRight}/${summary.fieldsExpected}`);
    assert.ok(summary.script / summary.turns >= floor.script, `script ${summary.script}/${summary.turns}`);
    // No corpus may show a pronoun error or a refusal told as a success (the issue's targets: 0).
    const voice = grades.filter((grade) => grade.voiceErrors.length > 0);
    assert.equal(
      voice.length,
      0,
      FROZEN.has(name)
        ? `${voice.length} voice errors`
        : voice.map((grade) => `${grade.turn.input} → ${grade.narration}: ${grade.voiceErrors.join(', ')}`).join('\n'),
    );
    const falseSuccess = grades.filter((grade) => grade.falseSuccess);
    assert.equal(
      falseSuccess.length,
      0,
      FROZEN.has(name) ? `${falseSuccess.length} false successes` : falseSuccess.map((grade) => `${grade.turn.input} → ${grade.narration}`).join('\n'),
    );
  });
}
