// The pattern narrator on skills written with only the standard manifest fields (docs/design-rules.md#skill-manifests) (issue 24): the twelve corpora written blind (nine for tuning, three frozen held-out), each at or above its measured floor, the frozen ones together too, with no shotgun plans and valid plans.
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { buildPatternPlan } from '../../src/runtime/narrator/patternNarrator.js';
import type { Plan } from '../../src/runtime/contractTypes/plan.js';
import { inputValidator } from '../../src/runtime/validation/inputChecks.js';
import { grade, loadCorpusSet, narratorsOf, type CorpusEntry, type CorpusSet, type Grade } from './corpusKit.js';

/**
 * Floors, as measured when the selection was calibrated (see docs/narrators-and-selection.md#measured-accuracy).
 * author-heldout to author-heldout5 were frozen held-out sets, and only their totals were looked at, until session 15
 * (2026-11-27): it measured them once more, then read their misses and tuned on them, so they are tuning data now.
 * author-heldout6 and author-heldout7 were written blind in that session and committed unread; only their totals were
 * looked at: before the session's changes 87.4% and 81.3%, after them 88.4% and 84.4%, and the same after a review's
 * fixes to the cues (which came from the code, not from these corpora). author-heldout8 was written after that last
 * change and committed unread; its totals were looked at twice, both with nothing changed after: 85.0% on this code,
 * and 85.0% on session 14's.
 */
const FLOORS = {
  authorDev: 0.91,
  authorDev2: 0.91,
  authorDev3: 0.9,
  authorDev4: 0.84,
  authorHeldOut: 0.88,
  authorHeldOut2: 0.95,
  authorHeldOut3: 0.84,
  authorHeldOut4: 0.88,
  authorHeldOut5: 0.85,
  authorHeldOut6: 0.88,
  authorHeldOut7: 0.84,
  authorHeldOut8: 0.85,
} as const;
/** Plans that choose no unrelated skill, at least (65% unless said here). */
const CLEAN_FLOORS: Partial<Record<keyof typeof FLOORS, number>> = {
  authorHeldOut: 0.8,
  authorHeldOut2: 0.8,
  authorHeldOut3: 0.7,
  authorHeldOut4: 0.7,
  authorHeldOut5: 0.72,
  authorHeldOut6: 0.72,
  authorHeldOut7: 0.72,
  authorHeldOut8: 0.74,
};
/** The frozen corpora print their totals only: their misses must not steer tuning. */
const FROZEN: ReadonlySet<string> = new Set(['authorHeldOut6', 'authorHeldOut7', 'authorHeldOut8']);
/** The frozen corpora together, as measured: 250 of 291 (85.9%) on 2026-11-27. The issue asks for 85%. */
const HELD_OUT_FLOOR = 0.859;

interface Graded {
  readonly set: CorpusSet;
  readonly results: readonly { readonly entry: CorpusEntry; readonly plan: Plan; readonly grade: Grade }[];
}

const graded = new Map<keyof typeof FLOORS, Graded>();
before(async () => {
  for (const name of Object.keys(FLOORS) as (keyof typeof FLOORS)[]) {
    const set = await loadCorpusSet(name);
    const narrators = narratorsOf(set.skills);
    graded.set(name, {
      set,
      results: set.entries.map((entry) => {
        const plan = buildPatternPlan({ input: entry.input, skills: set.skills, disabledSkills: [], attempt: 1, parentPlanId: null });
        return { entry, plan, grade: grade(entry, plan, narrators) };
      }),
    });
  }
});

function share(name: keyof typeof FLOORS): { right: number; total: number } {
  const { results } = graded.get(name)!;
  return { right: results.filter((result) => result.grade.right).length, total: results.length };
}

test('the author corpora use only the seed manifest fields: no keywords, no examples, no prompt.md', () => {
  for (const { set } of graded.values()) {
    const authors = set.skills.filter((skill) => skill.scripts[0]?.toolPath.includes('author-skills'));
    assert.ok(authors.length >= 6, `${set.name}: ${authors.length} author skills`);
    for (const skill of authors) {
      assert.equal(skill.keywords, undefined, `${skill.name} has keywords`);
      assert.equal(skill.prompt ?? '', '', `${skill.name} has a prompt`);
      for (const script of skill.scripts) assert.equal(script.examples, undefined, `${skill.name}/${script.name} has examples`);
    }
    assert.ok(set.entries.length >= 60, `${set.name}: ${set.entries.length} inputs`);
  }
});

for (const name of Object.keys(FLOORS) as (keyof typeof FLOORS)[]) {
  test(`${name}: at least ${FLOORS[name] * 100}% right, every plan valid and narrated, no shotgun plans`, () => {
    const { set, results } = graded.get(name)!;
    const narrators = narratorsOf(set.skills);
    const misses = results
      .filter((result) => !result.grade.right)
      .map(({ entry, grade }) => `  ✗ "${entry.input}" expected [${entry.expected.join(', ')}], chose [${grade.chosen.join(', ')}]`);
    const { right, total } = share(name);
    const clean = results.filter((result) => result.grade.unrelated.length === 0).length;
    const shown = FROZEN.has(name) ? '' : misses.length > 0 ? `; misses:\n${misses.join('\n')}` : '';
    console.log(`${name}: ${right}/${total} right (${((100 * right) / total).toFixed(1)}%), ${clean}/${total} with no unrelated skill${shown}`);
    assert.ok(right / total >= FLOORS[name], `${name}: ${right}/${total} right`);
    assert.ok(clean / total >= (CLEAN_FLOORS[name] ?? 0.65), `${name}: ${clean}/${total} plans choose no unrelated skill`);
    const schemas = new Map(set.skills.flatMap((skill) => skill.scripts.map((script) => [script.toolPath, script.inputSchema] as const)));
    for (const { entry, plan, grade } of results) {
      assert.deepEqual(validateAgainst('plan-json.schema.json', plan), [], entry.input);
      assert.ok(
        plan.tools.some((tool) => tool.toolPath.includes('/storyteller/')),
        `"${entry.input}" is narrated`,
      );
      assert.ok(grade.chosen.filter((skill) => !narrators.has(skill)).length <= 3, `"${entry.input}" chose ${grade.chosen.join(', ')}`);
      for (const tool of plan.tools) {
        const schema = schemas.get(tool.toolPath);
        const validate = schema && inputValidator(schema);
        if (validate) assert.ok(validate(tool.input ?? {}), `"${entry.input}": ${tool.toolId} ${JSON.stringify(tool.input)}`);
      }
    }
  });
}

test(`the frozen held-out corpora together: at least ${(HELD_OUT_FLOOR * 100).toFixed(1)}% right`, () => {
  const shares = [...FROZEN].map((name) => share(name as keyof typeof FLOORS));
  const right = shares.reduce((sum, each) => sum + each.right, 0);
  const total = shares.reduce((sum, each) => sum + each.total, 0);
  console.log(`held out, pooled: ${right}/${total} right (${((100 * right) / total).toFixed(2)}%)`);
  assert.ok(right / total >= HELD_OUT_FLOOR, `${((100 * right) / total).toFixed(2)}% right`);
});
